"""What the budgets cost a request (issue 14): `python -m bench.limits_cost`.

Times the limits' hooks (api/http/request_limits.py: charge before the request, headers after it) in a
request context, against a private Redis with `appendfsync always` as `python app.py` runs it:
- a request with a token far from its limit (the move path: local count, a batched INCRBY
  every tenth of what is left, at most every 1,000 requests);
- a request without a token (the address's budget, the same way);
- a request near its limit (every request one atomic INCRBY round trip).
Prints microseconds per request; compare with a move's own cost (bench/README.md: about 1 ms
of API CPU and a fsynced append).
"""
from __future__ import annotations

import time
import uuid

from bench.common import private_redis


def _per_request(app, n: int, headers: dict, path: str = "/games/x") -> float:
    from api.http import request_limits as limits

    budgets = app.extensions["budgets"]
    tell = app.after_request_funcs[None][-1]
    start = time.perf_counter()
    for _ in range(n):
        with app.test_request_context(path, headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.1"}):
            limits._charge(budgets)
            tell(app.response_class("{}"))
    return (time.perf_counter() - start) / n * 1e6


def _bare_context(app, n: int, headers: dict) -> float:
    start = time.perf_counter()
    for _ in range(n):
        with app.test_request_context("/games/x", headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.1"}):
            app.response_class("{}")
    return (time.perf_counter() - start) / n * 1e6


def main(n: int = 20_000) -> None:
    from app import create_app

    with private_redis() as url:
        big = create_app({"REDIS_URL": url, "KEY_PREFIX": f"lc{uuid.uuid4().hex[:6]}:", "RATE_LIMIT": 10 ** 9,
                          "ADDRESS_READ_LIMIT": 10 ** 9})
        near = create_app({"REDIS_URL": url, "KEY_PREFIX": f"lc{uuid.uuid4().hex[:6]}:", "RATE_LIMIT": 10 ** 9,
                           "ADDRESS_READ_LIMIT": 10 ** 9})
        token = {"Authorization": "Bearer " + uuid.uuid4().hex}
        floor = _bare_context(big, n, token)
        rows = [
            ("request context alone (the floor of this measure)", floor),
            ("token, far from its limit", _per_request(big, n, token) - floor),
            ("no token (address budget), far from its limit", _per_request(big, n, {}) - floor),
        ]
        # near the limit: a budget whose limit is always 1 request away
        near.extensions["budgets"].token.limit = 1
        limiter = near.extensions["budgets"].token
        start = time.perf_counter()
        for i in range(2000):
            limiter.take(f"token:near{i}")  # a fresh subject: its one request is the near-limit path
        rows.append(("token at its limit (one atomic INCRBY, fsynced)", (time.perf_counter() - start) / 2000 * 1e6))
    print(f"{'limits: cost per request':<52} {'us':>8}")
    for name, us in rows:
        print(f"{name:<52} {us:>8.1f}")


if __name__ == "__main__":
    main()
