"""gunicorn's configuration module for the API: `gunicorn --config python:api.http.gunicorn_config`
(`python app.py` passes it).

Errors gunicorn answers itself, before Flask sees the request (a request line longer than 4094
bytes: 414; header fields too large or too many: 431; a malformed request line, method, version,
header or chunk: 400; a transfer coding it does not support: 501), leave as
application/problem+json like every other error of the API, not gunicorn's HTML page: its one
error writer is replaced here, in the master before it forks the workers.

Its logs take the server's format (LOG_FORMAT), and a web worker that exits stops counting
its open streams in the metrics.
"""
from __future__ import annotations

import json
import socket
from typing import Any

from gunicorn import glogging, util

from api import logs, metrics
from api.errors import Code
from api.http import one_send

logconfig_dict = logs.gunicorn_logconfig()


class Logger(glogging.Logger):
    """gunicorn's logger without its access log. That log is never written here (its logger has
    no handler: the app logs requests itself when ACCESS_LOG is on, api/http/observe.py), but a
    `logconfig_dict` makes gunicorn build its atoms for every request all the same: 4.4% of
    the web workers' busy samples in a profile of moves (bench/README.md, issue 30)."""

    access_log_enabled = False


logger_class = Logger

# Each web worker listens on a socket of its own (SO_REUSEPORT; gunicorn then makes the
# listeners in the workers, not the master): the kernel deals new connections out among them by
# their addresses, evenly, where on one shared socket the worker that happened to be waiting took
# them (splits of 60/40 and 76/24 of a crowd of streams; bench/README.md, issue 30). A worker's
# own queue of connections not yet accepted dies with it (its clients reconnect).
reuse_port = True
# Connections not yet accepted, per worker (the kernel caps it at net.core.somaxconn): a crowd
# of reconnecting streams arrives at once; a full queue drops SYNs, which clients resend only
# after 1, 3, 7 s.
backlog = 4096


def child_exit(server: Any, worker: Any) -> None:  # gunicorn's Arbiter and Worker
    metrics.process_exited(worker.pid)

_CODES = {400: Code.BAD_REQUEST, 403: Code.FORBIDDEN, 414: Code.URI_TOO_LONG, 417: Code.EXPECTATION_FAILED,
          431: Code.HEADER_FIELDS_TOO_LARGE, 500: Code.INTERNAL_ERROR, 501: Code.NOT_IMPLEMENTED}
_DETAILS = {400: "The request is malformed (its request line, a header or a chunk).",
            414: "The request line is too long (at most 4094 bytes).",
            431: "The request's header fields are too large or too many.",
            501: "This transfer coding is not supported.",
            500: "Something went wrong on the server; nothing was changed."}


def problem_response(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP response gunicorn writes for an error of its own, as problem+json."""
    code = _CODES.get(status, Code.HTTP_ERROR)
    detail = _DETAILS.get(status, message or reason)
    body = json.dumps({"type": f"https://errors.game-server.local/{code}", "title": reason, "status": status,
                       "code": code, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin1")
    return head + body


def write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, problem_response(status_int, reason, mesg))


util.write_error = write_error
one_send.install()  # a response's head leaves with its first body bytes (api/http/one_send.py)
