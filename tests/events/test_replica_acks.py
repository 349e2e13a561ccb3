"""REPLICAS_ACK=1 against a real primary and its replica (TCP, processes of the test's own):
an append is acknowledged by the replica online; one that the replica online does not
acknowledge (it is stopped, still connected) fails as before; a primary whose replica is gone
takes appends at once, unacknowledged, and reports itself degraded; when the replica is back
online, appends wait for it again (the first refused: it was not waited for; events/replication.py)."""
from __future__ import annotations

import signal
import subprocess
import time
import uuid

import pytest
import redis

from events.local_redis import redis_binary
from events.redis_appends import NotReplicated
from events.redis_store import RedisEventStore
from events.store import NewEvent
from tests.cluster.cluster import free_ports
from tests.conftest import wait_for

# The tier (tests/tiers.py): starts a Redis primary and replica of its own.
pytestmark = pytest.mark.process

TIMEOUT_MS = 700


class Server:
    def __init__(self, port: int, root, *extra: str):
        self.port, self.root, self.extra = port, root, extra
        self.proc: subprocess.Popen | None = None

    def start(self) -> Server:
        self.root.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen([redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--dir", str(self.root), "--save", "", "--appendonly", "no", *self.extra],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: self._answers(), interval=0.05)
        return self

    def _answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except redis.ConnectionError:
            return False

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def pair(tmp_path):
    primary_port, replica_port = free_ports(2)
    primary = Server(primary_port, tmp_path / "primary").start()
    replica = Server(replica_port, tmp_path / "replica", "--replicaof", "127.0.0.1", str(primary_port))
    yield primary, replica.start()
    if replica.proc is not None and replica.proc.poll() is None:
        replica.proc.send_signal(signal.SIGCONT)
    replica.kill()
    primary.kill()


def online(primary: Server) -> int:
    return sum(1 for k, v in primary.client().info("replication").items()
               if k.startswith("slave") and v.get("state") == "online")


def created(store: RedisEventStore) -> float:
    """Creates a game; the seconds it took."""
    started = time.monotonic()
    store.create(uuid.uuid4().hex, {"type": "x"}, {"0": "h"}, [NewEvent("game_created", {"type": "game_created"}, None)])
    return time.monotonic() - started


def test_acks_are_required_while_a_replica_is_online_and_only_then(pair):
    primary, replica = pair
    wait_for(lambda: online(primary) == 1, interval=0.05)
    store = RedisEventStore(primary.client(), prefix="acks:", replicas_ack=(1, TIMEOUT_MS))
    created(store)  # acknowledged by the replica
    assert store.replication() == {"replicas_ack": 1, "degraded": []}

    replica.proc.send_signal(signal.SIGSTOP)  # online, still connected, but acknowledging nothing
    with pytest.raises(NotReplicated):
        created(store)
    replica.proc.send_signal(signal.SIGCONT)
    replica.kill()  # the primary sees its replica go at once (the connection is closed)
    wait_for(lambda: online(primary) == 0, interval=0.05)

    took = [created(store) for _ in range(5)]  # the first finds the replica gone, after its WAIT
    assert max(took[1:]) < TIMEOUT_MS / 1000 / 2, took  # no WAIT for a replica that is not there
    assert store.replication() == {"replicas_ack": 1,
                                   "degraded": [{"primary": "redis", "online_replicas": 0}]}

    replica.start()
    wait_for(lambda: online(primary) == 1, interval=0.05)
    with pytest.raises(NotReplicated):  # the replica came back since the last append, which did not
        created(store)                  # wait for it: refused, as no replica acknowledged it
    created(store)  # waited for, and acknowledged
    assert store.replication() == {"replicas_ack": 1, "degraded": []}
    replica.proc.send_signal(signal.SIGSTOP)
    with pytest.raises(NotReplicated):
        created(store)
