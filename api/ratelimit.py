"""Per-token rate limiting: a fixed window counted in Redis, so every API process shares it.

Each process counts locally and adds its count to Redis after a tenth of what is left of the
token's budget (at most SYNC_EVERY requests), learning the shared total at the same time. A
token far from its limit costs a round trip every SYNC_EVERY requests, not one per request
(each is a durable write: under `appendfsync always` it waits for the disk, and a sync on one
request in a hundred showed in the move's p99); near the limit every request syncs. One
process limits exactly; with several, each may let at most a tenth of the remaining budget
past the limit before its next sync tells it the shared total.

A request with a bearer token counts against that token (by its hash, never the token
itself); over the limit it is answered `429 rate_limited` with `Retry-After` and a typed body
(`details.ratelimit = {"key": "token", "seconds": n}`) a bot can back off on without parsing
prose. Requests without a token (spectators) are not limited here.
"""
from __future__ import annotations

import math
import time

from flask import Flask, current_app, request

from .auth import parse_bearer
from .errors import ApiError
from .seats import hash_token


class RateLimited(ApiError):
    status, code = 429, "rate_limited"


SYNC_EVERY = 1000


class RateLimiter:
    def __init__(self, connection, prefix: str, limit: int, window_s: int):
        self.redis = connection
        self.prefix = prefix
        self.limit = limit
        self.window_s = window_s
        # subject -> [window, shared total last seen, requests not yet added]
        self._local: dict[str, list] = {}

    def retry_after(self, subject: str) -> int:
        """Counts one request; returns 0 when allowed, else the seconds until the next window."""
        now = time.time()
        window = int(now // self.window_s)
        entry = self._local.get(subject)
        if entry is None or entry[0] != window:
            entry = self._local[subject] = [window, 0, 0]
            self._forget_old(window)
        if entry[1] + entry[2] >= self.limit:
            return max(1, math.ceil((window + 1) * self.window_s - now))
        entry[2] += 1
        due = min(SYNC_EVERY, max(1, (self.limit - entry[1]) // 10))
        if entry[2] >= due or entry[1] + entry[2] >= self.limit:
            self._sync(subject, entry)
            if entry[1] > self.limit:  # other processes spent the budget meanwhile
                return max(1, math.ceil((window + 1) * self.window_s - now))
        return 0

    def _sync(self, subject: str, entry: list) -> None:
        pending = entry[2]
        key = f"{self.prefix}rate:{subject}:{entry[0]}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.incrby(key, pending)
        pipe.expire(key, self.window_s * 2)
        total = pipe.execute()[0]
        entry[1], entry[2] = total, entry[2] - pending

    def _forget_old(self, window: int) -> None:
        if len(self._local) > 10_000:
            self._local = {k: v for k, v in self._local.items() if v[0] == window}


def install(app: Flask, limiter: RateLimiter) -> None:
    app.extensions["rate_limiter"] = limiter

    @app.before_request
    def _limit():
        token = parse_bearer(request.headers.get("Authorization"))
        if token is None:
            return None
        subject = "token:" + hash_token(token)[:32]
        wait = current_app.extensions["rate_limiter"].retry_after(subject)
        if wait:
            raise RateLimited(
                f"Too many requests with this token: at most {limiter.limit} every {limiter.window_s} s. "
                f"Retry in {wait} s.",
                details={"ratelimit": {"key": "token", "seconds": wait}},
                headers={"Retry-After": str(wait)})
        return None
