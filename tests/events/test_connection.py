"""events/connection.py: what configuration gives which clients, and what it refuses."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import redis

from events import connection
from events.connection import ConfigurationError, Connections
from events.keys import Keys
from tests.conftest import ROOT, _free_port


def test_cluster_nodes_come_from_the_url_or_their_own_variable():
    assert connection.cluster_nodes("redis://localhost:6379/0") is None
    assert connection.cluster_nodes("redis+cluster://10.0.0.1:7000,10.0.0.2:7001") == [("10.0.0.1", 7000),
                                                                                        ("10.0.0.2", 7001)]
    assert connection.cluster_nodes(None, "a:1, b:2") == [("a", 1), ("b", 2)]
    with pytest.raises(ConfigurationError):
        connection.cluster_nodes("redis+cluster://nohost")


def test_the_queues_share_one_redis_and_need_a_plain_one_beside_a_cluster(redis_url):
    one = Connections(redis_url)
    assert one.queue is one.store and not one.clustered
    assert connection.queue_url("redis://a", None) == "redis://a"
    with pytest.raises(ConfigurationError, match="QUEUE_REDIS_URL"):
        connection.queue_url("redis+cluster://a:1", None)
    with pytest.raises(ConfigurationError, match="plain Redis"):
        connection.queue_url("redis+cluster://a:1", "redis+cluster://b:2")


def test_one_redis_keeps_the_first_layouts_key_names():
    keys = Keys("p:", connection.key_buckets(redis.Redis(), env={}))
    assert keys.owing("g1") == keys.owing() == "p:games:owing" and keys.every("idle") == ["p:games:idle"]
    sharded = Keys("p:", connection.key_buckets(redis.Redis(), env={"KEY_BUCKETS": "16"}))
    assert sharded.owing("g1") == f"p:games:owing:{{b{sharded.bucket('g1')}}}" and len(sharded.every("clocks")) == 16
    with pytest.raises(ValueError):
        sharded.owing()


@pytest.mark.process
def test_a_cluster_without_a_queue_redis_is_refused_at_startup():
    env = {k: v for k, v in os.environ.items() if k not in ("QUEUE_REDIS_URL", "REDIS_CLUSTER_NODES")}
    env.update(REDIS_URL="redis+cluster://127.0.0.1:1", PORT=str(_free_port()), HOST="127.0.0.1")
    done = subprocess.run([sys.executable, "app.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "QUEUE_REDIS_URL" in done.stderr + done.stdout
