"""Every error leaves as application/problem+json (RFC 9457) with a stable `code`, a sentence
a person understands (`detail`), and the game's current `version` where there is one."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, has_request_context, jsonify
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from api.errors import ApiError, Code
from api.http import languages
from api.words import Wording, error_sentence
from events.archive import Damaged, Expired
from events.store import StoreUnavailable

RETRY_AFTER_S = 2
REALM = "game-server"
# 401s whose credential is no bearer token (a recovery code, a passkey's answer), or that had
# none (RFC 6750 3.1: no error code then): their challenge names the scheme and realm only.
_NO_BEARER_ERROR = frozenset({Code.TOKEN_REQUIRED, Code.INVALID_RECOVERY_CODE, Code.PASSKEY_REFUSED})
_WHEN = {str(member): member.when for member in Code}

_HTTP_CODES = {400: Code.BAD_REQUEST, 404: Code.NOT_FOUND, 405: Code.METHOD_NOT_ALLOWED,
               413: Code.BODY_TOO_LARGE, 415: Code.UNSUPPORTED_MEDIA_TYPE, 429: Code.RATE_LIMITED}
_HTTP_DETAILS = {413: "The request body is too large.", 404: "There is no such resource.",
                 405: "This method is not allowed here."}


def challenge(code: str) -> str:
    """A 401's `WWW-Authenticate` (RFC 9110 requires one): the Bearer scheme (RFC 6750), with
    `error="invalid_token"` when a bearer token was sent and refused."""
    if code in _NO_BEARER_ERROR:
        return f'Bearer realm="{REALM}"'
    when = _WHEN.get(code) or code.replace("_", " ")  # a game's own code is none of the catalogue's
    said = "".join(c for c in when.replace('"', "'") if " " <= c <= "~" and c != "\\")  # RFC 6750's characters
    return f'Bearer realm="{REALM}", error="invalid_token", error_description="{said}"'


def step_up_challenge() -> str:
    """A `step_up_required`'s `WWW-Authenticate`: RFC 9470's error, with the grant's `max_age`
    (a 403, not its 401: the key is good, and a client drops a key answered 401)."""
    from api.players.step_up import STEP_UP_S

    return (f'Bearer realm="{REALM}", error="insufficient_user_authentication", '
            f'error_description="a fresh proof is needed: POST /players/me/step-up", max_age={STEP_UP_S}')


def problem(status: int, code: str, detail: str, version: int | None = None, details: dict[str, Any] | None = None,
            headers: Mapping[str, str] | None = None, wording: Wording | None = None) -> Response:
    if has_request_context():  # in the caller's language, by the game's template or the code (api/words/)
        said = error_sentence(languages.current(), code, wording)
        if said is not None:
            detail = said
            languages.use()
    body: dict[str, Any] = {"type": f"https://errors.game-server.local/{code}",
                            "title": code.replace("_", " ").capitalize(),
                            "status": status, "code": code, "detail": detail}
    if version is not None:
        body["version"] = version
    if details:
        body["details"] = details
    response = jsonify(body)
    response.status_code = status
    response.mimetype = "application/problem+json"
    for key, value in (headers or {}).items():
        response.headers[key] = value
    if code == Code.STEP_UP_REQUIRED and "WWW-Authenticate" not in response.headers:
        response.headers["WWW-Authenticate"] = step_up_challenge()
    if status == 401 and "WWW-Authenticate" not in response.headers:
        response.headers["WWW-Authenticate"] = challenge(code)
    return response


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(e: ApiError) -> Response:
        return problem(e.status, e.code, e.message, e.version, e.details, e.headers, e.wording)

    @app.errorhandler(ValidationError)
    def _invalid(e: ValidationError) -> Response:
        return problem(400, Code.VALIDATION_ERROR, "The request body is not valid: see details.",
                       details={"fields": e.normalized_messages()})  # type: ignore[no-untyped-call]  # marshmallow leaves it unannotated

    @app.errorhandler(Expired)
    # A read straight from the store (the live path's) of a game past the retention.
    def _expired(e: Expired) -> Response:
        return problem(410, Code.GAME_EXPIRED, f"Game '{e.game_id}' is past the time finished games are kept "
                       "(ARCHIVE_RETENTION_S): it is no longer kept.")

    @app.errorhandler(Damaged)
    # An archived game whose record cannot be read as written (events/archive.py): this game
    # only, logged once by the store with its id; no Retry-After (an operator repairs it).
    def _damaged(e: Damaged) -> Response:
        return problem(503, Code.ARCHIVE_DAMAGED, f"Game '{e.game_id}' is archived, and its archived record is "
                       "damaged: it cannot be read until an operator repairs it.", details={"game_id": e.game_id})

    @app.errorhandler(StoreUnavailable)
    def _unavailable(e: Exception) -> Response:
        return problem(503, Code.STORE_UNAVAILABLE,
                       "The game store cannot be reached right now; nothing was changed. Retry shortly.",
                       headers={"Retry-After": str(RETRY_AFTER_S)})

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Response:
        status = e.code or 500  # werkzeug's own exceptions all carry a code; a bare one is ours
        code = _HTTP_CODES.get(status, Code.HTTP_ERROR)
        detail = _HTTP_DETAILS.get(status, e.description or "")
        # A 405 names the methods the resource has (RFC 9110 requires Allow).
        allow = {k: v for k, v in e.get_headers() if k == "Allow"} if status == 405 else None
        return problem(status, code, detail, headers=allow)

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Response:
        from events.connection import UNAVAILABLE

        if isinstance(e, UNAVAILABLE):
            return _unavailable(e)
        app.logger.exception("unhandled error")
        return problem(500, Code.INTERNAL_ERROR, "Something went wrong on the server; nothing was changed.")
