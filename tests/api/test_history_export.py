"""The whole history as NDJSON (Accept: application/x-ndjson or ?format=ndjson): one event per
line, redacted for the caller exactly as the JSON pages are, read and written a chunk at a
time; the JSON pages link the next one."""
from __future__ import annotations

import json
import random

import pytest
import requests

from api.games.repository import snapshot_code
from api.history import export
from api.platform.events import ABANDONED, abandoned_event
from domain import registry
from domain.contract import SYSTEM
from events import codec
from events.store import NewEvent
from tests.api.helpers import auth, create, move, tokens
from tests.api.spec import check_response, validate_named
from tests.conftest import wait_for
from workers.jobs import play_turn

NDJSON = "application/x-ndjson"


def _played_splendor(client, moves=40):
    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=17)
    gid, t = created["id"], tokens(created)
    rng = random.Random(17)
    for _ in range(moves):
        game = client.get(f"/games/{gid}").get_json()
        seat = game["to_act"][0]
        listed = client.get(f"/games/{gid}/moves", headers=auth(t[seat])).get_json()
        assert move(client, gid, t[seat], rng.choice(listed["moves"]), listed["version"]).status_code == 201
    return gid, t


def _pages(client, gid, headers, limit):
    """Every event, following the pages' `next` links."""
    events, url = [], f"/games/{gid}/events?limit={limit}"
    while url:
        page = client.get(url, headers=headers).get_json()
        events += page["events"]
        url = page["next"]
    return events


def _lines(response):
    body = response.get_data(as_text=True)
    assert body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_export_is_the_pages_for_every_viewer(client, monkeypatch, viewer):
    monkeypatch.setattr(export, "CHUNK", 7)  # many chunks
    gid, t = _played_splendor(client)
    headers = auth(t[viewer]) if viewer is not None else {}
    whole = client.get(f"/games/{gid}/events", headers={**headers, "Accept": NDJSON})
    assert whole.status_code == 200 and whole.mimetype == NDJSON and whole.is_streamed
    lines = _lines(whole)
    assert lines == _pages(client, gid, headers, limit=9)
    assert [e["version"] for e in lines] == list(range(1, len(lines) + 1)) and len(lines) > 40
    for event in lines:
        validate_named("HistoryEvent", event)
        validate_named("SplendorEvent", event["data"]) if event["version"] > 1 else None
    assert _lines(client.get(f"/games/{gid}/events?format=ndjson&after=30", headers=headers)) == lines[30:]
    assert whole.headers["ETag"].endswith('.ndjson"') and "Accept" in whole.headers["Vary"]


def test_hidden_information_stays_hidden_in_the_export(client):
    gid, t = _played_splendor(client, moves=60)
    seen = {}
    for viewer in (0, 1, None):
        headers = auth(t[viewer]) if viewer is not None else {}
        seen[viewer] = _lines(client.get(f"/games/{gid}/events?format=ndjson", headers=headers))
    assert "seed" not in seen[None][0]["data"]  # the seed would tell every future shuffle
    assert "decks" not in seen[None][1]["data"]
    blind = [i for i, e in enumerate(seen[0]) if e["type"] == "card_reserved" and e["data"]["source"] == "deck"]
    for i in blind:  # a blind reserve's card: its owner's alone
        owner = seen[0][i]["data"]["seat"]
        assert "card" in seen[owner][i]["data"] and "card" not in seen[None][i]["data"]


def test_json_pages_link_the_next_one(client):
    gid, t = _played_splendor(client, moves=10)
    page = client.get(f"/games/{gid}/events?limit=5&seat=1", headers=auth(t[1])).get_json()
    assert page["next"] == f"/games/{gid}/events?after=5&limit=5&seat=1"
    last = client.get(f"/games/{gid}/events?after={page['version'] - 2}&limit=5").get_json()
    assert last["next"] is None and len(last["events"]) == 2
    moves = client.get(f"/games/{gid}/moves?limit=2", headers=auth(t[0])).get_json()
    more = client.get(f"/games/{gid}/moves?limit=2&seat=1", headers=auth(t[1])).get_json()
    listed = moves if moves["total"] else more
    assert listed["next"] and "offset=2" in listed["next"] and "limit=2" in listed["next"]
    assert client.get(listed["next"], headers=auth(t[listed["seat"]])).get_json()["offset"] == 2


def test_export_errors_are_problems(client):
    assert client.get("/games/nothing-here/events?format=ndjson").status_code == 404
    bad = client.get("/games/nothing-here/events?format=xml")
    assert bad.status_code == 400 and bad.mimetype == "application/problem+json"


def test_the_export_streams_through_the_real_server(http_server):
    created = requests.post(f"{http_server}/games", json={"type": "splendor", "seats": [
        {"bot": "greedy"}, {"bot": "random"}]}, timeout=10).json()
    gid = created["id"]
    with requests.get(f"{http_server}/games/{gid}/events", headers={"Accept": NDJSON}, stream=True,
                      timeout=10) as answer:
        assert answer.status_code == 200 and answer.headers["Transfer-Encoding"] == "chunked"
        check_response("GET", f"/games/{gid}/events", 200, answer.headers["Content-Type"].split(";")[0], None)
        lines = [json.loads(line) for line in answer.iter_lines() if line]
    assert lines[0]["type"] == "game_created" and [e["version"] for e in lines] == list(range(1, len(lines) + 1))



HOSTED = [g for g in registry.all_games() if g.name != "high-card"]


def _read_whole(client, gid, headers, query):
    """(the export's lines, the pages' events) for one viewer."""
    whole = client.get(f"/games/{gid}/events?format=ndjson{query}", headers=headers)
    assert whole.status_code == 200 and whole.get_data().endswith(b"\n")
    events, url = [], f"/games/{gid}/events?limit=1000{query}"
    while url:
        page = client.get(url, headers=headers).get_json()
        events += page["events"]
        url = page["next"]
    return whole.get_data().split(b"\n")[:-1], events


@pytest.fixture(scope="module")
def unserved(redis_url):
    """An app of its own key prefix and turn queue, which no worker serves: this test plays the
    system's turns itself, and a session worker playing one of them between two reads of the
    comparison below (under load) made the export one event longer than the pages read before."""
    import uuid

    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"exp{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "RATE_LIMIT": 1_000_000, "ALLOW_CLIENT_SEEDS": True,
                      "DEFER_AFTER_APPEND": False})
    return app, SpecCheckingClient(app, app.response_class, use_cookies=True)


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_the_export_is_the_pages_byte_for_byte_for_every_game_and_viewer(unserved, monkeypatch, game):
    """Every line is the page's event to the byte (the events shown as stored are cut from the
    stored bytes, the others presented), for each seat's token, the table token naming each seat
    or none, and no token; live, then finished (open to everyone, and its chunks cached)."""
    monkeypatch.setattr(export, "CHUNK", 7)  # many chunks, cached ones among them
    app, client = unserved
    service = app.extensions["games"]
    n = game.min_seats
    created = create(client, game.name, [{"name": f"P{i}"} for i in range(n)], seed=23)
    gid, t, table = created["id"], tokens(created), created["table_token"]
    rng = random.Random(23)
    for _ in range(60):
        current = service.load(gid)
        if current.finished:
            break
        actor = rng.choice(current.actors())
        if actor == SYSTEM:
            play_turn(service, gid, current.version, SYSTEM)
            continue
        listed = client.get(f"/games/{gid}/moves?limit=5000", headers=auth(t[actor])).get_json()
        assert move(client, gid, t[actor], rng.choice(listed["moves"]), listed["version"]).status_code == 201
    viewers = [(f"seat {s}", auth(t[s]), "") for s in range(n)] + \
              [(f"table as seat {s}", auth(table), f"&seat={s}") for s in range(n)] + \
              [("table", auth(table), ""), ("anonymous", {}, "")]

    def compare(finished) -> bool:
        """True if some viewer was shown some event otherwise than stored."""
        stored = service.store.read(gid)
        redacted = False
        for label, headers, query in viewers:
            lines, events = _read_whole(client, gid, headers, query)
            assert lines == [codec.dumps_bytes(e) for e in events], (label, finished)
            assert len(lines) == len(stored)
            redacted |= any(codec.dumps_bytes(e["data"]) != codec.dumps_bytes(s.data) for e, s in zip(events, stored))
        return redacted

    assert compare(finished=False), "a live game hides something from someone: the test has something to check"
    # Each viewer's whole chunks of the live game were kept as it saw them: the next exports
    # copy them, and no viewer is given another's.
    seat0 = service.viewer_for(service.load(gid), 0)  # everyone, if the game ended in its 60 moves
    assert service.store.cached(gid, [export.chunk_prefix(game, seat0) + "0"])[0] is not None
    assert compare(finished=False)
    ended = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    assert ended.finished
    compare(finished=True)
    name = f"ndjson|{snapshot_code(game)}|{export.PRESENTING}|7|0"
    assert service.store.cached(gid, [name])[0] is not None
    compare(finished=True)  # from the chunks the first export cached


def test_a_finished_game_is_exported_without_being_rebuilt(app, client):
    """A harvest's crawl exports games no process holds (their snapshots dropped at their end):
    their meta says they ended, so the export reads their history without replaying it."""
    service = app.extensions["games"]
    gid, _ = _played_splendor(client, moves=20)
    ended = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    service.finish(ended)  # logged for the harvest (as the outbox does, after the answer)
    before = _read_whole(client, gid, {}, "")
    service.forget(gid)
    lines = client.get(f"/games/{gid}/events?format=ndjson").get_data().split(b"\n")[:-1]
    assert service.games.cached(gid) is None  # never loaded
    assert lines == before[0] == [codec.dumps_bytes(e) for e in before[1]]
    assert json.loads(lines[0])["data"]["seed"] is not None  # open to everyone: it is over


def test_a_finished_game_exported_with_words_is_loaded_for_its_seats(app, client):
    """Words name the seats, which a game known only from its meta (an Ended) does not hold:
    asked with `lang`, the export loads the game (it was a 500 before mypy read the route)."""
    service = app.extensions["games"]
    gid, _ = _played_splendor(client, moves=20)
    ended = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    service.finish(ended)
    service.forget(gid)
    response = client.get(f"/games/{gid}/events?format=ndjson&lang=en")
    assert response.status_code == 200
    lines = [json.loads(line) for line in response.get_data().split(b"\n")[:-1]]
    assert lines[-1]["text"]  # the abandonment, said in words


def test_the_append_that_ends_a_long_game_makes_its_export(app, client, monkeypatch):
    """api/history/finished_exports.py: a finished game's whole chunks are kept by the append that ended it
    (after its answer), so even the first export copies them; a live game keeps none."""
    monkeypatch.setattr(export, "CHUNK", 7)
    service = app.extensions["games"]
    gid, _ = _played_splendor(client, moves=20)
    prefix = f"ndjson|{snapshot_code(service.load(gid).definition)}|{export.PRESENTING}|7|"
    assert service.store.cached(gid, [prefix + "0"]) == [None]  # live: nothing kept
    ended = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    names = [f"{prefix}{k}" for k in range(ended.version // 7)]
    assert len(names) >= 3 and wait_for(lambda: all(service.store.cached(gid, names)))
    lines, events = _read_whole(client, gid, {}, "")
    assert lines == [codec.dumps_bytes(e) for e in events] and b"".join(service.store.cached(gid, names)) \
        == b"".join(line + b"\n" for line in lines[:len(names) * 7])
