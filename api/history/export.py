"""A game's whole history as NDJSON (one event per line, as the caller may see it), for
replayers and archives.

The lines are read from the store a chunk at a time and written as they are made, so memory
stays the same whatever the history's length, and the export is consistent: it ends at the
version the game had when the request came (the stream may have grown since).

An event the viewer is shown as stored (the game's `as_stored` says which types redact leaves
unchanged: every type once a game is over, the public ones before) is not decoded at all: the
store cuts its line out of the stored bytes. The others (the platform's events, the types that
hide something, the types an upcaster reshapes) go through presenting.present, as every other
read does.

Stored events never change, and how a viewer sees one depends only on the event and the viewer
(a game's redact is pure): each whole chunk of a history (versions k*CHUNK+1 to (k+1)*CHUNK), as
one viewer sees it, is kept as made beside the history for `cache_ttl_s` (EXPORT_CACHE_TTL; 0:
never), so the next export of it copies bytes, a live game's as a finished game's (only the
chunk at the tip, not yet whole, is cut and presented each time). A finished game looks the same
to everyone (one copy); a live game's chunks are kept per viewer who exported them. The chunk's
name holds the game's code version, the presenting's and the viewer, so other code or another
seat never gets it."""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from api.games import presenting, words
from api.games.repository import Game, snapshot_code
from api.platform.events import PLATFORM_EVENTS
from domain.contract import EVERYONE, GameDef, Viewer
from events import codec
from events.store import EventStore, StoredEvent

if TYPE_CHECKING:
    from api.games.service import GameService
    from api.history.export_memory import ChunkMemory

CHUNK = 2000  # events read and written at a time
CACHED_AT_ONCE = 5  # a finished game's cached chunks looked up in one round trip (~2 MB of lines)
PRESENTING = "1"  # bump when presenting.present changes what an event looks like


@dataclass(frozen=True)
class Ended:
    """A public game known to be over from its meta (api/games/harvest.py names its finished log
    entry there), without rebuilding it: what an export needs of it. A harvest's crawl exports
    games no process has in memory, whose snapshots were dropped when they ended."""

    id: str
    version: int
    definition: GameDef
    finished: bool = True


def ended(service: GameService, game_id: str) -> Ended | None:
    """The game as an Ended, if its meta says it ended (else None: load it)."""
    _, definition, _, _ = service.games.meta(game_id)  # 404 for an unknown game, cached after
    store = service.store
    if not store.finished_log_marks([game_id])[0]:
        return None
    if service.games.retention_s is not None:  # its end, to judge it against the retention
        last = store.last_event(game_id)
        service.games.check_kept(game_id, last.at if last is not None else None)
    return Ended(game_id, store.version(game_id), definition)


def as_stored(game: Game | Ended, viewer: Viewer) -> Callable[[str], bool]:
    """Which event types reach `viewer` exactly as stored."""
    declared = game.definition.as_stored(viewer)
    reshaped = {type_ for type_, _ in game.definition.upcasters}
    return lambda type_: type_ in declared and type_ not in PLATFORM_EVENTS and type_ not in reshaped


def ndjson(store: EventStore, game: Game | Ended, viewer: Viewer, after: int = 0, cache_ttl_s: int = 0,
           memory: ChunkMemory | None = None,
           lang: str | None = None) -> Iterator[bytes]:
    """The lines after `after`, a chunk at a time; `memory` (api/export_memory.ChunkMemory): the
    process's own copies of cached chunks, looked up before Redis. With `lang`, each event has
    its words in that language (api/games/words.py): every line is rendered then, none passes
    as stored, and the chunks are cached under names of their own.

    What can fail is decided before the answer starts (a 503 store_unavailable with Retry-After,
    not a 200 whose body breaks off, which the error handlers never see): a finished game's
    last event is read first (an archived game's whole record: the archive is read here, and
    the process keeps the record for the chunks), then the first chunk."""
    if game.finished and after < game.version:
        store.last_event(game.id)
    lines = _ndjson(store, game, viewer, after, cache_ttl_s, memory, lang)
    first = next(lines, None)
    return lines if first is None else itertools.chain((first,), lines)


def _ndjson(store: EventStore, game: Game | Ended, viewer: Viewer, after: int, cache_ttl_s: int,
            memory: ChunkMemory | None, lang: str | None) -> Iterator[bytes]:
    passes = as_stored(game, viewer) if lang is None else (lambda type_: False)
    # Words name the seats: an Ended knows none (the route loads the game when words are asked).
    speaking = None
    if lang is not None:
        if not isinstance(game, Game):
            raise TypeError("an export with words needs the loaded game, not an Ended")
        speaking = (game, lang)

    def render(e: StoredEvent) -> bytes:
        shown = presenting.present(game, viewer, e.type, e.data, e.version, e.actor, e.at)
        if speaking is not None:
            words.say_events(*speaking, [shown])
        return codec.dumps_bytes(shown) + b"\n"

    cached = cache_ttl_s > 0
    prefix = chunk_prefix(game.definition, viewer) + (f"words={lang}|" if lang is not None else "")
    found: dict[int, bytes | None] = {}  # chunk number -> its cached lines, looked up CACHED_AT_ONCE chunks at a time
    cursor = after
    while cursor < game.version:
        # Cached: read up to the next chunk's start, then chunk by chunk.
        size = min(CHUNK - cursor % CHUNK if cached else CHUNK, game.version - cursor)
        whole = cached and size == CHUNK
        k = cursor // CHUNK
        if whole and k not in found:
            ks = range(k, min(k + CACHED_AT_ONCE, game.version // CHUNK))
            found = _cached_chunks(store, memory, game.id, prefix, ks)
        lines = found.pop(k, None) if whole else None
        if lines is None:
            lines, last = store.read_lines(game.id, cursor, size, passes, render)
            if last == cursor:
                return  # expired meanwhile (FINISHED_TTL): the lines so far are all there is
            yield lines  # first: the caller reads them while they are cached
            if whole and last == cursor + size:
                store.cache(game.id, f"{prefix}{k}", lines, cache_ttl_s)
        else:
            last = cursor + size
            yield lines
        cursor = last


def chunk_prefix(definition: GameDef, viewer: Viewer) -> str:
    """The names of a viewer's cached chunks, but for their number. A stored event never
    changes and a game's redact is pure (the event and the viewer), so a live game's chunk as
    one viewer sees it is as lasting as a finished game's: only the viewer sets it apart. A
    finished game is shown to EVERYONE: its names carry no viewer (finished_exports.py makes them)."""
    seen_by = "" if viewer == EVERYONE else f"seat={viewer}|"
    return f"ndjson|{snapshot_code(definition)}|{PRESENTING}|{CHUNK}|{seen_by}"


def _cached_chunks(store: EventStore, memory: ChunkMemory | None, game_id: str, prefix: str,
                   ks: range) -> dict[int, bytes | None]:
    """Chunk number -> its cached lines (None: not cached), from the process's memory first,
    the rest in one round trip to Redis."""
    names = {k: f"{prefix}{k}" for k in ks}  # in Redis, beside the game's history
    held = {k: f"{game_id}|{name}" for k, name in names.items()}  # in the process's memory
    kept = memory.get(held.values()) if memory is not None else {}
    found = {k: kept.get(name) for k, name in held.items()}
    missing = [k for k, lines in found.items() if lines is None]
    if missing:
        for k, lines in zip(missing, store.cached(game_id, [names[k] for k in missing])):
            found[k] = lines
            if lines is not None and memory is not None:
                memory.offer(held[k], lines)
    return found
