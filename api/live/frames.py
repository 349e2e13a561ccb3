"""What a live stream writes: Server-Sent Events frames, and the HTTP/1.1 chunks that carry
them when the reader writes to a socket itself (api/live/direct.py)."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from events import codec

if TYPE_CHECKING:
    from api.games.repository import Game


def sse(event: str, data: dict[str, Any], id_: int | str | None = None) -> bytes:
    head = f"id: {id_}\nevent: {event}\ndata: " if id_ is not None else f"event: {event}\ndata: "
    body = codec.dumps_bytes(data)
    if not body.isascii():
        # ASCII only: some clients split lines at U+2028, U+0085... (JSON escapes them all)
        body = json.dumps(data, separators=(",", ":")).encode()
    return head.encode() + body + b"\n\n"


def chunk(data: bytes, chunked: bool) -> bytes:
    """Bytes as the HTTP/1.1 server frames a response's body (chunked), or as they are."""
    return b"%X\r\n%s\r\n" % (len(data), data) if chunked else data


KEEPALIVE = b": keep-alive\n\n"
KEEPALIVE_CHUNKED = chunk(KEEPALIVE, True)
# A stream opened with a player key that was replaced says so (a comment) and closes; its
# reconnect with the old key (or its ticket) is refused.
REVOKED = b": the player key of this stream was replaced\n\n"


def end_frame(game: Game) -> bytes:
    # `id:` makes a browser's reconnect send Last-Event-ID: the final version, which the
    # server answers 204: an EventSource stops reconnecting then.
    return sse("end", {"version": game.version, "result": game.result}, game.version)

