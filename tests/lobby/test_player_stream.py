"""The player's stream tells each player, across its games, when it is its turn, when seats are
claimed, when a game starts and ends; it resumes from Last-Event-ID and opens with a ticket."""
from __future__ import annotations

import json
import uuid

from tests.api.helpers import auth, move, read
from tests.lobby.helpers import claim, open_game, player


class Stream:
    def __init__(self, client, url, headers=None):
        self.response = client.get(url, headers=headers or {}, buffered=False)
        assert self.response.status_code == 200, self.response.get_data()
        self.chunks, self.buffer = iter(self.response.response), ""

    def next(self):
        """The next event (kind, id, data), skipping comments."""
        while True:
            while "\n\n" not in self.buffer:
                chunk = next(self.chunks)
                self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            block, self.buffer = self.buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
            if "event" in fields:
                return fields["event"], fields.get("id"), json.loads(fields["data"])

    def until(self, kind, game_id):
        seen = []
        for _ in range(50):
            event = self.next()
            seen.append(event)
            if event[0] == kind and event[2]["game_id"] == game_id:
                return seen
        raise AssertionError(f"no {kind}: {seen}")

    def close(self):
        self.response.close()


def test_the_player_stream_tells_whose_turn_it_is(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    ann_stream = Stream(client, "/players/me/stream", auth(ann["key"]))
    ticket = client.post("/players/me/stream-tickets", headers=auth(bob["key"])).get_json()
    bob_stream = Stream(client, ticket["stream"])
    try:
        gid = open_game(client, ann["key"])["id"]
        claim(client, gid, 1, bob["key"])
        got = ann_stream.until("your_turn", gid)
        kinds = [k for k, _, d in got if d["game_id"] == gid]
        assert kinds == ["seat_claimed", "game_started", "your_turn"]
        assert got[-1][2]["seat"] == 0 and got[-1][2]["game_type"] == "splendor"
        assert [k for k, _, d in bob_stream.until("game_started", gid)][-2:] == ["seat_claimed", "game_started"]
        version = read(client, gid)["version"]
        legal = client.get(f"/games/{gid}/moves", headers=auth(ann["key"])).get_json()["moves"]
        assert move(client, gid, ann["key"], legal[0], version, uuid.uuid4().hex).status_code == 201
        turn = bob_stream.until("your_turn", gid)[-1]
        assert turn[2]["seat"] == 1 and turn[2]["version"] == version + 1
        legal = client.get(f"/games/{gid}/moves", headers=auth(bob["key"])).get_json()["moves"]
        assert move(client, gid, bob["key"], legal[0], version + 1, uuid.uuid4().hex).status_code == 201
    finally:
        ann_stream.close()
        bob_stream.close()
    # Resumable: from an id, what came after it and nothing twice; not the `your_turn` Ann has
    # played since (its game moved past it), but the one she has now.
    first_id = got[0][1]
    again = Stream(client, "/players/me/stream", {**auth(ann["key"]), "Last-Event-ID": first_id})
    try:
        told = [again.next(), again.next()]
        assert [(e[0], e[2]["version"]) for e in told] == [("game_started", version), ("your_turn", version + 2)]
    finally:
        again.close()
    # A ticket opens one stream, once.
    r = client.get(ticket["stream"])
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"


def test_an_older_your_turn_written_after_a_newer_is_never_sent(client, app):
    """Issue 49 (5): a move's notices are written after its answer, so a slower process may write
    a move's `your_turn` after the next move's. Here written late on purpose (the feed given the
    game as it was two moves ago): the live stream and a resume from the start pass over it, and
    a device's push never sends it (Players.stale_turns; workers/push/sending.py)."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    games = app.extensions["services"].service
    feed = app.extensions["services"].listeners[0]
    stream = Stream(client, "/players/me/stream", auth(ann["key"]))
    try:
        claim(client, gid, 1, bob["key"])
        before = games.load(gid)  # Ann to act
        assert stream.until("your_turn", gid)[-1][2]["version"] == before.version
        for key, at in ((ann["key"], before.version), (bob["key"], before.version + 1)):
            legal = client.get(f"/games/{gid}/moves", headers=auth(key)).get_json()["moves"]
            assert move(client, gid, key, legal[0], at, uuid.uuid4().hex).status_code == 201
        assert stream.until("your_turn", gid)[-1][2]["version"] == before.version + 2
        feed(before, [])  # the late one: Ann's turn at the version she has played since
        feed(games.load(gid), [])  # then the current one again, as a marker
        kind, _, data = stream.next()
        assert (kind, data["version"]) == ("your_turn", before.version + 2), "the older one was passed over"
    finally:
        stream.close()
    again = Stream(client, "/players/me/stream", {**auth(ann["key"]), "Last-Event-ID": "0"})
    try:
        turns = []
        for _ in range(6):
            kind, _, data = again.next()
            if kind == "your_turn":
                turns.append(data["version"])
            if len(turns) == 2:
                break
        assert turns == [before.version + 2] * 2, "neither the played one nor the late one"
    finally:
        again.close()


def test_a_resume_from_the_ring_replays_no_your_turn_its_game_has_moved_past(client):
    """Issue 54: a phone reconnects with Last-Event-ID while another stream of its player (a
    second device, or its own connection not yet closed) keeps the hub's ring of the inbox. The
    ring's `your_turn` was fresh when read, but Ann has played it since: the resume replays the
    turn she has now, not that one (api/live/fanout.py's replay)."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    kept = Stream(client, "/players/me/stream", auth(ann["key"]))  # keeps the ring
    try:
        claim(client, gid, 1, bob["key"])
        got = kept.until("your_turn", gid)
        before, played = got[-2][1], got[-1][2]["version"]  # the id before the turn, the turn's version
        for key, at in ((ann["key"], played), (bob["key"], played + 1)):
            legal = client.get(f"/games/{gid}/moves", headers=auth(key)).get_json()["moves"]
            assert move(client, gid, key, legal[0], at, uuid.uuid4().hex).status_code == 201
        assert kept.until("your_turn", gid)[-1][2]["version"] == played + 2
        resumed = Stream(client, "/players/me/stream", {**auth(ann["key"]), "Last-Event-ID": before})
        try:
            turns = []
            for _ in range(10):
                kind, _, data = resumed.next()
                if kind == "your_turn":
                    turns.append(data["version"])
                if turns:
                    break
            assert turns == [played + 2], "the turn played since is not replayed"
        finally:
            resumed.close()
    finally:
        kept.close()


def test_the_player_stream_refuses_bad_requests(client):
    ann = player(client)
    assert client.get("/players/me/stream").status_code == 401
    r = client.get("/players/me/stream", headers={**auth(ann["key"]), "Last-Event-ID": "²"})
    assert r.status_code == 400
    r = client.get("/players/me/stream?ticket=nope")
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"


def test_a_key_sent_beside_a_ticket_must_be_the_ticket_s_player_s(client):
    """The ticket is the credential; a key beside it is redundant: its own player's opens the
    stream, another player's is refused (the ticket spent), a bad one is 401 before the ticket is spent."""
    ann, bob = player(client, "Ann"), player(client, "Bob")

    def ticket(who):
        return client.post("/players/me/stream-tickets", headers=auth(who["key"])).get_json()["stream"]

    mine = client.get(ticket(ann), headers=auth(ann["key"]), buffered=False)
    assert mine.status_code == 200
    mine.close()
    theirs = client.get(ticket(ann), headers=auth(bob["key"]))
    assert theirs.status_code == 401 and theirs.get_json()["code"] == "invalid_ticket"
    kept = ticket(ann)
    assert client.get(kept, headers=auth("pk.nonsense")).status_code == 401
    opened = client.get(kept, buffered=False)
    assert opened.status_code == 200  # the bad key did not spend it
    opened.close()


def test_an_abandoned_game_is_told_to_its_players_and_leaves_the_lobby(redis_url):
    """The reconciler's abandoning (its own prefix here: it ends every idle game it finds)."""
    import time
    import uuid as uuid_

    from app import create_app
    from workers.abandon import abandon_idle

    prefix = f"abandonlobby{uuid_.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_SECONDS": 5, "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "DEFER_AFTER_APPEND": False})
    client = app.test_client()
    ann = player(client)
    gid = open_game(client, ann["key"])["id"]
    assert gid in [g["id"] for g in client.get("/games?status=waiting").get_json()["games"]]
    stream = Stream(client, "/players/me/stream", auth(ann["key"]))
    try:
        service = app.extensions["games"]
        assert abandon_idle(service, 0, now_ms=int(time.time() * 1000) + 10_000) == 1
        kind, _, data = stream.until("game_finished", gid)[-1]
        assert data["status"] == "abandoned"
    finally:
        stream.close()
    assert client.get("/games?status=waiting").get_json()["games"] == []
    assert read(client, gid)["status"] == "abandoned"


def test_a_players_streams_share_one_followed_inbox_framed_once(client, app):
    """Five connections of one player: one inbox followed by the process's hub reader (no
    polling per connection), each entry framed once (per language) and the same bytes sent to all five."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    hub = app.extensions["live"].hub
    streams = [Stream(client, "/players/me/stream", auth(ann["key"])) for _ in range(5)]
    try:
        ann_id = client.get("/players/me", headers=auth(ann["key"])).get_json()["id"]
        inbox = hub._inboxes[ann_id]
        assert inbox.subscribers == 5
        gid = open_game(client, ann["key"])["id"]
        claim(client, gid, 1, bob["key"])
        got = [s.until("your_turn", gid) for s in streams]
        assert all(g == got[0] for g in got)
        frames = {id(frame) for _, _, _, by_lang in inbox.entries for frame in by_lang.values()}
        assert len(frames) == len(inbox.entries) >= 3  # one frame per entry (one language), shared
    finally:
        for s in streams:
            s.close()
    assert ann_id not in hub._inboxes  # the last one closed: the reader no longer follows it


def test_the_player_stream_speaks_its_language(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    ko = Stream(client, "/players/me/stream?lang=ko", auth(ann["key"]))
    en = Stream(client, "/players/me/stream", auth(ann["key"]))
    try:
        gid = open_game(client, ann["key"])["id"]
        claim(client, gid, 1, bob["key"])
        said = {lang: {k: d for k, _, d in s.until("your_turn", gid) if d["game_id"] == gid}
                for lang, s in (("ko", ko), ("en", en))}
    finally:
        ko.close()
        en.close()
    assert said["en"]["your_turn"]["text"] == "Splendor: it is your turn."
    assert said["ko"]["your_turn"]["text"] == "스플렌더: 내 차례입니다."
    assert said["en"]["seat_claimed"]["text"] == "Splendor: Bob took a seat."
    assert said["ko"]["seat_claimed"]["message"]["args"]["name"] == {"kind": "player", "seat": 1, "text": "Bob"}
