"""The cluster suite: everything in tests/cluster runs against a real Redis Cluster (3 primaries,
3 replicas, tests/cluster/cluster.py) started once for the package (and stopped, with
QUEUE_REDIS_URL taken out of the environment again, before the rest of a run goes on), with RQ's queues on a plain
Redis of their own (QUEUE_REDIS_URL). The session's `redis_url` is the cluster's
(`redis+cluster://...`) and `redis_client` a RedisCluster, so the suites imported here run
unchanged against it. Every command the primaries receive is recorded (MONITOR) for the
cross-slot check (test_z_no_cross_slot.py)."""
from __future__ import annotations

import os
import re
import threading

import pytest
import redis
from redis.cluster import ClusterNode, RedisCluster

from tests.cluster.cluster import Cluster


@pytest.fixture(scope="package")
def cluster():
    c = Cluster().start()
    yield c
    c.stop()


@pytest.fixture(scope="package")
def queue_url(tmp_path_factory):
    from events import local_redis

    url, proc = local_redis.start(tmp_path_factory.mktemp("queue-redis"), fsync="everysec")
    os.environ["QUEUE_REDIS_URL"] = url  # inherited by every app.py and worker the tests start
    yield url
    os.environ.pop("QUEUE_REDIS_URL", None)
    if proc is not None:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="package")
def recorder(cluster):
    r = Recorder(cluster)
    r.start()
    yield r
    r.stop()


@pytest.fixture(scope="package")
def redis_url(cluster, queue_url, recorder):
    return cluster.url


@pytest.fixture(scope="package")
def redis_client(cluster, redis_url):
    return RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", n.port) for n in cluster.nodes],
                        require_full_coverage=False)


_ARG = re.compile(rb'"((?:[^"\\]|\\.)*)"')


def _unescape(raw: bytes) -> bytes:
    return raw.decode("unicode_escape").encode("latin-1")


class Recorder:
    """MONITOR on every primary, in a thread each: the commands (as argument lists) that the
    server's processes sent."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self.commands: dict[int, list[list[bytes]]] = {}
        self._stop = threading.Event()
        self._threads = []
        self._conns = []
        self._clients = []

    def start(self):
        for node in self.cluster.primaries():
            self.commands[node.port] = []
            # No socket timeout: a read that times out closes redis-py's connection (and with it
            # the recording) whenever the cluster is quiet a few seconds, as on a busy machine.
            # The client is kept: a Redis object that is collected closes its pool's connections.
            client = redis.Redis(host="127.0.0.1", port=node.port, socket_connect_timeout=1, socket_timeout=None)
            self._clients.append(client)
            conn = client.connection_pool.get_connection()
            conn.send_command("MONITOR")
            conn.read_response()
            self._conns.append(conn)
            t = threading.Thread(target=self._read, args=(conn, self.commands[node.port]), daemon=True)
            t.start()
            self._threads.append(t)

    def _read(self, conn, out):
        while not self._stop.is_set():
            try:
                line = conn.read_response(disable_decoding=True)
            except Exception:  # the node was killed, or we stop (stop() closes the connection)
                return
            if isinstance(line, bytes):
                rest = line.partition(b"] ")[2]
                out.append([_unescape(a) for a in _ARG.findall(rest)])

    def stop(self):
        self._stop.set()
        for conn in self._conns:
            try:
                conn.disconnect()
            except Exception:
                pass


# The app and the workers again, bound to the cluster: a session fixture of tests/conftest.py
# made earlier in a run (for the single Redis) would otherwise be handed to this suite too.
@pytest.fixture(scope="package")
def app(redis_url, session_prefix):
    from app import create_app

    prefix = f"c{session_prefix}"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "SSE_KEEPALIVE_S": 0.5, "SSE_MAX_SECONDS": 30, "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "ALLOW_CLIENT_SEEDS": True})


@pytest.fixture(scope="package")
def workers(redis_url, session_prefix):
    from tests.conftest import running_workers

    with running_workers(redis_url, f"c{session_prefix}") as w:
        yield w


@pytest.fixture(scope="package")
def apis(redis_url, tmp_path_factory):
    """Two API nodes (`python app.py`: gunicorn + gevent, one RQ worker each, a reconciler
    each) on the cluster, sharing one key prefix: one server to their clients."""
    import uuid

    from tests.robustness.servers import ApiServer

    prefix = f"nodes{uuid.uuid4().hex[:6]}:"
    logs = tmp_path_factory.mktemp("cluster-api-logs")
    # Passes every 2 s (production's), not ApiServer's 0.5 s: nothing here waits on a repair, and
    # three reconcilers on a cluster were a sixth of the package's CPU (issue 48).
    servers = [ApiServer(redis_url, prefix, logs, web_workers=1, turn_workers=1, WEBHOOK_WORKERS=0,
                         RECONCILE_INTERVAL=2) for _ in range(2)]
    try:
        for s in servers:
            s.start(timeout=90)
        yield [s.base for s in servers]
    finally:
        for s in servers:
            s.stop()
