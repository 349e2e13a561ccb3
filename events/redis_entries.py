"""A stream entry of the event store on Redis, in and out: shared by the store and its two
followers (events/redis_follower.py on one Redis, events/cluster_follower.py on a cluster)."""
from __future__ import annotations

import json
from collections.abc import Sequence

from . import codec
from .store import NewEvent, StoredEvent

# Replies as the store's clients give them (they never decode: every name and value is bytes;
# redis-py's own types cover decode_responses too, hence the casts where a reply comes).
Fields = dict[bytes, bytes]
Entry = tuple[bytes, Fields]  # a stream entry, its fields parsed into a dict
FlatEntry = tuple[bytes, list[bytes]]  # a stream entry as Redis sends it (the raw XRANGE)
Streams = list[tuple[bytes, list[Entry]]]  # XREAD's: each stream's key and its new entries


def encode_entries(events: Sequence[NewEvent], at: int) -> list[bytes]:
    """One JSON field per stream entry: {"t": type, "d": data, "a": actor, "at": ms}."""
    dumps = codec.dumps_bytes
    return [dumps({"t": e.type, "d": e.data, "a": e.actor, "at": at}) for e in events]


def decode_entry(entry_id: bytes, fields: Fields) -> StoredEvent:
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
