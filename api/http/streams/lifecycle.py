"""What every live stream's endpoint shares from its opening to its close: the tickets and
Last-Event-ID it was sent, its slot under the limits, its subscription to the process's hub, the
streams gauge, and the response that carries it (closing gives everything back, once)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from flask import Response, request

from api import metrics
from api.http.client_address import client_address
from api.live.tickets import InvalidTicket

if TYPE_CHECKING:
    from api.http.streams.game import LivePath

T = TypeVar("T")

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RETRY = b"retry: 1000\n\n"  # a browser's EventSource reconnects after 1 s
KEEPALIVE = b": keep-alive\n\n"
OUTAGE = b": store unavailable, retrying\n\n"


def sent_ticket() -> str | None:
    """`?ticket=`, if sent."""
    return request.args.get("ticket") if request.environ.get("QUERY_STRING") else None


def check_ticket(ticket: str) -> None:
    if not 1 <= len(ticket) <= 100:
        raise InvalidTicket("This stream ticket is not valid.")


def sent_last_event_ids() -> list[str]:
    """The positions to resume after that the request sent: the `Last-Event-ID` header first,
    then `?last_event_id=` (for a client that cannot send headers)."""
    header = request.headers.get("Last-Event-ID")
    query = request.args.get("last_event_id") if request.environ.get("QUERY_STRING") else None
    return [raw for raw in (header, query) if raw is not None]


class Open(Generic[T]):
    """One stream of this process, from its opening to its close."""

    def __init__(self, source: T, leave: Callable[[T], None], release: Callable[[], None]):
        self.source = source  # what it follows: a game's feed, a player's inbox
        self._leave = leave
        self._release = release
        self._closed = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._leave(self.source)
            self._release()
            metrics.streams.dec()

    def response(self, body: Iterable[bytes]) -> Response:
        """The stream's answer; it closes when the server is done with it, also when the client
        left before the first byte."""
        response = Response(body, mimetype="text/event-stream", headers=HEADERS)
        response.call_on_close(self.close)
        return response

    def head(self) -> Response:
        """The headers a stream would have, and no stream (a HEAD request): closed at once."""
        self.close()
        return Response(mimetype="text/event-stream", headers=HEADERS)


def open_stream(live: LivePath, seat_key: tuple[str, int | str | None] | None, subscribe: Callable[[], T],
                leave: Callable[[T], None]) -> Open[T]:
    """Takes the stream's slot under the limits (per process, per client address, per seat or
    player: `seat_key`), then subscribes; the slot is given back if subscribing fails."""
    release = live.limits.acquire(client_address(), seat_key)
    try:
        source = subscribe()
    except BaseException:
        release()
        raise
    metrics.streams.inc()
    return Open(source, leave, release)


def watch_key(live: LivePath, opened: Open[Any], digest: str | None,
              wake: Callable[[], None]) -> tuple[Callable[[], None], Callable[[], bool]]:
    """(unwatch, revoked) of a stream opened with the player key of this hash (or a ticket it
    asked for): it ends once the key is replaced (api/live/keywatch.py)."""
    keys = live.hub.keys
    if keys is None or digest is None:
        return (lambda: None), (lambda: False)
    try:
        unwatch = keys.watch(digest, wake)
    except BaseException:
        opened.close()
        raise
    return unwatch, (lambda: keys.revoked(digest))



def polled(position: str | None, newest: Callable[[float], str | None],
           read: Callable[[str, str], tuple[bytes, str]], poll_s: float, keepalive_s: float,
           max_s: float, unavailable: type[BaseException] | tuple[type[BaseException], ...]) -> Iterator[bytes]:
    """The body of a stream that polls its source (a chat channel, a tournament): every `poll_s`
    it asks for the source's newest id (`newest(max_age_s)`, one read shared by a process's
    subscribers), and when that moved, `read(position, newest)` gives the frames to send and the
    position after them. `position` None is "from now": the newest id, read before the first byte
    is sent, so that nothing appended after the client's request is skipped (read again in the loop
    if the store was away). A keep-alive comment every `keepalive_s` of silence, an outage comment
    while the store is away, and the end after `max_s` (the client reconnects with Last-Event-ID)."""
    try:
        if position is None:
            position = newest(0.0) or "0-0"
    except unavailable:
        pass
    yield RETRY
    started = last = time.monotonic()
    while time.monotonic() - started < max_s:
        try:
            if position is None:
                position = newest(0.0) or "0-0"
            latest = newest(poll_s)
            if latest is not None and latest != position:
                frames, position = read(position, latest)
                if frames:
                    yield frames
                    last = time.monotonic()
                    continue
        except unavailable:
            yield OUTAGE
        if time.monotonic() - last >= keepalive_s:
            yield KEEPALIVE
            last = time.monotonic()
        time.sleep(poll_s)
