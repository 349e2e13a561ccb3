"""The archive port: where finished games are kept for good, off Redis (issue 31).

A finished game's whole history, its meta and credentials (the bytes Redis held, to the byte)
and its summary (type, status, seats, result, seed, timestamps) are one archived record. The
history is kept compressed (zstd) as the stream's own entries, so that every read rebuilt from
the archive is the one Redis served. Two adapters: SQLite (events/archive_sqlite.py, a file
under DATA_DIR, the default) and PostgreSQL (events/archive_postgres.py, `ARCHIVE_URL=
postgresql://...`; events/archives.py opens the one a URL names); both pass
tests/archive/test_archive_contract.py. Each creates and migrates its own schema (a versioned
migration table) on first use. A backend that cannot be reached raises
events.store.StoreUnavailable, having written nothing it did not acknowledge.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

import zstandard

from . import codec
from .store import StoreUnavailable

LEVEL = 12  # zstd's level: the archive is written once and read often, so spend time writing
DICTIONARY_BYTES = 16 * 1024  # a game type's dictionary (16 KiB did better than 64 on 2-seat games)
TRAIN_ON = 40  # games of a type archived before its dictionary is made from them


@dataclass(frozen=True)
class ArchivedGame:
    """One finished game as archived. `entries`: event N's stored entry (the JSON Redis kept,
    {"t","d","a","at"}) at index N-1."""

    game_id: str
    meta: dict[str, str]
    credentials: dict[str, str]
    entries: tuple[bytes, ...]
    summary: dict[str, Any] = field(default_factory=dict)  # type, status, seats, result, seed, created_at, finished_at

    @property
    def version(self) -> int:
        return len(self.entries)


class ArchiveUnavailable(StoreUnavailable):
    """The archive cannot be reached (its file unreadable or unwritable, its server away): a
    StoreUnavailable (503 to a reader) that says it is the archive's, so that the reconciler and
    the readiness probe tell an archive outage (degraded: the live games play on) from Redis's."""


class Damaged(Exception):
    """A record that cannot be read as written: a checksum that does not match its bytes, a
    payload that does not decompress, a summary that is not JSON. `summary`: the record's summary
    when that part is sound (a list can still show the game), else None. Never cached: once the
    row is repaired, the next read answers it."""

    def __init__(self, game_id: str, reason: str, summary: dict[str, Any] | None = None):
        super().__init__(f"archived game {game_id} is damaged: {reason}")
        self.game_id = game_id
        self.reason = reason
        self.summary = summary


DAMAGED_ENTRY = b""  # finished_log's entry of a game whose summary is damaged (its place in the log kept)


def digest(data: bytes) -> str:
    """A record part's checksum as kept beside it (SHA-256, hex)."""
    return hashlib.sha256(data).hexdigest()


class Archived(Exception):
    """An append to a game moved to the archive: its history takes no more events."""


class ArchiveStore(Protocol):
    """What the application asks of an archive."""

    def put(self, game: ArchivedGame) -> None:
        """Writes (or rewrites, the same game archived again) a game's record, durably."""

    def get(self, game_id: str) -> ArchivedGame | None:
        """The game's record as written; None if it was never archived."""

    def summary(self, game_id: str) -> dict[str, Any] | None:
        """The game's summary alone, as written last (its history not read); None if it was
        never archived; Damaged if it cannot be read."""

    def put_analysis(self, game_id: str, document: bytes) -> None:
        """Keeps (or replaces) the game's analysis, the JSON document Redis held, to the byte
        (api/analysis/analyses.py moves it here once the game is archived), durably."""

    def analysis(self, game_id: str) -> bytes | None:
        """The game's analysis as kept; None if none is (or the game's history was purged:
        its analysis went with it). Damaged if it does not match its checksum."""

    def check(self, after: int, count: int) -> list[tuple[int, str, str | None]]:
        """(position, game id, what is damaged or None) of the records after position `after`
        (every namespace's, in the archive's order), at most `count`: each one's checksums and
        decoding checked (`python -m tools.archive verify`)."""

    def has(self, game_id: str) -> bool:
        """Whether the game has a record (a tombstone too), without reading it."""

    def finished(self, after: int, count: int, type_: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        """(position, summary) of public games archived after position `after`, in the archive's
        own order (a game's position is given once and never changes), at most `count`. A
        summary that cannot be read is {"damaged": True}."""

    def finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        """(harvest entry id, game id, entry) of the archived games whose finished-log entry id
        (summary["finished_log"], "<ms>-<n>") comes after `after` ("0": from the first), in that
        order, at most `count`: the finished log's entries that Redis trimmed since. A game whose
        summary is damaged has DAMAGED_ENTRY for its entry (the harvest passes it, saying so)."""

    def train_dictionary(self, type_: str) -> bool:
        """Makes the game type's compression dictionary from its first TRAIN_ON archived games
        once there are that many (the games archived after it use it; those before keep theirs);
        True if the type has one."""

    def purge(self, finished_before_ms: int, limit: int) -> int:
        """Drops the histories of up to `limit` games that ended before `finished_before_ms`
        (the retention's): each keeps only its summary, a tombstone (get() answers it with no
        entries), so that it is known as gone rather than never made; its analysis is dropped.
        Returns how many."""

    def stats(self) -> tuple[int, int, int]:
        """(games, bytes of history as Redis held it, bytes kept compressed)."""

    def ping(self) -> bool:
        """True if the backend answers; StoreUnavailable otherwise."""

    def close(self) -> None: ...


def plain(game: ArchivedGame) -> bytes:
    """The record's payload before compression: a JSON header line (meta, credentials), then one
    entry a line (an entry is compact JSON: no raw newline in it)."""
    header = codec.dumps_bytes({"meta": game.meta, "credentials": game.credentials})
    return b"\n".join((header, *game.entries))


def pack(game: ArchivedGame, dictionary: bytes | None = None) -> bytes:
    """The payload compressed, with the game type's dictionary if it has one (a third to two
    fifths fewer bytes: a game's history repeats its type's names and shapes)."""
    kept = zstandard.ZstdCompressionDict(dictionary) if dictionary else None
    return zstandard.ZstdCompressor(level=LEVEL, dict_data=kept).compress(plain(game))


def train(samples: list[bytes]) -> bytes:
    """A zstd dictionary of DICTIONARY_BYTES made from payloads (plain) of one game type."""
    return zstandard.train_dictionary(DICTIONARY_BYTES, list[bytes | bytearray | memoryview](samples)).as_bytes()


def unpack(game_id: str, payload: bytes, summary: dict[str, Any], dictionary: bytes | None = None) -> ArchivedGame:
    kept = zstandard.ZstdCompressionDict(dictionary) if dictionary else None
    lines = zstandard.ZstdDecompressor(dict_data=kept).decompress(payload).split(b"\n")
    header = codec.loads(lines[0])
    return ArchivedGame(game_id, header["meta"], header["credentials"], tuple(lines[1:]), summary)


class Expired(Exception):
    """The game ended longer ago than the archive's retention (ARCHIVE_RETENTION_S): it is gone
    for every reader at once (decided from its end, not from when its bytes were purged)."""

    def __init__(self, game_id: str, finished_at: int):
        super().__init__(f"game {game_id} ended at {finished_at} (ms) and is past the retention")
        self.game_id = game_id
        self.finished_at = finished_at


def raw_size(game: ArchivedGame) -> int:
    return sum(len(e) for e in game.entries) + len(codec.dumps_bytes(game.meta)) + len(
        codec.dumps_bytes(game.credentials))
