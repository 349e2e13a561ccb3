"""Errors gunicorn answers before Flask sees the request are problem+json too (issue 14).
Before: a request line too long (414), header fields too large or too many (431) and a
malformed request (400) were answered with gunicorn's HTML page. Over raw sockets against the
session's `python app.py`."""
from __future__ import annotations

import json
import socket

import pytest


def _raw(api, request: bytes) -> tuple[int, dict, dict]:
    with socket.create_connection(("127.0.0.1", api.port), timeout=15) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, json.loads(body)


CASES = {
    "request line too long": (b"GET /games/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    "a header field too large": (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431,
                                 "header_fields_too_large"),
    "too many header fields": (b"GET /health HTTP/1.1\r\nHost: x\r\n"
                               + b"".join(b"X-H%d: 1\r\n" % i for i in range(150)) + b"\r\n", 431,
                               "header_fields_too_large"),
    "a malformed request line": (b"GET\r\n\r\n", 400, "bad_request"),
    "a malformed header": (b"GET /health HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n", 400, "bad_request"),
    "an unknown HTTP version": (b"GET /health HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad_request"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_gunicorns_own_errors_are_problem_json(api, name):
    request, status, code = CASES[name]
    got, headers, body = _raw(api, request)
    assert got == status, (got, body)
    assert headers["content-type"] == "application/problem+json"
    assert body["status"] == status and body["code"] == code and body["detail"]
