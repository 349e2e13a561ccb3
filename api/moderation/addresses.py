"""Accounts sharing an address, kept as little as it can be (personal data: docs/operators.md).

The HTTP edge tells `seen(player, address)` when a player makes itself, claims a seat or seeks a
game (not on every request). The address is never stored: only a keyed hash of it (HMAC-SHA256
under MODERATION_ADDRESS_KEY, or a random key this server keeps in Redis when none is set;
changing the key unlinks everything kept), the whole IPv4 address or the IPv6 /64. Keys:
- `moderation:address:<hash>` sorted set: player id -> when last seen there (ms), expiring
  ADDRESS_RETENTION_DAYS after the last sighting, members older than that dropped;
- `moderation:addresses:shared` sorted set: the hashes two players or more were seen at -> when
  (the flags' index; its members past the retention are dropped as it is read);
- `moderation:player:<id>:addresses` sorted set: the hashes a player was seen at -> when (ms),
  kept as the others: the *linked accounts* read it (`marks`, `linked_to`). Two accounts are
  linked when one address hash was seen for both within the retention (the threshold: one
  shared address, ADDRESS_RETENTION_DAYS): they share a *mark*. Matchmaking never pairs them,
  nor does a rated lobby game seat them together (docs/promises.md). A loopback address
  (127.0.0.0/8, ::1) links nobody unless LINK_LOOPBACK is set: a server reached through a local
  proxy it does not trust (TRUSTED_PROXIES) sees every client there. LINK_SAME_ADDRESS=0 turns the links off.
  One device's lineage links too (LINK_KEY_LINEAGE): a player made by a request carrying another
  player's key (`made_by`) holds `lineage:<the maker's id>` (and the maker's own lineages) in
  this set, as does the maker: two accounts of one lineage share a member, as two of one address;
  `moderation:lineage:<maker>` sorted set: the players of the maker's lineage (the maker too) ->
  when, and `moderation:lineages` its index (the maker -> when), for the `key_lineage` flag.
  One identity provider's subject links too (LINK_IDENTITY_SUBJECT): the accounts that held one
  identity (`iss` and `sub`: signed in with it first, linked or unlinked it) each hold
  `idp:<hash>` (a keyed hash as an address's) in this set; `moderation:idp:<hash>` sorted set:
  its players -> when, and `moderation:idps:shared` the index of those two players or more held
  (the `shared_identity` flag).
Flask-free.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from typing import Any

SHARED_SHOWN = 100  # the addresses a flags page shows at most
PLAYERS_SHOWN = 50  # the players shown of one address (the most recently seen; `accounts` counts them all)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address parsed, an IPv4-mapped IPv6 one as its IPv4; None when it is not one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def normalised(address: str) -> str:
    """The whole IPv4 address (IPv4-mapped too), the /64 of an IPv6 one (a home's)."""
    ip = _ip(address)
    if ip is None:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def loopback(address: str) -> bool:
    ip = _ip(address)
    return ip is not None and ip.is_loopback


class Addresses:
    def __init__(self, connection: Any, prefix: str, key: str, retention_days: float, link: bool = True,
                 link_loopback: bool = False, link_lineage: bool = True, link_identity: bool = True) -> None:
        self.redis = connection
        self.prefix = prefix
        self.retention_ms = int(retention_days * 86_400_000)
        self.link = link  # LINK_SAME_ADDRESS: accounts seen at one address are linked
        self.link_loopback = link_loopback  # LINK_LOOPBACK: ...a loopback one too
        self.link_lineage = link_lineage  # LINK_KEY_LINEAGE: a player made with another's key is linked to it
        self.link_identity = link_identity  # LINK_IDENTITY_SUBJECT: accounts that held one IdP subject are linked
        self._given_key = key.encode() if key else None
        self._key: bytes | None = self._given_key

    def _secret(self) -> bytes:
        if self._key is None:
            kept = f"{self.prefix}moderation:address-key"
            self.redis.set(kept, secrets.token_hex(32), nx=True)
            self._key = bytes(self.redis.get(kept))
        return self._key

    def hashed(self, address: str) -> str:
        return hmac.new(self._secret(), normalised(address).encode(), hashlib.sha256).hexdigest()[:32]

    def _at(self, hashed: str) -> str:
        return f"{self.prefix}moderation:address:{hashed}"

    def _shared(self) -> str:
        return f"{self.prefix}moderation:addresses:shared"

    def _lineage(self, root: str) -> str:
        return f"{self.prefix}moderation:lineage:{root}"

    def _lineages(self) -> str:
        return f"{self.prefix}moderation:lineages"

    def lineages(self, now_ms: int | None = None) -> list[dict[str, Any]]:
        """The lineages (each named by the player whose key made the others) of the retention,
        the most recent first: each with how many accounts and the PLAYERS_SHOWN seen last."""
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        self.redis.zremrangebyscore(self._lineages(), 0, now_ms - self.retention_ms)
        roots = [r.decode() for r in self.redis.zrevrange(self._lineages(), 0, SHARED_SHOWN - 1)]
        pipe = self.redis.pipeline(transaction=False)
        for root in roots:
            pipe.zrevrangebyscore(self._lineage(root), "+inf", now_ms - self.retention_ms, start=0,
                                  num=PLAYERS_SHOWN, withscores=True)
            pipe.zcount(self._lineage(root), now_ms - self.retention_ms, "+inf")
        replies = pipe.execute()
        return [{"made_by": root, "accounts": int(accounts), "players": {p.decode(): int(at) for p, at in players}}
                for root, players, accounts in zip(roots, replies[::2], replies[1::2]) if accounts >= 2]

    def _idp(self, hashed: str) -> str:
        return f"{self.prefix}moderation:idp:{hashed}"

    def _idps(self) -> str:
        return f"{self.prefix}moderation:idps:shared"

    def identity_seen(self, player_id: str, issuer: str, subject: str, now_ms: int | None = None) -> None:
        """The player holds (or held until now) the identity provider's subject: kept as a keyed
        hash, never the subject itself, for the retention; two players of one are linked."""
        if not self.link_identity:
            return
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        hashed = hmac.new(self._secret(), f"idp\0{issuer}\0{subject}".encode(), hashlib.sha256).hexdigest()[:32]
        pipe = self.redis.pipeline(transaction=False)
        for key, member in ((self._idp(hashed), player_id), (self._of(player_id), f"idp:{hashed}")):
            pipe.zadd(key, {member: now_ms})
            pipe.zremrangebyscore(key, 0, now_ms - self.retention_ms)
            pipe.pexpire(key, self.retention_ms)
        pipe.zcard(self._idp(hashed))
        if pipe.execute()[-1] >= 2:
            self.redis.zadd(self._idps(), {hashed: now_ms})

    def shared_identities(self, now_ms: int | None = None) -> list[dict[str, Any]]:
        """The identity subjects (as their hash) two players or more held within the retention,
        the most recent first, as `shared` gives the addresses."""
        return self._shared_of(self._idps(), self._idp, now_ms)

    def _of(self, player_id: str) -> str:
        return f"{self.prefix}moderation:player:{player_id}:addresses"

    def seen(self, player_id: str, address: str, now_ms: int | None = None) -> None:
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        hashed = self.hashed(address)
        key = self._at(hashed)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {player_id: now_ms})
        pipe.zremrangebyscore(key, 0, now_ms - self.retention_ms)
        pipe.pexpire(key, self.retention_ms)
        if self.link and (self.link_loopback or not loopback(address)):
            of = self._of(player_id)
            pipe.zadd(of, {hashed: now_ms})
            pipe.zremrangebyscore(of, 0, now_ms - self.retention_ms)
            pipe.pexpire(of, self.retention_ms)
        pipe.zcard(key)
        if pipe.execute()[-1] >= 2:
            self.redis.zadd(self._shared(), {hashed: now_ms})

    def made_by(self, player_id: str, maker_id: str, now_ms: int | None = None) -> None:
        """The player was made by a request carrying the maker's key: both hold the maker's
        lineage (and the new player the lineages the maker holds), for the retention."""
        if not self.link_lineage or player_id == maker_id:
            return
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        held = [m.decode() for m in self.redis.zrangebyscore(self._of(maker_id), now_ms - self.retention_ms, "+inf")
                if m.startswith(b"lineage:")]
        lineages = {f"lineage:{maker_id}", *held}
        pipe = self.redis.pipeline(transaction=False)
        for root in lineages:  # the flags' view: each lineage's players
            members = self._lineage(root.partition(":")[2])
            pipe.zadd(members, {player_id: now_ms, maker_id: now_ms})
            pipe.zremrangebyscore(members, 0, now_ms - self.retention_ms)
            pipe.pexpire(members, self.retention_ms)
            pipe.zadd(self._lineages(), {root.partition(":")[2]: now_ms})
        for who, tokens in ((maker_id, [f"lineage:{maker_id}"]), (player_id, sorted(lineages))):
            of = self._of(who)
            pipe.zadd(of, dict.fromkeys(tokens, now_ms))
            pipe.zremrangebyscore(of, 0, now_ms - self.retention_ms)
            pipe.pexpire(of, self.retention_ms)
        pipe.execute()

    def marks(self, player_ids: list[str], now_ms: int | None = None) -> dict[str, list[str]]:
        """Each of these players' links' marks that another of them shares (two players sharing
        one are linked: one address hash seen for both within the retention, a loopback one only
        with LINK_LOOPBACK, or one lineage); players sharing none left out. As many marks as
        sightings, however many players share one (a pair list would grow as their square)."""
        if not (self.link or self.link_lineage or self.link_identity) or len(player_ids) < 2:
            return {}
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.zrangebyscore(self._of(player_id), now_ms - self.retention_ms, "+inf")
        at: dict[bytes, list[str]] = {}
        for player_id, hashes in zip(player_ids, pipe.execute()):
            for hashed in hashes:
                if self._linking(hashed):
                    at.setdefault(hashed, []).append(player_id)
        found: dict[str, list[str]] = {}
        for hashed, seen in at.items():
            if len(set(seen)) >= 2:
                for player_id in set(seen):
                    found.setdefault(player_id, []).append(hashed.decode())
        return found

    def _linking(self, mark: bytes) -> bool:
        """Whether the mark links (its setting may have been turned off since it was kept)."""
        if mark.startswith(b"lineage:"):
            return self.link_lineage
        if mark.startswith(b"idp:"):
            return self.link_identity
        return self.link

    def linked_to(self, player_id: str, others: list[str], now_ms: int | None = None) -> list[str]:
        """Those of `others` linked to the player."""
        marks = self.marks([player_id, *[o for o in others if o != player_id]], now_ms)
        mine = set(marks.get(player_id, ()))
        return sorted(o for o, theirs in marks.items() if o != player_id and mine.intersection(theirs))

    def shared(self, now_ms: int | None = None) -> list[dict[str, Any]]:
        """The addresses (as their hash) at which two players or more were seen within the
        retention, the most recent first: each with how many (`accounts`) and the PLAYERS_SHOWN
        seen last (id -> last seen, ms)."""
        found = self._shared_of(self._shared(), self._at, now_ms)
        return [{"address": f.pop("hash"), **f} for f in found]

    def _shared_of(self, index: str, members: Any, now_ms: int | None) -> list[dict[str, Any]]:
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        self.redis.zremrangebyscore(index, 0, now_ms - self.retention_ms)
        hashes = [h.decode() for h in self.redis.zrevrange(index, 0, SHARED_SHOWN - 1)]
        pipe = self.redis.pipeline(transaction=False)
        for hashed in hashes:
            pipe.zrevrangebyscore(members(hashed), "+inf", now_ms - self.retention_ms, start=0, num=PLAYERS_SHOWN,
                                  withscores=True)
            pipe.zcount(members(hashed), now_ms - self.retention_ms, "+inf")
        replies = pipe.execute()
        found = []
        for hashed, players, accounts in zip(hashes, replies[::2], replies[1::2]):
            if accounts >= 2:
                found.append({"hash": hashed, "accounts": int(accounts),
                              "players": {p.decode(): int(at) for p, at in players}})
        return found
