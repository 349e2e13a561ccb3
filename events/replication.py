"""REPLICAS_ACK=N: an append is acknowledged once the replicas online on its primary have it, up
to N of them; a primary with none online (its replica lost, or itself a replica promoted in a
failover) takes appends unacknowledged instead of refusing them all: it is *degraded*, and says
so (`/health/ready`'s `replication`, the `store_primaries_degraded` gauge).

After the script, on the same connection: `WAIT k <timeout>` (k: the replicas online at that
primary's previous append, at most N; none sent when k is 0) and `INFO replication`, which
says how many replicas are online once the wait is over. The append is refused
(NotReplicated: 503) when fewer replicas acknowledged it than were online then, up to N: a
write that no replica acknowledged while one was online fails as it always did. A replica still
syncing is not online (it receives the write with its sync; it could not be promoted before).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def online_replicas(info: Mapping[str, Any]) -> int:
    """The replicas `INFO replication` (as redis-py parses it) lists in state `online`."""
    return sum(1 for key, value in info.items()
               if key.startswith("slave") and isinstance(value, dict) and value.get("state") == "online")


class ReplicaAcks:
    """The acknowledgements REPLICAS_ACK asks for, per primary (named by its address)."""

    def __init__(self, wanted: int, timeout_ms: int):
        self.wanted, self.timeout_ms = wanted, timeout_ms
        self.online: dict[str, int] = {}  # replicas online at each primary's last append

    def queue(self, pipe: Any, primary: str, **on_node: Any) -> int:
        """Queues the wait and the replication report behind a write; returns how many replies."""
        waiting_for = min(self.wanted, self.online.get(primary, self.wanted))
        if waiting_for:
            pipe.execute_command("WAIT", waiting_for, self.timeout_ms, **on_node)
        pipe.execute_command("INFO", "replication", **on_node)
        return 2 if waiting_for else 1

    def shortfall(self, primary: str, replies: list[Any]) -> tuple[int, int] | None:
        """(acknowledged, required) when too few replicas acknowledged the write, else None."""
        acked = int(replies[0]) if len(replies) == 2 else 0
        online = online_replicas(replies[-1])
        self.online[primary] = online
        required = min(self.wanted, online)
        return (acked, required) if acked < required else None


def degraded_primaries(reports: Mapping[str, Mapping[str, Any]], wanted: int) -> list[dict[str, Any]]:
    """The primaries (of {address: INFO replication}) with fewer replicas online than wanted."""
    return [{"primary": address, "online_replicas": online_replicas(info)}
            for address, info in sorted(reports.items())
            if info.get("role") == "master" and online_replicas(info) < wanted]
