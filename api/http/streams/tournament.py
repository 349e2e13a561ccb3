"""A tournament, live (issue 52): `GET /tournaments/{id}/stream`, Server-Sent Events of its
events as they are appended (each an SSE event named by its type, `id` its place in the
tournament's stream), so an EventSource that reconnects (Last-Event-ID) resumes after the last
one it received, none missed; `0` replays the whole history. A tournament's history is public
(every pairing recomputable by anyone), so anyone may follow it, without a credential. The
subscribers of one tournament in a process share one read of its newest id (every
TOURNAMENT_POLL_S); each reads what follows its own position. Under the live streams' limits
(per process, per client address) like the game's and the chat's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue

from api.errors import ValidationFailed
from api.http.streams import lifecycle
from api.live.frames import sse
from events.connection import UNAVAILABLE

if TYPE_CHECKING:
    from api.http.streams.game import LivePath
    from api.tournaments.service import Tournaments

bp = Blueprint("tournament_stream", __name__)
TOURNAMENT_POLL_S = 0.5
CURSOR = re.compile(r"^([0-9]{1,19}-[0-9]{1,19}|0)$")  # an event's id, or 0: from the first


@bp.get("/tournaments/<id>/stream")
def tournament_stream(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    tournament_id = id
    live: LivePath = current_app.extensions["live"]
    service = cast("Tournaments", current_app.extensions["tournaments"])
    live.limits.admit()
    sent = lifecycle.sent_last_event_ids()
    if any(not CURSOR.match(raw) for raw in sent):  # the header's and the query's, each as the spec says
        raise ValidationFailed("Last-Event-ID is a tournament event's id (or 0: from the first).")
    cursor = sent[0] if sent else None
    service.state(tournament_id)  # 404 for an unknown tournament, before a slot is taken
    opened = lifecycle.open_stream(live, None, lambda: tournament_id, lambda _: None)
    if request.method == "HEAD":
        return opened.head()
    config = current_app.config
    keepalive_s, max_s = config["SSE_KEEPALIVE_S"], config["SSE_MAX_SECONDS"]

    def read(position: str, _newest: str) -> tuple[bytes, str]:
        found = service.after(tournament_id, position)
        frames = b"".join(sse(event["type"], event, at) for at, event in found)
        return frames, (found[-1][0] if found else position)

    start = "0-0" if cursor == "0" else cursor
    body = lifecycle.polled(start, lambda max_age_s: service.newest(tournament_id, max_age_s), read,
                            TOURNAMENT_POLL_S, keepalive_s, max_s, UNAVAILABLE)
    return opened.response(body)
