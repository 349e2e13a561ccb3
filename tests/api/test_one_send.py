"""api/http/one_send.py: gunicorn's response with its head sent beside the first body bytes.
The bytes on the wire are gunicorn's own, in fewer sends; a write with no body bytes sends
the head at once (nothing waits for a body that may never come)."""
from __future__ import annotations

import socket

import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.parser import RequestParser

from api.http import one_send

PLAIN = one_send.Response.__base__  # gunicorn's own (wsgi.Response is ours once installed)


class Recorder:
    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data) -> None:
        self.sends.append(bytes(data))


def _request(raw: bytes):
    a, b = socket.socketpair()
    b.sendall(raw)
    b.shutdown(socket.SHUT_WR)
    cfg = Config()
    return cfg, next(iter(RequestParser(cfg, a, ("127.0.0.1", 1))))


def _sends(response_class, raw: bytes, status: str, headers: list, chunks: list[bytes]) -> list[bytes]:
    cfg, req = _request(raw)
    sock = Recorder()
    resp = response_class(req, sock, cfg)
    resp.start_response(status, headers)
    for chunk in chunks:
        resp.write(chunk)
    resp.close()
    return sock.sends


GET = b"GET /games HTTP/1.1\r\nHost: x\r\n\r\n"
HEAD = b"HEAD /games HTTP/1.1\r\nHost: x\r\n\r\n"

CASES = {
    "a body with its length": (GET, "200 OK", [("Content-Length", "11")], [b"hello world"]),
    "a stream (chunked)": (GET, "200 OK", [("Content-Type", "text/event-stream")], [b"data: 1\n\n", b"data: 2\n\n"]),
    "a stream whose first write is empty": (GET, "200 OK", [("Content-Type", "text/event-stream")], [b"", b"x"]),
    "204": (GET, "204 No Content", [], [b""]),
    "HEAD": (HEAD, "200 OK", [("Content-Length", "5")], [b"hello"]),
    "no write at all": (GET, "200 OK", [("Content-Length", "0")], []),
    "a body past its length": (GET, "200 OK", [("Content-Length", "2")], [b"ab", b"cd"]),
}


@pytest.fixture(autouse=True)
def _one_date(monkeypatch):
    """Both responses carry the same Date: the two are built apart, and a second may turn between
    them (it did on a loaded machine)."""
    monkeypatch.setattr(util, "http_date", lambda *_: "Sat, 05 Dec 2026 10:00:00 GMT")


@pytest.mark.parametrize("case", CASES)
def test_the_bytes_are_gunicorns_own(case):
    raw, status, headers, chunks = CASES[case]
    ours = _sends(one_send.Response, raw, status, headers, chunks)
    theirs = _sends(PLAIN, raw, status, headers, chunks)
    assert b"".join(ours) == b"".join(theirs)
    assert b"".join(ours).startswith(b"HTTP/1.1 ")


def test_a_body_leaves_with_its_head_in_one_send():
    sends = _sends(one_send.Response, *CASES["a body with its length"])
    assert len(sends) == 1 and sends[0].endswith(b"\r\n\r\nhello world")
    assert len(_sends(PLAIN, *CASES["a body with its length"])) == 2  # gunicorn's: head, then body


def test_a_stream_sends_its_head_with_the_first_frame_and_each_frame_as_it_comes():
    sends = _sends(one_send.Response, *CASES["a stream (chunked)"])
    assert sends[0].endswith(b"\r\n\r\n9\r\ndata: 1\n\n\r\n")
    assert sends[1:] == [b"9\r\ndata: 2\n\n\r\n", b"0\r\n\r\n"]


def test_a_write_without_body_bytes_sends_the_head_at_once():
    cfg, req = _request(GET)
    sock = Recorder()
    resp = one_send.Response(req, sock, cfg)
    resp.start_response("200 OK", [("Content-Type", "text/event-stream")])
    resp.write(b"")
    assert len(sock.sends) == 1 and sock.sends[0].startswith(b"HTTP/1.1 200 OK")


def test_the_server_config_installs_it():
    import api.http.gunicorn_config  # noqa: F401 - installs on import, as gunicorn loads it

    assert wsgi.Response is one_send.Response
