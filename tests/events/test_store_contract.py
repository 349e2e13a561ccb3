"""The event-store contract: every backend (the in-memory one and Redis) must pass it
(`eventsourcing`'s AggregateRecorderTestCase, in pytest)."""
from __future__ import annotations

import threading
import time
import uuid

import pytest

from events import codec
from events.memory_store import InMemoryEventStore
from events.redis_store import RedisEventStore
from events.store import Conflict, DuplicateRequest, GameExists, NewEvent


# The Redis backends ask for `redis_client` only when built: their tier is said here (tests/tiers.py).
@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("redis+archive", marks=pytest.mark.redis)])
def store(request):
    if request.param == "memory":
        return InMemoryEventStore()
    client = request.getfixturevalue("redis_client")
    if request.param == "redis+archive":  # the store the server runs (events/archived_store.py)
        from events.archived_store import ArchivingStore
        from events.archives import open_archive

        archive = open_archive(f"sqlite:///{request.getfixturevalue('tmp_path')}/archive.sqlite3")
        return ArchivingStore(client, archive, prefix=f"store-{uuid.uuid4().hex[:8]}:")
    return RedisEventStore(client, prefix=f"store-{uuid.uuid4().hex[:8]}:")


def ev(i, actor=0):
    return NewEvent("thing", {"type": "thing", "n": i}, actor)


def new_game(store, n=2):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {"0": "hash"}, [ev(i, None) for i in range(n)])
    return gid


def test_create_writes_the_first_events_and_meta(store):
    gid = new_game(store, 3)
    assert store.version(gid) == 3
    assert [e.version for e in store.read(gid)] == [1, 2, 3]
    assert store.meta(gid) == {"type": "x"}
    assert store.credentials(gid) == {"0": "hash"}
    assert gid in store.active_games()


def test_versions_of_many_games_at_once(store):
    a, b = new_game(store, 2), new_game(store, 3)
    store.append(a, 2, [ev(10)])
    assert store.versions([a, b, "no-such-game"]) == {a: 3, b: 3, "no-such-game": 0}
    assert store.versions([]) == {}


def test_create_twice_is_refused(store):
    gid = new_game(store)
    with pytest.raises(GameExists):
        store.create(gid, {"type": "x"}, {}, [ev(9)])
    assert store.version(gid) == 2


def test_append_at_the_expected_version(store):
    gid = new_game(store)
    result = store.append(gid, 2, [ev(10), ev(11)])
    assert result.version == 4 and not result.duplicate
    events = store.read(gid, after=2)
    assert [(e.version, e.data["n"], e.actor) for e in events] == [(3, 10, 0), (4, 11, 0)]


def test_append_at_a_stale_version_writes_nothing(store):
    gid = new_game(store)
    with pytest.raises(Conflict) as conflict:
        store.append(gid, 1, [ev(10)])
    assert conflict.value.current_version == 2
    assert store.version(gid) == 2


def test_event_n_is_addressable_and_ranges_page(store):
    gid = new_game(store, 5)
    assert [e.version for e in store.read_range(gid, 3, 3)] == [3]
    assert [e.version for e in store.read(gid, after=1, limit=2)] == [2, 3]
    assert store.read(gid, after=5) == []
    assert store.read(gid, after=2, limit=0) == []


def test_idempotent_retry_returns_the_first_answer_and_writes_nothing(store):
    gid = new_game(store)
    first = store.append(gid, 2, [ev(10)], "key-1", "fp", '{"answer": 1}')
    again = store.append(gid, 2, [ev(10)], "key-1", "fp", '{"answer": 2}')
    assert first.version == 3
    assert again.duplicate and again.response == '{"answer": 1}'
    assert store.version(gid) == 3
    assert store.recall(gid, "key-1") == ("fp", '{"answer": 1}')


def test_idempotency_key_with_another_request_is_refused(store):
    gid = new_game(store)
    store.append(gid, 2, [ev(10)], "key-1", "fp-a", "{}")
    with pytest.raises(DuplicateRequest):
        store.append(gid, 3, [ev(11)], "key-1", "fp-b", "{}")
    assert store.version(gid) == 3


def test_a_refused_append_carries_the_events_after_the_writers_held_version(store):
    """`held`: the refusal answers what the writer lacks (no read of its own to judge again);
    without it, the version only; nothing is written either way."""
    gid = new_game(store)
    store.append(gid, 2, [ev(10), ev(11)])
    with pytest.raises(Conflict) as refused:
        store.append(gid, 1, [ev(12)], held=1)
    assert refused.value.current_version == 4
    assert [(e.version, e.type, e.data, e.actor, e.at) for e in refused.value.events] == \
        [(e.version, e.type, e.data, e.actor, e.at) for e in store.read(gid, after=1)]
    with pytest.raises(Conflict) as bare:
        store.append(gid, 1, [ev(12)])
    assert bare.value.events is None and store.version(gid) == 4


def test_concurrent_appends_at_one_version_exactly_one_wins(store):
    gid = new_game(store)
    outcomes = []
    barrier = threading.Barrier(16)

    def attempt(i):
        barrier.wait()
        try:
            store.append(gid, 2, [ev(100 + i), ev(200 + i)])
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 1
    assert store.version(gid) == 4
    written = [e.data["n"] for e in store.read(gid, after=2)]
    assert written[1] == written[0] + 100  # both events of the one winner, none of the others


def test_follow_returns_new_events_or_times_out(store):
    gid = new_game(store)
    assert store.follow(gid, 2, block_ms=50) == []
    timer = threading.Timer(0.05, lambda: store.append(gid, 2, [ev(7)]))
    timer.start()
    got = store.follow(gid, 2, block_ms=3000)
    timer.join()
    assert [e.version for e in got] == [3]


def test_a_follower_reads_many_streams_from_their_positions(store):
    a, b, c = new_game(store, 2), new_game(store, 3), new_game(store, 1)
    follower = store.follower()
    try:
        assert follower.read({a: 2, b: 3}, block_ms=50) == {}
        assert follower.read({}, block_ms=10) == {}
        store.append(a, 2, [ev(10), ev(11)])
        got = follower.read({a: 2, b: 3, c: 0}, block_ms=1000)
        assert {g: [e.version for e in events] for g, events in got.items()} == {a: [3, 4], c: [1]}
        assert [e.data["n"] for e in got[a]] == [10, 11] and got[a][0].actor == 0
        assert [e.version for e in follower.read({a: 2}, block_ms=0, count=1)[a]] == [3]
        timer = threading.Timer(0.05, lambda: store.append(b, 3, [ev(7)]))
        timer.start()
        got = follower.read({a: 4, b: 3}, block_ms=3000)
        timer.join()
        assert [e.version for e in got[b]] == [4] and a not in got
    finally:
        follower.close()


def test_a_blocked_follower_can_be_interrupted(store):
    import time

    gid = new_game(store)
    follower = store.follower()
    answers = []
    reader = threading.Thread(target=lambda: answers.append(follower.read({gid: 2}, block_ms=10_000)))
    started = time.monotonic()
    reader.start()
    try:
        deadline = time.monotonic() + 5
        while reader.is_alive() and time.monotonic() < deadline:
            follower.interrupt()  # the first may come before the read blocks
            reader.join(0.02)
        assert not reader.is_alive() and answers == [{}]
        assert time.monotonic() - started < 5
    finally:
        reader.join(11)
        follower.close()


def test_snapshots_are_a_cache_keyed_by_code(store):
    gid = new_game(store)
    assert store.load_snapshot(gid, "v1") is None
    store.save_snapshot(gid, 2, "v1", b"state")
    assert store.load_snapshot(gid, "v1") == (2, b"state")
    assert store.load_snapshot(gid, "v2") is None  # made by other code: ignored
    store.save_snapshot(gid, 1, "v1", b"older")
    assert store.load_snapshot(gid, "v1") == (2, b"state")
    assert store.load_snapshot(gid, "v1", at_most=1) == (1, b"older")
    assert store.load_snapshot(gid, "v1", at_most=0) is None
    store.save_snapshot(gid, 5, "v2", b"new code")  # other code: the old cache is dropped
    assert store.load_snapshot(gid, "v2", at_most=2) is None
    assert store.load_snapshot(gid, "v2") == (5, b"new code")
    store.delete_snapshot(gid)
    assert store.load_snapshot(gid, "v2") is None
    store.save_snapshots(gid, "v3", [(3, b"three"), (6, b"six")])  # many at once, as one each
    assert store.load_snapshot(gid, "v3", at_most=5) == (3, b"three") and store.load_snapshot(gid, "v3") == (6, b"six")
    store.save_snapshots(gid, "v3", [])
    assert store.load_snapshot(gid, "v3") == (6, b"six")


def test_finished_games_leave_the_active_set(store):
    before = store.active_count()
    gid = new_game(store)
    assert store.active_count() == before + 1
    store.mark_finished(gid)
    assert gid not in store.active_games()
    assert store.active_count() == before


def test_events_come_back_as_json(store):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {}, [NewEvent("t", {"type": "t", "cards": (1, 2)}, None)])
    assert store.read(gid)[0].data == {"type": "t", "cards": [1, 2]}


def test_history_lines_pass_the_declared_types_through_and_render_the_others(store):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {}, [NewEvent("open", {"type": "open", "s": "é \"q\" ,\"a\":1", "f": 0.1}, None),
                                          NewEvent("hid", {"type": "hid", "card": 7}, 0)])
    store.append(gid, 2, [NewEvent("open", {"type": "open", "n": [1, {"k": None}]}, "system"),
                          NewEvent("hid", {"type": "hid", "card": 9}, 1)])
    rendered = []

    def render(e):
        rendered.append(e.version)
        return codec.history_line(e.version, e.type, e.actor, e.at, {"type": e.type})

    lines, last = store.read_lines(gid, 0, 3, lambda t: t == "open", render)
    assert last == 3 and rendered == [2]
    stored = store.read(gid)
    expected = [codec.history_line(e.version, e.type, e.actor, e.at, e.data if e.type == "open" else {"type": e.type})
                for e in stored[:3]]
    assert lines == b"".join(expected)
    assert store.read_lines(gid, 3, 10, lambda t: True, render) == (
        codec.history_line(4, "hid", 1, stored[3].at, {"type": "hid", "card": 9}), 4)
    assert store.read_lines(gid, 4, 10, lambda t: True, render) == (b"", 4)


def test_a_cached_blob_lives_beside_its_game_only(store):
    gid = new_game(store)
    assert store.cached(gid, ["a", "b"]) == [None, None]
    store.cache(gid, "a", b"lines", 60)
    assert store.cached(gid, ["a", "b"]) == [b"lines", None]
    store.cache("no-such-game", "a", b"lines", 60)  # nothing outlives (or precedes) its game
    assert store.cached("no-such-game", ["a"]) == [None]


def test_the_finished_log_names_one_entry_per_game(store):
    a, b = new_game(store), new_game(store)
    store.log_finished(a, b"A", 100)
    store.log_finished(a, b"A again", 100)  # logged already: nothing
    store.log_finished(b, b"B", 100)
    store.log_finished("no-such-game", b"X", 100)  # gone: nothing
    log = store.read_finished_log("0", 10)
    assert [(g, e) for _, g, e in log] == [(a, b"A"), (b, b"B")]
    assert store.finished_log_marks([a, b, "no-such-game"]) == [log[0][0], log[1][0], ""]
    assert store.read_finished_log(log[0][0], 10) == log[1:]
    assert store.read_finished_log(log[1][0], 10) == []


def test_a_game_removed_while_its_end_is_logged_stays_removed(redis_client):
    """The archiver may remove an ended game between the logging's check that it is there and its
    mark: the mark must not make a meta of that one field (every read of the game would then fail
    on its missing type; the bench's archive part met it under load)."""
    store = RedisEventStore(redis_client, prefix=f"store-{uuid.uuid4().hex[:8]}:")
    gid = new_game(store)
    check = store.redis.exists

    def then_removed(*keys):
        found = check(*keys)
        store.redis.delete(store.keys.meta(gid))  # the archiver, right after the check
        return found

    store.redis.exists = then_removed
    try:
        store.log_finished(gid, b"A", 100)
    finally:
        store.redis.exists = check
    assert store.meta(gid) is None and not store.redis.exists(store.keys.meta(gid))


def test_a_lease_has_one_holder_until_it_ends(store):
    gid = new_game(store)
    assert store.lease(gid, "reconcile", 300)
    assert not store.lease(gid, "reconcile", 300)  # another node's pass: not now
    assert store.lease(gid, "other", 300)  # leases of other work are apart
    deadline = time.monotonic() + 5
    while not store.lease(gid, "reconcile", 300):
        assert time.monotonic() < deadline, "the lease never ended"
        time.sleep(0.05)


def test_create_and_append_stamp_the_time_they_are_given(store):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {}, [ev(0)], at=1_000)
    store.append(gid, 1, [ev(1), ev(2)], at=2_000)
    assert [e.at for e in store.read(gid)] == [1_000, 2_000, 2_000]


def test_the_store_answers_a_ping(store):
    assert store.ping() is True


# ---- clocks: the deadline marks `<game>:<version>` the reconciler polls ----------------------

def clocked_game(store, n=2, due=None):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {}, [ev(i, None) for i in range(n)], due=due, clocked=True)
    return gid


def test_creation_and_appends_with_a_deadline_mark_their_version(store):
    gid = clocked_game(store, 2, due=5_000)
    assert store.clocks_due(10_000) == [(gid, 2, 5_000)]
    store.append(gid, 2, [ev(10)], due=7_000)
    assert store.clocks_due(10_000) == [(gid, 2, 5_000), (gid, 3, 7_000)]  # no `clocked`: v2's stays
    untimed = new_game(store)
    store.append(untimed, 2, [ev(11)])
    assert [g for g, _, _ in store.clocks_due(10_000)] == [gid, gid]


def test_a_clocked_append_drops_the_previous_versions_mark(store):
    gid = clocked_game(store, 2, due=5_000)
    store.append(gid, 2, [ev(10)], due=8_000, clocked=True)
    assert store.clocks_due(10_000) == [(gid, 3, 8_000)]
    store.append(gid, 3, [ev(11)], clocked=True)  # no deadline after it: no mark at all
    assert store.clocks_due(10_000) == []


def test_an_append_that_loses_the_race_leaves_its_mark_earlier_never_later(store):
    gid = clocked_game(store, 2)
    store.append(gid, 2, [ev(10)], due=5_000)
    with pytest.raises(Conflict):
        store.append(gid, 2, [ev(20)], due=9_000)  # later: the mark stays
    assert store.clocks_due(10_000) == [(gid, 3, 5_000)]
    with pytest.raises(Conflict):
        store.append(gid, 2, [ev(21)], due=3_000)  # earlier: a wake-up the poller re-judges
    assert store.clocks_due(10_000) == [(gid, 3, 3_000)]


def test_the_marks_due_come_earliest_first_up_to_the_limit(store):
    games = [clocked_game(store, 1, due=due) for due in (4_000, 1_000, 3_000, 2_000, 9_000)]
    assert store.clocks_due(3_000) == [(games[1], 1, 1_000), (games[3], 1, 2_000), (games[2], 1, 3_000)]
    assert store.clocks_due(5_000, limit=2) == [(games[1], 1, 1_000), (games[3], 1, 2_000)]
    assert store.clocks_due(500) == []


def test_a_mark_moves_either_way_and_a_judged_one_stays_dropped(store):
    gid = clocked_game(store, 2, due=5_000)
    store.clock_mark(gid, 2, 6_000, only_existing=True)  # the true deadline, later than the wake-up
    assert store.clocks_due(10_000) == [(gid, 2, 6_000)]
    store.clock_mark(gid, 2, 4_000)
    assert store.clocks_due(10_000) == [(gid, 2, 4_000)]
    store.clock_done(gid, 2)
    assert store.clocks_due(10_000) == []
    store.clock_mark(gid, 2, 6_000, only_existing=True)  # dropped meanwhile: not brought back
    assert store.clocks_due(10_000) == []
    store.clock_mark(gid, 2, 6_000)
    assert store.clocks_due(10_000) == [(gid, 2, 6_000)]


def test_a_rearm_marks_a_lost_deadline_but_never_moves_one_later(store):
    gid = clocked_game(store, 2)
    store.clock_rearm(gid, 2, 5_000)  # lost (a crash): marked again
    assert store.clocks_due(10_000) == [(gid, 2, 5_000)]
    store.clock_rearm(gid, 2, 8_000)
    assert store.clocks_due(10_000) == [(gid, 2, 5_000)]
    store.clock_rearm(gid, 2, 2_000)
    assert store.clocks_due(10_000) == [(gid, 2, 2_000)]


def test_the_clocked_games_are_walked_by_id_a_page_at_a_time_until_they_finish(store):
    games = sorted(clocked_game(store) for _ in range(5))
    new_game(store)  # no clock: never walked
    assert store.clocked_games() == games
    assert store.clocked_games("", 2) == games[:2]
    assert store.clocked_games(games[1], 2) == games[2:4]
    assert store.clocked_games(games[-1]) == []
    store.mark_finished(games[2])
    assert store.clocked_games() == games[:2] + games[3:]
