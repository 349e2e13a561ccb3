"""The live hub's reader on a Redis Cluster (RedisFollower's twin, events/redis_follower.py).

On one Redis the hub does one XREAD BLOCK over every watched game's stream. A cluster refuses
a command whose keys lie in different slots, and a blocked read waits on one node only, so
here the streams are grouped by slot and read without blocking, one XREAD per slot, all of a
node's in one pipeline (one round trip per node), every LIVE_POLL_MS (default 50 ms) until an
event comes, `block_ms` passes or interrupt() is called. What it costs: a watched game waits at
most LIVE_POLL_MS longer for its event, and each node answers one small XREAD per watched slot
per poll while nothing happens (docs/scaling.md).
"""
from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from typing import cast

from redis.cluster import RedisCluster
from redis.crc import key_slot

from .connection import unavailable
from .redis_base import RedisBase
from .redis_entries import decode_entry
from .store import StoredEvent

DEFAULT_POLL_MS = 50


class ClusterFollower:
    def __init__(self, store: RedisBase, poll_ms: float | None = None):
        self.store = store
        poll_ms = poll_ms if poll_ms is not None else float(os.environ.get("LIVE_POLL_MS", DEFAULT_POLL_MS))
        self.poll_s = poll_ms / 1000
        self._wake = threading.Event()
        self._blocked = False

    @unavailable
    def read(self, positions: dict[str, int], block_ms: int, count: int = 100) -> dict[str, list[StoredEvent]]:
        if not positions:
            return {}
        # (store.follower() makes this reader on a cluster only)
        keys, client = self.store.keys, cast(RedisCluster, self.store.redis)
        by_key = {keys.events(g): g for g in positions}
        slots: dict[int, dict[str, str]] = defaultdict(dict)
        for game_id, after in positions.items():
            key = keys.events(game_id)
            slots[key_slot(key.encode())][key] = f"0-{after}"
        deadline = time.monotonic() + block_ms / 1000
        self._wake.clear()
        self._blocked = True
        try:
            while True:
                found = self._poll(client, slots, by_key, count)
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self._wake.wait(min(self.poll_s, left)):
                    return {}
        finally:
            self._blocked = False

    @staticmethod
    def _poll(client: RedisCluster, slots: dict[int, dict[str, str]], by_key: dict[str, str],
              count: int) -> dict[str, list[StoredEvent]]:
        pipe = client.pipeline(transaction=False)
        for slot, streams in slots.items():
            # The node named here (not found by asking the server for the keys, an extra round
            # trip per XREAD): a slot moved meanwhile answers MOVED, which the pipeline follows.
            node = client.nodes_manager.get_node_from_slot(slot)
            pipe.execute_command("XREAD", "COUNT", count, "STREAMS", *streams.keys(), *streams.values(),
                                 target_nodes=node)
        found = {}
        for reply in pipe.execute():
            for key, entries in reply or ():
                name = key.decode() if isinstance(key, bytes) else key
                if entries:
                    found[by_key[name]] = [decode_entry(i, f) for i, f in entries]
        return found

    def interrupt(self) -> bool:
        if not self._blocked:
            return False
        self._wake.set()
        return True

    def close(self) -> None:
        self._wake.set()
