"""ETags on every per-game read, from the game's version and the caller's seat; If-None-Match
answers 304 after one look at the version, without loading the game."""
from __future__ import annotations

import pytest

from tests.api.helpers import auth, create, move, tokens

READS = ["", "/moves", "/events", "/state?version=3"]


@pytest.fixture
def loads(app, monkeypatch):
    """Counts the games the service loads (the real loads still happen)."""
    service = app.extensions["games"]
    counted = []
    real = service.load

    def counting(game_id):
        counted.append(game_id)
        return real(game_id)

    monkeypatch.setattr(service, "load", counting)
    return counted


@pytest.mark.parametrize("read", READS)
def test_an_unchanged_game_is_304_without_being_loaded(client, loads, read):
    created = create(client)
    gid, t = created["id"], tokens(created)
    first = client.get(f"/games/{gid}{read}", headers=auth(t[0]))
    assert first.status_code == 200 and first.headers["ETag"] == '"v3.0"'
    loaded = len(loads)
    again = client.get(f"/games/{gid}{read}", headers={**auth(t[0]), "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert len(loads) == loaded, "a 304 loads nothing"
    # The game moves on: the same ETag is a whole answer again, with the new one.
    assert move(client, gid, t[1], {"type": "bid", "chips": 1}, 3).status_code == 201
    after = client.get(f"/games/{gid}{read}", headers={**auth(t[0]), "If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] == '"v4.0"'
    assert len(loads) == loaded + 1


def test_the_etag_is_the_viewers(client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    mine = client.get(f"/games/{gid}", headers=auth(t[0])).headers["ETag"]
    theirs = client.get(f"/games/{gid}", headers=auth(t[1])).headers["ETag"]
    spectator = client.get(f"/games/{gid}").headers["ETag"]
    assert len({mine, theirs, spectator}) == 3 and spectator == '"v3.s"'
    # Another seat's ETag never gets its holder's view confirmed to someone else.
    assert client.get(f"/games/{gid}", headers={"If-None-Match": mine}).status_code == 200
    assert client.get(f"/games/{gid}", headers={**auth(t[1]), "If-None-Match": mine}).status_code == 200
    table = client.get(f"/games/{gid}?seat=1", headers={**auth(created["table_token"]), "If-None-Match": theirs})
    assert table.status_code == 304
    # Several tags, weak ones and * follow RFC 9110.
    assert client.get(f"/games/{gid}", headers={"If-None-Match": f'"x", W/{spectator}'}).status_code == 304
    assert client.get(f"/games/{gid}", headers={"If-None-Match": "*"}).status_code == 304


def test_conditional_reads_still_check_the_caller_and_the_game(client):
    created = create(client)
    gid = created["id"]
    etag = client.get(f"/games/{gid}").headers["ETag"]
    assert client.get("/games/nothing-here", headers={"If-None-Match": '"v0.s"'}).status_code == 404
    assert client.get("/games/nothing-here", headers={"If-None-Match": "*"}).status_code == 404
    bad = client.get(f"/games/{gid}", headers={**auth("forged.0.token"), "If-None-Match": etag})
    assert bad.status_code == 401
    assert client.get(f"/games/{gid}/events?limit=0", headers={"If-None-Match": etag}).status_code == 400


def test_past_reads_are_answered_again_from_their_kept_bytes_per_viewer(app, client, monkeypatch):
    """A past state and a history page, once answered, are answered again from their kept bytes
    (api/games/repository.py's past answers, issue 57): no fold, no event read or presenting, the
    same bytes; each viewer (a seat, another seat, a spectator) its own."""
    created = create(client)
    gid, t = created["id"], tokens(created)
    assert move(client, gid, t[1], {"type": "bid", "chips": 1}, 3).status_code == 201
    reads = [(f"/games/{gid}/state?version={v}", lang) for v in (3, 4) for lang in ("en", "ko")]
    reads += [(f"/games/{gid}/events?after={a}&limit=2", lang) for a in (0, 2) for lang in ("en", "ko")]
    callers = {"seat 0": auth(t[0]), "seat 1": auth(t[1]), "spectator": {}}

    def answers():
        return {(who, path, lang): client.get(path, headers={**h, "Accept-Language": lang}).get_data()
                for who, h in callers.items() for path, lang in reads}

    first = answers()
    service = app.extensions["games"]

    def refused(*args, **kwargs):
        raise AssertionError("read again: answered from the kept bytes")

    monkeypatch.setattr(service, "at_version", refused)
    monkeypatch.setattr(service, "history", refused)
    assert answers() == first
    state = f"/games/{gid}/state?version=3"
    assert len({first["seat 0", state, "en"], first["seat 1", state, "en"], first["spectator", state, "en"]}) == 3
    page = f"/games/{gid}/events?after=2&limit=2"
    assert first["seat 0", page, "en"] != first["seat 1", page, "en"]  # each seat's own card
