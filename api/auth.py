"""Who is asking: a seat's bearer token, or nobody (a spectator)."""
from __future__ import annotations

from typing import Optional

from flask import request

from .errors import InvalidToken, TokenRequired


def parse_bearer(header: Optional[str]) -> Optional[str]:
    """The token of an `Authorization: Bearer <token>` header; None when it is not one."""
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def bearer_token() -> Optional[str]:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    token = parse_bearer(header)
    if token is None or len(header.partition(" ")[2]) > 200:
        raise InvalidToken("Send the seat's token as 'Authorization: Bearer <token>'.")
    return token


def seat_of(service, game_id: str, required: bool = False) -> Optional[int]:
    token = bearer_token()
    if token is None and required:
        raise TokenRequired("This needs a seat's token: 'Authorization: Bearer <token>'.")
    return service.seat_for_token(game_id, token)
