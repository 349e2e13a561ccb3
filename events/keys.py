"""Key names. Every key of one game shares the hash tag `{<id>}`, so the game's Lua scripts
touch one cluster slot and stay legal on Redis Cluster."""
from __future__ import annotations


class Keys:
    def __init__(self, prefix: str = ""):
        self.prefix = prefix

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

    def cached(self, game_id: str, name: str) -> str:
        """A blob derived from the game's immutable history (its renderings), kept for a while."""
        return f"{self.prefix}game:{{{game_id}}}:cached:{name}"

    def idempotency(self, game_id: str, key: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:idem:{key}"

    # The two global sets. Each is touched by single-key commands only (never beside a game's
    # keys in one script), so they may live in any cluster slot.
    def owing(self) -> str:
        """Games that may owe a worker's turn (sorted set; score: the version it was marked at)."""
        return f"{self.prefix}games:owing"

    def idle(self) -> str:
        """Unfinished games (sorted set; score: their last activity known, ms since the epoch)."""
        return f"{self.prefix}games:idle"

    def finished_log(self) -> str:
        """Every game that ended, in the order it was logged (stream: game id and a summary)."""
        return f"{self.prefix}games:finished-log"

    def clocks(self) -> str:
        """Deadlines of clocked games (sorted set; member `<game>:<version>`, score: the earliest
        deadline of that version in ms, or earlier: a wake-up, re-judged when due)."""
        return f"{self.prefix}games:clocks"

    def clocked(self) -> str:
        """Unfinished clocked games (sorted set, all scores 0: walked by id): what a re-arm walks."""
        return f"{self.prefix}games:clocked"

    def active(self) -> str:
        """The first layout's set of unfinished games, migrated into the two above."""
        return f"{self.prefix}games:active"
