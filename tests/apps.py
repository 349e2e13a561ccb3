"""The application as the Redis-tier tests build it: `create_app` on the session's Redis, under a
key prefix of the test's own (so tests share one redis-server and never see each other's keys),
with its turn queue under that prefix, Flask's testing mode and no rate limit to trip over; a
module passes only the settings it is about. `spec_client` is a test client whose every answer
is checked against openapi.yaml."""
from __future__ import annotations

import uuid
from typing import Any


def redis_app(redis_url: str, prefix: str | None = None, **settings: Any):
    from app import create_app

    prefix = prefix or f"t{uuid.uuid4().hex[:8]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000, **settings})


def spec_client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)
