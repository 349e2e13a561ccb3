"""Without Redis the API answers a clear 503 problem with Retry-After, and /health says so."""
from __future__ import annotations

import pytest


@pytest.mark.redis  # its connects fail: sockets all the same (tests/tiers.py)
def test_requests_answer_503_when_redis_is_down(tmp_path):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    app = create_app({"REDIS_URL": f"unix://{tmp_path}/no-redis.sock", "TESTING": True})
    app.test_client_class = SpecCheckingClient
    client = app.test_client()
    for response in (client.get("/games/abc"),
                     client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}),
                     client.get("/health")):
        assert response.status_code == 503, response.get_json()
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"] == "store_unavailable"
        assert int(response.headers["Retry-After"]) > 0
