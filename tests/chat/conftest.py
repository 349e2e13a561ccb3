"""The chat tests' app: the session's Redis under a key prefix of their own."""
from __future__ import annotations

import uuid

import pytest


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app

    prefix = f"chat{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000, "SSE_KEEPALIVE_S": 0.5, "SSE_MAX_SECONDS": 30,
                       "CHAT_RATE": 8})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)
