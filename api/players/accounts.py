"""Players: people with a key that authenticates them across games.

A player key is `pk.<random>`: the prefix tells it from a seat's token (`<game id>.<seat>.…`,
a game id is 12 characters, so never `pk`) without a lookup. Only its SHA-256 is stored.
Keys (each touched by single-key commands only, so they may live in any cluster slot):
- `player:{<id>}` hash: name, bot (1: a bot account, an outside program that plays as this
  player), created (ms), recovery (the recovery code's hash: api/players/recovery.py); `key`
  (the one key's hash) only for a player made before keys were per device, moved into the key
  ring at its first use;
- `player:{<id>}:keys`, `:keys-used`: the player's keys, one per device (api/players/keys.py);
- `player-key:<hash>` → the player's id (the index a request's key is looked up in);
- `player:{<id>}:games` sorted set: the player's games, scored by their last activity (ms);
- `player:{<id>}:seen:<game>` sorted set of one member (`v`): the newest version of the game the
  player's feed has been told of (raised only, ZADD GT, before that append's inbox entries are
  written; it expires TURN_MARK_TTL_MS after the game's last append): a `your_turn` older than
  it is stale, and neither the player's stream nor Web Push sends it (`stale_turns`);
- `player:{<id>}:inbox` stream: what the player's stream tells it (api/players/feed.py): the
  newest INBOX_LENGTH notices of the last INBOX_KEPT_S (a week) at most, the whole key expiring a
  week after its last notice (`write_inbox`: bounded in time as in count, whoever writes);
- `key-rotations` stream: the hash of each replaced key (the newest ROTATIONS_KEPT), which
  every web process's live hub polls to end the streams opened with it (api/live/keywatch.py).
Making or rotating a key writes the new index entry before the key ring and deletes the old
one after: a crash between leaves at most an index entry that the ring does not confirm, and
authentication checks both.
"""
from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import redis

from api.errors import ApiError, Code
from api.games.callers import KEY_PREFIX, hash_token, is_identity_token, is_player_credential, is_player_key  # noqa: F401 - re-exported
from api.paging import sorted_page
from api.players.apps import Apps
from api.players.identities import Identities
from api.players.identity_tokens import TokenRefused, TokenVerifier
from api.players.keys import ROTATIONS_KEPT, KeyRing  # noqa: F401 - ROTATIONS_KEPT re-exported
from api.players.passkeys import Passkeys
from api.players.recovery import Recovery
from api.players.step_up import (
    FRESH_IDENTITY_S,
    PROOF_SETTLE_S,
    STEP_UP_S,
    StepUpRefused,
    StepUpRequired,
    StepUps,
    counts,
    fresh,
    now_ms,
)
from api.players.tokens import TokenRing, is_token
from events import codec
from events.store import StoreUnavailable

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

INBOX_LENGTH = 1000  # notifications kept per player (a client resuming from further back misses some)
INBOX_KEPT_S = 7 * 86400  # and kept this long at most: older ones are trimmed, an inbox unwritten this long expires
GAMES_KEPT = 1000  # games remembered per player, most recent first
TURN_MARK_TTL_MS = 2 * 86400 * 1000  # a game's mark per player: two days after its last append


class UnknownPlayer(ApiError):
    status, code = 401, Code.INVALID_PLAYER_KEY


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    bot: bool = False  # a bot account: an outside program plays as this player (issue 34)
    # What the credential that named the player may do (issue 51): a personal access token's
    # scopes; None for every scope (a device key, an identity token).
    scopes: frozenset[str] | None = None


def _unavailable(method: Callable[P, R]) -> Callable[P, R]:
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e

    wrapper.__name__, wrapper.__doc__ = method.__name__, method.__doc__
    return wrapper


class LastSignIn(ApiError):
    status, code = 409, Code.LAST_SIGN_IN


class Players:
    def __init__(self, connection: Any, prefix: str = "", verifier: TokenVerifier | None = None,
                 rp_name: str = "Game server"):
        self.redis = connection
        self.prefix = prefix
        self.verifier = verifier  # identity tokens' (None: this server trusts no identity provider)
        self.identities = Identities(connection, prefix)
        self.keys = KeyRing(connection, prefix)
        self.tokens = TokenRing(connection, prefix, self.keys)  # personal access tokens (issue 51)
        self.apps = Apps(connection, prefix, self.tokens)  # third-party apps' OAuth records (issue 51)
        self.recovery = Recovery(connection, prefix, self.keys)
        self.passkeys = Passkeys(connection, prefix, self.keys, rp_name)
        self.step_ups = StepUps(connection, prefix)
        self.keys.ended.append(self.step_ups.end)  # a key's grant ends with it
        # Told a player's id once an account notice is in its inbox (the push notices'; wiring.py).
        self.told: list[Callable[[str], object]] = []

    # ---- keys ---------------------------------------------------------------------------
    def _player(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}"

    def _key_index(self, digest: str) -> str:
        return f"{self.prefix}player-key:{digest}"

    def games_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:games"

    def inbox_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:inbox"

    def turn_mark_key(self, player_id: str, game_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:seen:{game_id}"

    # ---- players ------------------------------------------------------------------------
    @_unavailable
    def create(self, name: str, bot: bool = False, device: str = "first key") -> tuple[Player, str]:
        player = Player(self._make(name, bot), name, bot)
        _, key = self.keys.add(player.id, device)
        return player, key

    def _make(self, name: str, bot: bool = False) -> str:
        """A new player's id, its hash written (a player with no key yet)."""
        player_id = "p" + secrets.token_urlsafe(9)
        self.redis.hset(self._player(player_id), mapping={"name": name, "bot": int(bot),
                                                          "created": int(time.time() * 1000)})
        return player_id

    @_unavailable
    def authenticate(self, key: str) -> Player:
        """The player a key (or an identity token) belongs to; UnknownPlayer for an unknown,
        revoked or rotated key, TokenRefused for a token not taken."""
        if is_identity_token(key):
            return self._signed_in(key)
        digest = hash_token(key)
        player_id = self.redis.get(self._key_index(digest))
        if player_id is not None:
            player_id = player_id.decode()
            pipe = self.redis.pipeline(transaction=False)  # one round trip, as before keys per device
            pipe.hmget(self._player(player_id), "name", "key", "bot")
            token = is_token(key)
            (self.tokens if token else self.keys).ask(pipe, player_id, digest)
            (name, legacy, bot), known, used = pipe.execute()
            if name is not None and token:
                scopes = self.tokens.scopes_of(player_id, digest, known, used)
                if scopes is not None:
                    return Player(player_id, name.decode(), bot == b"1", scopes)
            elif name is not None and (self.keys.confirms(player_id, digest, known, used)
                                       or self._moved(player_id, legacy, digest)):
                return Player(player_id, name.decode(), bot == b"1")
        raise UnknownPlayer("This player key is unknown, revoked, expired or was replaced by a newer one.")

    def _signed_in(self, token: str) -> Player:
        """The player of a verified identity token (made at the identity's first sight)."""
        claims = self._verified(token)
        player_id = self.identities.player_of(claims, self._make, lambda p: self.redis.delete(self._player(p)))
        found = self.find(player_id)
        if found is None:
            raise UnknownPlayer("The player of this identity is gone.")
        return found

    def _verified(self, token: str) -> dict[str, Any]:
        if self.verifier is None or not self.verifier.issuers:
            raise TokenRefused("This server trusts no identity provider: sign in with a player's key.",
                               code=Code.TOKEN_UNKNOWN_ISSUER)
        return self.verifier.verify(token)

    # ---- identities ---------------------------------------------------------------------
    @_unavailable
    def link_identity(self, player: Player, token: str, by: str | None = None) -> dict[str, Any]:
        """Links the identity of `token`; it proves a step-up at once when `by` (the request's
        credential) holds a step-up, else PROOF_SETTLE_S later (api/players/step_up.py)."""
        entry = self.identities.link(player.id, self._verified(token), self._counts_from(player, by))
        self._tell(player.id, "identity_linked", by, identity={"id": entry["id"], "issuer": entry["issuer"]},
                   counts_from=entry.get("counts_from", 0))
        return entry

    @_unavailable
    def list_identities(self, player: Player) -> list[dict[str, Any]]:
        return self.identities.listing(player.id)

    @_unavailable
    def unlink_identity(self, player: Player, identity_id: str, by: str | None = None) -> None:
        if self.redis.hlen(self.keys.keys_key(player.id)) == 0 and self.identities.count(player.id) <= 1:
            raise LastSignIn("This identity is the player's only way to sign in: make a key "
                             "(POST /players/me/keys) before unlinking it.")
        if not any(e["id"] == identity_id for e in self.identities.listing(player.id)):
            self.identities.unlink(player.id, identity_id)  # UnknownIdentity: nothing to step up for
        self._require_step_up(player, by, "identity_unlinked")
        self.identities.unlink(player.id, identity_id)
        self._tell(player.id, "identity_unlinked", by, identity={"id": identity_id})

    # ---- passkeys (api/players/passkeys.py; `rp_id` and `origin`: the site's, as the edge says) ----
    @_unavailable
    def passkey_registration_options(self, player: Player, rp_id: str) -> dict[str, Any]:
        return self.passkeys.registration_options(player.id, player.name, rp_id)

    @_unavailable
    def register_passkey(self, player: Player, credential: dict[str, Any], name: str, rp_id: str,
                         origin: str, by: str | None = None) -> dict[str, Any]:
        """Keeps the passkey; it proves a step-up at once when `by` holds a step-up, else
        PROOF_SETTLE_S later."""
        entry = self.passkeys.register(player.id, credential, name, rp_id, origin, self._counts_from(player, by))
        self._tell(player.id, "passkey_added", by, passkey={"id": entry["id"], "name": entry["name"]},
                   counts_from=entry["counts_from"])
        return entry

    @_unavailable
    def passkey_sign_in_options(self, rp_id: str) -> dict[str, Any]:
        return self.passkeys.authentication_options(rp_id)

    @_unavailable
    def sign_in_with_passkey(self, credential: dict[str, Any], device: str, rp_id: str, origin: str) -> tuple[Player,
                             dict[str, Any], str]:
        """(the player, its new device key's entry, the key)."""
        player_id, entry, key = self.passkeys.sign_in(credential, device, rp_id, origin)
        player = self.find(player_id)
        if player is None:
            raise UnknownPlayer("The player of this passkey is gone.")
        self._tell(player_id, "key_added", key, key={"id": entry["id"], "name": entry["name"]}, proof="passkey")
        return player, entry, key

    @_unavailable
    def list_passkeys(self, player: Player) -> list[dict[str, Any]]:
        return self.passkeys.listing(player.id)

    @_unavailable
    def remove_passkey(self, player: Player, credential_id: str, by: str | None = None) -> None:
        if not any(e["id"] == credential_id for e in self.passkeys.listing(player.id)):
            self.passkeys.remove(player.id, credential_id)  # UnknownPasskey: nothing to step up for
        self._require_step_up(player, by, "passkey_removed")
        self.passkeys.remove(player.id, credential_id)
        self._tell(player.id, "passkey_removed", by, passkey={"id": credential_id})

    def _moved(self, player_id: str, legacy: bytes | None, digest: str) -> bool:
        """A key of a player made before keys were per device, moved into its key ring now."""
        if legacy is None or not hmac.compare_digest(legacy.decode(), digest):
            return False
        self.keys.adopt(player_id, digest, "first key")
        self.redis.hdel(self._player(player_id), "key")
        return True

    @_unavailable
    def rename(self, player: Player, name: str) -> Player:
        self.redis.hset(self._player(player.id), "name", name)
        return Player(player.id, name, player.bot)

    @_unavailable
    def rotate(self, player: Player, old_key: str) -> str:
        """A new secret for the key sent (its name kept; a token's scopes and expiry too); the
        old one stops working. A key always rotates itself (no step-up); no route rotates
        another key."""
        key = (self.tokens if is_token(old_key) else self.keys).replace(player.id, hash_token(old_key))
        self._tell(player.id, "key_rotated", key)
        return key

    @_unavailable
    def add_key(self, player: Player, name: str, by: str | None = None) -> tuple[dict[str, Any], str]:
        """A new key for another device: (its entry, the key, shown once)."""
        entry, key = self.keys.add(player.id, name)
        self._tell(player.id, "key_added", by, key={"id": entry["id"], "name": entry["name"]})
        return entry, key

    @_unavailable
    def list_keys(self, player: Player, current_key: str | None) -> list[dict[str, Any]]:
        return self.keys.listing(player.id, hash_token(current_key) if current_key else None)

    @_unavailable
    def revoke_key(self, player: Player, key_id: str, by: str | None = None) -> None:
        """Revokes the player's key of this id: the key `by` itself at once, another only with a
        step-up (api/players/step_up.py)."""
        digest = self.keys.digest_of(player.id, key_id)  # UnknownKey first: nothing to step up for
        entry = self.keys.entry_of(player.id, digest) or {"id": key_id, "name": ""}
        own = by is not None and is_player_key(by) and hmac.compare_digest(hash_token(by), digest)
        if not own:
            self._require_step_up(player, by, "key_revoked", key={"id": key_id, "name": entry["name"]})
        who = self._who(player.id, by)  # while `by` is a key (it may revoke itself)
        self.keys.revoke(player.id, key_id, digest)
        self._tell(player.id, "key_revoked", by, who=who, key={"id": key_id, "name": entry["name"]})

    # ---- personal access tokens (api/players/tokens.py) ------------------------------------------
    @_unavailable
    def make_token(self, player: Player, name: str, scopes: list[str], expires_in: int | None,
                   known: frozenset[str], maker: str | None = None) -> tuple[dict[str, Any], str]:
        """A token of the player with `scopes` (each of `known`, none the credential naming
        `player`, `maker`, lacks): (its entry, the token, shown once). A token made by a token
        ends with it."""
        return self.tokens.make(player.id, name, scopes, expires_in, player.scopes, known, maker)

    @_unavailable
    def list_tokens(self, player: Player, current_key: str | None) -> list[dict[str, Any]]:
        return self.tokens.listing(player.id, hash_token(current_key) if current_key else None)

    @_unavailable
    def revoke_token(self, player: Player, token_id: str) -> None:
        self.tokens.revoke(player.id, token_id)

    def maker_digest(self, player_id: str, key: str) -> str:
        """The hash what a key makes (a webhook, a push subscription) records, and ends with: the
        key's own, or for an app's access token its grant's anchor (api/players/apps.py), so what
        an app made outlives a refresh and ends with the grant."""
        digest = hash_token(key)
        if is_token(key):
            entry = self.tokens.entry_of(player_id, digest)
            if entry is not None and entry.get("anchor"):
                return str(entry["anchor"])
        return digest

    def player_of_key(self, digest: str) -> str | None:
        """The id of the player whose key (or token) has this hash, if any."""
        found = self.redis.get(self._key_index(digest))
        return found.decode() if found is not None else None

    def on_key_ended(self, end: Callable[[str, str], object]) -> None:
        """`end(player id, key hash)` is called once a key is revoked or replaced (what it made
        ends with it: api/players/keys.py)."""
        self.keys.ended.append(end)

    @_unavailable
    def key_id(self, player_id: str, key: str) -> str | None:
        """The id of the player's device key `key` (None: not a player key of this player)."""
        if not is_player_key(key):
            return None
        return (self.tokens if is_token(key) else self.keys).id_of(player_id, hash_token(key))

    @_unavailable
    def new_recovery_code(self, player: Player) -> str:
        """A new player's first recovery code (shown once)."""
        return self.recovery.issue(player.id)

    @_unavailable
    def replace_recovery_code(self, player: Player, by: str | None) -> str:
        """A new recovery code (shown once), with a step-up; the previous one stops working."""
        self._require_step_up(player, by, "recovery_code_replaced")
        code = self.recovery.issue(player.id)
        self._tell(player.id, "recovery_code_replaced", by)
        return code

    @_unavailable
    def recover(self, code: str, device: str) -> tuple[Player, dict[str, Any], str, str]:
        """(the player, the new key's entry, the new key, the next recovery code)."""
        player_id, entry, key, next_code = self.recovery.recover(code, device)
        player = self.find(player_id)
        if player is None:
            raise UnknownPlayer("The player of this recovery code is gone.")
        self._tell(player_id, "recovered", key, key={"id": entry["id"], "name": entry["name"]})
        return player, entry, key, next_code

    # ---- step-up for account changes (api/players/step_up.py) --------------------------------
    @_unavailable
    def step_up_passkey_options(self, player: Player, rp_id: str) -> dict[str, Any]:
        return self.passkeys.step_up_options(player.id, rp_id)

    @_unavailable
    def step_up(self, player: Player, by: str, proof: dict[str, Any], rp_id: str = "",
                origin: str = "") -> dict[str, Any]:
        """A step-up grant for the credential `by` for STEP_UP_S, earned by one proof:
        `recovery_code`, `passkey` (an answer to the player's step-up challenge) or
        `identity_token` (issued at most FRESH_IDENTITY_S ago). StepUpRefused otherwise, and
        the player's devices are told of the attempt."""
        kind = next(iter(proof))
        try:
            self._check_proof(player, kind, proof[kind], rp_id, origin)
        except ApiError as e:
            if e.status >= 500:  # the provider's keys unreadable just now: no verdict on the proof
                raise
            self._tell(player.id, "step_up", by, refused=True, proof=kind)
            refused = e if isinstance(e, StepUpRefused) else StepUpRefused(f"This proof does not step up: {e.message}",
                                                                          details={"proof": kind, "reason": e.code})
            raise refused from None
        until = self.step_ups.grant(player.id, hash_token(by))
        self._tell(player.id, "step_up", by, proof=kind)
        return {"proof": kind, "until": until, "expires_in": STEP_UP_S}

    def _check_proof(self, player: Player, kind: str, value: Any, rp_id: str, origin: str) -> None:
        if kind == "recovery_code":
            if not self.recovery.matches(player.id, value):
                raise StepUpRefused("This is not the player's current recovery code.",
                                    details={"proof": kind, "reason": "invalid_recovery_code"})
        elif kind == "passkey":
            entry = self.passkeys.step_up(player.id, value, rp_id, origin)
            if not counts(entry):
                raise StepUpRefused(f"This passkey was added without a step-up: it proves one from "
                                    f"{entry['counts_from']} (ms; {PROOF_SETTLE_S // 86400} days after).",
                                    details={"proof": kind, "reason": "not_settled",
                                             "counts_from": entry["counts_from"]})
        else:
            claims = self._verified(value)
            self._identity_proves(player, claims, kind)

    def _identity_proves(self, player: Player, claims: dict[str, Any], kind: str) -> None:
        entry = self.identities.entry_of(player.id, claims)
        if entry is None:
            raise StepUpRefused("This identity is not linked to the player.",
                                details={"proof": kind, "reason": "not_linked"})
        if not fresh(claims):
            raise StepUpRefused(f"This identity token was issued more than {FRESH_IDENTITY_S} s ago (or has no `iat`): "
                                "sign in with the provider again.", details={"proof": kind, "reason": "not_fresh"})
        if not counts(entry):
            raise StepUpRefused("This identity was linked without a step-up: it proves one from "
                                f"{entry['counts_from']} (ms).",
                                details={"proof": kind, "reason": "not_settled", "counts_from": entry["counts_from"]})

    def _stepped_up(self, player: Player, by: str | None) -> bool:
        """Whether the request's credential holds a step-up: a grant, or it is itself a fresh
        identity token of one of the player's identities that counts."""
        if by is None:
            return False
        if is_identity_token(by):
            try:
                self._identity_proves(player, self._verified(by), "identity_token")
            except ApiError:
                return False
            return True
        return self.step_ups.holds(player.id, hash_token(by))

    def _counts_from(self, player: Player, by: str | None) -> int:
        """When a proof added now by `by` counts: at once with a step-up, else PROOF_SETTLE_S on."""
        return now_ms() + (0 if self._stepped_up(player, by) else PROOF_SETTLE_S * 1000)

    def _require_step_up(self, player: Player, by: str | None, change: str, **detail: Any) -> None:
        if self._stepped_up(player, by):
            return
        self._tell(player.id, change, by, refused=True, **detail)
        raise StepUpRequired("This account change takes something from the player's other devices: prove it is the "
                             "owner first (POST /players/me/step-up with the recovery code, a passkey or a fresh "
                             f"identity token: a grant for this key, {STEP_UP_S // 60} minutes). A key may always "
                             "revoke or rotate itself.",
                             details={"change": change, "step_up": "/players/me/step-up", "max_age": STEP_UP_S})

    def _who(self, player_id: str, by: str | None) -> dict[str, Any]:
        """Who acted, as an account notice names it: the device key's id and name."""
        if by is not None and is_identity_token(by):
            return {"key_id": None, "name": None, "identity": True}
        entry = self.keys.entry_of(player_id, hash_token(by)) if by is not None else None
        return {"key_id": entry["id"], "name": entry["name"]} if entry else {"key_id": None, "name": None}

    def _tell(self, player_id: str, change: str, by: str | None, refused: bool = False,
              who: dict[str, Any] | None = None, **detail: Any) -> None:
        """An account notice in the player's inbox (its stream, on every device): what changed
        (or was refused: `account_change_refused`) and by which key (`who`, else `by`'s)."""
        if refused and by is not None and not self.step_ups.first_refusal(player_id, hash_token(by), change):
            return  # told of this key's attempt at this change within the minute already
        who = who if who is not None else self._who(player_id, by)
        notice = {"type": "account_change_refused" if refused else "account_changed", "change": change,
                  "by": who, "at": now_ms(), **detail}
        try:
            self.redis.xadd(self.inbox_key(player_id), {"e": codec.dumps_bytes(notice)}, maxlen=INBOX_LENGTH,
                            approximate=True)
            for told in self.told:
                told(player_id)
        except Exception:  # a notice lost, never the change (nor the refusal)
            log.exception("account notice for player %s not written", player_id)

    # ---- replaced keys, for the streams opened with them --------------------------------------
    def _rotations(self) -> str:
        return f"{self.prefix}key-rotations"

    @_unavailable
    def key_in_use(self, digest: str) -> bool:
        """Whether the key of this hash is still a player's (not replaced)."""
        return bool(self.redis.exists(self._key_index(digest)))

    @_unavailable
    def rotations_last_id(self) -> str:
        newest = self.redis.xrevrange(self._rotations(), count=1)
        return newest[0][0].decode() if newest else "0-0"

    @_unavailable
    def rotations_after(self, after: str, count: int = 1000) -> tuple[str, list[str]]:
        """(the newest id read, the hashes of the keys replaced after `after`)."""
        entries = self.redis.xrange(self._rotations(), min=f"({after}", count=count)
        if not entries:
            return after, []
        return entries[-1][0].decode(), [fields[b"key"].decode() for _, fields in entries]

    @_unavailable
    def find(self, player_id: str) -> Player | None:
        """The player of this id (its public name), or None."""
        return self.find_many([player_id])[player_id]

    @_unavailable
    def find_many(self, player_ids: list[str]) -> dict[str, Player | None]:
        """Each id's player (or None), in one round trip (a leaderboard page names many)."""
        pipe = self.redis.pipeline(transaction=False)
        asked = [p for p in player_ids if len(p) <= 64]
        for player_id in asked:
            pipe.hmget(self._player(player_id), "name", "bot")
        found = dict(zip(asked, pipe.execute() if asked else []))
        return {p: Player(p, found[p][0].decode(), found[p][1] == b"1") if p in found and found[p][0] is not None
                else None for p in player_ids}

    # ---- a player's games -----------------------------------------------------------------
    @_unavailable
    def games_page(self, player_id: str, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """(game id, last activity ms) of the player's games, most recent first, after the
        cursor `before` (score, id)."""
        return sorted_page(self.redis, self.games_key(player_id), before, count)

    @_unavailable
    def forget_game(self, player_id: str, game_id: str) -> None:
        self.redis.zrem(self.games_key(player_id), game_id)

    # ---- the inbox ------------------------------------------------------------------------
    def write_inbox(self, pipe: Any, player_id: str, entry: dict[str, Any], now_ms: int | None = None) -> None:
        """Adds a notice to the player's inbox through `pipe` (a pipeline, or the client): at most
        INBOX_LENGTH kept, none older than INBOX_KEPT_S (trimmed exactly: a small inbox is one
        stream node, which an approximate trim never removes), the key expiring INBOX_KEPT_S
        after its last notice."""
        key = self.inbox_key(player_id)
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        if not isinstance(entry.get("at"), int):  # every notice says when (PushMessage's and Notice's `at`)
            entry = {**entry, "at": now_ms}
        pipe.xadd(key, {"e": codec.dumps_bytes(entry)}, maxlen=INBOX_LENGTH, approximate=True)
        pipe.xtrim(key, minid=str(max(0, now_ms - INBOX_KEPT_S * 1000)), approximate=False)
        pipe.expire(key, INBOX_KEPT_S)

    @_unavailable
    def inbox_after(self, player_id: str, after: str, count: int = 100) -> list[tuple[str, dict[str, Any]]]:
        found = self.redis.xread({self.inbox_key(player_id): after}, count=count)
        if not found:
            return []
        return [(entry_id.decode(), self.decode_inbox(fields)) for entry_id, fields in found[0][1]]

    @_unavailable
    def stale_turns(self, player_id: str, entries: list[tuple[str, dict[str, Any]]]) -> set[str]:
        """The ids of those entries that are a `your_turn` older than the newest version of its
        game the player was told of (its mark, raised before each append's entries are
        written): the game has moved on (the player moved, another seat did, it ended), or a
        slower process wrote it after a newer one. One round trip, none without a `your_turn`."""
        turns = [(i, e) for i, e in entries
                 if e.get("type") == "your_turn" and e.get("game_id") and isinstance(e.get("version"), int)]
        if not turns:
            return set()
        games = sorted({e["game_id"] for _, e in turns})
        pipe = self.redis.pipeline(transaction=False)
        for game_id in games:
            pipe.zscore(self.turn_mark_key(player_id, game_id), "v")
        marks = dict(zip(games, pipe.execute()))
        return {i for i, e in turns if marks[e["game_id"]] is not None and marks[e["game_id"]] > e["version"]}

    @staticmethod
    def decode_inbox(fields: dict[bytes, bytes]) -> dict[str, Any]:
        """An inbox entry as api/players/feed.py wrote it (one field, `e`)."""
        entry: dict[str, Any] = codec.loads(fields[b"e"])
        return entry

    @_unavailable
    def inbox_last_id(self, player_id: str) -> str:
        last = self.redis.xrevrange(self.inbox_key(player_id), "+", "-", count=1)
        return last[0][0].decode() if last else "0-0"
