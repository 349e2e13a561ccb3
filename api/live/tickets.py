"""Stream tickets: a browser's EventSource cannot send an Authorization header, and a token in
a URL ends up in access logs. A seat (or the table token) asks for a ticket; the ticket opens
one stream as that seat, once, within TTL_S seconds. Only its hash is stored; taking it
(GETDEL) deletes it, so a ticket read from a log is already spent."""
from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from api.errors import ApiError, Code
from api.games.callers import hash_token
from events.store import StoreUnavailable

TTL_S = 60


class InvalidTicket(ApiError):
    status, code = 401, Code.INVALID_TICKET


class Tickets:
    def __init__(self, connection, prefix: str):
        self.redis = connection
        self.prefix = prefix

    def _key(self, game_id: str, ticket: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:ticket:{hash_token(ticket)}"

    def issue(self, game_id: str, seat: int | None) -> str:
        ticket = secrets.token_urlsafe(24)
        self._call(self.redis.set, self._key(game_id, ticket), "" if seat is None else str(seat), ex=TTL_S)
        return ticket

    def redeem(self, game_id: str, ticket: str) -> int | None:
        """The seat the ticket was issued for (None: a spectator's); it cannot be used again."""
        if not 1 <= len(ticket) <= 100:
            raise InvalidTicket("This stream ticket is not valid.")
        seat = self._call(self.redis.getdel, self._key(game_id, ticket))
        if seat is None:
            raise InvalidTicket("This stream ticket is unknown, used or expired (they last "
                                f"{TTL_S} s and open one stream): ask for a new one.")
        return int(seat) if seat else None

    @staticmethod
    def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        import redis

        try:
            return method(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e
