"""No leaks, on every channel: for every hosted game, a random playout
through the API (all seats people, the system's moves played by the worker's own job function)
checks, for every seat and for a spectator, that nothing the server gives them holds a secret
of another seat: GET /games/{id}, the legal moves (and their labels), history pages and the
NDJSON export (with their words and without), `state?version=N`, the live stream (SSE), the
answers to their own moves, and error bodies: the words (each message's arguments name their
pieces by id) as the rest.

The oracle is each game's `secrets(state)` (domain/contract.py): token -> the seats allowed to
know it (a deck's order: nobody). A token hidden from a viewer at version V must not appear, as
a JSON string, in what that viewer receives about version V: the game now against the secrets
now, an event against the secrets right after it (as the game-contract suite judges events: a
tile a seat once held and swapped back into the bag is secret now, but the event of its draw
rightly showed it to that seat).

One seat count per game, the most (the most viewers, each seat's token and the table token
naming each seat): the API routes a viewer to `view`/`redact` and the words the same way
whatever the count. The game's own redaction at every seat count is checked in memory at every
state: views and events (tests/contract/test_properties.py, test_game_contract.py's bot games),
words (test_words.py), legal moves and their labels (test_moves_keep_secrets.py). The live fan-out plays the fewest seats, so that
both ends of each game's range meet the HTTP layer.

Chat (issue 53): the spectators' chat reaches no seated viewer during play, on any of those
channels nor the chat's own (read, live) and the player stream, for every game.
"""
from __future__ import annotations

import json
import random
import uuid

import pytest

from domain import registry
from domain.contract import SPECTATOR, SYSTEM
from domain.play import fold
from tests.api.helpers import auth, short_options
from tests.api.spec import sampled_client
from workers.jobs import play_turn

MOST_SEATS = [pytest.param(g, g.max_seats, id=f"{g.name}-{g.max_seats}") for g in registry.all_games()]
FEWEST_SEATS = [pytest.param(g, g.min_seats, id=f"{g.name}-{g.min_seats}") for g in registry.all_games()]
FULL_CHECK_EVERY = 15  # steps between the costlier checks (whole history, streams, past states)


@pytest.fixture(scope="module")
def app(redis_url, tmp_path_factory):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"leak{uuid.uuid4().hex[:6]}:"
    archive = f"sqlite:///{tmp_path_factory.mktemp('leak-archive')}/archive.sqlite3"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_SECONDS": 300, "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "ARCHIVE_URL": archive})
    app.test_client_class = SpecCheckingClient
    return app


class Oracle:
    """hidden[version][viewer] = the JSON needles that viewer must not see at that version."""

    def __init__(self, game, n, events):
        self.game, self.viewers = game, list(range(n)) + [SPECTATOR]
        self.hidden: dict[int, dict] = {}
        state = None
        for version, data in events:
            state = game.evolve(state, data) if data is not None else state
            self.record(version, state)

    def record(self, version, state):
        if state is None:
            self.hidden[version] = {v: set() for v in self.viewers}
            return
        secrets = self.game.secrets(state)
        self.hidden[version] = {v: {json.dumps(tok) for tok, allowed in secrets.items() if v not in allowed}
                                for v in self.viewers}

    def check(self, text: str, viewer, *versions, where="", sent: str = ""):
        for version in versions:
            for needle in self.hidden[version][viewer]:
                if needle in sent:
                    continue  # the viewer sent it themselves
                assert needle not in text, f"{where}: viewer {viewer!r} sees {needle} (secret at version {version})"


def _sse_until(client, gid, token, last_id, version):
    """Reads the live stream from Last-Event-ID until the event of `version`."""
    headers = {**auth(token)}
    if last_id is not None:
        headers["Last-Event-ID"] = str(last_id)
    response = client.get(f"/games/{gid}/stream", headers=headers, buffered=False)
    assert response.status_code == 200
    events, buffer = [], ""
    try:
        for chunk in response.response:
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
                if "event" in fields:
                    events.append((fields["event"], int(fields["id"]) if "id" in fields else None, fields["data"]))
            if events and (events[-1][1] == version or events[-1][0] == "end"):
                break
    finally:
        response.close()
    return events


@pytest.mark.parametrize("game,n", MOST_SEATS)
def test_no_viewer_ever_receives_another_seats_secret(app, game, n):
    plays_without_a_leak(app, sampled_client(app), game, n)  # a sample of the answers held to the spec


def plays_without_a_leak(app, client, game, n):
    """The test above's playout and checks, through `client` (the cluster's: tests/cluster)."""
    service = app.extensions["games"]
    rng = random.Random(n * 31 + len(game.name))
    created = client.post("/games", json={"type": game.name, "seats": [{"name": f"P{i}"} for i in range(n)],
                                          "options": short_options(game), "seed": rng.randrange(10 ** 6)}).get_json()
    gid = created["id"]
    token = {s["seat"]: s["token"] for s in created["seats"]}
    token[SPECTATOR] = None
    table = created["table_token"]
    viewers = list(range(n)) + [SPECTATOR]
    stored = service.store.read(gid)
    oracle = Oracle(game, n, [(e.version, e.data if e.type != "game_created" else None) for e in stored])
    setup_version = created["version"]
    seen = {v: setup_version for v in viewers}  # history read up to, per viewer
    streamed = {v: None for v in viewers}
    state = fold(game, [e.data for e in stored if e.type != "game_created"])

    for step in range(game.max_events):
        current = service.load(gid)
        version = current.version
        full = step % FULL_CHECK_EVERY == 0
        listed_now = {}  # each viewer's legal moves at this version, as GET /moves gave them
        for viewer in viewers:
            check = oracle.check
            body = client.get(f"/games/{gid}", headers=auth(token[viewer])).get_data(as_text=True)
            if not current.finished:
                check(body, viewer, version, where="GET /games/{id}")
            moves = listed_now[viewer] = client.get(f"/games/{gid}/moves?limit=5000",
                                                    headers=auth(token[viewer])).get_data(as_text=True)
            check(moves, viewer, version, where="GET /moves")
            # The table token naming a seat sees what that seat's token sees, and naming none
            # what a spectator sees: not a byte more. Asked at the costlier steps and at the end:
            # the seats a table token holds change only when a seat does (claimed, left, taken
            # over: none is here), and what it then sees is the seat token's own view.
            named = "" if viewer is SPECTATOR else f"?seat={viewer}"
            if full or current.finished:
                assert client.get(f"/games/{gid}{named}", headers=auth(table)).get_data(as_text=True) == body
            if viewer is not SPECTATOR and (full or current.finished):
                assert client.get(f"/games/{gid}/moves?limit=5000&seat={viewer}",
                                  headers=auth(table)).get_data(as_text=True) == moves
            if current.finished:
                continue  # a finished game is open to everyone
            page = client.get(f"/games/{gid}/events?after={seen[viewer]}&limit=1000&lang=ko",
                              headers=auth(token[viewer])).get_json()["events"]  # with their words
            for e in page:
                check(json.dumps(e), viewer, e["version"], where=f"event {e['version']}")
            seen[viewer] = version
            if full:
                for e in client.get(f"/games/{gid}/events?limit=1000", headers=auth(token[viewer])).get_json()["events"]:
                    check(json.dumps(e), viewer, e["version"], where=f"history page, event {e['version']}")
                export = client.get(f"/games/{gid}/events?format=ndjson", headers=auth(token[viewer]))
                worded = client.get(f"/games/{gid}/events?format=ndjson&lang=en", headers=auth(token[viewer]))
                lines = export.get_data(as_text=True).splitlines() + worded.get_data(as_text=True).splitlines()
                for line in lines:  # stored bytes, passed through; and rendered with their words
                    e = json.loads(line)
                    check(json.dumps(e), viewer, e["version"], where=f"NDJSON export, event {e['version']}")
                past = rng.randint(setup_version, version)
                then = client.get(f"/games/{gid}/state?version={past}", headers=auth(token[viewer])).get_data(as_text=True)
                check(then, viewer, past, where=f"state?version={past}")
                for kind, id_, data in _sse_until(client, gid, token[viewer], streamed[viewer], version):
                    versions = (version,) if id_ is None or kind == "state" else (id_,)
                    check(data, viewer, *versions, where=f"SSE {kind} {id_}")
                streamed[viewer] = version
            # Error bodies: a stale version, an out-of-turn or garbage move, a dry run. Asked by
            # one seat a step, in turn, and by every seat at the costlier steps: the answer is
            # built the same way whoever asks, so each seat is still asked at every phase its
            # turns come round in (every seat every step was 4 requests a seat a step, a third
            # of the test's, issue 48).
            if viewer is not SPECTATOR and (full or viewer == step % n):
                own = json.loads(moves)["moves"]
                for attempt in ([{"type": "nonsense"}] + own[:1]):
                    sent = json.dumps({"expected_version": version + 1, "move": attempt})  # a 409
                    r = client.post(f"/games/{gid}/moves", data=sent, content_type="application/json",
                                    headers={**auth(token[viewer]), "Idempotency-Key": uuid.uuid4().hex})
                    assert r.status_code == 409, r.get_json()
                    check(r.get_data(as_text=True), viewer, version, where=f"error {r.status_code}", sent=sent)
                    sent = json.dumps({"expected_version": version, "move": attempt})
                    r = client.post(f"/games/{gid}/moves?dry_run=true", data=sent, content_type="application/json",
                                    headers=auth(token[viewer]))
                    check(r.get_data(as_text=True), viewer, version, where=f"dry run {r.status_code}", sent=sent)
        if current.finished:
            break
        # Move: a random actor plays a random legal move; the system's move as the worker plays it.
        actor = rng.choice(current.actors())
        if actor == SYSTEM:
            assert play_turn(service, gid, version, SYSTEM) == "played"
        else:
            listed = json.loads(listed_now[actor])["moves"]  # read above, at this version
            r = client.post(f"/games/{gid}/moves?include=next_moves",
                            json={"expected_version": version, "move": rng.choice(listed)},
                            headers={**auth(token[actor]), "Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 201, r.get_json()
        for e in service.store.read(gid, after=version):
            state = game.evolve(state, e.data)
            oracle.record(e.version, state)
        if actor != SYSTEM:
            answer = r.get_json()
            for e in answer["events"]:
                oracle.check(json.dumps(e), actor, e["version"], where="the answer to one's own move")
            if answer["next_moves"] is not None:
                oracle.check(json.dumps(answer["next_moves"]), actor, answer["next_moves"]["version"],
                             where="the next moves in the answer")
    else:
        raise AssertionError("the game did not end")
    assert service.load(gid).finished
    # Archived (issue 31), it shows each viewer what it showed before, not a byte more (a finished
    # game is open to everyone: tests/archive/test_archived_reads.py compares every read).
    from workers.archiver import archive_game

    reads = [f"/games/{gid}", f"/games/{gid}/moves", f"/games/{gid}/events?format=ndjson",
             f"/games/{gid}/state?version={rng.randint(setup_version, version)}"]
    shown = {(v, r): client.get(r, headers=auth(token[v])).get_data() for v in viewers for r in reads}
    assert archive_game(service.store, service.games, gid) == "archived"
    service.games.forget(gid)
    assert {(v, r): client.get(r, headers=auth(token[v])).get_data() for v in viewers for r in reads} == shown


class _Watch:
    """A stream held open for a whole game (the hub's fan-out path, not a catch-up read)."""

    def __init__(self, client, gid, token):
        self.client, self.gid, self.token, self.last_id = client, gid, token, None
        self._open()

    def _open(self):
        headers = {**auth(self.token)}
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        self.response = self.client.get(f"/games/{self.gid}/stream", headers=headers, buffered=False)
        assert self.response.status_code == 200
        self.chunks, self.buffer = iter(self.response.response), ""

    def events(self, count):
        """The next `count` game events (kind, id, data), waiting for them; a stream that
        reached SSE_MAX_SECONDS is resumed from the last id, as a client does."""
        got = []
        while len(got) < count:
            while "\n\n" not in self.buffer:
                try:
                    chunk = next(self.chunks)
                except StopIteration:
                    self.response.close()
                    self._open()
                    continue
                self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            block, self.buffer = self.buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
            if "id" in fields:
                self.last_id = int(fields["id"])
            if fields.get("event") == "game_event":
                got.append((fields["event"], int(fields["id"]), json.loads(fields["data"])))
        return got

    def close(self):
        self.response.close()


@pytest.mark.parametrize("game,n", FEWEST_SEATS)
def test_the_live_fan_out_shows_each_viewer_what_its_history_shows(app, game, n):
    """Two streams per viewer held open through a random playout: after every move, each
    stream's new events are exactly the viewer's history page of them (plus `to_act`), the two
    streams of one viewer receive the same bytes' worth, and no secret of another seat."""
    client = sampled_client(app)  # the leak suite reads every version: a sample is held to the spec
    service = app.extensions["games"]
    rng = random.Random(n * 17 + len(game.name))
    created = client.post("/games", json={"type": game.name, "seats": [{"name": f"P{i}"} for i in range(n)],
                                          "options": short_options(game), "seed": rng.randrange(10 ** 6)}).get_json()
    gid = created["id"]
    token = {s["seat"]: s["token"] for s in created["seats"]}
    token[SPECTATOR] = None
    viewers = list(range(n)) + [SPECTATOR]
    stored = service.store.read(gid)
    oracle = Oracle(game, n, [(e.version, e.data if e.type != "game_created" else None) for e in stored])
    state = fold(game, [e.data for e in stored if e.type != "game_created"])
    watches = {v: [_Watch(client, gid, token[v]) for _ in range(2)] for v in viewers}
    version = created["version"]
    try:
        for _ in range(game.max_events):
            current = service.load(gid)
            if current.finished:
                break
            actor = rng.choice(current.actors())
            if actor == SYSTEM:
                assert play_turn(service, gid, current.version, SYSTEM) == "played"
            else:
                listed = client.get(f"/games/{gid}/moves?limit=5000", headers=auth(token[actor])).get_json()["moves"]
                r = client.post(f"/games/{gid}/moves", json={"expected_version": current.version,
                                                             "move": rng.choice(listed)},
                                headers={**auth(token[actor]), "Idempotency-Key": uuid.uuid4().hex})
                assert r.status_code == 201, r.get_json()
            after = service.load(gid)
            for e in service.store.read(gid, after=version):
                state = game.evolve(state, e.data)
                oracle.record(e.version, state)
            for viewer in viewers:
                page = client.get(f"/games/{gid}/events?after={version}&limit=1000&lang=en",  # the stream's
                                  headers=auth(token[viewer])).get_json()["events"]
                first, second = (w.events(after.version - version) for w in watches[viewer])
                assert first == second
                for (_, id_, data), shown in zip(first, page):
                    to_act = data.pop("to_act")
                    assert data == shown, f"viewer {viewer!r}, event {id_}: the stream and the history differ"
                    if not after.finished:
                        oracle.check(json.dumps(data), viewer, id_, where=f"fan-out event {id_}")
                assert to_act == after.actors()
            version = after.version
        else:
            raise AssertionError("the game did not end")
    finally:
        for ws in watches.values():
            for w in ws:
                w.close()


def _chat_frames(client, gid, headers):
    """The first chunk of chat events a game's chat stream sends from its start."""
    r = client.get(f"/games/{gid}/chat/stream", headers={**headers, "Last-Event-ID": "0-0"}, buffered=False)
    assert r.status_code == 200
    try:
        for chunk in r.response:
            if b"event: chat" in chunk:
                return chunk.decode()
    finally:
        r.close()
    return ""


def _first_stream_chunk(client, gid, headers):
    r = client.get(f"/games/{gid}/stream", headers=headers, buffered=False)
    try:
        return next(iter(r.response)).decode()
    finally:
        r.close()


@pytest.mark.parametrize("game,n", FEWEST_SEATS)
def test_the_spectators_chat_never_reaches_a_seat_during_play(app, game, n):
    """Chat (issue 53): a spectators' message reaches no seated viewer while the game is played,
    on any channel (the game, its history, its chat read and live, its live stream, the player
    stream and sync), whether the seat is held by a player's key or a seat's token; once the
    game is over it is everyone's to read."""
    client = sampled_client(app)
    keyed = client.post("/players", json={"name": "Seated"}).get_json()
    watcher = client.post("/players", json={"name": "Watcher"}).get_json()
    created = client.post("/games", json={"type": game.name, "options": short_options(game),
                                          "seats": [{"me": True}] + [{"name": f"P{i}"} for i in range(1, n)]},
                          headers=auth(keyed["key"])).get_json()
    gid = created["id"]
    needle = f"psst-{uuid.uuid4().hex[:8]}"
    r = client.post(f"/games/{gid}/chat", json={"text": f"{needle} play the left one"}, headers=auth(watcher["key"]))
    assert r.status_code == 201 and r.get_json()["channel"].endswith(":spectators")
    assert client.post(f"/games/{gid}/chat", json={"text": "gl"}, headers=auth(keyed["key"])).status_code == 201
    seated = [auth(keyed["key"])] + [auth(s["token"]) for s in created["seats"] if s.get("token")]
    seated.append(auth(created["table_token"]))
    assert len(seated) == n + 2  # the key, each seat's token (the creator's too), the table token
    for headers in seated:
        said = [client.get(f"/games/{gid}", headers=headers).get_data(as_text=True),
                client.get(f"/games/{gid}/events?after=0&limit=1000", headers=headers).get_data(as_text=True),
                client.get(f"/games/{gid}/chat", headers=headers).get_data(as_text=True),
                client.get(f"/games/{gid}/chat?channel=spectators", headers=headers).get_data(as_text=True),
                _chat_frames(client, gid, headers), _first_stream_chunk(client, gid, headers)]
        assert "gl" in said[2] and "gl" in said[4]  # what they may read, they read
        assert not [s for s in said if needle in s], "a seated viewer received the spectators' chat"
    inbox = app.extensions["players"].inbox_after(keyed["id"], "0-0", 1000)
    sync = client.get("/players/me/sync", headers=auth(keyed["key"])).get_data(as_text=True)
    assert needle not in json.dumps([e for _, e in inbox]) and needle not in sync
    # spectators read it; once the game is over, so does everyone
    assert needle in client.get(f"/games/{gid}/chat").get_data(as_text=True)
    for headers in seated[1:n + 1]:  # each seat resigns (abort is refused in some games' first round)
        if app.extensions["games"].load(gid).finished:
            break
        client.post(f"/games/{gid}/resign", headers=headers)
    assert app.extensions["games"].load(gid).finished
    assert needle in client.get(f"/games/{gid}/chat?channel=spectators", headers=seated[1]).get_data(as_text=True)
