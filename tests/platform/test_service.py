"""The application service over the in-memory store: snapshots, replays, caching."""
from __future__ import annotations

import random

import pytest

from api.errors import IllegalMove, VersionConflict
from api.games import repository as repository_module
from domain.play import fold
from events.memory_store import InMemoryEventStore
from tests import fakes
from workers.jobs import play_turn


@pytest.fixture
def small_snapshots(monkeypatch):
    monkeypatch.setattr(repository_module, "SNAPSHOT_EVERY", 5)


def _service(store, snapshot_every=None):
    """A process's service over `store`, built as the processes build theirs (tests/fakes.py),
    snapshotting every `snapshot_every` events (default SNAPSHOT_EVERY, small_snapshots' 5)."""
    return fakes.service(store, snapshot_every=snapshot_every or repository_module.SNAPSHOT_EVERY)


def _bot_game(service, rounds=9, turns=10 ** 6):
    created = service.create("high-card", [{"bot": "random"}, {"bot": "bold"}], {"rounds": rounds}, seed=4)
    gid = created["id"]
    for _ in range(turns):
        game = service.load(gid)
        actors = service.automatic_actors(game)
        if not actors:
            return gid
        play_turn(service, gid, game.version, actors[0])
    return gid


def _unfinished_bot_game(service):
    """The bot game of `_bot_game` (38 events), stopped at version 30 or just after, running."""
    created = service.create("high-card", [{"bot": "random"}, {"bot": "bold"}], {"rounds": 9}, seed=4)
    gid = created["id"]
    while (game := service.load(gid)).version < 30:
        play_turn(service, gid, game.version, service.automatic_actors(game)[0])
    assert not service.load(gid).finished
    return gid


def test_a_finished_games_snapshots_are_dropped(small_snapshots):
    store = InMemoryEventStore()
    service = _service(store)
    gid = _unfinished_bot_game(service)
    code = service._snapshot_code(service.load(gid).definition)
    assert store.load_snapshot(gid, code) is not None  # running: snapshots bound its replay
    _bot_game_rest(service, gid)
    assert service.load(gid).finished
    assert store.load_snapshot(gid, code) is None
    cold = _service(store)
    assert cold.at_version(gid, 12).version == 12 and store.load_snapshot(gid, code) is None  # no new ones


def _bot_game_rest(service, gid):
    while True:
        game = service.load(gid)
        actors = service.automatic_actors(game)
        if not actors:
            return
        play_turn(service, gid, game.version, actors[0])


def test_every_past_version_reads_the_same_with_snapshots_as_by_full_replay(small_snapshots):
    store = InMemoryEventStore()
    service = _service(store)
    gid = _unfinished_bot_game(service)  # running: a finished game keeps no snapshots
    final = service.load(gid)
    assert not final.finished and final.version > 20
    events = [e.data for e in store.read(gid) if e.type != "game_created"]
    setup_version = int(final.meta["setup_version"])
    for version in range(setup_version, final.version + 1):
        cold = _service(store)
        expected = fold(final.definition, events[: version - 1])
        assert cold.at_version(gid, version).state == expected
    assert store.load_snapshot(gid, service._snapshot_code(final.definition), at_most=10) is not None


def test_a_cold_process_starts_from_the_newest_snapshot(small_snapshots):
    store = InMemoryEventStore()
    service = _service(store)
    gid = _unfinished_bot_game(service)
    definition = service.load(gid).definition
    truth = fold(definition, [e.data for e in store.read(gid) if e.type != "game_created"])
    version, _ = store.load_snapshot(gid, service._snapshot_code(definition))
    assert version > 5
    # Spoil the events the snapshot covers: a cold load must not need them.
    stream = store._streams[gid]
    for i in range(1, version):
        stream[i] = stream[i].__class__(stream[i].version, "spoiled", {"type": "spoiled"}, None, 0)
    cold = _service(store).load(gid)
    assert cold.state == truth
    # ...and with the platform's part (who sits where): a cold start once dropped it, and a
    # worker's next look at the game found no seat for the bot to act for.
    assert cold.platform == service.load(gid).platform and len(cold.seats) == 2
    # (its replay of the tail may have passed a multiple of 5 and kept a snapshot there)
    newest = store.load_snapshot(gid, service._snapshot_code(definition))[0]
    assert cold.snapshot_version == newest >= version and service.automatic_actors(cold)


def test_a_stale_snapshot_from_other_code_is_ignored(small_snapshots):
    store = InMemoryEventStore()
    gid = _bot_game(_service(store), rounds=2)
    truth = _service(store).load(gid).state
    store.save_snapshot(gid, 6, "other-code", b"not a pickle")
    assert _service(store).load(gid).state == truth


def test_moves_after_the_end_are_refused_and_stale_versions_conflict():
    store = InMemoryEventStore()
    service = _service(store)
    gid = _bot_game(service, rounds=1)
    game = service.load(gid)
    with pytest.raises(IllegalMove) as over:
        service.move(gid, 0, {"type": "bid", "chips": 0}, game.version)
    assert over.value.code == "game_over"
    with pytest.raises(VersionConflict):
        service.move(gid, 0, {"type": "bid", "chips": 0}, game.version - 1)


def test_a_retry_answers_what_its_twin_did_whatever_this_process_has_seen():
    """The twin landed through another process. The retry answers the twin's answer both when
    this process still holds the old version (the append script finds the key) and when it
    has seen the twin's events (the refusal they cause is not the answer: the key is)."""
    store = InMemoryEventStore()
    service = _service(store)
    created = service.create("high-card", [{"name": "A"}, {"name": "B"}], {}, seed=1)
    gid, version = created["id"], created["version"]
    move_ = {"type": "bid", "chips": 1}
    twin = _service(store).move(gid, 0, move_, version, "key")
    assert service.games.cached(gid).version == version  # this process has not seen the twin
    assert service.move(gid, 0, move_, version, "key") == twin
    service.load(gid)  # now it has
    assert service.move(gid, 0, move_, version, "key") == twin
    assert store.version(gid) == version + 1


def test_a_process_keeps_at_most_cache_size_games_with_their_meta_and_credentials(monkeypatch):
    monkeypatch.setattr(repository_module, "CACHE_SIZE", 2)
    service = _service(InMemoryEventStore())
    for _ in range(5):
        created = service.create("high-card", [{"name": "A"}, {"name": "B"}], {}, seed=1)
        service.seat_for_token(created["id"], created["seats"][0]["token"])
    games = service.games
    assert len(games._cache) == 2 and len(games._meta) <= 2 and len(games._credentials) <= 2


class _CountingStore(InMemoryEventStore):
    """Counts the events read: what a replay costs."""

    read_count = 0

    def read(self, game_id, after=0, limit=None):
        events = super().read(game_id, after, limit)
        self.read_count += len(events)
        return events


def test_a_replay_keeps_a_snapshot_at_each_multiple_it_passes(small_snapshots):
    """A history with no snapshot but the latest (grown by appends no process snapshotted, or
    by an older server): the first cold read of a past version saves one at each multiple of
    SNAPSHOT_EVERY it replays through, so every later read near there is short."""
    store = _CountingStore()
    gid = _unfinished_bot_game(_service(store))
    service = _service(store)
    current = service.load(gid)
    code = service._snapshot_code(current.definition)
    store.delete_snapshot(gid)
    service.at_version(gid, 23, current)
    assert [store.load_snapshot(gid, code, at_most=v)[0] for v in (5, 9, 14, 23)] == [5, 5, 10, 20]
    assert store.load_snapshot(gid, code)[0] == 20  # none past the version read
    events = [e.data for e in store.read(gid) if e.type != "game_created"]
    for version in (12, 19, 22):
        store.read_count = 0
        assert _service(store).at_version(gid, version, current).state == fold(current.definition, events[:version - 1])
        assert store.read_count <= 4  # from the multiple of 5 below it
    # A cold load from the events alone keeps them too, to its last multiple.
    store.delete_snapshot(gid)
    assert _service(store).load(gid).state == current.state
    assert store.load_snapshot(gid, code, at_most=current.version - 1)[0] == (current.version - 1) // 5 * 5


def test_the_snapshot_interval_is_the_services_setting():
    store = InMemoryEventStore()
    service = _service(store, snapshot_every=3)
    gid = _unfinished_bot_game(service)
    code = service._snapshot_code(service.load(gid).definition)
    store.delete_snapshot(gid)
    _service(store, snapshot_every=3).load(gid)
    assert store.load_snapshot(gid, code, at_most=8)[0] == 6


def test_a_finished_game_gets_no_snapshots_from_its_replays(small_snapshots):
    store = InMemoryEventStore()
    gid = _bot_game(_service(store))
    cold = _service(store)
    cold.at_version(gid, 23, cold.load(gid))
    assert store._snapshots.get(gid) is None


def test_past_states_read_again_or_stepped_through_come_from_the_folds_kept(small_snapshots):
    """A process keeps the past folds it read (api/games/repository.py, PAST_CACHE_SIZE): a
    version read again reads nothing, the next one replays one event from the last, and every
    state is the full replay's."""
    store = _CountingStore()
    gid = _unfinished_bot_game(_service(store))
    service = _service(store)
    current = service.load(gid)
    events = [e.data for e in store.read(gid) if e.type != "game_created"]
    setup_version = int(current.meta["setup_version"])
    for version in range(setup_version, current.version):
        store.read_count = 0
        assert service.at_version(gid, version, current).state == fold(current.definition, events[:version - 1])
        if version > setup_version:
            assert store.read_count == 1, version  # from the fold of the version before
    for version in (setup_version, 12, current.version - 1):
        store.read_count = 0
        assert service.at_version(gid, version, current).state == fold(current.definition, events[:version - 1])
        assert store.read_count == 0


def test_a_held_game_advanced_by_another_process_appends_is_the_game_a_load_reads():
    """What a web process's listener does with another process's append (issue 57,
    GameRepository.warmed): the game it holds, advanced by the events right after its version,
    is the game a load would read; a tail with a gap or one it already has changes nothing,
    and never takes the game back to an older version."""
    store = InMemoryEventStore()
    here, there = _service(store), _service(store)
    created = here.create("high-card", [{"name": "A"}, {"name": "B"}], {}, seed=1)
    gid, version = created["id"], created["version"]
    there.load(gid)
    there.move(gid, 0, {"type": "bid", "chips": 1}, version)
    there.move(gid, 1, {"type": "bid", "chips": 0}, version + 1)
    first, second = store.read(gid, after=version, limit=1), store.read(gid, after=version + 1)
    assert here.games.warmed(gid, second) is None  # a gap: the event before it is missing
    assert here.games.cached(gid).version == version
    warmed = here.games.warmed(gid, first)
    assert warmed is not None and here.games.cached(gid) is warmed
    assert here.games.warmed(gid, first) is None  # told twice: already held
    here.games.warmed(gid, second)
    held, loaded = here.games.cached(gid), _service(store).load(gid)
    assert (held.version, held.state, held.platform) == (loaded.version, loaded.state, loaded.platform)
    here.games.remember(warmed)  # an older state offered later (a slow request) is not kept
    assert here.games.cached(gid) is held


def test_a_finished_games_far_versions_replay_from_the_marks_a_read_passed(small_snapshots, monkeypatch):
    """A finished game keeps no snapshots (an archived one has none): the marks a cold read's
    replay passed (each multiple of SNAPSHOT_EVERY) are kept in the process's past folds, so a
    later read of another far version replays from the nearest one, not from the start (issue 57)."""
    monkeypatch.setattr(repository_module, "PAST_WINDOW", 2)  # the marks, not the window, are found
    store = _CountingStore()
    gid = _bot_game(_service(store))
    service = _service(store)
    current = service.load(gid)
    assert current.finished and current.version >= 30
    events = [e.data for e in store.read(gid) if e.type != "game_created"]
    service.at_version(gid, current.version - 1, current)  # cold: from the start, passing every mark
    for version in (24, 13, 29):
        store.read_count = 0
        assert service.at_version(gid, version, current).state == fold(current.definition, events[:version - 1])
        assert store.read_count <= 4, version  # from the multiple of 5 below it
    assert store._snapshots.get(gid) is None  # kept in the process, never saved



@pytest.mark.parametrize("late", ["after the next move", "during the next append", "after two moves"])
def test_a_snapshot_marked_after_the_next_move_is_not_taken_again(late):
    """The after-append step (a snapshot when due) runs after the answer: under gunicorn's gevent
    workers, often once the game's next move has been folded from the state it snapshots, while
    that move's append waits for Redis, or after it, or after the move after it (a slow save).
    The mark reaches those states every way: a moving game is snapshotted once every `snapshot_every` versions, not at every move
    past the first (issue 57: Fairy Tile's and Small World's games were)."""
    store = InMemoryEventStore()
    saved, waiting = [], []
    real_save, real_append = store.save_snapshot, store.append
    store.save_snapshot = lambda gid, version, *rest: (saved.append(version), real_save(gid, version, *rest))[1]

    def run_waiting():
        while waiting:
            task, args = waiting.pop(0)
            task(*args)

    def append(*args, **kwargs):
        if late == "during the next append":
            run_waiting()
        return real_append(*args, **kwargs)

    def defer(task, *args):
        waiting.append((task, args))
        lag = {"after the next move": 1, "after two moves": 2}.get(late, len(waiting))
        while len(waiting) > lag:
            task, args = waiting.pop(0)
            task(*args)

    store.append = append
    service = fakes.service(store, defer=defer, snapshot_every=5)
    gid = service.create("splendor", [{"name": "a"}, {"name": "b"}], {}, seed=3)["id"]
    rng = random.Random(3)
    for _ in range(40):
        game = service.games.cached(gid)  # as a move's answer finds it (a load would snapshot it itself)
        seat = game.actors()[0]
        service.move(gid, seat, rng.choice(service.legal_moves(game, seat)), game.version)
    version = service.games.cached(gid).version
    assert version > 40 and len(saved) <= version // 5 + 1, saved
    assert all(later - earlier >= 5 for earlier, later in zip(saved, saved[1:])), saved
