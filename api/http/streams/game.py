"""The live stream of one game as Server-Sent Events, and the tickets that open it.

First the caller's current view (`event: state`), then every new event as the caller may see it
(`event: game_event`, `id:` = its version, with `to_act`: who acts after it), keep-alive
comments while nothing happens, and `event: end` (`id:` = the final version) once the game is
over, after which the server closes the stream. A client that reconnects with
`Last-Event-ID: N` receives the events after N and nothing twice; reconnecting to a finished
game with the final version (what a browser's EventSource does after `end`) is answered
`204 No Content`, which makes an EventSource stop reconnecting (the SSE specification: any
status but 200 fails the connection for good).

The events come from the process's hub (api/live/hub.py): a stream costs no Redis connection
while it waits, and its Redis reads go through the hub's own pool, not the requests' one.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import redis
from flask import Blueprint, Flask, Response, current_app, request

from api.errors import SeatNotYours, TokenRequired, ValidationFailed
from api.games.callers import TABLE, Seats, hash_token, is_player_key
from api.http import languages
from api.http.auth import bearer_token, caller, requested_seat
from api.http.requests import games
from api.http.streams import lifecycle
from api.input_rules import DIGITS
from api.live.direct import Direct, serve_direct
from api.live.hub import Hub
from api.live.keywatch import KeyWatch
from api.live.leases import SharedLeases
from api.live.stream_limits import StreamLimits
from api.live.streams import stream
from api.live.tickets import TTL_S, Tickets
from events.connection import Client, cluster_nodes, store_client
from events.store import EventStore

if TYPE_CHECKING:
    from flask.typing import ResponseReturnValue

    from api.games.callers import Holder
    from api.players.accounts import Players

bp = Blueprint("stream", __name__)

LIVE_SOCKET_TIMEOUT_S = 10


class LivePath:
    """What the streams of one app share: the hub, the limits, tickets, and seat checks on the
    hub's own store."""

    def __init__(self, store: EventStore, limits: StreamLimits, tickets: Tickets, tick_s: float = 1.0,
                 players: Players | None = None, inboxes: Players | None = None, keepalive_s: float | None = None,
                 gather_s: float = 0.0) -> None:
        keys = KeyWatch(inboxes) if inboxes is not None else None
        self.hub = Hub(store, tick_s=tick_s, inboxes=inboxes, keepalive_s=keepalive_s, gather_s=gather_s, keys=keys)
        self.seats = Seats(self.hub.games, players)
        self.limits = limits
        self.tickets = tickets

    # auth.caller() asks these of a service
    def seat_for_token(self, game_id: str, token: str | None) -> Holder:
        return self.seats.holder(game_id, token)

    def resolve_seat(self, game_id: str, holder: Holder, asked: int | None, acting: bool = False,
                     expected: int | None = None) -> int | None:
        return self.seats.resolve(game_id, holder, asked, acting, expected)


def install(app: Flask) -> None:
    """Builds the live path on a Redis pool of its own (SSE_REDIS_CONNECTIONS connections;
    a stream waits for one rather than take the requests') and registers the routes."""
    config = app.config
    if cluster_nodes(config["REDIS_URL"], config.get("REDIS_CLUSTER_NODES")) is None:
        # A socket timeout: a stream's read on a Redis that vanished without a reset (a partition)
        # fails and is retried, rather than hold its greenlet and pooled connection for ever. The
        # hub's reader has its own, longer than its blocking read (api/live/follower.py).
        pool = redis.BlockingConnectionPool.from_url(config["REDIS_URL"],
                                                     max_connections=config["SSE_REDIS_CONNECTIONS"],
                                                     timeout=20, health_check_interval=30, client_name="live",
                                                     socket_timeout=LIVE_SOCKET_TIMEOUT_S, socket_connect_timeout=5)
        connection: Client = redis.Redis(connection_pool=pool)
    else:  # a cluster: as many connections to each node
        connection = store_client(config["REDIS_URL"], config.get("REDIS_CLUSTER_NODES"),
                                  connection_pool_class=redis.BlockingConnectionPool,
                                  max_connections=config["SSE_REDIS_CONNECTIONS"], health_check_interval=30)
    prefix = config["KEY_PREFIX"]
    # Per address and per seat, the limits are shared by every process on this Redis (leases).
    leases = SharedLeases(connection, prefix, config["SSE_STREAM_LEASE_S"])
    limits = StreamLimits(config["SSE_MAX_STREAMS"], config["SSE_MAX_STREAMS_PER_ADDRESS"],
                          config["SSE_MAX_STREAMS_PER_SEAT"], config["SSE_OPENS_PER_S"], leases)
    # Waiting streams are woken every tick to send their keep-alives (at most a tick late).
    tick_s = min(1.0, config["SSE_KEEPALIVE_S"])
    # The store (it answers for archived games too: a resume's events, events/archived_store.py),
    # the player streams' inboxes (api/http/streams/player.py) and the tickets, on the live
    # path's pool: the composition root's (wiring.py), built on this client.
    parts = app.extensions["services"].live(connection)
    app.extensions["player_inbox"] = parts.inboxes
    app.extensions["live"] = LivePath(parts.store, limits, parts.tickets, tick_s, app.extensions.get("players"),
                                      parts.inboxes, config["SSE_KEEPALIVE_S"], config.get("LIVE_GATHER_MS", 0) / 1000)
    app.register_blueprint(bp)


def _direct_socket() -> Any:  # gunicorn's socket (gevent's), or None
    """The client's socket, where the reader may write to it itself (gunicorn's gevent
    workers: api/live/direct.py); None elsewhere (the test client, other servers)."""
    sock = request.environ.get("gunicorn.socket")
    if sock is None or "gevent" not in sys.modules:
        return None
    from gevent import monkey

    return sock if monkey.is_module_patched("socket") else None


def _last_event_id() -> int | None:
    """The version to resume after: the `Last-Event-ID` header, else `?last_event_id=`; each one
    sent must be ASCII digits (10 at most: "²" and 4,300 digits crashed int())."""
    sent = lifecycle.sent_last_event_ids()
    if any(DIGITS.fullmatch(raw) is None for raw in sent):
        raise ValidationFailed("Last-Event-ID is the version of the last event received.")
    return int(sent[0]) if sent else None


def _who(live: LivePath, game_id: str, ticket: str | None) -> tuple[Holder, int | None, str | None]:
    """(holder, seat, the hash of the player key it was opened with or None) of the stream:
    from a ticket, or as any request (token, ?seat=)."""
    if ticket is None:
        token = bearer_token()
        return *caller(live, game_id), key_digest(token)
    # A token or ?seat= sent beside a ticket must agree with it (a ticket is its own credential;
    # the others are redundant, not a way to widen it).
    holder = live.seat_for_token(game_id, bearer_token())
    asked = requested_seat()
    seat, digest = live.tickets.redeem(game_id, ticket)
    if asked is not None and asked != seat:
        raise SeatNotYours(f"This ticket opens seat {seat}'s stream, not seat {asked}'s.")
    if holder is not None and holder not in (seat, TABLE):
        raise SeatNotYours(f"This ticket opens seat {seat}'s stream; the token sent with it is seat {holder}'s.")
    return seat, seat, digest


def key_digest(token: str | None) -> str | None:
    """The hash of a player key (the streams opened with it end when it is replaced)."""
    return hash_token(token) if is_player_key(token) else None


@bp.get("/games/<game_id>/stream")
def live_stream(game_id: str) -> ResponseReturnValue:
    live: LivePath = current_app.extensions["live"]
    live.limits.admit()
    resume_from = _last_event_id()
    ticket = lifecycle.sent_ticket()
    if ticket is not None:  # before any shortcut below answers
        lifecycle.check_ticket(ticket)
    requested_seat()  # a malformed ?seat= is a 400 before the shortcut below, too
    if resume_from is not None and ticket is not None:
        # An EventSource reconnecting after `end` repeats its URL, with a ticket already spent:
        # a finished game is open to all, so it is told it is over, not that its ticket is.
        game = live.hub.games.load(game_id)
        if game.finished and resume_from >= game.version:
            return Response(status=204)
    holder, seat, digest = _who(live, game_id, ticket)
    opened = lifecycle.open_stream(live, None if holder is None else (game_id, holder),
                                   lambda: live.hub.subscribe(game_id), live.hub.unsubscribe)
    feed = opened.source
    game = feed.game
    if resume_from is not None and game.finished and resume_from >= game.version:
        opened.close()
        return Response(status=204)  # after `end`: an EventSource stops here
    if request.method == "HEAD":
        return opened.head()
    head = []
    cursor = resume_from
    if cursor is None or cursor > game.version:
        frame, cursor = feed.state_frame(seat)
        head.append(frame)
    head.append(lifecycle.RETRY)
    config = current_app.config
    keepalive_s, max_s = config["SSE_KEEPALIVE_S"], config["SSE_MAX_SECONDS"]
    sock = _direct_socket()

    lang = languages.use()  # its events' words
    waker = [feed.wake]  # a direct subscriber is woken out of its feed's direct set instead
    unwatch, revoked = lifecycle.watch_key(live, opened, digest, lambda: waker[0]())

    def generate() -> Iterator[bytes]:
        yield b"".join(head)  # the server sends the response's head with it
        if sock is None:
            yield from stream(live.hub, feed, seat, cursor, keepalive_s, max_s, revoked, lang)
            return
        # HTTP/1.1: the server frames the body in chunks, and so must what is written past it
        chunked = request_protocol == "HTTP/1.1"
        sub = Direct(sock.fileno(), chunked, seat, cursor, lang)
        waker[0] = lambda: sub.leave(feed)
        serve_direct(live.hub, feed, sub, sock.sendall, keepalive_s, max_s, revoked)

    request_protocol = request.environ.get("SERVER_PROTOCOL")
    response = opened.response(generate())
    response.call_on_close(unwatch)
    return response


@bp.get("/games/<game_id>/presence")
def presence(game_id: str) -> ResponseReturnValue:
    """Whether each seat has the game open now: a seat is here while it holds a live stream of
    the game (its stream's lease, api/live/leases.py). Anyone may ask, as anyone sees the seats;
    it says nothing else (a bot's seat, which holds no stream, is never here)."""
    live: LivePath = current_app.extensions["live"]
    game = games().load(game_id)  # an unknown game is a 404
    here = live.limits.present(game_id, len(game.seats))
    seats = [{"seat": i, "here": h and game.seats[i]["bot"] is None} for i, h in enumerate(here)]
    return {"game": game_id, "seats": seats}


@bp.post("/games/<game_id>/stream-tickets")
def stream_ticket(game_id: str) -> ResponseReturnValue:
    service = games()
    holder, seat = caller(service, game_id, required=True)
    if holder is None:
        raise TokenRequired("A stream ticket needs a seat's token (or the table token).")
    ticket = current_app.extensions["tickets"].issue(game_id, seat, key_digest(bearer_token()))
    return {"ticket": ticket, "seat": seat, "expires_in": TTL_S,
            "stream": f"/games/{game_id}/stream?ticket={ticket}"}, 201
