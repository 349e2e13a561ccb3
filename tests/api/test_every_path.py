"""Every path a game can take holds at every version (issue 28): bots only; through the lobby
with open and invite seats; clocked, with timeouts, takeovers and a return; resigned; aborted;
rematched; on every game type. For each version of each game's history, as a seat, the table
token and a spectator: `GET /games/{id}/state?version=N`, the history page after N, the NDJSON
export after N and (for a few versions) the stream resumed from N answer 200 with a body the
spec accepts. Versions outside the history (0, and before the setup of a game that never
waited) answer the documented `404 version_out_of_range`. Never a 5xx.

Long games are read at a sample of versions: always 0 to the first few, a spread, and the last.
"""
from __future__ import annotations

import json
import random
import uuid

import pytest

from api.games.appending import now_ms
from domain import registry
from tests.api.helpers import auth
from tests.api.spec import validate_named
from workers.jobs import play_turn

GAMES = [pytest.param(g, id=g.name) for g in registry.all_games() if g.name != "high-card"]  # the hosted five
PATHS = ["bots", "lobby", "clocked", "paused", "resigned", "aborted", "rematched"]
FIRST, SPREAD, LAST = 4, 5, 2  # versions read: 0..FIRST, SPREAD more spread, the LAST ones
STREAMED = 3  # versions the stream is resumed from: the first, one in the middle, the last
PERSON_MOVES = 4  # moves people play before they leave the game to the bots
MAX_TURNS = 5000
PAGE = 3  # events per history page read (the NDJSON export holds the whole rest)


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app

    prefix = f"paths{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_SECONDS": 10, "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "ALLOW_CLIENT_SEEDS": True})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def _short(game) -> dict:
    for option in game.options:
        if option.name in ("rounds", "round_limit") and option.type == "integer":
            return {option.name: max(1, option.minimum or 1)}
    return {}


def _bot(game) -> dict:
    return {"bot": next(iter(game.bots))}


class Table:
    """One game made by a path: its id, the credentials that read it, its people's tokens."""

    def __init__(self, client, service, game, created):
        self.client, self.service, self.game = client, service, game
        self.id, self.table = created["id"], created.get("table_token")
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
        self.rng = random.Random(game.name)

    def post(self, path, token, body=None):
        r = self.client.post(f"/games/{self.id}{path}", json=body, headers=auth(token))
        assert r.status_code in (200, 201), (path, r.get_json())
        return r.get_json()

    def person_moves(self, count):
        """People play `count` moves (a random legal one each), the system's and bots' turns
        played between them."""
        while count > 0 and not self.bots_until_a_person():
            game = self.service.load(self.id)
            seat = self.rng.choice([a for a in game.actors() if a in self.tokens])
            listed = self.client.get(f"/games/{self.id}/moves?limit=5000", headers=auth(self.tokens[seat])).get_json()
            self.post("/moves", self.tokens[seat], {"expected_version": listed["version"],
                                                     "move": self.rng.choice(listed["moves"])})
            count -= 1

    def bots_until_a_person(self) -> bool:
        """Plays the automatic turns (bots, takeovers, the system) until a person owes one;
        True once the game is over."""
        for _ in range(MAX_TURNS):
            game = self.service.load(self.id)
            if game.finished:
                return True
            automatic = self.service.automatic_actors(game)
            if not automatic:
                return False
            assert play_turn(self.service, self.id, game.version, automatic[0]) == "played"
        raise AssertionError(f"{self.id} not over after {MAX_TURNS} turns")

    def resign_all(self):
        """Each person resigns in turn; the bots play the game out."""
        for seat, token in self.tokens.items():
            if not self.service.load(self.id).finished:
                self.post("/resign", token)
        assert self.bots_until_a_person()

    def viewers(self):
        seat = next(iter(self.tokens.values()), None)
        return {"seat": seat, "table": self.table, "spectator": None}


def _create(client, game, seats, key=None, **extra):
    r = client.post("/games", json={"type": game.name, "seats": seats, "options": _short(game), "seed": 7, **extra},
                    headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _people(game, count):
    return [{"name": f"P{i}"} for i in range(count)] + [_bot(game)] * (game.min_seats - count)


def _bots(client, service, game):
    table = Table(client, service, game, _create(client, game, [_bot(game)] * game.min_seats))
    assert table.bots_until_a_person()
    return [table]


def _lobby(client, service, game):
    """A creator's seat, an open seat and an invite seat, claimed by players; a few moves; all resign."""
    keys = [client.post("/players", json={"name": f"L{i}"}).get_json()["key"] for i in range(3)]
    seats = [{"me": True}, {"open": True}, {"invite": True}] + [_bot(game)] * max(0, game.min_seats - 3)
    created = _create(client, game, seats, key=keys[0])
    table = Table(client, service, game, created)
    table.post("/seats/1/claim", keys[1])
    r = client.post(f"/games/{table.id}/seats/2/claim?invite={created['invite_code']}", headers=auth(keys[2]))
    assert r.status_code == 201, r.get_json()
    table.tokens = {0: created["seats"][0]["token"], 1: keys[1], 2: keys[2]}
    table.person_moves(PERSON_MOVES)
    table.resign_all()
    return [table]


def _clocked(client, service, game):
    """A person times out and a bot takes the seat; the person returns; every seat times out."""
    table = Table(client, service, game, _create(client, game, _people(game, 2),
                                               clock={"per_move_s": 3600, "takeover_bot": next(iter(game.bots))}))
    control = client.application.extensions["seat_control"]
    returned = False
    while not table.bots_until_a_person():
        table.person_moves(1)
        if table.bots_until_a_person():
            break
        assert control.time_out(service.load(table.id), now_ms() + 10 ** 8) > 0
        if not returned:
            seat = next(s for s, t in table.tokens.items() if service.load(table.id).bot_level(s) is not None)
            table.post(f"/seats/{seat}/return", table.tokens[seat])
            returned = True
    return [table]


def _paused(client, service, game):
    """Correspondence time (issue 36): a pause both people agree to, a move during it, the
    resumption; one player's vacation stopping and starting their clock; all resign."""
    players = [client.post("/players", json={"name": f"V{i}"}).get_json() for i in range(2)]
    seats = [{"me": True}, {"open": True}] + [_bot(game)] * max(0, game.min_seats - 2)
    created = _create(client, game, seats, key=players[0]["key"], clock={"days_per_move": 2})
    table = Table(client, service, game, created)
    table.post("/seats/1/claim", players[1]["key"])
    table.tokens = {0: created["seats"][0]["token"], 1: players[1]["key"]}
    pauses = client.application.extensions["pauses"]
    table.person_moves(2)
    if not service.load(table.id).finished:
        table.post("/pause", table.tokens[0]), table.post("/pause", table.tokens[1])
        table.person_moves(1)
    if not service.load(table.id).finished:
        table.post("/resume", table.tokens[1])
        pauses.vacation_started(players[0]["id"], [table.id], now_ms())
        table.person_moves(1)
        pauses.vacation_ended(players[0]["id"], [table.id])
    if not service.load(table.id).finished:
        table.resign_all()
    reasons = sorted(e.data["reason"] for e in service.store.read(table.id) if e.type == "clock_paused")
    assert reasons == ["agreed", "vacation"], reasons  # both ways of stopping a clock were read at every version
    return [table]


def _resigned(client, service, game):
    table = Table(client, service, game, _create(client, game, _people(game, 2)))
    table.person_moves(1)
    table.resign_all()
    return [table]


def _aborted(client, service, game, monkeypatch):
    control = client.application.extensions["seat_control"]
    monkeypatch.setattr(control, "abort_after_s", 0)
    table = Table(client, service, game, _create(client, game, _people(game, 2)))
    assert table.post("/abort", table.tokens[1])["status"] == "aborted"
    return [table]


def _rematched(client, service, game):
    """A lobby game's rematch: the finished game names it (an event after its end) and the new
    game waits for its reserved seats."""
    (finished,) = _lobby(client, service, game)
    new = finished.post("/rematch", finished.tokens[1])
    rematch = Table(client, service, game, {"id": new["id"], "seats": []})
    return [finished, rematch]


def _sampled(first: int, last: int) -> list[int]:
    spread = range(first, last + 1, max(1, (last - first) // SPREAD))
    return sorted({*range(0, min(FIRST, last) + 1), *spread, *range(max(0, last - LAST + 1), last + 1)})


def _in_history(client, gid, version, who, readable: int) -> bool:
    """The state at `version` as `who`: 200 within the history, the documented 404 outside it."""
    r = client.get(f"/games/{gid}/state?version={version}", headers=auth(who))
    if version < readable:
        assert r.status_code == 404 and r.get_json()["code"] == "version_out_of_range", (version, r.get_json())
        return False
    assert r.status_code == 200, (version, r.get_json())
    assert r.get_json()["version"] == version
    return True


def _reads_after(client, gid, version, who, final):
    page = client.get(f"/games/{gid}/events?after={version}&limit={PAGE}", headers=auth(who))
    assert page.status_code == 200, (version, page.get_json())
    assert [e["version"] for e in page.get_json()["events"]] == list(range(version + 1, min(final, version + PAGE) + 1))
    export = client.get(f"/games/{gid}/events?after={version}&format=ndjson", headers=auth(who))
    assert export.status_code == 200
    lines = [json.loads(line) for line in export.get_data(as_text=True).splitlines() if line]
    assert [e["version"] for e in lines] == list(range(version + 1, final + 1))
    for event in lines[:2] + lines[-2:]:
        validate_named("HistoryEvent", event)


def _stream_from(client, gid, version, who, final):
    response = client.get(f"/games/{gid}/stream", headers={**auth(who), "Last-Event-ID": str(version)},
                          buffered=False)
    try:
        if version == final and response.status_code == 204:
            return  # finished: an EventSource reconnecting after `end` is told to stop
        assert response.status_code == 200, response.get_data(as_text=True)
        text = ""
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if "event: end" in text:
                break
    finally:
        response.close()
    frames = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
        if fields.get("event") == "game_event":
            frames.append(json.loads(fields["data"]))
    assert [f["version"] for f in frames] == list(range(version + 1, final + 1))
    for frame in frames[:2] + frames[-2:]:
        validate_named("StreamEvent", frame)


def check_every_version(client, service, table: Table):
    current = service.load(table.id)
    final, finished = current.version, current.finished
    readable = current.setup_version if current.started and current.platform.setup_version is None else 1
    for name, who in table.viewers().items():
        if name != "spectator" and who is None:
            continue  # a game of bots holds no seat token and no table token
        versions = [v for v in _sampled(readable, final) if _in_history(client, table.id, v, who, readable)]
        for version in versions:
            _reads_after(client, table.id, version, who, final)
        if finished:  # a running game's stream stays open: the finished ones are read to `end`
            for version in versions[::max(1, len(versions) // (STREAMED - 1))][:STREAMED - 1] + [final]:
                _stream_from(client, table.id, version, who, final)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("game", GAMES)
def test_every_version_of_every_path_reads(app, client, game, path, monkeypatch):
    service = app.extensions["games"]
    make = {"bots": _bots, "lobby": _lobby, "clocked": _clocked, "paused": _paused, "resigned": _resigned,
            "rematched": _rematched, "aborted": lambda c, s, g: _aborted(c, s, g, monkeypatch)}[path]
    for table in make(client, service, game):
        check_every_version(client, service, table)
