"""A player's recovery code (issue 36): shown once, it makes a new key when every device's key
is lost (a cleared browser). A code is single-use: using it replaces it with a new one, shown in
the same answer.

Only its SHA-256 is stored (a code is 192 random bits, not a password: a fast hash is enough):
- `player-recovery:<hash>` -> the player's id (the index a code is looked up in; taking it is
  one GETDEL, so of two requests racing with one code exactly one gets the key);
- `player:{<id>}`'s `recovery` field: the hash of the player's current code (a code replaced
  since is refused even if its index entry was left by a crash).
"""
from __future__ import annotations

import hmac
import secrets
from typing import Any

from api.errors import ApiError, Code
from api.games.callers import hash_token
from api.players.keys import KeyRing

CODE_PREFIX = "rc."


class InvalidRecoveryCode(ApiError):
    status, code = 401, Code.INVALID_RECOVERY_CODE


class Recovery:
    def __init__(self, connection: Any, prefix: str, keys: KeyRing) -> None:
        self.redis = connection
        self.prefix = prefix
        self.keys = keys

    def _index(self, digest: str) -> str:
        return f"{self.prefix}player-recovery:{digest}"

    def _player(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}"

    def issue(self, player_id: str) -> str:
        """A new code for the player; the previous one stops working."""
        code = CODE_PREFIX + secrets.token_urlsafe(24)
        digest = hash_token(code)
        old = self.redis.hget(self._player(player_id), "recovery")
        self.redis.set(self._index(digest), player_id)
        self.redis.hset(self._player(player_id), "recovery", digest)
        if old is not None:
            self.redis.delete(self._index(old.decode()))
        return code

    def matches(self, player_id: str, code: str) -> bool:
        """Whether `code` is the player's current recovery code (a step-up's proof: checked, not
        spent)."""
        current = self.redis.hget(self._player(player_id), "recovery")
        return (current is not None and code.startswith(CODE_PREFIX)
                and hmac.compare_digest(current.decode(), hash_token(code)))

    def recover(self, code: str, device: str) -> tuple[str, dict[str, Any], str, str]:
        """(the player's id, the new key's entry, the new key, the next recovery code)."""
        digest = hash_token(code)
        player_id = self.redis.getdel(self._index(digest)) if code.startswith(CODE_PREFIX) else None
        if player_id is not None:
            player_id = player_id.decode()
            current = self.redis.hget(self._player(player_id), "recovery")
            if current is not None and hmac.compare_digest(current.decode(), digest):
                entry, key = self.keys.add(player_id, device, limit=False)  # a lost device is no reason to refuse
                return player_id, entry, key, self.issue(player_id)
        raise InvalidRecoveryCode("This recovery code is unknown or was already used (each works once, "
                                  "and using it gives the next one).")
