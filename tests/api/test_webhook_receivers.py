"""Receivers that misbehave, for real on 127.0.0.1: one that trickles its answer a byte at a
time, one that hangs after its headers, one that sends a body without end, a name server that
never answers; and the answers Standard Webhooks gives a meaning (410 Gone, 429 and 503 with
Retry-After), read by a delivery."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import time
import uuid
from email.utils import formatdate

import pytest

from api.webhooks import sender
from api.webhooks.addresses import Policy
from api.webhooks.sender import BODY_CAP, EXCERPT_BYTES, Connections
from api.webhooks.signing import new_secret
from tests import fakes
from tests.api.helpers import auth, create
from tests.api.test_webhooks import subscribe
from tests.api.webhook_receiver import Receiver

LOOPBACK = Policy(allow_loopback=True)


class RawReceiver:
    """A TCP server that reads each request, then runs `answer(connection)`: anything a
    receiver may do, byte by byte. It stops answering after `for_s` at most (so a client with
    no deadline is held that long, not forever)."""

    def __init__(self, answer, for_s: float = 8.0, tls: ssl.SSLContext | None = None):
        self.tls = tls
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        port = self.listener.getsockname()[1]
        self.url = f"https://localhost:{port}/hook" if tls else f"http://127.0.0.1:{port}/hook"
        self.answer = answer
        self.until = time.monotonic() + for_s
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn):
        if self.tls:
            conn = self.tls.wrap_socket(conn, server_side=True)
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(next((line.split(b":")[1] for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length")), b"0"))
            while len(body) < length:
                body += conn.recv(65536)
            self.requests += 1
            try:
                self.answer(conn, self)
            except OSError:
                pass  # the client gave up: what the tests want

    def running(self) -> bool:
        return time.monotonic() < self.until

    def close(self):
        self.listener.close()


def trickle(data: bytes, every_s: float):
    def answer(conn, server):
        for i in range(len(data)):
            if not server.running():
                return
            conn.sendall(data[i:i + 1])
            time.sleep(every_s)
    return answer


def headers_then(rest):
    def answer(conn, server):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
        rest(conn, server)
    return answer


def hang(conn, server):
    while server.running():
        time.sleep(0.05)


def endless_chunks(conn, server):
    conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (16384, b"x" * 16384)
    while server.running():
        conn.sendall(chunk)


@pytest.fixture
def raw():
    made = []

    def make(answer, for_s=8.0, tls=None):
        made.append(RawReceiver(answer, for_s, tls))
        return made[-1]
    yield make
    for server in made:
        server.close()


def _timed_post(connections, url):
    started = time.monotonic()
    outcome = connections.post(url, b"{}", {})
    return outcome, time.monotonic() - started


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_receiver_trickling_its_answer_is_cut_off_at_the_deadline(raw):
    """One byte every 0.2 s never trips a 1 s socket timeout: the deadline (1.5 s) ends it."""
    server = raw(trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Slow: " + b"x" * 200 + b"\r\n\r\n", 0.2))
    connections = Connections(LOOPBACK, timeout_s=1, deadline_s=1.5)
    outcome, took = _timed_post(connections, server.url)
    assert not outcome.ok and outcome.status is None
    assert outcome.error == "timeout: past the attempt's 1.5 s deadline"
    assert 1.4 <= took < 2.5 and connections._open == {}


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_receiver_trickling_its_body_is_cut_off_at_the_deadline(raw):
    server = raw(headers_then(trickle(b"y" * 100, 0.2)))
    outcome, took = _timed_post(Connections(LOOPBACK, timeout_s=1, deadline_s=1.5), server.url)
    assert not outcome.ok and outcome.status == 200 and outcome.error.startswith("timeout: past")
    assert 1.4 <= took < 2.5


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_receiver_hanging_after_its_headers_fails_after_the_idle_timeout(raw):
    server = raw(headers_then(hang))
    outcome, took = _timed_post(Connections(LOOPBACK, timeout_s=0.5, deadline_s=10), server.url)
    assert not outcome.ok and outcome.status == 200 and outcome.error == "timeout: silent for 0.5 s"
    assert 0.4 <= took < 1.5


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_body_without_end_is_read_up_to_the_cap_only(raw):
    server = raw(endless_chunks)
    connections = Connections(LOOPBACK, timeout_s=1, deadline_s=5)
    outcome, took = _timed_post(connections, server.url)
    assert outcome.ok and outcome.status == 200 and outcome.excerpt == "x" * EXCERPT_BYTES
    assert took < 1 and connections._open == {}  # not read to its end: the connection is closed
    assert BODY_CAP == 64 * 1024


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_body_within_the_cap_is_read_whole_and_the_connection_kept(raw):
    def answer(conn, server):
        for _ in range(2):  # two requests on the kept connection
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                         + b"%x\r\n%s\r\n0\r\n\r\n" % (20000, b"z" * 20000))
            conn.recv(65536)

    server = raw(answer)
    connections = Connections(LOOPBACK, timeout_s=1, deadline_s=5)
    first = connections.post(server.url, b"{}", {})
    assert first.ok and first.excerpt == "z" * EXCERPT_BYTES and len(connections._open) == 1
    assert connections.post(server.url, b"{}", {}).ok and server.requests == 1  # the same connection
    connections.close()


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_an_answer_that_closes_the_connection_is_read_to_its_end(raw):
    """http.client closes a `Connection: close` answer's connection before its body is read:
    the body, sent a little later, is still read (the reader holds the socket open)."""
    def answer(conn, server):
        conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 9\r\n\r\n")
        time.sleep(0.2)
        conn.sendall(b"late body")

    connections = Connections(LOOPBACK, timeout_s=1, deadline_s=5)
    outcome = connections.post(raw(answer).url, b"{}", {})
    assert outcome.ok and outcome.excerpt == "late body" and connections._open == {}


def resetting(conn, server):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST on close


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_receiver_resetting_the_connection_fails_the_attempt_at_once(raw):
    server = raw(resetting)
    outcome, took = _timed_post(Connections(LOOPBACK, timeout_s=1, deadline_s=5), server.url)
    assert not outcome.ok and outcome.status is None and "ConnectionResetError" in outcome.error and took < 0.5


@pytest.fixture
def tls(tmp_path, monkeypatch):
    """A self-signed certificate for localhost, which the sender is made to trust: (the
    server's context)."""
    if not shutil.which("openssl"):
        pytest.skip("no openssl to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(sender, "_tls", lambda: trusting)  # the sender's context, made at its first use
    return server


@pytest.mark.process
def test_over_tls_an_answer_is_read_and_a_trickler_cut_off_alike(raw, tls):
    def answer(conn, server):
        conn.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")

    connections = Connections(LOOPBACK, timeout_s=1, deadline_s=1.5)
    assert connections.post(raw(answer, tls=tls).url, b"{}", {}).ok and len(connections._open) == 1
    connections.close()
    trickler = raw(trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Slow: " + b"x" * 200 + b"\r\n\r\n", 0.2),
                   tls=tls)
    outcome, took = _timed_post(connections, trickler.url)
    assert outcome.error == "timeout: past the attempt's 1.5 s deadline" and 1.4 <= took < 2.5


def test_a_name_that_never_resolves_costs_one_idle_timeout():
    def silent_name_server(host, port, type=0):
        time.sleep(5)
        raise OSError("too late")

    connections = Connections(Policy(), timeout_s=0.3, deadline_s=10, lookup=silent_name_server)
    outcome, took = _timed_post(connections, "https://hooks.example.com/x")
    assert not outcome.ok and "no answer within 0.3 s" in outcome.error and took < 1


# ---- the answers' meaning, in a delivery -------------------------------------------------------

class Answering(Receiver):
    """The test receiver, but a path in `answers` gets that (status, headers) every time."""

    def __init__(self):
        super().__init__()
        self.answers: dict[str, tuple] = {}

    def handle(self, handler, body: bytes) -> None:
        if handler.path not in self.answers:
            return super().handle(handler, body)
        with self.lock:
            self.attempts[handler.path].append(handler.headers.get("webhook-id"))
        status, headers = self.answers[handler.path]
        handler.send_response(status)
        for name, value in {"Content-Length": "4", **headers}.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(b"gone" if status == 410 else b"busy")


@pytest.fixture
def alone(redis_url):
    """An app whose webhook queue no worker serves: the test runs deliveries itself."""
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"whr{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "DEFER_AFTER_APPEND": False})
    app.test_client_class = SpecCheckingClient
    return app, prefix


@pytest.fixture
def answering():
    r = Answering()
    yield r
    r.close()


def _deliveries(redis_client, prefix, **settings):
    return fakes.deliveries(redis_client, prefix, **{"webhook_timeout_s": 2, "webhook_retry_base_s": 0.05,
                                                     "webhook_retry_max_s": 3600, "webhook_allow_loopback": True,
                                                     **settings})


def _subscribed(app, receiver: Answering, path: str, status: int, headers: dict):
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=2)
    secret = new_secret()
    sub = subscribe(client, game["table_token"], receiver.route(path, secret), secret)
    receiver.answers[path] = (status, headers)
    return client, game, sub


def test_a_410_disables_the_subscription_at_once(alone, answering, redis_client):
    app, prefix = alone
    client, game, sub = _subscribed(app, answering, "/gone", 410, {})
    deliveries = _deliveries(redis_client, prefix)
    assert deliveries.deliver(sub["id"], game["id"]) == "disabled"
    assert len(answering.attempts["/gone"]) == 1  # not retried
    shown = client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"][0]
    assert shown["status"] == "disabled" and "410 Gone" in shown["disabled_reason"]
    assert deliveries.subs.covering(game["id"]) == [] and deliveries.subs.retries_waiting() == 0
    assert deliveries.deliver(sub["id"], game["id"]) == "inactive"
    tried = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(game["table_token"])).get_json()
    assert tried["deliveries"][0]["response_code"] == 410 and tried["deliveries"][0]["response_excerpt"] == "gone"


def _next_at_s(deliveries, game, sub) -> float:
    """How long from now the subscription waits before its next attempt."""
    return deliveries.subs.progress(game["id"], sub["id"]).next_at / 1000 - time.time()


@pytest.mark.parametrize(("status", "retry_after", "waits"), [
    (429, "30", 30),  # seconds
    (503, "http-date:45", 45),  # an HTTP date
    (429, "86400", 600),  # bounded by the maximum back-off
    (503, None, None),  # no Retry-After: the (jittered) back-off from 0.05 s
])
def test_a_429_or_503_is_retried_when_its_retry_after_says(alone, answering, redis_client, status, retry_after,
                                                          waits):
    app, prefix = alone
    if retry_after and retry_after.startswith("http-date:"):
        retry_after = formatdate(time.time() + int(retry_after.split(":")[1]), usegmt=True)
    headers = {"Retry-After": retry_after} if retry_after else {}
    client, game, sub = _subscribed(app, answering, "/busy", status, headers)
    deliveries = _deliveries(redis_client, prefix, webhook_retry_max_s=600)
    assert deliveries.deliver(sub["id"], game["id"]) == "waiting"
    wait = _next_at_s(deliveries, game, sub)
    if waits is None:
        assert wait <= 0.05
    else:
        assert waits - 2 <= wait <= waits + 1  # an HTTP date has whole seconds
        # Asked to wait, it waits: a delivery now sends nothing.
        assert deliveries.deliver(sub["id"], game["id"]) == "waiting" and len(answering.attempts["/busy"]) == 1
    shown = client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"][0]
    assert shown["status"] == "active"


def test_a_trickling_receiver_costs_a_delivery_one_deadline(alone, raw, redis_client):
    app, prefix = alone
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=2)
    server = raw(trickle(b"HTTP/1.1 204 No Content\r\n" + b"X: " + b"x" * 100 + b"\r\n\r\n", 0.2))
    sub = subscribe(client, game["table_token"], server.url)
    deliveries = _deliveries(redis_client, prefix, webhook_timeout_s=1, webhook_deadline_s=1.5)
    started = time.monotonic()
    assert deliveries.deliver(sub["id"], game["id"]) == "waiting"
    assert time.monotonic() - started < 2.5
    tried = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(game["table_token"])).get_json()
    assert tried["deliveries"][0]["error"] == "timeout: past the attempt's 1.5 s deadline"


@pytest.mark.parametrize("host", ["[::10.0.0.1]", "[64:ff9b::a9fe:a9fe]", "[2002:a00:1::]", "[fec0::1]"])
def test_a_subscription_to_an_embedded_internal_address_is_refused(alone, host):
    """(Loopback is allowed in the tests: private addresses, embedded.)"""
    app, _ = alone
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=2)
    r = client.post("/webhooks", json={"url": f"https://{host}/hook", "events": ["game.move"]},
                    headers=auth(game["table_token"]))
    assert r.status_code == 422 and r.get_json()["code"] == "webhook_url_refused"
    assert client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"] == []
