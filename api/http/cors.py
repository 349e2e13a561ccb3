"""Cross-origin access for browser clients (flask-cors), off unless CORS_ORIGINS names origins.

`CORS_ORIGINS` is a comma-separated list of origins (`https://play.example.com`), which may
then call every endpoint, or `*`: any origin, read-only (GET, and the preflights that reading
with a token or Last-Event-ID needs). No cookies are used, so no credentials mode is offered:
tokens travel in the Authorization header, and an EventSource opens a stream with a ticket.
Browsers may read the headers clients act on: Location, Retry-After, ETag, the rate limits,
a 401's WWW-Authenticate.
"""
from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

EXPOSED = ["Location", "Retry-After", "ETag", "X-Request-Id", "RateLimit", "RateLimit-Policy", "RateLimit-Limit",
           "RateLimit-Remaining", "RateLimit-Reset", "X-RateLimit-Limit", "X-RateLimit-Remaining",
           "X-RateLimit-Reset", "WWW-Authenticate"]
ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "If-None-Match",
                   "Cache-Control"]
PREFLIGHT_MAX_AGE_S = 600
# Every method openapi.yaml documents (tests/api/test_cors.py holds them equal): PATCH
# /players/me and DELETE /webhooks/{id} were refused to every browser before, PUT (a group
# member's role) after.
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]


def origins(setting: str) -> list[str]:
    found = [o.strip().rstrip("/") for o in (setting or "").split(",") if o.strip()]
    if "*" in found and len(found) > 1:
        raise ValueError("CORS_ORIGINS is either `*` (any origin, read-only) or a list of origins, not both.")
    return found


def install(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    if not allowed:
        return
    read_only = allowed == ["*"]
    if read_only:
        # Registered first so that it runs after flask-cors's own hook (Flask runs them in
        # reverse): flask-cors marks every answer, but with `*` only reads may be read by another
        # origin (a form-like POST needs no preflight, so its answer must carry no permission).
        @app.after_request
        def _read_only(response: Response) -> Response:
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                for header in ("Access-Control-Allow-Origin", "Access-Control-Expose-Headers"):
                    response.headers.pop(header, None)
            return response

    CORS(app, origins=allowed, methods=["GET", "HEAD"] if read_only else METHODS,
         allow_headers=ALLOWED_HEADERS, expose_headers=EXPOSED, max_age=PREFLIGHT_MAX_AGE_S,
         supports_credentials=False, send_wildcard=read_only, vary_header=True)
