"""Third-party apps (issue 51): OAuth 2.0 clients a player registers, the authorization codes,
grants and refresh tokens of the authorization server (api/http/oauth.py runs authlib's server
over these records). Everything lives in Redis (single-key commands, as the rest of
api/players/), so it survives restarts and every API node sees the same:

- `oauth-app:<client id>`: the app, JSON {client_id, name, owner, redirect_uris, scopes,
  public, secret (its hash; confidential apps only), created}; `player:{<id>}:apps`: the
  ids of the apps a player registered (at most MAX_APPS);
- `oauth-code:<hash>`: an authorization code, JSON {client_id, player, redirect_uri, scopes,
  challenge, method}, for CODE_TTL_S and taken once (GETDEL: a second use finds nothing);
- `player:{<id>}:app-grants` hash: a grant's id -> JSON {id, client_id, name, scopes, created,
  anchor}: what the player allowed an app (one per code exchanged; a refresh keeps it; at most
  MAX_GRANTS, the oldest of the same app giving way to a new one); it lives as long as its
  newest refresh token (the anchor's index entry expires with it, and the listing forgets it);
  `oauth-app:<client id>:grants` set: "<player> <grant>" of every grant of the app;
- `oauth-refresh:<hash>` hash {data: JSON {grant, player, client_id, scopes, access}, used}:
  a refresh token, for REFRESH_TTL_S. It is used once: the first use marks `used` (HSETNX)
  and rotates it; a second use of a used one revokes its grant (RFC 9700 §4.14: reuse means
  one of the two holders is a thief).

An access token is a personal access token of the player (api/players/tokens.py, `pk.pat_…`)
whose entry names its grant: the same table holds it to its scopes, and revoking it ends its
streams and tickets as any key's. What an app makes with it (webhooks, push subscriptions)
records the grant's `anchor`, a hash no token has, whose index entry lives as long as the
grant: it outlives the access tokens a refresh replaces, and revoking the grant forgets it, so
the keys' `ended` hooks remove what the app made (api/players/keys.py).
"""
from __future__ import annotations

import hmac
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from api.errors import ApiError, Code, ValidationFailed
from api.games.callers import hash_token
from api.players.tokens import TokenRing

MAX_APPS = 10  # apps one player registers
MAX_REDIRECT_URIS = 10
MAX_GRANTS = 20  # apps one player has authorised at once (each holds one live access token)
CODE_TTL_S = 60  # an authorization code lives a minute (RFC 6749 §4.1.2: at most 10)
ACCESS_TTL_S = 3600  # an access token lives an hour
REFRESH_TTL_S = 30 * 86400  # a refresh token a month (each refresh makes a new one)
DANGER = frozenset({"account", "moderation"})  # scopes no app may ask (the danger list: docs/integrators.md)
REFRESH_PREFIX = "rt_"  # a refresh token is no key: never taken as a bearer


class ScopeWidened(Exception):
    """A refresh asked a scope its grant does not hold (refused before the token is spent)."""


class TooManyApps(ApiError):
    status, code = 409, Code.TOO_MANY_APPS


class UnknownApp(ApiError):
    status, code = 404, Code.UNKNOWN_APP


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class AppClient:
    """A registered app, as authlib's server asks a client (its ClientMixin's methods)."""
    client_id: str
    name: str
    owner: str
    redirect_uris: tuple[str, ...]
    scopes: tuple[str, ...]
    public: bool
    secret: str | None  # its hash
    created: int

    def shown(self) -> dict[str, Any]:
        return {"client_id": self.client_id, "name": self.name, "redirect_uris": list(self.redirect_uris),
                "scopes": list(self.scopes), "public": self.public, "created": self.created}

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        return None  # an authorization request names its redirect URI (matched exactly)

    def get_allowed_scope(self, scope: str | None) -> str | None:
        """The scope asked when the app may ask every one of it; None (invalid_scope) otherwise."""
        asked = (scope or "").split()
        if not asked or not set(asked) <= set(self.scopes):
            return None
        return " ".join(sorted(set(asked)))

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.redirect_uris  # exact: no prefix, no pattern, no other port

    def check_client_secret(self, client_secret: str) -> bool:
        return self.secret is not None and hmac.compare_digest(hash_token(client_secret), self.secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == "none" if self.public else method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in ("authorization_code", "refresh_token")


@dataclass(frozen=True)
class AuthCode:
    client_id: str
    player: str
    redirect_uri: str
    scopes: str
    code_challenge: str
    code_challenge_method: str

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scopes


@dataclass(frozen=True)
class RefreshRecord:
    """A refresh token's record (or an access token's, `kind`), as authlib's endpoints ask one."""
    kind: str  # "refresh_token" or "access_token"
    digest: str
    player: str
    client_id: str
    grant: str
    scopes: str
    access: str | None = None  # the hash of the access token issued beside a refresh token
    expires: int | None = None  # ms since the epoch (as read for introspection)
    used: bool = False  # a refresh token used already (rotated: no longer active)

    def get_scope(self) -> str:
        return self.scopes

    def check_client(self, client: AppClient) -> bool:
        return client.client_id == self.client_id

    def get_expires_in(self) -> int:
        return REFRESH_TTL_S

    def is_expired(self) -> bool:
        return self.expires is not None and self.expires <= _now_ms()

    def is_revoked(self) -> bool:
        return self.used


class Apps:
    def __init__(self, connection: Any, prefix: str, tokens: TokenRing) -> None:
        self.redis = connection
        self.prefix = prefix
        self.tokens = tokens

    def _app(self, client_id: str) -> str:
        return f"{self.prefix}oauth-app:{client_id}"

    def _app_grants(self, client_id: str) -> str:
        return f"{self.prefix}oauth-app:{client_id}:grants"

    def _owned(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:apps"

    def _grants(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:app-grants"

    def _code(self, digest: str) -> str:
        return f"{self.prefix}oauth-code:{digest}"

    def _refresh(self, digest: str) -> str:
        return f"{self.prefix}oauth-refresh:{digest}"

    # ---- the apps a player registers --------------------------------------------------
    def register(self, owner: str, name: str, redirect_uris: list[str], scopes: list[str], public: bool,
                 known: frozenset[str]) -> tuple[AppClient, str | None]:
        """(the new app, its secret: shown once; None for a public app)."""
        allowed = known - DANGER
        refused = sorted(set(scopes) - allowed)
        if refused:
            raise ValidationFailed(f"An app may not ask these scopes: {', '.join(refused)} (an app may ask: "
                                   f"{', '.join(sorted(allowed))}).",
                                   details={"fields": {"scopes": [f"Not a scope an app may ask: {s!r}."
                                                                  for s in refused]}})
        if self.redis.scard(self._owned(owner)) >= MAX_APPS:
            raise TooManyApps(f"A player registers at most {MAX_APPS} apps: delete one it no longer uses first.",
                              details={"limit": MAX_APPS})
        secret = None if public else "cs_" + secrets.token_urlsafe(32)
        app = AppClient("app_" + secrets.token_urlsafe(12), name, owner, tuple(dict.fromkeys(redirect_uris)),
                        tuple(sorted(set(scopes))), public, hash_token(secret) if secret else None, _now_ms())
        self.redis.set(self._app(app.client_id), json.dumps({**app.shown(), "owner": owner, "secret": app.secret}))
        self.redis.sadd(self._owned(owner), app.client_id)
        return app, secret

    def find(self, client_id: str | None) -> AppClient | None:
        if not client_id or len(client_id) > 64:
            return None
        raw = self.redis.get(self._app(client_id))
        if raw is None:
            return None
        data = json.loads(raw)
        return AppClient(data["client_id"], data["name"], data["owner"], tuple(data["redirect_uris"]),
                         tuple(data["scopes"]), data["public"], data.get("secret"), data["created"])

    def owned(self, owner: str) -> list[AppClient]:
        found = [self.find(cid.decode()) for cid in self.redis.smembers(self._owned(owner))]
        return sorted((a for a in found if a is not None), key=lambda a: (a.created, a.client_id))

    def delete(self, owner: str, client_id: str) -> None:
        """The player's app is deleted: every grant of it is revoked (what it made ends)."""
        app = self.find(client_id)
        if app is None or app.owner != owner:
            raise UnknownApp("The player registered no app of this client id (GET /players/me/apps lists them).")
        for member in self.redis.smembers(self._app_grants(client_id)):
            player_id, _, grant_id = member.decode().partition(" ")
            self.revoke_grant(player_id, grant_id)
        self.redis.delete(self._app(client_id), self._app_grants(client_id))
        self.redis.srem(self._owned(owner), client_id)

    # ---- authorization codes ----------------------------------------------------------
    def save_code(self, code: str, client_id: str, player_id: str, redirect_uri: str, scopes: str,
                  challenge: str, method: str) -> None:
        self.redis.set(self._code(hash_token(code)),
                       json.dumps({"client_id": client_id, "player": player_id, "redirect_uri": redirect_uri,
                                   "scopes": scopes, "challenge": challenge, "method": method}),
                       ex=CODE_TTL_S)

    def take_code(self, code: str, client_id: str) -> AuthCode | None:
        """The code's record, once (a second take, or another client's, finds nothing)."""
        if not code or len(code) > 200:
            return None
        raw = self.redis.getdel(self._code(hash_token(code)))
        if raw is None:
            return None
        data = json.loads(raw)
        if data["client_id"] != client_id:
            return None  # taken anyway: a code shown to another client is spent
        return AuthCode(data["client_id"], data["player"], data["redirect_uri"], data["scopes"], data["challenge"],
                        data["method"])

    # ---- grants and their tokens --------------------------------------------------------
    def issue(self, player_id: str, client: AppClient, scopes: str, access_token: str, refresh_token: str,
              grant: str | None) -> str:
        """Stores the tokens authlib made: a new grant (after a code) or the grant refreshed. The
        grant's id."""
        if grant is None:
            self.make_room(player_id, client.client_id)
            grant = "g" + secrets.token_urlsafe(9)
            anchor = "app-grant:" + secrets.token_hex(16)  # no token hashes to it (not 64 hex digits)
            self.redis.set(self.tokens.index_key(anchor), player_id, ex=REFRESH_TTL_S)  # before the grant is seen
            self.redis.hset(self._grants(player_id), grant, json.dumps(
                {"id": grant, "client_id": client.client_id, "name": client.name, "scopes": scopes.split(),
                 "created": _now_ms(), "anchor": anchor}))
            self.redis.sadd(self._app_grants(client.client_id), f"{player_id} {grant}")
        entry = self.grant(player_id, grant)
        if entry is None:
            raise UnknownApp("This app's grant was revoked.")
        # The grant lives as long as its newest refresh token: what the app made stops with it.
        self.redis.set(self.tokens.index_key(entry["anchor"]), player_id, ex=REFRESH_TTL_S)
        access = hash_token(access_token)
        now = _now_ms()
        self.tokens.store(player_id, access, {"id": "t" + secrets.token_urlsafe(6), "name": client.name,
                                              "created": now, "scopes": scopes.split(),
                                              "expires": now + ACCESS_TTL_S * 1000, "grant": grant,
                                              "app": client.client_id, "anchor": entry["anchor"]})
        pipe = self.redis.pipeline(transaction=True)  # one key: its record never lives without its expiry
        pipe.hset(self._refresh(hash_token(refresh_token)), "data", json.dumps(
            {"grant": grant, "player": player_id, "client_id": client.client_id, "scopes": scopes,
             "access": access}))
        pipe.expire(self._refresh(hash_token(refresh_token)), REFRESH_TTL_S)
        pipe.execute()
        if self.grant(player_id, grant) is None:  # revoked meanwhile: nothing issued outlives it
            self.tokens.forget(player_id, access)
            self.tokens.forget(player_id, entry["anchor"])
            raise UnknownApp("This app's grant was revoked.")
        return grant

    def make_room(self, player_id: str, client_id: str, check_only: bool = False) -> None:
        """Room for one more grant: at MAX_GRANTS the oldest grant of this app gives way (an app
        authorised again, on another device); TooManyApps when the player holds none of it."""
        held = self.grants(player_id)
        if len(held) < MAX_GRANTS:
            return
        own = [g for g in held if g["client_id"] == client_id]
        if not own:
            raise TooManyApps(f"A player authorises at most {MAX_GRANTS} apps at once: revoke one first.",
                              details={"limit": MAX_GRANTS})
        if not check_only:
            self.revoke_grant(player_id, own[0]["id"])

    def grant(self, player_id: str, grant_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self._grants(player_id), grant_id)
        return dict(json.loads(raw)) if raw else None

    def use_refresh(self, refresh_token: str, client_id: str, asked: set[str]) -> RefreshRecord | None:
        """The refresh token's record, for its one use by its client; None when it is unknown,
        expired, another client's, or its grant was revoked. A used one presented again revokes
        its grant (and answers None). ScopeWidened, and the token unspent, when `asked` (the
        refresh's scopes) holds one the token does not."""
        if not refresh_token.startswith(REFRESH_PREFIX) or len(refresh_token) > 200:
            return None
        key = self._refresh(hash_token(refresh_token))
        raw = self.redis.hget(key, "data")
        if raw is None:
            return None
        data = json.loads(raw)
        if data["client_id"] != client_id or self.grant(data["player"], data["grant"]) is None:
            return None  # another client's token spends nothing
        if not asked <= set(data["scopes"].split()):
            raise ScopeWidened(sorted(asked - set(data["scopes"].split())))
        if not self.redis.hsetnx(key, "used", _now_ms()):
            self.revoke_grant(data["player"], data["grant"])  # reuse: the whole family ends
            return None
        return RefreshRecord("refresh_token", hash_token(refresh_token), data["player"], data["client_id"],
                             data["grant"], data["scopes"], data["access"])

    def retire(self, record: RefreshRecord) -> None:
        """After a refresh: the access token issued beside the used refresh token stops working."""
        if record.access:
            self.tokens.forget(record.player, record.access)

    def find_token(self, token: str, player_of: Any) -> RefreshRecord | None:
        """A refresh or access token's record, for revocation (RFC 7009) and introspection (RFC
        7662); `player_of(digest)`: the player an access token's index names. None: unknown, or
        its grant revoked."""
        if len(token) > 200:
            return None
        digest = hash_token(token)
        if token.startswith(REFRESH_PREFIX):
            pipe = self.redis.pipeline(transaction=False)
            pipe.hmget(self._refresh(digest), "data", "used")
            pipe.pttl(self._refresh(digest))
            (raw, used), left = pipe.execute()
            if raw is None:
                return None
            data = json.loads(raw)
            if self.grant(data["player"], data["grant"]) is None:
                return None
            return RefreshRecord("refresh_token", digest, data["player"], data["client_id"], data["grant"],
                                 data["scopes"], data["access"], _now_ms() + max(0, left), used is not None)
        player_id = player_of(digest)
        entry = self.tokens.entry_of(player_id, digest) if player_id else None
        if entry is None or "grant" not in entry:
            return None
        return RefreshRecord("access_token", digest, player_id, entry["app"], entry["grant"], " ".join(entry["scopes"]),
                             expires=entry.get("expires"))

    def revoke(self, record: RefreshRecord) -> None:
        """RFC 7009: a refresh token revokes its grant (every token of it); an access token itself."""
        if record.kind == "refresh_token":
            self.revoke_grant(record.player, record.grant)
        else:
            self.tokens.forget(record.player, record.digest)

    def grants(self, player_id: str) -> list[dict[str, Any]]:
        """The apps the player authorised (oldest first), without their anchors. A grant whose
        newest refresh token expired is forgotten as it is found (what the app made ends then;
        its senders stopped at the expiry)."""
        found = [json.loads(raw) for raw in self.redis.hvals(self._grants(player_id))]
        pipe = self.redis.pipeline(transaction=False)
        for g in found:
            pipe.exists(self.tokens.index_key(g["anchor"]))
        alive = pipe.execute() if found else []
        for g, live in zip(found, alive):
            if not live:
                self._end(player_id, g)
        found = sorted((g for g, live in zip(found, alive) if live), key=lambda g: (g["created"], g["id"]))
        return [{k: v for k, v in g.items() if k != "anchor"} for g in found]

    def revoke_grant(self, player_id: str, grant_id: str) -> None:
        """The grant ends: its tokens stop working (refresh tokens find no grant), and what the
        app made with them ends (the anchor's `ended` hooks)."""
        entry = self.grant(player_id, grant_id)
        if entry is None:
            raise UnknownApp("The player has authorised no app by this grant "
                             "(GET /players/me/authorizations lists them).")
        self._end(player_id, entry)

    def _end(self, player_id: str, entry: dict[str, Any]) -> None:
        grant_id = entry["id"]
        self.redis.hdel(self._grants(player_id), grant_id)
        self.redis.srem(self._app_grants(entry["client_id"]), f"{player_id} {grant_id}")
        for digest in self.tokens.of_grant(player_id, grant_id):
            self.tokens.forget(player_id, digest)
        self.tokens.forget(player_id, entry["anchor"])
