"""Typed errors of the application, each with an HTTP status and a stable machine code.

The API maps them to application/problem+json in one place (api/http/problems.py); workers read
them as ordinary exceptions.
"""
from __future__ import annotations

from typing import Optional


class ApiError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: Optional[str] = None, status: Optional[int] = None,
                 version: Optional[int] = None, details: Optional[dict] = None, headers: Optional[dict] = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status
        self.version = version
        self.details = details or {}
        self.headers = headers or {}


class ValidationFailed(ApiError):
    status, code = 400, "validation_error"


class UnknownGame(ApiError):
    status, code = 404, "unknown_game"


class UnknownGameType(ApiError):
    status, code = 422, "unknown_game_type"


class InvalidToken(ApiError):
    status, code = 401, "invalid_token"


class TokenRequired(ApiError):
    status, code = 401, "token_required"


class SeatNotYours(ApiError):
    status, code = 403, "seat_not_yours"


class SeatRequired(ApiError):
    status, code = 400, "seat_required"


class VersionConflict(ApiError):
    status, code = 409, "version_conflict"


class IllegalMove(ApiError):
    """A move the game's rules refused; `code` is the game's own (`not_your_turn`, ...)."""

    status, code = 422, "illegal_move"


class IdempotencyKeyReused(ApiError):
    status, code = 422, "idempotency_key_reused"


class Unavailable(ApiError):
    status, code = 503, "service_unavailable"
