"""Who is asking: a seat's bearer token, or nobody (a spectator)."""
from __future__ import annotations

from typing import Optional

from flask import request

from .errors import InvalidToken, TokenRequired


def bearer_token() -> Optional[str]:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise InvalidToken("Send the seat's token as 'Authorization: Bearer <token>'.")
    return token.strip()


def seat_of(service, game_id: str, required: bool = False) -> Optional[int]:
    token = bearer_token()
    if token is None and required:
        raise TokenRequired("This needs a seat's token: 'Authorization: Bearer <token>'.")
    return service.seat_for_token(game_id, token)
