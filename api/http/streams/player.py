"""A player's live stream: what happens in all the player's games, as Server-Sent Events.

`GET /players/me/stream` with the player's key (or `?ticket=` from `POST
/players/me/stream-tickets`: a browser's EventSource cannot send `Authorization`) sends each
entry of the player's inbox (api/players/feed.py) as `event: <type>` (`your_turn`,
`seat_claimed`, `seat_left`, `game_started`, `game_finished`, `rematch`; the account's
`account_changed` and `account_change_refused`: api/players/step_up.py), `id:` the entry's id,
and keep-alive comments in between. A client that reconnects with `Last-Event-ID` receives the
entries after it (the newest 1,000 are kept), nothing twice; `Last-Event-ID: 0` replays what is
kept. Without one the stream starts at its opening.

The inbox is followed by the process's live hub (api/live/hub.py): one reader per process reads
the inboxes of every player whose stream it serves, in the same blocking XREAD as the watched
games, and wakes the player's connections; each entry is framed once. An idle stream holds no
Redis connection and costs no Redis command; opening one reads the inbox's newest id (once per
player and process), and a resume from before what the hub holds reads the inbox's older
entries through the live path's own pool.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import cast

from flask import Blueprint, Flask, current_app
from flask.typing import ResponseReturnValue

from api.errors import ValidationFailed
from api.games.callers import hash_token
from api.http import languages
from api.http.auth import bearer_token, current_player
from api.http.streams import lifecycle
from api.http.streams.game import key_digest
from api.http.streams.lifecycle import watch_key
from api.live.streams import inbox_stream
from api.live.tickets import TTL_S, InvalidTicket, check_key
from api.players.accounts import Players
from events.store import StoreUnavailable

bp = Blueprint("player_stream", __name__)

ENTRY_ID = re.compile(r"[0-9]{1,15}-[0-9]{1,10}|0")


def _ticket_key(prefix: str, ticket: str) -> str:
    return f"{prefix}player-ticket:{hash_token(ticket)}"


def _inbox(app: Flask) -> Players:
    return cast(Players, app.extensions["player_inbox"])


@bp.post("/players/me/stream-tickets")
def player_ticket() -> ResponseReturnValue:
    players = current_app.extensions["players"]
    player = current_player(players)
    ticket = secrets.token_urlsafe(24)
    inbox = _inbox(current_app)
    try:  # with the key's hash: once the key is replaced, the ticket opens nothing
        inbox.redis.set(_ticket_key(inbox.prefix, ticket), f"{player.id}:{key_digest(bearer_token()) or ''}", ex=TTL_S)
    except Exception as e:
        raise StoreUnavailable(str(e)) from e
    return {"ticket": ticket, "expires_in": TTL_S, "stream": f"/players/me/stream?ticket={ticket}"}, 201


def _who() -> tuple[str, str]:
    """(the player, the hash of the key the stream was opened with, or its ticket asked with)."""
    ticket = lifecycle.sent_ticket()
    if ticket is None:
        return current_player(current_app.extensions["players"]).id, key_digest(bearer_token()) or ""
    # A key sent beside a ticket is redundant, not a way to widen it: it must be a valid key
    # (401 before the ticket is spent) and the ticket's player's.
    sender = current_player(current_app.extensions["players"]) if bearer_token() is not None else None
    lifecycle.check_ticket(ticket)
    inbox = _inbox(current_app)
    value = inbox.redis.getdel(_ticket_key(inbox.prefix, ticket))
    if value is None:
        raise InvalidTicket(f"This stream ticket is unknown, used or expired (they last {TTL_S} s and open one "
                            "stream): ask for a new one.")
    player_id, _, digest = value.decode().partition(":")
    if sender is not None and sender.id != player_id:
        raise InvalidTicket("This stream ticket is another player's: open it without a key, or with its player's.")
    check_key(inbox.key_in_use, digest or None)
    return player_id, digest


def _resume_from() -> str | None:
    sent = lifecycle.sent_last_event_ids()
    raw = sent[0] if sent else None
    if raw is not None and ENTRY_ID.fullmatch(raw) is None:
        raise ValidationFailed("Last-Event-ID is the id of the last event received (as `1733000000000-0`).")
    return raw


@bp.get("/players/me/stream")
def player_stream() -> ResponseReturnValue:
    resume = _resume_from()
    player_id, digest = _who()
    live = current_app.extensions["live"]
    opened = lifecycle.open_stream(live, ("player", player_id), lambda: live.hub.subscribe_inbox(player_id),
                                   live.hub.unsubscribe_inbox)
    inbox = opened.source
    unwatch, revoked = watch_key(live, opened, digest or None, inbox.wake)
    # Without Last-Event-ID the stream starts at its opening (the newest entry the hub has read).
    cursor = "0-0" if resume == "0" else resume if resume is not None else inbox.last_id
    config = current_app.config
    keepalive_s, max_s = config["SSE_KEEPALIVE_S"], config["SSE_MAX_SECONDS"]

    lang = languages.use()  # its notices' words

    def generate() -> Iterator[bytes]:
        yield lifecycle.RETRY
        yield from inbox_stream(live.hub, inbox, cursor, keepalive_s, max_s, revoked, lang, resume is not None)

    response = opened.response(generate())
    response.call_on_close(unwatch)
    return response
