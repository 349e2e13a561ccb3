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

    def idempotency(self, game_id: str, key: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:idem:{key}"

    def active(self) -> str:
        return f"{self.prefix}games:active"
