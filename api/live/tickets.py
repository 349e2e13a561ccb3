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
    """A ticket a player key asked for holds the key's hash: once the key is replaced
    (`key_in_use` says no), the ticket opens nothing."""

    def __init__(self, connection: Any, prefix: str, key_in_use: Callable[[str], bool] | None = None) -> None:
        self.redis = connection
        self.prefix = prefix
        self.key_in_use = key_in_use

    def _key(self, game_id: str, ticket: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:ticket:{hash_token(ticket)}"

    def issue(self, game_id: str, seat: int | None, key_digest: str | None = None) -> str:
        """`key_digest`: the hash of the player key that asks (None: a seat's or the table token)."""
        ticket = secrets.token_urlsafe(24)
        value = f"{'' if seat is None else seat}:{key_digest or ''}"
        self._call(self.redis.set, self._key(game_id, ticket), value, ex=TTL_S)
        return ticket

    def redeem(self, game_id: str, ticket: str) -> tuple[int | None, str | None]:
        """(the seat the ticket was issued for (None: a spectator's), the hash of the player key
        that asked for it or None); it cannot be used again."""
        if not 1 <= len(ticket) <= 100:
            raise InvalidTicket("This stream ticket is not valid.")
        value = self._call(self.redis.getdel, self._key(game_id, ticket))
        if value is None:
            raise InvalidTicket("This stream ticket is unknown, used or expired (they last "
                                f"{TTL_S} s and open one stream): ask for a new one.")
        seat, _, digest = value.decode().partition(":")
        check_key(self.key_in_use, digest or None)
        return (int(seat) if seat else None), digest or None

    @staticmethod
    def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        import redis

        try:
            return method(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e


def check_key(key_in_use: Callable[[str], bool] | None, digest: str | None) -> None:
    """Refuses a ticket whose player key was replaced since it was issued."""
    if digest is not None and key_in_use is not None and not key_in_use(digest):
        raise InvalidTicket("This stream ticket was asked for with a player key that has been replaced: "
                            "ask for a new one with the new key.")
