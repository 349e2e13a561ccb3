"""What the Redis store keeps beside a game's history, never the truth: blobs derived from it
(renderings) and the snapshots of its state (both made by code, dropped when the code changes)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .connection import unavailable
from .redis_base import RedisBase


class Caches(RedisBase):
    """Cached blobs and snapshots."""

    @unavailable
    def cached(self, game_id: str, names: Sequence[str]) -> list[bytes | None]:
        if not names:
            return []
        return cast(list[bytes | None], self.redis.mget([self.keys.cached(game_id, n) for n in names]))

    @unavailable
    def cache(self, game_id: str, name: str, blob: bytes, ttl_s: int) -> None:
        self._cache(keys=[self.keys.events(game_id), self.keys.cached(game_id, name)], args=[blob, ttl_s])

    @unavailable
    def save_snapshot(self, game_id: str, version: int, code: str, blob: bytes) -> None:
        keys = [self.keys.snapshot_index(game_id), self.keys.snapshots(game_id)]
        self._save_snapshot(keys=keys, args=[code, version, blob])

    @unavailable
    def save_snapshots(self, game_id: str, code: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        keys = [self.keys.snapshot_index(game_id), self.keys.snapshots(game_id)]
        if self.clustered:  # no script in a cluster pipeline (see _game_script)
            for version, blob in snapshots:
                self._save_snapshot(keys=keys, args=[code, version, blob])
            return
        pipe = self.redis.pipeline(transaction=False)
        for version, blob in snapshots:
            self._save_snapshot(keys=keys, args=[code, version, blob], client=pipe)
        pipe.execute()

    @unavailable
    def load_snapshot(self, game_id: str, code: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        """The newest snapshot made by `code` at a version <= at_most (any version if None);
        a snapshot made by other code is a stale cache and is never returned."""
        keys = [self.keys.snapshot_index(game_id), self.keys.snapshots(game_id)]
        found = self._load_snapshot(keys=keys, args=[code, "+inf" if at_most is None else at_most])
        if not found:
            return None
        return int(found[0]), found[1]

    @unavailable
    def delete_snapshot(self, game_id: str) -> None:
        self.redis.delete(self.keys.snapshot_index(game_id), self.keys.snapshots(game_id))
