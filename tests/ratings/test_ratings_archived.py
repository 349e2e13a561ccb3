"""A rated game's rating record goes to the archive with its game (issue 49, item 16): the
archiver waits for the count, carries the record into the archive's summary, and deletes it from
Redis once the archive was read back holding it; a finished, archived game leaves only its
marker in Redis, and every read of its ratings answers the same. Counting stays exactly once:
it is guarded by the ledger's cursor, never by the record, across a crash at every step."""
from __future__ import annotations

import uuid

import pytest

from api.ratings.ledger import public
from tests.api.helpers import auth
from tests.archive.test_archived_reads import _app, redis_keys
from tests.lobby.helpers import player
from tests.ratings.test_ratings import _play_and_resign
from workers.archiver import archive_game, file_ratings


class Crash(Exception):
    pass


def _reads(app, gid):
    client = app.test_client()
    return client.get(f"/games/{gid}/ratings").get_json()["seats"], client.get(f"/games/{gid}").get_json().get("ratings")


def _crash_at(name):
    def step(reached):
        if reached == name:
            raise Crash(name)
    return step


@pytest.mark.parametrize("crash", [None, "evicted", "rating moved"])
def test_a_rated_game_leaves_only_its_marker_and_reads_the_same(redis_url, tmp_path, crash):
    prefix = f"ra{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    client = app.test_client()
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = _play_and_resign(app, client, ann, bob)
    store, games = app.extensions["games"].store, app.extensions["games"].games
    ledger = app.extensions["ratings"].ledger
    assert archive_game(store, games, gid, ratings=ledger) == "uncounted"  # not yet counted: it waits
    assert store.archived_version(gid) == 0
    ledger.catch_up(store)
    before = _reads(app, gid)
    assert before[0] is not None and before[0] == before[1]
    rating = ledger.rating("splendor", f"player:{ann['id']}")
    if crash is not None:
        with pytest.raises(Crash):
            archive_game(store, games, gid, _crash_at(crash), ratings=ledger)
        assert archive_game(store, games, gid, ratings=ledger) == "repaired"  # the next pass
    else:
        assert archive_game(store, games, gid, ratings=ledger) == "archived"
    assert redis_keys(app, gid) == [store.marker_key(gid)]
    assert ledger.recorded(gid) is None  # out of Redis...
    assert public(store.archive.get(gid).summary["ratings"]) == before[0]  # ...into the archive
    assert all("kept" in seat for seat in store.archive.get(gid).summary["ratings"])  # a void's start, kept too
    assert _reads(app, gid) == before
    cold = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)  # a fresh process
    assert _reads(cold, gid) == before
    assert ledger.catch_up(store) == 0  # counted once
    assert ledger.rating("splendor", f"player:{ann['id']}") == rating
    r = client.get(f"/players/{ann['id']}", headers=auth(ann["key"])).get_json()
    assert r["ratings"]["splendor"]["games"] == 1


def test_a_rebuild_puts_the_archived_games_records_back_in_the_archive(redis_url, tmp_path):
    """A rebuild of the ratings counts the archived games again and writes their records to
    Redis: file_ratings (tools/ratings.py rebuild, tools/archive.py) moves them back."""
    prefix = f"ra{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    client = app.test_client()
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = _play_and_resign(app, client, ann, bob)
    store, games = app.extensions["games"].store, app.extensions["games"].games
    ledger = app.extensions["ratings"].ledger
    ledger.catch_up(store)
    before = _reads(app, gid)
    assert archive_game(store, games, gid, ratings=ledger) == "archived"
    ledger.forget_everything()
    ledger.catch_up(store, tell=False)  # the archived game counted again, from the archive's harvest
    assert public(ledger.recorded(gid)) == before[0] and ledger.recorded_games() == [gid]
    assert file_ratings(store, ledger, ledger.recorded_games()) == 1
    assert ledger.recorded(gid) is None and _reads(app, gid) == before


def _archived_records(store, gids):
    return {g: store.archive.get(g).summary.get("ratings") for g in gids}


def _shown(record):
    """A record as the API shows it: without `kept`, each seat's full ratings before the game
    (where a void's re-rating from that game on starts: never shown)."""
    return [{k: v for k, v in seat.items() if k != "kept"} for seat in record]


def test_a_void_writes_the_archived_games_records_to_the_archive_exactly_as_a_rebuild(redis_url, tmp_path):
    """Issue 49 (remainder b): a moderator's void re-rates every game; an archived game's new
    record goes to the archive (Redis then holds no record of an archived game), and the
    ratings and every record equal a full rebuild's (with tools.ratings' filing), exactly."""
    import redis as redis_py

    from api.moderation import decider
    from tests.ratings.test_moderation import _numbers

    prefix = f"rv{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    client, services = app.test_client(), app.extensions["services"]
    store, games, ledger, moderation = services.store, services.service.games, services.ledger, services.moderation
    ann, bob, farmer, mod = (player(client, n) for n in ("Ann", "Bob", "Farmer", "Mia"))
    archived = [_play_and_resign(app, client, w, lost) for w, lost in ((ann, bob), (farmer, ann), (farmer, bob))]
    ledger.catch_up(store)
    for gid in archived:
        assert archive_game(store, games, gid, ratings=ledger) == "archived"
    live = _play_and_resign(app, client, bob, ann)  # not archived: its record is Redis's
    ledger.catch_up(store)
    assert ledger.recorded_games() == [live]
    moderation.act("grant", mod["id"], decider.OPERATOR, "trusted")
    other = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)  # another process, which read them
    assert [_reads(other, g)[0] for g in archived] == [_shown(r) for r in _archived_records(store, archived).values()]
    for kind in ("void", "unvoid"):
        moderation.act(kind, farmer["id"], mod["id"], "farming")
        assert ledger.recorded_games() == [live], kind  # no record of an archived game in Redis
        records = _archived_records(store, archived)
        assert [_reads(other, g)[0] for g in archived] == [_shown(r) for r in records.values()]  # every process
        connection = redis_py.Redis.from_url(redis_url)
        after = (_numbers(connection, ledger), _archived_records(store, archived), ledger.recorded(live))
        if kind == "void":
            assert _archived_records(store, archived)[archived[1]] == []  # the farmer's: moving nobody
        ledger.forget_everything()  # python -m tools.ratings rebuild's steps
        ledger.catch_up(store, tell=False)
        file_ratings(store, ledger, ledger.recorded_games())
        assert (_numbers(connection, ledger), _archived_records(store, archived), ledger.recorded(live)) == after
        assert ledger.recorded_games() == [live]


def test_the_archivers_sweep_files_what_a_void_noted_and_could_not_file(redis_url, tmp_path):
    """A void's process dying between its transaction and the filing (or the archive away
    then): the records it noted (the ledger's `to_file`) are filed by the archiver's sweep."""
    prefix = f"rv{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    client, services = app.test_client(), app.extensions["services"]
    store, ledger = services.store, services.ledger
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = _play_and_resign(app, client, ann, bob)
    ledger.catch_up(store)
    assert archive_game(store, services.service.games, gid, ratings=ledger) == "archived"
    rewritten = [{**seat, "after": seat["after"] + 1} for seat in store.archive.get(gid).summary["ratings"]]
    with ledger.redis.pipeline(transaction=True) as pipe:  # what a void's transaction writes
        ledger.replace(pipe, "splendor", [], {"table": {}, "points": [], "games": {gid: rewritten}}, "0",
                       frozenset([gid]))
        pipe.execute()
    assert ledger.recorded_games() == [gid] and ledger.to_file() == [gid]
    services.archiver()
    assert ledger.recorded_games() == [] and ledger.to_file() == []
    assert store.archive.get(gid).summary["ratings"] == rewritten and _shown(rewritten) == _reads(app, gid)[0]
