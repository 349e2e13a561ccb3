"""The live stream of one game as Server-Sent Events.

First the caller's current view (`event: state`), then every new event as the caller may see it
(`event: game_event`, `id:` = its version), keep-alive comments while nothing happens, and
`event: end` once the game is over. A client that reconnects with `Last-Event-ID: N` receives
the events after N and nothing twice.
"""
from __future__ import annotations

import json
import time

from flask import Blueprint, Response, current_app, request, stream_with_context

from events.store import StoreUnavailable

from .auth import seat_of
from .errors import ValidationFailed
from .http import games
from .input_rules import DIGITS

bp = Blueprint("stream", __name__)


def _sse(event: str, data: dict, id_: int | None = None) -> str:
    head = f"id: {id_}\n" if id_ is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _last_event_id() -> int | None:
    """The version to resume after: the `Last-Event-ID` header, else `?last_event_id=`; each one
    sent must be ASCII digits (10 at most: "²" and 4,300 digits crashed int())."""
    header = request.headers.get("Last-Event-ID")
    query = request.args.get("last_event_id") if request.environ.get("QUERY_STRING") else None
    for raw in (header, query):
        if raw is not None and DIGITS.fullmatch(raw) is None:
            raise ValidationFailed("Last-Event-ID is the version of the last event received.")
    raw = header if header is not None else query
    return None if raw is None else int(raw)


@bp.get("/games/<game_id>/stream")
def live(game_id):
    service = games()
    resume_from = _last_event_id()  # by pattern, before any Redis call
    seat = seat_of(service, game_id)
    game = service.load(game_id)
    keepalive_s = current_app.config["SSE_KEEPALIVE_S"]
    max_s = current_app.config["SSE_MAX_SECONDS"]

    def generate():
        nonlocal game
        started = time.monotonic()
        cursor = resume_from
        if cursor is None or cursor > game.version:
            yield _sse("state", service.describe(game, seat), game.version)
            cursor = game.version
        yield "retry: 1000\n\n"
        while time.monotonic() - started < max_s:
            if game.finished and cursor >= game.version:
                yield _sse("end", {"version": game.version, "result": game.result})
                return
            try:
                new = service.store.follow(game_id, cursor, block_ms=int(keepalive_s * 1000))
            except StoreUnavailable:
                yield ": store unavailable, retrying\n\n"
                time.sleep(1)
                continue
            if not new:
                yield ": keep-alive\n\n"
                continue
            game = service.load(game_id)
            for e in new:
                shown = service.present(game, seat, e.type, e.data, e.version, e.actor, e.at)
                yield _sse("game_event", shown, e.version)
                cursor = e.version

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(generate()), mimetype="text/event-stream", headers=headers)
