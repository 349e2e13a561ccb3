"""Logging for every process of the server: the supervisor, the web workers, the RQ workers and
the reconciler.

`LOG_FORMAT=json` writes one JSON object per line (time, level, role, logger, message, and the
request id, game id and version where the line is about one, and the fields a line passes as
`extra={"fields": {...}}`: the access log's method, path, status, duration_ms); otherwise lines
stay readable by a person. The role is the process's part in the server (`PROCESS_ROLE`, set by the supervisor for
each child). Request ids, game ids and versions travel in a context variable, so any log call made
while serving a request or playing a turn carries them without being passed around (under gevent a
context variable is per greenlet, so concurrent requests do not mix theirs).
"""
from __future__ import annotations

import contextvars
import logging
import os
import sys
import time
import traceback
from typing import Any

import orjson

_context: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("log_context", default={})  # noqa: B039 - never mutated (set makes a new dict)

TEXT_FORMAT = "%(asctime)s %(role)s %(process)d %(levelname)s %(name)s: %(message)s%(where)s"


def role() -> str:
    return os.environ.get("PROCESS_ROLE", "app")


def bind(**fields: object) -> contextvars.Token[dict[str, object]]:
    """Adds fields (request_id, game_id, version) to every log line of the current context."""
    held, added = _context.get(), {k: v for k, v in fields.items() if v is not None}
    return _context.set({**held, **added} if held else added)  # a request's first: no copy to merge


def unbind(token: contextvars.Token[dict[str, object]]) -> None:
    _context.reset(token)


def current() -> dict[str, Any]:
    return _context.get()


class ContextFilter(logging.Filter):
    """Puts the role and the bound context on every record (both formats read them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.role = role()
        record.context = context = current()
        record.where = "".join(f" {k}={v}" for k, v in context.items())
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "role": getattr(record, "role", role()),
            "pid": record.process,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})  # a line's own (the access log's status...)
        line.update(getattr(record, "context", None) or current())
        if record.exc_info:
            line["error"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return orjson.dumps(line, default=str).decode()


def json_wanted() -> bool:
    return os.environ.get("LOG_FORMAT", "text").lower() == "json"


def formatter() -> logging.Formatter:
    return JsonFormatter() if json_wanted() else logging.Formatter(TEXT_FORMAT)


def configure(level: str | None = None) -> None:
    """Sends the root logger's records to stderr in the configured format (once per process)."""
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter())
    handler.addFilter(ContextFilter())
    root.handlers[:] = [handler]
    root.setLevel(level or os.environ.get("LOG_LEVEL", "INFO"))


def gunicorn_logconfig() -> dict[str, Any]:
    """gunicorn's `logconfig_dict`: its own loggers and the root logger (the app's) through
    the same handler and format as every other process."""
    fmt = {"()": "api.logs.JsonFormatter"} if json_wanted() else {"format": TEXT_FORMAT}
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "main",
               "filters": ["context"]}
    level = os.environ.get("LOG_LEVEL", "INFO")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "api.logs.ContextFilter"}},
        "formatters": {"main": fmt},
        "handlers": {"main": handler},
        "root": {"level": level, "handlers": ["main"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["main"], "propagate": False},
            "gunicorn.access": {"level": level, "handlers": [], "propagate": False},
        },
    }
