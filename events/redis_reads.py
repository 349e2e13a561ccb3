"""Reading a game's history on Redis: event N is `XRANGE key 0-N 0-N`; whole histories as
history lines cut from the stored bytes; live reads (XREAD BLOCK, and the followers)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from .cluster_follower import ClusterFollower
from .connection import unavailable
from .redis_base import RedisBase
from .redis_entries import Entry, FlatEntry, Streams, decode_entry, pairs
from .redis_follower import RedisFollower
from .store import Follower, StoredEvent


class Reads(RedisBase):
    """A game's events, meta and credentials; live reads."""

    @unavailable
    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        entries = self.redis.xrange(self.keys.events(game_id), min=f"0-{after + 1}", max="+", count=limit)
        return [decode_entry(i, f) for i, f in cast(list[Entry], entries)]

    @unavailable
    def read_lines(self, game_id: str, after: int, limit: int, as_stored: Callable[[str], bool],
                   render: Callable[[StoredEvent], bytes]) -> tuple[bytes, int]:
        """Whole histories, fast: the entries come as Redis sends them (no reply parsing into
        dicts), and an event shown as stored becomes its line by cutting its stored bytes and
        putting them back in the line's order, with no decoding and no encoding."""
        if limit <= 0:
            return b"", after
        entries = self._raw.xrange(self.keys.events(game_id), min=f"0-{after + 1}", max="+", count=limit)
        if not entries:
            return b"", after
        return cut_lines(entries, as_stored, render), int(entries[-1][0].split(b"-")[1])

    @unavailable
    def read_range(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        if last < first:
            return []
        entries = self.redis.xrange(self.keys.events(game_id), min=f"0-{first}", max=f"0-{last}")
        return [decode_entry(i, f) for i, f in cast(list[Entry], entries)]

    @unavailable
    def version(self, game_id: str) -> int:
        return int(self.redis.xlen(self.keys.events(game_id)))

    @unavailable
    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The versions of many games in one round trip (0 for a game with no stream)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xlen(self.keys.events(game_id))
        return dict(zip(game_ids, pipe.execute(), strict=True))

    @unavailable
    def meta(self, game_id: str) -> dict[str, str] | None:
        raw = cast(dict[bytes, bytes], self.redis.hgetall(self.keys.meta(game_id)))
        if not raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    @unavailable
    def credentials(self, game_id: str) -> dict[str, str]:
        raw = cast(dict[bytes, bytes], self.redis.hgetall(self.keys.credentials(game_id)))
        return {k.decode(): v.decode() for k, v in raw.items()}

    @unavailable
    def last_event(self, game_id: str) -> StoredEvent | None:
        found = cast(list[Entry], self.redis.xrevrange(self.keys.events(game_id), "+", "-", count=1))
        return decode_entry(*found[0]) if found else None

    @unavailable
    def follow(self, game_id: str, after: int, block_ms: int) -> list[StoredEvent]:
        """Events after `after`, waiting up to block_ms for the first one (XREAD BLOCK)."""
        reply = cast(Streams, self.redis.xread({self.keys.events(game_id): f"0-{after}"}, block=block_ms, count=100))
        if not reply:
            return []
        return [decode_entry(i, f) for i, f in reply[0][1]]

    def follower(self) -> Follower:
        if self.clustered:
            return ClusterFollower(self)
        return RedisFollower(self)


def cut_lines(entries: Sequence[FlatEntry], as_stored: Callable[[str], bool],
              render: Callable[[StoredEvent], bytes]) -> bytes:
    """Stream entries as Redis sends them made history lines (see Reads.read_lines): shared by
    the archive's reads (events/archived_store.py), which keep the same entries."""
    lines: list[bytes] = []
    known: dict[bytes, bool] = {}
    add = lines.append
    for entry_id, fields in entries:
        entry = fields[1] if len(fields) == 2 and fields[0] == b"e" else None
        if entry is not None and entry_id[:2] == b"0-" and entry[:6] == b'{"t":"':
            end = entry.find(b'"', 6)  # an event type is a name: no escaped quote in it
            passes = known.get(entry[6:end])
            if passes is None:
                type_ = entry[6:end]
                passes = known[type_] = b"\\" not in type_ and as_stored(type_.decode())
            if passes and entry[end:end + 6] == b'","d":':
                # {"t":"<type>","d":<data>,"a":<actor>,"at":<ms>}: "at" is the last key and
                # "a" the one before (an actor is a number, null or a string, and a quote in
                # a JSON string is escaped, so neither key can be found inside a value).
                at = entry.rfind(b',"at":')
                actor = entry.rfind(b',"a":', 0, at)
                add(b'{"version":%b,"type":%b,"actor":%b,"at":%b,"data":%b}\n' % (
                    entry_id[2:], entry[5:end + 1], entry[actor + 5:at], entry[at + 6:-1], entry[end + 6:actor]))
                continue
        add(render(decode_entry(entry_id, pairs(fields))))
    return b"".join(lines)
