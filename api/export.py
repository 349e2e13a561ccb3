"""A game's whole history as NDJSON (one event per line, as the caller may see it), for
replayers and archives.

The lines are read from the store a chunk at a time and written as they are made, so memory
stays the same whatever the history's length, and the export is consistent: it ends at the
version the game had when the request came (the stream may have grown since)."""
from __future__ import annotations

from typing import Iterator

from events import codec

from . import presenting

CHUNK = 500  # events read and written at a time


def ndjson(store, game, viewer, after: int = 0) -> Iterator[bytes]:
    cursor = after
    while cursor < game.version:
        events = store.read(game.id, after=cursor, limit=min(CHUNK, game.version - cursor))
        if not events:
            return  # expired meanwhile (FINISHED_TTL): the lines so far are all there is
        yield b"".join(codec.dumps_bytes(presenting.present(game, viewer, e.type, e.data, e.version, e.actor, e.at))
                       + b"\n" for e in events)
        cursor = events[-1].version
