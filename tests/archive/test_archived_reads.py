"""Every kind of read of a finished game answers the same, to the byte, before and after it is
archived (issue 31; its past states at a spread of versions): of every hosted game, for a seat,
the table token, a player's key and a spectator, from the process that served it (its caches
warm) and from a fresh one (cold), on both archive engines. And the archived game is gone from
Redis but for its marker."""
from __future__ import annotations

import random
import uuid

import pytest

from domain import registry
from tests.api.helpers import auth, short_options
from workers.archiver import archive_game


def _app(redis_url, archive_url, prefix, **extra):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "ALLOW_CLIENT_SEEDS": True, "RATE_LIMIT": 1_000_000,
                       "DEFER_AFTER_APPEND": False, "ARCHIVE_URL": archive_url, **extra})


def _games():
    return [g for g in registry.all_games() if not g.name.startswith("bench-")]


def play(app, definition, seed: int) -> dict:
    """A finished game: seat 0 a player (its key), the others people; random legal moves sent
    with Idempotency-Keys, as clients send them. Shortened by its options where it has rounds
    (every kind of event still met; each state read replays the history up to it)."""
    client, service = app.test_client(), app.extensions["games"]
    key = client.post("/players", json={"name": "Pat"}).get_json()["key"]
    n = definition.min_seats
    seats = [{"me": True}] + [{"name": f"p{i}"} for i in range(1, n)]
    made = client.post("/games", json={"type": definition.name, "seats": seats, "seed": seed,
                                       "options": short_options(definition)}, headers=auth(key))
    assert made.status_code == 201, made.get_json()
    created = made.get_json()
    gid, rng, k = created["id"], random.Random(seed), 0
    while True:
        game = service.load(gid)
        actors = game.actors()
        if not actors:
            break
        actor = actors[0]
        k += 1
        service.move(gid, actor, rng.choice(definition.legal_moves(game.state, actor)), game.version,
                     idempotency_key=f"k{k}" if actor != "system" else None)
    assert service.load(gid).finished
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
    return {"id": gid, "key": key, "seat": tokens[1], "table": created["table_token"], "version": game.version}


def answers(app, made: dict) -> dict:
    """Every read of the game, as (status, ETag, content type, body bytes)."""
    client, gid = app.test_client(), made["id"]
    callers = {"spectator": {}, "seat": auth(made["seat"]), "key": auth(made["key"]),
               "table": auth(made["table"])}
    paths = [f"/games/{gid}", f"/games/{gid}?seat=0", f"/games/{gid}/moves", f"/games/{gid}/events?limit=7",
             f"/games/{gid}/events?format=ndjson", f"/games/{gid}/events?after=3&format=ndjson",
             f"/games/{gid}/state?version={made['version'] + 1}", f"/games/{gid}/state?version=0",
             f"/games/{gid}/events?after=999999"]
    first = client.get(f"/games/{gid}/events?limit=1").get_json()
    # As the spectator the first 30 versions, then every third, and the last ones; as the seat
    # every tenth and the last ones (each read of a finished game replays its history up to N,
    # the same path for every N: all of them, thrice, for both was minutes on a loaded machine).
    every = [f"/games/{gid}/state?version={v}" for v in range(1, made["version"] + 1)]
    many = every[:30] + every[30::3] + every[-3:]
    some = every[::10] + every[-3:]
    found = {}
    for name, headers in callers.items():
        for path in {"spectator": paths + many, "seat": paths + some}.get(name, paths[:6]):
            if name == "table" and "seat=0" not in path and "/games/" in path and path.count("?") == 0:
                path += "?seat=0"
            r = client.get(path, headers=headers)
            found[name, path] = (r.status_code, r.headers.get("ETag"), r.content_type, r.get_data())
            if r.headers.get("ETag"):
                again = client.get(path, headers={**headers, "If-None-Match": r.headers["ETag"]})
                found[name, path, "304"] = again.status_code
        page, url = [], f"/games/{gid}/events?limit=11"
        while url:  # every page, following `next`
            body = client.get(url, headers=headers).get_json()
            page.append(body)
            url = body["next"] and body["next"].replace("http://localhost", "")
        found[name, "pages"] = page
    key = auth(made["key"])
    found["my games"] = client.get("/players/me/games?status=finished", headers=key).get_data()
    found["lobby"] = client.get("/games?status=finished").get_data()
    found["harvest"] = client.get("/games?status=finished&since=0").get_data()
    found["harvest ndjson"] = client.get("/games?status=finished&since=0&format=ndjson").get_data()
    for name, token in (("spectator", None), ("seat", made["seat"])):
        for last_id in (None, 2, made["version"] - 1):
            found[name, "stream", last_id] = _stream(client, gid, token, last_id)
        r = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": str(made["version"]), **auth(token)})
        found[name, "stream after end"] = (r.status_code, r.get_data())
    assert first["events"], first
    return found


def _stream(client, gid, token, last_id) -> list:
    """The stream's events up to its `end` (the current game first, or the events after last_id)."""
    from tests.api.test_live import Stream

    s, got = Stream(client, gid, token, last_id), []
    try:
        while not got or got[-1][0] != "end":
            got.append(s.next())
    finally:
        s.close()
    return got


def redis_keys(app, gid):
    store = app.extensions["games"].store
    return sorted(k.decode() for k in store.redis.scan_iter(match=f"{store.keys.prefix}game:{{{gid}}}:*"))


@pytest.mark.parametrize("engine", ["sqlite", pytest.param("postgresql", marks=pytest.mark.process)])
def test_every_read_of_every_game_is_the_same_after_archiving(redis_url, tmp_path, engine, request):
    if engine == "sqlite":
        url = f"sqlite:///{tmp_path}/archive.sqlite3"
    else:
        url = _postgres_schema(request.getfixturevalue("postgres_url"))
    prefix = f"arc{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    made = [play(app, d, seed) for seed, d in enumerate(_games(), start=7)]
    before = [answers(app, m) for m in made]
    store, games = app.extensions["games"].store, app.extensions["games"].games
    for m in made:
        assert archive_game(store, games, m["id"]) == "archived"
        assert redis_keys(app, m["id"]) == sorted([store.marker_key(m["id"])] + [
            k for k in redis_keys(app, m["id"]) if ":idem:" in k or ":cached:" in k or ":lease:" in k])
    warm = [answers(app, m) for m in made]
    cold_app = _app(redis_url, url, prefix)  # another process: nothing of these games in its caches
    cold = [answers(cold_app, m) for m in made]
    for b, w, c, m in zip(before, warm, cold, made, strict=True):
        for k in b:
            assert w[k] == b[k], (m["id"], k)
            assert c[k] == b[k], (m["id"], k)
    assert archive_game(store, games, made[0]["id"]) == "repaired"  # a repeat changes nothing
    assert answers(cold_app, made[0]) == before[0]


def _postgres_schema(base):
    import psycopg

    schema = f"t{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    return f"{base}?options=-csearch_path%3D{schema}"


def test_a_games_two_chats_read_after_it_is_archived(redis_url, tmp_path):
    """The chat streams stay in Redis when the game moves to the archive (api/chat/service.py):
    both channels still read beside its replay, from a cold process too."""
    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"arc{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    client = app.test_client()
    ann, bob, cyd = (client.post("/players", json={"name": n}).get_json() for n in ("Ann", "Bob", "Cyd"))
    gid = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                      headers=auth(ann["key"])).get_json()["id"]
    assert client.post(f"/games/{gid}/seats/1/claim", headers=auth(bob["key"])).status_code == 201
    for who, text in ((bob, "gg"), (cyd, "nice")):  # the table's, a spectator's
        assert client.post(f"/games/{gid}/chat", json={"text": text}, headers=auth(who["key"])).status_code == 201
    assert client.post(f"/games/{gid}/resign", headers=auth(ann["key"])).status_code == 200
    services = app.extensions["games"]
    assert archive_game(services.store, services.games, gid) == "archived"
    for reader in (app, _app(redis_url, url, prefix)):
        for channel, text in (("table", "gg"), ("spectators", "nice")):
            r = reader.test_client().get(f"/games/{gid}/chat?channel={channel}")
            assert r.status_code == 200 and [m["text"] for m in r.get_json()["messages"]] == [text], (channel, r.get_json())
