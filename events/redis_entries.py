"""A stream entry of the event store on Redis, in and out: shared by the store and its two
followers (events/redis_follower.py on one Redis, events/cluster_follower.py on a cluster)."""
from __future__ import annotations

import json
from typing import Any, Sequence

from . import codec
from .store import NewEvent, StoredEvent


def encode_entries(events: Sequence[NewEvent], at: int) -> list[bytes]:
    """One JSON field per stream entry: {"t": type, "d": data, "a": actor, "at": ms}."""
    dumps = codec.dumps_bytes
    return [dumps({"t": e.type, "d": e.data, "a": e.actor, "at": at}) for e in events]


def decode_entry(entry_id: bytes, fields: dict[bytes, Any]) -> StoredEvent:
    version = int(entry_id[2:]) if entry_id[:2] == b"0-" else int(entry_id.split(b"-")[1])
    entry = fields.get(b"e")
    if entry is not None:
        e = codec.loads(entry)
        return StoredEvent(version, e["t"], e["d"], e["a"], e["at"])
    # The first layout (a field each), still read so that no stored history is rewritten.
    return StoredEvent(version, fields[b"type"].decode(), json.loads(fields[b"data"]),
                       json.loads(fields[b"actor"]), int(fields[b"at"]))


def pairs(fields: list[bytes]) -> dict[bytes, bytes]:
    """An entry's fields as Redis sends them (a flat list) as a dict."""
    return dict(zip(fields[::2], fields[1::2], strict=False))
