"""A player's personal access tokens (issue 51): named keys with chosen scopes and an expiry,
for a script, a bot or an integration that should do less than the player's own devices.

A token is a player key (`pk.pat_…`: the `pk.` prefix, so every path that takes a player's key
takes it, and what it makes ends with it) kept in a ring of its own beside the device keys:
- `player:{<id>}:tokens` hash: a token's hash -> JSON {id, name, created, scopes, expires}
  (the token itself is shown once, when made, and never stored);
- `player:{<id>}:keys-used` and `player-key:<hash>`: shared with the device keys
  (api/players/keys.py); a token's index entry expires with the token (Redis `PX`), so the
  senders of what it made (webhooks, push subscriptions) stop at its expiry as at its revocation.

Revoking or replacing a token takes the device keys' path (`_forget`): its streams and tickets
end on every process, and what it made is removed. A token's scopes are checked at the edge,
against the operation's as openapi.yaml names them (api/http/scopes.py); here, that a token is
given no scope its maker lacks.

An OAuth app's access token (api/players/apps.py) is a token of this ring too, so the same
table holds it to its scopes: its entry names its `grant` (and the grant's `anchor`, the hash
what the app makes records), and it is neither listed nor counted among the player's own.
"""
from __future__ import annotations

import json
import secrets
import time
from typing import Any

from api.errors import ApiError, Code, ValidationFailed
from api.games.callers import KEY_PREFIX, hash_token
from api.players.keys import KeyRing

TOKEN_PREFIX = KEY_PREFIX + "pat_"  # a personal access token: a player key a request tells apart without a lookup
MAX_TOKENS = 20  # per player: a list a person can read
MAX_EXPIRES_IN_S = 366 * 86400  # a token lives at most a year (none: until revoked)


class TooManyTokens(ApiError):
    status, code = 409, Code.TOO_MANY_TOKENS


class UnknownToken(ApiError):
    status, code = 404, Code.UNKNOWN_TOKEN


class ScopeNotHeld(ApiError):
    """A token asked with a scope the credential making it does not hold."""
    status, code = 403, Code.INSUFFICIENT_SCOPE


def is_token(key: str | None) -> bool:
    return key is not None and key.startswith(TOKEN_PREFIX)


def _now_ms() -> int:
    return int(time.time() * 1000)


class TokenRing(KeyRing):
    """The player's tokens: the device keys' ring (api/players/keys.py) over its own hash, each
    entry with its scopes and expiry. `ended` is the device keys' list: what a token made ends
    by the same hooks."""

    def __init__(self, connection: Any, prefix: str, keys: KeyRing) -> None:
        super().__init__(connection, prefix)
        self.ended = keys.ended
        self.ended.append(self._end_made_by)  # a token made by a token ends with it

    def keys_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:tokens"

    def new_secret(self) -> str:
        return TOKEN_PREFIX + secrets.token_urlsafe(32)

    def make(self, player_id: str, name: str, scopes: list[str], expires_in: int | None,
             held: frozenset[str] | None, known: frozenset[str],
             maker: str | None = None) -> tuple[dict[str, Any], str]:
        """(the new token's entry, the token): `scopes` each one of `known`, none that `held`
        (the maker's; None: every scope) lacks. `maker`: the credential that asked; a token made
        by a token ends with it (revoked, replaced or expired and forgotten)."""
        unknown = sorted(set(scopes) - known)
        if unknown:
            raise ValidationFailed(f"No such scope: {', '.join(unknown)} (the scopes: {', '.join(sorted(known))}).",
                                   details={"fields": {"scopes": [f"Unknown scope {s!r}." for s in unknown]}})
        lacking = sorted(set(scopes) - held) if held is not None else []
        if lacking:
            raise ScopeNotHeld(f"A token cannot be given a scope the credential making it lacks: {', '.join(lacking)}.",
                               details={"missing": lacking})
        if self.redis.hlen(self.keys_key(player_id)) >= MAX_TOKENS and len(self.listing(player_id)) >= MAX_TOKENS:
            raise TooManyTokens(f"A player holds at most {MAX_TOKENS} tokens: revoke one it no longer uses first.",
                                details={"limit": MAX_TOKENS})
        now = _now_ms()
        entry = {"id": "t" + secrets.token_urlsafe(6), "name": name, "created": now,
                 "scopes": sorted(set(scopes)), "expires": now + expires_in * 1000 if expires_in else None}
        if is_token(maker):
            assert maker is not None
            entry["made_by"] = hash_token(maker)
        token = self.new_secret()
        digest = hash_token(token)
        self._store(player_id, digest, entry)
        if self._own_count(player_id) > MAX_TOKENS:  # a race past the check: as KeyRing.add
            self._forget(player_id, digest)
            raise TooManyTokens(f"A player holds at most {MAX_TOKENS} tokens: revoke one it no longer uses first.",
                                details={"limit": MAX_TOKENS})
        return entry, token

    def _own_count(self, player_id: str) -> int:
        """How many of the ring's tokens are the player's own (not an app's)."""
        return sum(1 for raw in self.redis.hvals(self.keys_key(player_id)) if "grant" not in json.loads(raw))

    def store(self, player_id: str, digest: str, entry: dict[str, Any]) -> None:
        """Keeps an app's access token of this hash (api/players/apps.py: its entry names its grant)."""
        self._store(player_id, digest, entry)

    def _store(self, player_id: str, digest: str, entry: dict[str, Any]) -> None:
        expires = entry.get("expires")
        left = expires - _now_ms() if expires else None
        self.redis.set(self.index_key(digest), player_id, px=max(1, left) if left is not None else None)
        self.redis.hset(self.keys_key(player_id), digest, json.dumps(entry))

    def replace(self, player_id: str, old_digest: str) -> str:
        """A new secret for the token of this hash, its name, scopes and expiry kept."""
        raw = self.redis.hget(self.keys_key(player_id), old_digest)
        if raw is None:
            raise UnknownToken("This token is no longer the player's.")
        token = self.new_secret()
        self._store(player_id, hash_token(token), json.loads(raw))
        self._forget(player_id, old_digest)
        return token

    # ---- reading ----------------------------------------------------------------------
    def ask(self, pipe: Any, player_id: str, digest: str) -> None:
        pipe.hget(self.keys_key(player_id), digest)
        pipe.hget(self.used_key(player_id), digest)

    def scopes_of(self, player_id: str, digest: str, raw: bytes | None, used: bytes | None) -> frozenset[str] | None:
        """The scopes of the token of this hash (as `ask` read it); None when it is not the
        player's or has expired. Notes its use, once a minute at most."""
        if raw is None:
            return None
        entry = json.loads(raw)
        if entry.get("expires") is not None and entry["expires"] <= _now_ms():
            return None
        self.confirms(player_id, digest, True, used)
        return frozenset(entry["scopes"])

    def listing(self, player_id: str, current_digest: str | None = None) -> list[dict[str, Any]]:
        """The player's tokens, oldest first (never a token or its hash); an expired one is
        forgotten as it is found (what it made ends then; its senders stopped at its expiry).
        An app's access tokens are not the player's own: not shown (forgotten too once expired)."""
        now = _now_ms()
        shown = []
        for entry in super().listing(player_id, current_digest):
            if entry.get("expires") is not None and entry["expires"] <= now:
                self._forget_id(player_id, entry["id"])
                continue
            if "grant" not in entry:
                shown.append(entry)
        return shown

    def of_grant(self, player_id: str, grant_id: str) -> list[str]:
        """The hashes of the access tokens of this app's grant."""
        return [digest.decode() for digest, raw in self.redis.hgetall(self.keys_key(player_id)).items()
                if json.loads(raw).get("grant") == grant_id]

    def forget(self, player_id: str, digest: str) -> None:
        """The token of this hash stops working (what it made ends)."""
        self._forget(player_id, digest)

    def _end_made_by(self, player_id: str, digest: str) -> None:
        """The tokens made by the token of this hash end with it (and theirs with them)."""
        for child, raw in self.redis.hgetall(self.keys_key(player_id)).items():
            if json.loads(raw).get("made_by") == digest:
                self._forget(player_id, child.decode())

    def _forget_id(self, player_id: str, token_id: str) -> None:
        try:
            self.revoke(player_id, token_id, apps=True)
        except ApiError:
            pass  # gone already

    def revoke(self, player_id: str, key_id: str, digest: str | None = None, apps: bool = False) -> None:
        """Revokes the player's token of this id (`apps`: an app's too; the player revokes those by
        their grant)."""
        if digest is not None:
            self._forget(player_id, digest)
            return
        for found, raw in self.redis.hgetall(self.keys_key(player_id)).items():
            entry = json.loads(raw)
            if entry["id"] == key_id and (apps or "grant" not in entry):
                self._forget(player_id, found.decode())
                return
        raise UnknownToken("The player has no token of this id (GET /players/me/tokens lists them).")
