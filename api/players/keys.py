"""A player's keys, one per device (issue 36): each browser or app holds its own named key, so
one can be revoked without touching the others.

Keys (single-key commands only, as the rest of api/players/):
- `player:{<id>}:keys` hash: a key's hash -> JSON {id, name, created} (the key itself is shown
  once, when made, and never stored);
- `player:{<id>}:keys-used` hash: a key's hash -> when it last authenticated a request (ms),
  written at most once a minute per key (a read answered from a hot key costs no write);
- `player-key:<hash>` -> the player's id: the index a request's key is looked up in (shared with
  api/players/accounts.py, which confirms an index entry against the keys hash).

Revoking another key than the one asking needs a step-up (api/players/step_up.py, checked by
api/players/accounts.py); a key revokes or replaces itself freely. Revoking or replacing a key
deletes its entry and index, and appends its hash to the
`key-rotations` stream, which ends the streams it opened and refuses the tickets it asked for on
every web process (api/live/keywatch.py, api/live/tickets.py): the same path a rotation takes.

What a key made ends with it (issue 49): a webhook or push subscription made with a player key
records the key's hash, and once the key is revoked or replaced, the ring's `ended` hooks
(registered by the composition root: the webhooks' and the push subscriptions' `end_key`)
remove them at once; their senders check the key too (`index_key` below), so a crash between
the two, or a hook that failed, still sends nothing more. A rotation ends them as a revocation
does: rotating is what an owner does when a key may have leaked, and a thief's webhook must not
outlive it (the device that rotated makes its own again with the new key).
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from api.errors import ApiError, Code
from api.games.callers import KEY_PREFIX, hash_token

MAX_KEYS = 20  # devices per player: a list a person can read, and a bound on what a key can make
USED_EVERY_MS = 60_000  # "last used" is written at most this often per key
ROTATIONS_KEPT = 10_000  # replaced keys remembered for the live hubs (seconds' worth is enough)

log = logging.getLogger(__name__)


def index_key(prefix: str, digest: str) -> str:
    """The index entry of the key of this hash: it exists while the key works (what the senders
    of webhooks and pushes made with a key check)."""
    return f"{prefix}player-key:{digest}"


class UnknownKey(ApiError):
    status, code = 404, Code.UNKNOWN_KEY


class TooManyKeys(ApiError):
    status, code = 409, Code.TOO_MANY_KEYS


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def _now_ms() -> int:
    return int(time.time() * 1000)


class KeyRing:
    def __init__(self, connection: Any, prefix: str = "") -> None:
        self.redis = connection
        self.prefix = prefix
        # Told (player id, key hash) once a key is revoked or replaced: what it made ends.
        self.ended: list[Callable[[str, str], object]] = []

    def keys_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:keys"

    def used_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:keys-used"

    def index_key(self, digest: str) -> str:
        return index_key(self.prefix, digest)

    def rotations_key(self) -> str:
        return f"{self.prefix}key-rotations"

    # ---- making -----------------------------------------------------------------------
    def add(self, player_id: str, name: str, limit: bool = True) -> tuple[dict[str, Any], str]:
        """(the new key's entry, the key): the index first, so a crash between leaves an index
        entry the keys hash does not confirm (authentication checks both)."""
        if limit and self.redis.hlen(self.keys_key(player_id)) >= MAX_KEYS:
            raise TooManyKeys(f"A player holds at most {MAX_KEYS} keys: revoke one it no longer uses first.")
        key = new_key()
        entry = {"id": "k" + secrets.token_urlsafe(6), "name": name, "created": _now_ms()}
        digest = hash_token(key)
        self._store(player_id, digest, entry)
        if limit and self.redis.hlen(self.keys_key(player_id)) > MAX_KEYS:
            # Two requests raced past the check above: the one that finds the list over its
            # bound takes its own key back (both may: a retry then finds room), so it never holds more.
            self._forget(player_id, digest)
            raise TooManyKeys(f"A player holds at most {MAX_KEYS} keys: revoke one it no longer uses first.")
        return entry, key

    def _store(self, player_id: str, digest: str, entry: dict[str, Any]) -> None:
        self.redis.set(self.index_key(digest), player_id)
        self.redis.hset(self.keys_key(player_id), digest, json.dumps(entry))

    def replace(self, player_id: str, old_digest: str) -> str:
        """A new secret for the key of this hash (its id, name and creation kept); the old one
        stops working, and what it opened ends."""
        raw = self.redis.hget(self.keys_key(player_id), old_digest)
        entry = json.loads(raw) if raw else {"id": "k" + secrets.token_urlsafe(6), "name": "key",
                                             "created": _now_ms()}
        key = new_key()
        self._store(player_id, hash_token(key), entry)
        self._forget(player_id, old_digest)
        return key

    def adopt(self, player_id: str, digest: str, name: str) -> None:
        """Takes a key made before keys were per device (its index entry exists) into the ring."""
        entry = {"id": "k" + secrets.token_urlsafe(6), "name": name, "created": _now_ms()}
        self.redis.hsetnx(self.keys_key(player_id), digest, json.dumps(entry))

    # ---- reading ----------------------------------------------------------------------
    def ask(self, pipe: Any, player_id: str, digest: str) -> None:
        """Queues on `pipe` what `confirms` reads: the caller's round trip carries it."""
        pipe.hexists(self.keys_key(player_id), digest)
        pipe.hget(self.used_key(player_id), digest)

    def confirms(self, player_id: str, digest: str, known: bool, used: bytes | None) -> bool:
        """Whether this hash is one of the player's keys (`known`, as `ask` read it: the index
        alone is not enough, see add); notes its use, once a minute at most."""
        if known:
            now = _now_ms()
            if used is None or now - int(used) >= USED_EVERY_MS:
                self.redis.hset(self.used_key(player_id), digest, now)
        return bool(known)

    def id_of(self, player_id: str, digest: str) -> str | None:
        """The id of the player's key of this hash (None: not one of its keys)."""
        raw = self.redis.hget(self.keys_key(player_id), digest)
        return str(json.loads(raw)["id"]) if raw else None

    def listing(self, player_id: str, current_digest: str | None = None) -> list[dict[str, Any]]:
        """The player's keys (id, name, created, last used, whether it is the one asking), oldest
        first; never a key or its hash."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.keys_key(player_id))
        pipe.hgetall(self.used_key(player_id))
        entries, used = pipe.execute()
        shown = []
        for digest, raw in entries.items():
            entry = json.loads(raw)
            last = used.get(digest)
            shown.append({**entry, "last_used": int(last) if last is not None else None,
                          "current": digest.decode() == current_digest})
        return sorted(shown, key=lambda e: (e["created"], e["id"]))

    def entry_of(self, player_id: str, digest: str) -> dict[str, Any] | None:
        """The entry of the player's key of this hash (None: not one of its keys)."""
        raw = self.redis.hget(self.keys_key(player_id), digest)
        return dict(json.loads(raw)) if raw else None

    def digest_of(self, player_id: str, key_id: str) -> str:
        """The hash of the player's key of this id; UnknownKey when it has none."""
        for digest, raw in self.redis.hgetall(self.keys_key(player_id)).items():
            if json.loads(raw)["id"] == key_id:
                return str(digest.decode())
        raise UnknownKey("The player has no key of this id (GET /players/me/keys lists them).")

    # ---- revoking ---------------------------------------------------------------------
    def revoke(self, player_id: str, key_id: str, digest: str | None = None) -> None:
        """Revokes the player's key of this id (`digest`: its hash, when the caller read it)."""
        self._forget(player_id, digest or self.digest_of(player_id, key_id))

    def _forget(self, player_id: str, digest: str) -> None:
        """The key of this hash stops working; its streams and tickets end on every process, and
        what it made (webhooks, push subscriptions) is removed."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.keys_key(player_id), digest)
        pipe.hdel(self.used_key(player_id), digest)
        pipe.delete(self.index_key(digest))
        pipe.xadd(self.rotations_key(), {"key": digest}, maxlen=ROTATIONS_KEPT, approximate=True)
        pipe.execute()
        for end in self.ended:
            try:
                end(player_id, digest)
            except Exception:  # the key is gone already: its senders find that and end the rest
                log.exception("ending what a revoked key of player %s made failed; its senders end it", player_id)
