"""Key names. Every key of one game shares the hash tag `{<id>}`, so the game's Lua scripts
touch one cluster slot and stay legal on Redis Cluster."""
from __future__ import annotations

import zlib


def bucket_of(game_id: str, buckets: int) -> int:
    """The hash-tag bucket a game's entries of the sharded global keys live in."""
    return zlib.crc32(game_id.encode()) % buckets if buckets > 1 else 0


def sharded(key: str, buckets: int, game_id: str | None = None, bucket: int | None = None) -> str:
    """A global key as it is named with `buckets` shards: the key itself with one bucket (the
    first layout's names), else its shard `key:{b<n>}`, n the game's bucket unless `bucket`
    names one."""
    if buckets == 1:
        return key
    if bucket is None:
        if game_id is None:
            raise ValueError(f"{key} is sharded: name the game or the bucket")
        bucket = bucket_of(game_id, buckets)
    return f"{key}:{{b{bucket}}}"


class Keys:
    def __init__(self, prefix: str = "", buckets: int = 1):
        self.prefix = prefix
        self.buckets = buckets

    def events(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:events"

    def meta(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:meta"

    def credentials(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:credentials"

    def snapshots(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:snapshots"

    def snapshot_index(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:snapshot-index"

    def watchers(self, game_id: str) -> str:
        """The webhook subscriptions covering the game (a set, api/webhooks/subscriptions.py's):
        the append script tells whether it exists, so the turn path needs no look of its own."""
        return f"{self.prefix}game:{{{game_id}}}:webhook-subs"

    def appends(self) -> str:
        """The pub/sub channel every written append is told on (not a key: nothing is stored),
        when the store announces them (events/redis_announcements.py)."""
        return f"{self.prefix}appends"

    def cached(self, game_id: str, name: str) -> str:
        """A blob derived from the game's immutable history (its renderings), kept for a while."""
        return f"{self.prefix}game:{{{game_id}}}:cached:{name}"

    def idempotency(self, game_id: str, key: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:idem:{key}"

    # The global sets. Each is touched by single-key commands only (never beside a game's keys
    # in one script). With buckets > 1 (a cluster) each is sharded into `buckets` keys with hash
    # tags `{b<n>}`, a game's entry in the bucket its id hashes to: the sets' load spreads over
    # the cluster's nodes, and a bucket's sets share a slot. With one bucket the names are the
    # first layout's, unsharded.
    def bucket(self, game_id: str) -> int:
        return bucket_of(game_id, self.buckets)

    def _global(self, name: str, game_id: str | None, bucket: int | None) -> str:
        return sharded(f"{self.prefix}games:{name}", self.buckets, game_id, bucket)

    def every(self, name: str) -> list[str]:
        """Every bucket's key of one global set (`owing`, `idle`, `clocks`, `clocked`, `waiting`,
        `anonymous`)."""
        return [getattr(self, name)(bucket=b) for b in range(self.buckets)]

    def owing(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Games that may owe a worker's turn (sorted set; score: the version it was marked at)."""
        return self._global("owing", game_id, bucket)

    def idle(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Unfinished games (sorted set; score: their last activity known, ms since the epoch)."""
        return self._global("idle", game_id, bucket)

    def clocks(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Deadlines of clocked games (sorted set; member `<game>:<version>`, score: the earliest
        deadline of that version in ms, or earlier: a wake-up, re-judged when due)."""
        return self._global("clocks", game_id, bucket)

    def clocked(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Unfinished clocked games (sorted set, all scores 0: walked by id): what a re-arm walks."""
        return self._global("clocked", game_id, bucket)

    def waiting(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Games created waiting for seats (sorted set; score: creation, ms): what the expiry of
        waiting games walks (workers/abandon.py), left when the game ends or is found started."""
        return self._global("waiting", game_id, bucket)

    def anonymous(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Unfinished games created without a player's key (sorted set; score: creation, ms):
        counted against MAX_ANONYMOUS_GAMES."""
        return self._global("anonymous", game_id, bucket)

    def finished_log(self) -> str:
        """Every game that ended, in the order it was logged (stream: game id and a summary).
        One key even on a cluster: a harvest's cursor is one stream's entry id (an append per
        ended game, not per move)."""
        return f"{self.prefix}games:finished-log"

    def active(self) -> str:
        """The first layout's set of unfinished games, migrated into owing and idle."""
        return f"{self.prefix}games:active"

    def lease(self, name: str, game_id: str) -> str:
        """A short lease on one game's background work (one reconciler pass at a time)."""
        return f"{self.prefix}game:{{{game_id}}}:lease:{name}"


def glob_escaped(text: str) -> str:
    """`text` matched literally in a SCAN pattern (a prefix may hold `*?[]\\`)."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)
