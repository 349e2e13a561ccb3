"""The Redis that `python app.py` and the tests start when none is configured."""
from __future__ import annotations

import pytest
import redis

from events import local_redis

# The tier (tests/tiers.py): starts a redis-server of its own.
pytestmark = pytest.mark.process


def test_a_data_directory_with_a_long_path_still_gets_a_server(tmp_path):
    data = tmp_path / ("d" * 60) / ("e" * 60)
    url, proc = local_redis.start(data, fsync="always")
    try:
        client = redis.Redis.from_url(url)
        assert client.ping()
        assert client.config_get("appendonly")["appendonly"] == "yes"
        assert client.config_get("appendfsync")["appendfsync"] == "always"
        assert local_redis.start(data)[1] is None  # a second start reuses the running server
    finally:
        proc.terminate()
        proc.wait(timeout=10)
