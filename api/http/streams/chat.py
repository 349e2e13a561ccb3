"""A game's chat, live (issue 53): `GET /games/{id}/chat/stream`, Server-Sent Events of the
channel the caller reads (the table's for a seated player, the spectators' for anyone else; both
once the game is over: `?channel=`), each message a `chat` event whose `id` is the message's, so
an EventSource that reconnects (Last-Event-ID) resumes after it without a gap. Each subscriber
is sent only what it may see (api/chat/service.py `history`: hidden messages, mutes and blocks
honoured per viewer). The subscribers of one channel in a process share one read of its newest
id (every CHAT_POLL_S) and one read of its new messages (`live_page`); each filters them for its
viewer (a player's blocks looked up: one round trip). Under the
live streams' limits (per process, per client address) like the game's and the player's."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue

from api.errors import ValidationFailed
from api.games.callers import TABLE, is_player_credential
from api.http.auth import bearer_token, caller, current_player
from api.http.requests import players
from api.http.streams import lifecycle
from api.live.frames import sse
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.chat.service import Chat
    from api.http.streams.game import LivePath

bp = Blueprint("chat_stream", __name__)
CHAT_POLL_S = 0.2
CURSOR = re.compile(r"^([0-9]{1,19}-[0-9]{1,19}|0)$")  # a message's id, or 0: from the first


@bp.get("/games/<game_id>/chat/stream")
def chat_stream(game_id: str) -> ResponseReturnValue:
    live: LivePath = current_app.extensions["live"]
    chat: Chat = current_app.extensions["chat"]
    live.limits.admit()
    asked = request.args.get("channel")
    if asked not in (None, "table", "spectators"):
        raise ValidationFailed("`channel` is `table` or `spectators`.")
    sent = lifecycle.sent_last_event_ids()
    if any(not CURSOR.match(raw) for raw in sent):  # the header's and the query's, each as the spec says
        raise ValidationFailed("Last-Event-ID is a chat message's id (or 0: from the first).")
    cursor = sent[0] if sent else None
    if cursor == "0":
        cursor = "0-0"
    holder, seat = caller(live, game_id)
    viewer = current_player(players()).id if is_player_credential(bearer_token()) else None
    channel = chat.game_channel(game_id, seat is not None or holder == TABLE, asked)
    opened = lifecycle.open_stream(live, None, lambda: channel, lambda _: None)
    if request.method == "HEAD":
        return opened.head()
    config = current_app.config
    keepalive_s, max_s = config["SSE_KEEPALIVE_S"], config["SSE_MAX_SECONDS"]

    fresh = 0.0  # the first page with the mutes and hides as they are now; then at most CHAT_POLL_S old

    def read(position: str, newest: str) -> tuple[bytes, str]:
        nonlocal fresh
        page = chat.live_page(channel, viewer, position, newest, fresh)
        fresh = CHAT_POLL_S
        return b"".join(sse("chat", m, m["id"]) for m in page["messages"]), page["next"] or position

    body = lifecycle.polled(cursor, lambda max_age_s: chat.newest(channel, max_age_s), read,
                            CHAT_POLL_S, keepalive_s, max_s, StoreUnavailable)
    return opened.response(body)
