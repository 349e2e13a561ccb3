"""Per-token rate limiting: 429 with Retry-After once a token exceeds its budget."""
from __future__ import annotations

import uuid

from tests.api.helpers import auth, create, tokens


def test_a_token_over_its_budget_gets_429_with_retry_after(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"rl{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "RATE_LIMIT": 5, "RATE_WINDOW_S": 30, "TESTING": True})
    app.test_client_class = SpecCheckingClient
    client = app.test_client()
    created = create(client, "high-card")
    t = tokens(created)
    gid = created["id"]
    codes = [client.get(f"/games/{gid}", headers=auth(t[0])).status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    limited = client.get(f"/games/{gid}/moves", headers=auth(t[0]))
    body = limited.get_json()
    assert body["code"] == "rate_limited" and limited.mimetype == "application/problem+json"
    assert 1 <= int(limited.headers["Retry-After"]) <= 30
    assert body["details"]["ratelimit"]["seconds"] == int(limited.headers["Retry-After"])
    # Another seat's token has its own budget, and spectators are not limited by tokens.
    assert client.get(f"/games/{gid}", headers=auth(t[1])).status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200


def test_processes_share_the_budget_through_redis(redis_client):
    """Two API processes (two limiters on one Redis) together let through the limit, give or
    take what one of them has not yet synced (less than a tenth of the remaining budget)."""
    from api.ratelimit import RateLimiter

    prefix = f"rl{uuid.uuid4().hex[:6]}:"
    a, b = (RateLimiter(redis_client, prefix, limit=50, window_s=3600) for _ in range(2))
    allowed = sum(1 for i in range(200) if not (a if i % 2 else b).retry_after("token:x"))
    assert 50 <= allowed <= 50 + 50 // 10 - 1
    assert a.retry_after("token:x") > 0 and b.retry_after("token:x") > 0
    assert not a.retry_after("token:other")  # every token has its own budget
