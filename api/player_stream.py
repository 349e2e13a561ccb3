"""A player's live stream: what happens in all the player's games, as Server-Sent Events.

`GET /players/me/stream` with the player's key (or `?ticket=` from `POST
/players/me/stream-tickets`: a browser's EventSource cannot send `Authorization`) sends each
entry of the player's inbox (api/player_feed.py) as `event: <type>` (`your_turn`,
`seat_claimed`, `seat_left`, `game_started`, `game_finished`, `rematch`), `id:` the entry's id,
and keep-alive comments in between. A client that reconnects with `Last-Event-ID` receives the
entries after it (the newest 1,000 are kept), nothing twice; `Last-Event-ID: 0` replays what is
kept. Without one the stream starts at its opening.

The inbox is polled (every POLL_S through the live path's own Redis pool; an idle stream holds
no connection between polls): a move shows in the stream within POLL_S of its answer.
"""
from __future__ import annotations

import re
import secrets
import time

from flask import Blueprint, Response, current_app, request

from events.store import StoreUnavailable

from .auth import bearer_token, current_player
from .client_address import client_address
from .errors import ValidationFailed
from . import metrics
from .live.hub import sse
from .live.tickets import TTL_S, InvalidTicket
from .players import Players
from .seats import hash_token

bp = Blueprint("player_stream", __name__)

POLL_S = 0.1
ENTRY_ID = re.compile(r"[0-9]{1,15}-[0-9]{1,10}|0")


def _ticket_key(prefix: str, ticket: str) -> str:
    return f"{prefix}player-ticket:{hash_token(ticket)}"


def _inbox(app) -> Players:
    return app.extensions["player_inbox"]


@bp.post("/players/me/stream-tickets")
def player_ticket():
    players = current_app.extensions["players"]
    player = current_player(players)
    ticket = secrets.token_urlsafe(24)
    inbox = _inbox(current_app)
    try:
        inbox.redis.set(_ticket_key(inbox.prefix, ticket), player.id, ex=TTL_S)
    except Exception as e:  # noqa: BLE001 - a Redis failure is a 503
        raise StoreUnavailable(str(e)) from e
    return {"ticket": ticket, "expires_in": TTL_S, "stream": f"/players/me/stream?ticket={ticket}"}, 201


def _who() -> str:
    ticket = request.args.get("ticket") if request.environ.get("QUERY_STRING") else None
    if ticket is None:
        return current_player(current_app.extensions["players"]).id
    if bearer_token() is not None:
        raise ValidationFailed("A stream ticket names its player: send no key with it.")
    if not 1 <= len(ticket) <= 100:
        raise InvalidTicket("This stream ticket is not valid.")
    inbox = _inbox(current_app)
    player_id = inbox.redis.getdel(_ticket_key(inbox.prefix, ticket))
    if player_id is None:
        raise InvalidTicket(f"This stream ticket is unknown, used or expired (they last {TTL_S} s and open one "
                            "stream): ask for a new one.")
    return player_id.decode()


def _resume_from():
    raw = request.headers.get("Last-Event-ID")
    if raw is None and request.environ.get("QUERY_STRING"):
        raw = request.args.get("last_event_id")
    if raw is not None and ENTRY_ID.fullmatch(raw) is None:
        raise ValidationFailed("Last-Event-ID is the id of the last event received (as `1733000000000-0`).")
    return raw


@bp.get("/players/me/stream")
def player_stream():
    resume = _resume_from()
    player_id = _who()
    inbox = _inbox(current_app)
    live = current_app.extensions["live"]
    cursor = resume if resume is not None else inbox.inbox_last_id(player_id)
    if cursor == "0":
        cursor = "0-0"
    release = live.limits.acquire(client_address(), ("player", player_id))
    metrics.streams.inc()
    closed = False

    def close():
        nonlocal closed
        if not closed:
            closed = True
            release()
            metrics.streams.dec()

    config = current_app.config
    keepalive_s, max_s = config["SSE_KEEPALIVE_S"], config["SSE_MAX_SECONDS"]

    def generate():
        nonlocal cursor
        yield b"retry: 1000\n\n"
        started = last = time.monotonic()
        while True:
            try:
                entries = inbox.inbox_after(player_id, cursor)
            except StoreUnavailable:
                yield b": store unavailable, retrying\n\n"
                time.sleep(1)
                continue
            if entries:
                frames = []
                for entry_id, entry in entries:
                    frames.append(sse(entry["type"], entry, entry_id))
                    cursor = entry_id
                yield b"".join(frames)
                last = time.monotonic()
                continue
            now = time.monotonic()
            if now - started >= max_s:
                return
            if now - last >= keepalive_s:
                yield b": keep-alive\n\n"
                last = now
            time.sleep(POLL_S)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    response = Response(generate(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(close)
    return response
