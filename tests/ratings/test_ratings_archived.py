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
