"""Identities (issue 36): an identity provider's user (`iss` + `sub` of a verified token) is one
player, made at its first sight; a player may link several identities (a phone app's sign-in
and a website's) and unlink them.

Keys (single-key commands only):
- `identity:<hash>` -> the player's id, `<hash>` the SHA-256 of `iss`, a NUL and `sub`. Written
  with SET NX: of processes racing the first sight of one identity, exactly one makes the
  mapping, and the others read its player. A racer writes its player's hash before its SET NX,
  so the mapping never names a player not yet written; a loser's unused hash is deleted.
- `player:{<id>}:identities` hash: the same hash -> JSON {id, issuer, subject, linked (ms)}.
`held` (wiring.py: the moderation's api/moderation/addresses.py `identity_seen`) hears of each
player that holds an identity: at its first sight, a link and an unlink (issue 50: two accounts
that held one identity are linked, and never paired). Flask-free.
"""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from api.errors import ApiError, Code
from api.input_rules import name_problem, normal_name

NAME_CLAIMS = ("name", "preferred_username", "nickname", "given_name")
MAX_NAME = 40


class IdentityTaken(ApiError):
    status, code = 409, Code.IDENTITY_TAKEN


class UnknownIdentity(ApiError):
    status, code = 404, Code.UNKNOWN_IDENTITY


def identity_hash(issuer: str, subject: str) -> str:
    return hashlib.sha256(f"{issuer}\0{subject}".encode()).hexdigest()


def name_from(claims: dict[str, Any]) -> str:
    """The player's name from the first name claim a person could read, cut to MAX_NAME."""
    for claim in NAME_CLAIMS:
        value = claims.get(claim)
        if isinstance(value, str):
            name = normal_name(value).strip()[:MAX_NAME]
            if name and name_problem(name) is None:
                return name
    return "Player"


class Identities:
    def __init__(self, connection: Any, prefix: str = "") -> None:
        self.redis = connection
        self.prefix = prefix
        # (player id, issuer, subject): told when a player holds (or lets go of) an identity
        self.held: list[Callable[[str, str, str], None]] = []

    def _held(self, player_id: str, issuer: str, subject: str) -> None:
        for told in self.held:
            told(player_id, issuer, subject)

    def _mapping(self, digest: str) -> str:
        return f"{self.prefix}identity:{digest}"

    def _linked(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:identities"

    def player_of(self, claims: dict[str, Any], make: Callable[[str], str], discard: Callable[[str], None]) -> str:
        """The player of the token's identity; at its first sight, one made by `make(name)` (its
        id), `discard(id)` undoing a player that lost the race."""
        digest = identity_hash(claims["iss"], claims["sub"])
        while True:  # again only if the winner of a race unlinked the identity meanwhile
            found = self.redis.get(self._mapping(digest))
            if found is not None:
                return str(found.decode())
            candidate = make(name_from(claims))
            if self.redis.set(self._mapping(digest), candidate, nx=True):
                self._note(candidate, digest, claims)
                return candidate
            discard(candidate)

    def link(self, player_id: str, claims: dict[str, Any], counts_from: int = 0) -> dict[str, Any]:
        """Links the identity to the player (again: nothing changes); IdentityTaken when it is
        another player's. `counts_from`: when it proves a step-up (ms; api/players/step_up.py)."""
        digest = identity_hash(claims["iss"], claims["sub"])
        if not self.redis.set(self._mapping(digest), player_id, nx=True):
            owner = self.redis.get(self._mapping(digest))
            if owner is not None and owner.decode() != player_id:
                raise IdentityTaken("This identity already signs in another player: unlink it there first.")
        return self._note(player_id, digest, claims, counts_from)

    def _note(self, player_id: str, digest: str, claims: dict[str, Any], counts_from: int = 0) -> dict[str, Any]:
        entry = {"id": digest[:16], "issuer": claims["iss"], "subject": claims["sub"],
                 "linked": int(time.time() * 1000), "counts_from": counts_from}
        self._held(player_id, claims["iss"], claims["sub"])
        self.redis.hsetnx(self._linked(player_id), digest, json.dumps(entry))
        return dict(json.loads(self.redis.hget(self._linked(player_id), digest)))

    def entry_of(self, player_id: str, claims: dict[str, Any]) -> dict[str, Any] | None:
        """The player's entry of the token's identity (None: not linked to the player)."""
        raw = self.redis.hget(self._linked(player_id), identity_hash(claims["iss"], claims["sub"]))
        return dict(json.loads(raw)) if raw else None

    def listing(self, player_id: str) -> list[dict[str, Any]]:
        entries = [json.loads(raw) for raw in self.redis.hvals(self._linked(player_id))]
        return sorted(entries, key=lambda e: (e["linked"], e["id"]))

    def count(self, player_id: str) -> int:
        return int(self.redis.hlen(self._linked(player_id)))

    def unlink(self, player_id: str, identity_id: str) -> None:
        for digest, raw in self.redis.hgetall(self._linked(player_id)).items():
            if (entry := json.loads(raw))["id"] == identity_id:
                self._held(player_id, entry["issuer"], entry["subject"])  # held until now
                self.redis.hdel(self._linked(player_id), digest)
                owner = self.redis.get(self._mapping(digest.decode()))
                if owner is not None and owner.decode() == player_id:  # only this player's mapping
                    self.redis.delete(self._mapping(digest.decode()))
                return
        raise UnknownIdentity("The player has no linked identity of this id (GET /players/me/identities lists them).")
