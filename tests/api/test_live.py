"""The live path in-process (the Flask test client, the hub's reader as a thread, real Redis):
what a stream sends and when, redaction once per viewer, stream tickets, limits, CORS."""
from __future__ import annotations

import json
import time
import uuid

import pytest

from tests.api.helpers import auth, create, move, tokens
from tests.conftest import wait_for


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"live{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.2, "SSE_MAX_SECONDS": 30, "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "SSE_MAX_STREAMS": 12, "SSE_MAX_STREAMS_PER_ADDRESS": 10, "SSE_MAX_STREAMS_PER_SEAT": 8,
                      "CORS_ORIGINS": ""})
    app.test_client_class = SpecCheckingClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


class Stream:
    """One open stream of the test client, read frame by frame."""

    def __init__(self, client, gid, token=None, last_id=None, query=""):
        headers = dict(auth(token))
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.response = client.get(f"/games/{gid}/stream{query}", headers=headers, buffered=False)
        self.chunks = iter(self.response.response)
        self.buffer = ""

    @property
    def status(self):
        return self.response.status_code

    def next(self, kinds=("state", "game_event", "end")):
        """The next event (kind, id, data) of one of `kinds`, skipping comments and others."""
        while True:
            while "\n\n" not in self.buffer:
                chunk = next(self.chunks)
                self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            block, self.buffer = self.buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
            if fields.get("event") in kinds:
                return fields["event"], int(fields["id"]) if "id" in fields else None, json.loads(fields["data"])

    def close(self):
        self.response.close()


def _play_round(app, client, gid, t):
    """Both seats bid, the system scores (two events: scored, dealt): 4 versions."""
    service = app.extensions["games"]
    version = service.load(gid).version
    for seat in (0, 1):
        r = move(client, gid, t[seat], {"type": "bid", "chips": 1}, version)
        assert r.status_code == 201, r.get_json()
        version = r.get_json()["version"]
    from workers.jobs import play_turn

    assert play_turn(service, gid, version, "system") == "played"
    return service.load(gid).version


def test_each_game_event_carries_to_act_and_is_what_the_history_shows(app, client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    streams = {viewer: Stream(client, gid, t.get(viewer)) for viewer in (0, 1, None)}
    try:
        for s in streams.values():
            kind, id_, _ = s.next()
            assert (kind, id_) == ("state", created["version"])
        end = _play_round(app, client, gid, t)
        for viewer, s in streams.items():
            history = client.get(f"/games/{gid}/events?after={created['version']}",
                                 headers=auth(t.get(viewer))).get_json()["events"]
            got = [s.next() for _ in history]
            assert [e[1] for e in got] == list(range(created["version"] + 1, end + 1))
            for (kind, id_, data), shown in zip(got, history):
                to_act = data.pop("to_act")
                assert kind == "game_event" and data == shown
                version = app.extensions["games"].at_version(gid, id_)
                assert to_act == version.actors()
    finally:
        for s in streams.values():
            s.close()


def test_each_event_is_redacted_once_per_distinct_viewer(app, client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    hub = app.extensions["live"].hub
    # 3 streams as seat 0, 2 as seat 1, 4 spectators: three viewers
    viewers = [0, 0, 0, 1, 1, None, None, None, None]
    streams = [Stream(client, gid, t.get(v)) for v in viewers]
    try:
        for s in streams:
            s.next()
        before = hub.renders
        end = _play_round(app, client, gid, t)
        for s in streams:
            for _ in range(end - created["version"]):
                assert s.next()[0] == "game_event"
        assert hub.renders - before == 3 * (end - created["version"])
    finally:
        for s in streams:
            s.close()
    assert hub.watched() == 0 or gid not in hub._feeds  # the last stream closed: not followed


def test_resuming_mid_game_from_the_ring_and_from_before_it(app, client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    watcher = Stream(client, gid, t[0])
    try:
        watcher.next()  # the feed follows the game from here
        end = _play_round(app, client, gid, t)
        wait_for(lambda: app.extensions["live"].hub._feeds[gid].version == end)
        for last_id in (0, 1, created["version"], end - 1):  # from before the feed began, and within
            s = Stream(client, gid, t[0], last_id=last_id)
            try:
                got = [s.next() for _ in range(end - last_id)]
            finally:
                s.close()
            assert [e[1] for e in got] == list(range(last_id + 1, end + 1))
            history = client.get(f"/games/{gid}/events?after={last_id}", headers=auth(t[0])).get_json()["events"]
            assert [{k: v for k, v in e[2].items() if k != "to_act"} for e in got] == history
    finally:
        watcher.close()


def test_a_crowd_resuming_on_a_new_feed_reads_the_store_once_and_each_sees_its_own(app, client):
    """Every stream of a game reconnecting at once (a server restart, a network blip) to a
    process that let the game's feed go: the first resume's page from the store fills the ring,
    the others read it; each viewer still sees only what it may (as its history shows it)."""
    created = create(client)
    gid, t = created["id"], tokens(created)
    hub = app.extensions["live"].hub
    first = Stream(client, gid, t[0])
    first.next()
    start = created["version"]
    end = _play_round(app, client, gid, t)
    wait_for(lambda: hub._feeds[gid].version == end)
    first.close()
    wait_for(lambda: gid not in hub._feeds)  # no stream left: the feed is gone
    viewers = [0, 0, 0, None, None]
    before = hub.renders
    streams = [Stream(client, gid, t.get(v), last_id=start) for v in viewers]
    try:
        got = [[s.next() for _ in range(end - start)] for s in streams]
    finally:
        for s in streams:
            s.close()
    assert hub.renders - before == 2 * (end - start)  # once per distinct viewer, not per stream
    for v, events in zip(viewers, got):
        assert [e[1] for e in events] == list(range(start + 1, end + 1))
        history = client.get(f"/games/{gid}/events?after={start}", headers=auth(t.get(v))).get_json()["events"]
        assert [{k: v for k, v in e[2].items() if k != "to_act"} for e in events] == history
    assert got[0] != got[3]  # the seat and the spectators were shown different things


def test_a_finished_game_ends_the_stream_and_a_reconnect_after_end_is_204(app, client):
    created = create(client, options={"rounds": 1})
    gid, t = created["id"], tokens(created)
    s = Stream(client, gid)
    try:
        s.next()
        end = _play_round(app, client, gid, t)
        events = []
        while True:
            events.append(s.next())
            if events[-1][0] == "end":
                break
    finally:
        s.close()
    assert events[-1][1] == end and events[-1][2]["version"] == end and events[-1][2]["result"]
    assert events[-2][2]["to_act"] == []
    # once over, everything is open: the last round's cards are shown to a spectator
    r = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": str(end)})
    assert r.status_code == 204 and r.data == b""
    again = Stream(client, gid, last_id=end - 1)
    try:
        assert again.next()[1] == end and again.next()[0] == "end"
    finally:
        again.close()


def test_a_ticket_opens_one_stream_as_its_seat(app, client, redis_client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    r = client.post(f"/games/{gid}/stream-tickets", headers=auth(t[1]))
    assert r.status_code == 201, r.get_json()
    answer = r.get_json()
    assert answer["seat"] == 1 and answer["expires_in"] == 60
    assert answer["stream"] == f"/games/{gid}/stream?ticket={answer['ticket']}"
    prefix = app.config["KEY_PREFIX"]
    [key] = list(redis_client.scan_iter(match=f"{prefix}game:{{{gid}}}:ticket:*"))
    assert 0 < redis_client.ttl(key) <= 60 and answer["ticket"].encode() not in key
    s = Stream(client, gid, query=f"?ticket={answer['ticket']}")
    try:
        kind, _, state = s.next()
        assert kind == "state" and state["you"] == 1 and state["view"]["hand"]
    finally:
        s.close()
    r = client.get(answer["stream"])
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"  # single use
    r = client.get(answer["stream"], headers={"Last-Event-ID": str(created["version"])})
    assert r.status_code == 401  # an EventSource's own reconnect mid-game: a new ticket is needed
    # the table token names the seat; without a token there is no ticket
    r = client.post(f"/games/{gid}/stream-tickets?seat=0", headers=auth(created["table_token"]))
    assert r.status_code == 201 and r.get_json()["seat"] == 0
    assert client.post(f"/games/{gid}/stream-tickets").status_code == 401
    # a ticket is for its own game; a token or ?seat= sent with it must name the ticket's seat
    other = create(client)
    r = client.get(f"/games/{other['id']}/stream?ticket={r.get_json()['ticket']}")
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"
    ticket = client.post(f"/games/{gid}/stream-tickets", headers=auth(t[0])).get_json()["ticket"]
    r = client.get(f"/games/{gid}/stream?ticket={ticket}", headers=auth(t[1]))
    assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours"
    ticket = client.post(f"/games/{gid}/stream-tickets", headers=auth(t[0])).get_json()["ticket"]
    r = client.get(f"/games/{gid}/stream?ticket={ticket}&seat=1")
    assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours"
    ticket = client.post(f"/games/{gid}/stream-tickets", headers=auth(t[0])).get_json()["ticket"]
    r = client.get(f"/games/{gid}/stream?ticket={ticket}&seat=0", headers=auth(t[0]))
    try:
        assert r.status_code == 200  # the token and ?seat= agree with the ticket: redundant, not wrong
    finally:
        r.close()


def test_stream_limits_per_address_per_seat_and_per_process(app, client):
    limits = app.extensions["live"].limits
    assert limits.open == 0
    created = create(client)
    gid, t = created["id"], tokens(created)
    opened = [Stream(client, gid) for _ in range(10)]  # the address's 10
    try:
        assert all(s.status == 200 for s in opened)
        r = client.get(f"/games/{gid}/stream")
        assert r.status_code == 429 and r.get_json()["code"] == "too_many_streams"
        assert r.headers["Retry-After"] == "10" and r.get_json()["details"]["ratelimit"]["key"] == "address"
        # a seat's token is counted by seat, not address: two more fit the process's 12
        opened += [Stream(client, gid, t[0]) for _ in range(2)]
        assert all(s.status == 200 for s in opened)
        r = client.get(f"/games/{gid}/stream", headers=auth(t[1]))
        assert r.status_code == 503 and r.get_json()["code"] == "streams_full" and r.headers["Retry-After"] == "5"
        # moves are not affected
        assert move(client, gid, t[0], {"type": "bid", "chips": 0}, created["version"]).status_code == 201
        opened.pop().close()
        assert limits.open == 11
        opened.append(Stream(client, gid, t[1]))
        assert opened[-1].status == 200
    finally:
        for s in opened:
            s.close()
    assert limits.open == 0


def test_a_seat_holds_eight_streams_and_no_more_than_its_limit(app, client):
    created = create(client)
    gid, t = created["id"], tokens(created)
    opened = [Stream(client, gid, t[0]) for _ in range(8)]
    try:
        assert all(s.status == 200 for s in opened)
        r = client.get(f"/games/{gid}/stream", headers=auth(t[0]))
        assert r.status_code == 429 and r.get_json()["details"]["ratelimit"]["key"] == "seat"
    finally:
        for s in opened:
            s.close()


def test_a_stream_that_never_started_gives_its_slot_back(app, client):
    limits = app.extensions["live"].limits
    created = create(client)
    before = limits.open
    r = client.get(f"/games/{created['id']}/stream", buffered=False)
    assert limits.open == before + 1
    r.close()  # before reading a byte
    assert limits.open == before


def test_unknown_games_and_bad_tokens_are_refused_before_a_slot(app, client):
    limits = app.extensions["live"].limits
    assert client.get("/games/nope/stream").status_code == 404
    created = create(client)
    r = client.get(f"/games/{created['id']}/stream", headers=auth("x.0.bad"))
    assert r.status_code == 401
    assert limits.open == 0 or limits.open < limits.per_process


def test_a_head_request_answers_the_headers_and_holds_nothing(app, client):
    created = create(client)
    before = app.extensions["live"].limits.open
    r = client.head(f"/games/{created['id']}/stream")
    assert r.status_code == 200 and r.mimetype == "text/event-stream" and r.data == b""
    assert app.extensions["live"].limits.open == before


def test_a_crowd_arriving_at_once_is_spread_over_seconds(redis_url, monkeypatch):
    """Five opens a second: the sixth at once is refused, one a second later admitted. The limit's
    clock stands still while the five open (on a loaded host, opening them can take over a second)."""
    from types import SimpleNamespace

    from api.live import stream_limits
    from app import create_app

    clock = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(stream_limits, "time", SimpleNamespace(monotonic=lambda: clock.now))
    prefix = f"busy{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "SSE_OPENS_PER_S": 5, "SSE_KEEPALIVE_S": 0.2})
    client = app.test_client()
    created = create(client)
    opened = [Stream(client, created["id"]) for _ in range(5)]
    try:
        assert all(s.status == 200 for s in opened)
        r = client.get(f"/games/{created['id']}/stream")
        assert r.status_code == 503 and r.get_json()["code"] == "streams_busy" and r.headers["Retry-After"] == "1"
        assert move(client, created["id"], tokens(created)[0], {"type": "bid", "chips": 1},
                    created["version"]).status_code == 201  # moves are not counted
        clock.now += 1.1
        opened.append(Stream(client, created["id"]))
        assert opened[-1].status == 200
    finally:
        for s in opened:
            s.close()


def test_the_hub_reader_waits_longer_than_its_block_on_a_connection_of_its_own(app, client):
    """A socket timeout shorter than the XREAD's BLOCK would fail every quiet read; none at all
    would leave the reader stuck on a peer that vanished without a reset."""
    hub = app.extensions["live"].hub
    stream = Stream(client, create(client)["id"])
    try:
        assert stream.next()[0] == "state"
        kwargs = hub._follower.redis.connection_pool.connection_kwargs
        assert hub.block_ms / 1000 < kwargs["socket_timeout"] <= hub.block_ms / 1000 + 30
        assert kwargs["client_name"].endswith("-reader")
        assert hub._follower.redis.connection_pool is not hub.store.redis.connection_pool
    finally:
        stream.close()


def test_while_events_flow_the_reader_gathers_them_into_fewer_reads(app, client, monkeypatch):
    """Each read names every watched game, so the reader reads at most every LIVE_GATHER_MS while
    events flow (one read brings the events of every game that moved meanwhile); nothing is lost."""
    hub = app.extensions["live"].hub
    assert hub.gather_s == 0.02  # LIVE_GATHER_MS's default
    games = [create(client) for _ in range(2)]
    streams = [Stream(client, g["id"]) for g in games]
    reads = []
    try:
        for s in streams:
            assert s.next()[0] == "state"
        follower = hub._follower
        real_read = follower.read

        def timed_read(*args, **kwargs):
            # a read is noted when it starts (a blocking read still waiting counts): on a loaded
            # host one read may bring every event, and the next one, started after it, is what
            # the spacing is measured against (stop 66: a full run at load 20 saw no pair)
            read = [time.monotonic(), False]
            reads.append(read)
            found = real_read(*args, **kwargs)
            read[1] = bool(found[0])
            return found

        monkeypatch.setattr(follower, "read", timed_read)
        ends = [_play_round(app, client, g["id"], tokens(g)) for g in games for _ in range(2)][1::2]
        for s, g, end in zip(streams, games, ends):
            ids = [s.next()[1] for _ in range(end - g["version"])]
            assert ids == list(range(g["version"] + 1, end + 1))
        # the read after the last one that found events has started (within LIVE_GATHER_MS)
        wait_for(lambda: any(a[1] for a in reads[:-1]), timeout=30)
    finally:
        for s in streams:
            s.close()
    spaced = [b[0] - a[0] for a, b in zip(reads, reads[1:]) if a[1]]
    assert spaced and min(spaced) >= 0.019
