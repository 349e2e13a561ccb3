"""What every request leaves behind: its request id (taken from `X-Request-Id` when it is a
sensible one, else made, and sent back), its metrics, and with ACCESS_LOG=1 one log line.

The log line's method, path, status and duration are fields of their own under LOG_FORMAT=json
(`method`, `path`, `status`, `duration_ms`). The path's secret query parameters (stream tickets,
invite codes, anything named like a token or key) are written `[redacted]`: a log is read by more
people than may open a seat's stream.

Routes are counted by their template (`/games/<game_id>/moves`), never by their path: a path
holds game ids, and a label per game would grow the metrics without bound. For the same reason a
method HTTP does not define (`curl -X Q1X /`) is counted as `other`: every made-up method was a
series of its own, and an entry of `_counted`, for as long as the process lived. The hooks read the
WSGI environ directly rather than through Flask's `request`/`g` proxies (a microsecond or more an
access): measured A/B in-process on GET /games/{id}/moves, they cost about 40 µs of CPU a request
(489 -> 528 µs), of which the proxies' share was the larger half before.
"""
from __future__ import annotations

import itertools
import logging
import os
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote_plus

from flask import Flask, Response

from api import logs, metrics
from api.http import current
from api.input_rules import is_game_id

_SENSIBLE_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")
_KEY = "game_server.observe"  # (started, request id, log context token) in the environ
access_log = logging.getLogger("access")
_SECRET_NAME = re.compile(r"ticket|invite|token|secret|key|pass|auth|sig|session|cred", re.IGNORECASE)
REDACTED = "[redacted]"
_PATH_SAFE = "/:@!$&'()*+,;=-._~"  # a path's characters written as they are, the rest %-encoded

# A made request id: 64 random bits per process, then a counter: unique without a system call
# per request (uuid4 reads the OS's random source each time; asking os.getpid() whether this is
# a forked worker was two more a request).
_process_bits = os.urandom(8).hex()
_counter = itertools.count()


def _new_process_bits() -> None:
    global _process_bits
    _process_bits = os.urandom(8).hex()  # anew in each forked worker


os.register_at_fork(after_in_child=_new_process_bits)


def request_id(environ: dict[str, Any]) -> str:
    given: str | None = environ.get("HTTP_X_REQUEST_ID")
    if given is not None and _SENSIBLE_ID.fullmatch(given):
        return given
    return f"{_process_bits}{next(_counter):016x}"


_counted: dict[tuple[str, str, int], Any] = {}  # (route, method, status) -> its metrics' children
# The methods of RFC 9110 and PATCH (RFC 5789); any other is labelled OTHER.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"})
OTHER = "other"


def method_label(method: str) -> str:
    return method if method in METHODS else OTHER


def _count(route: str, method: str, status: int, seconds: float) -> None:
    """The metrics of one request; the labelled children are looked up once per route and
    status (prometheus_client's .labels() costs more than the increment itself)."""
    key = (route, method, status)
    children = _counted.get(key)
    if children is None:
        children = _counted[key] = (metrics.requests.labels(route, method, str(status)),
                                    metrics.request_seconds.labels(route, method))
    children[0].inc()
    children[1].observe(seconds)


def redact(query: str) -> str:
    """The query string with the value of every parameter named like a secret replaced."""
    parts = []
    for part in query.split("&"):
        name, eq, _ = part.partition("=")
        parts.append(f"{name}={REDACTED}" if eq and _SECRET_NAME.search(unquote_plus(name)) else part)
    return "&".join(parts)


def logged_path(environ: dict[str, Any]) -> str:
    """The request's path as sent (%-encoded: no control character reaches a text log), its
    secrets redacted."""
    path = quote(environ.get("PATH_INFO", "").encode("latin-1", "replace"), safe=_PATH_SAFE)
    query = environ.get("QUERY_STRING", "")
    return f"{path}?{redact(query)}" if query else path


def _log(method: str, path: str, status: int, seconds: float) -> None:
    ms = round(seconds * 1000, 1)
    access_log.info("%s %s %s %.1fms", method, path, status, ms,
                    extra={"fields": {"method": method, "path": path, "status": status, "duration_ms": ms}})


def start() -> None:
    """Before the route: the request's id, its start, and the log context (request and game id)."""
    this = current.req()
    environ = this.environ
    rid = request_id(environ)
    game_id = (this.view_args or {}).get("game_id")
    # an id no game can have (`a%0Ab`) is not written into every line of the request
    token = logs.bind(request_id=rid, game_id=game_id if game_id and is_game_id(game_id) else None)
    environ[_KEY] = (time.perf_counter(), rid, token)


def finisher(app: Flask) -> Callable[[Response, set[str]], Response]:
    """After the route: the answer's X-Request-Id, the request's metrics (and its log line with
    ACCESS_LOG)."""
    log_each = app.config.get("ACCESS_LOG", False)

    def finish(response: Response, names: set[str]) -> Response:
        this = current.req()
        environ = this.environ
        started, rid, _ = environ.get(_KEY) or (time.perf_counter(), request_id(environ), None)
        if "x-request-id" in names:
            response.headers["X-Request-Id"] = rid
        else:  # appended, as setting it would, without looking for it again
            response.headers.add("X-Request-Id", rid)
        rule = this.url_rule
        route = rule.rule if rule is not None else "unmatched"
        seconds = time.perf_counter() - started
        method = environ["REQUEST_METHOD"]
        _count(route, method_label(method), response.status_code, seconds)
        if log_each:
            _log(method, logged_path(environ), response.status_code, seconds)
        return response

    return finish


def forget(exc: BaseException | None) -> None:
    """At the request's teardown: its log context unbound."""
    held = current.req().environ.pop(_KEY, None)
    if held is not None:
        try:
            logs.unbind(held[2])
        except ValueError:  # a streamed response ends in another context
            pass
