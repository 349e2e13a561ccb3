"""Per-token rate limiting: a fixed window counted in Redis, so every API process shares it.

A request with a bearer token counts against that token (by its hash, never the token
itself); over the limit it is answered `429 rate_limited` with `Retry-After` and a typed body
(`details.ratelimit = {"key": "token", "seconds": n}`) a bot can back off on without parsing
prose. Requests without a token (spectators) are not limited here.
"""
from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, current_app, request

from .errors import ApiError


class RateLimited(ApiError):
    status, code = 429, "rate_limited"


class RateLimiter:
    def __init__(self, connection, prefix: str, limit: int, window_s: int):
        self.redis = connection
        self.prefix = prefix
        self.limit = limit
        self.window_s = window_s

    def retry_after(self, subject: str) -> int:
        """Counts one request; returns 0 when allowed, else the seconds until the next window."""
        now = time.time()
        window = int(now // self.window_s)
        key = f"{self.prefix}rate:{subject}:{window}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, self.window_s * 2)
        count = pipe.execute()[0]
        if count <= self.limit:
            return 0
        return max(1, math.ceil((window + 1) * self.window_s - now))


def install(app: Flask, limiter: RateLimiter) -> None:
    app.extensions["rate_limiter"] = limiter

    @app.before_request
    def _limit():
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        subject = "token:" + hashlib.sha256(token.strip().encode()).hexdigest()[:32]
        wait = current_app.extensions["rate_limiter"].retry_after(subject)
        if wait:
            raise RateLimited(
                f"Too many requests with this token: at most {limiter.limit} every {limiter.window_s} s. "
                f"Retry in {wait} s.",
                details={"ratelimit": {"key": "token", "seconds": wait}},
                headers={"Retry-After": str(wait)})
        return None
