"""Identity tokens (issue 36): a JWT from an identity provider the operator trusts, verified with
PyJWT. A mobile app with its own sign-in sends its user's token as `Authorization: Bearer <JWT>`
where a player's key would go.

The operator names the issuers (`OIDC_ISSUERS`, a JSON list), each with its audience and where
its keys are: `jwks_uri` (a URL), `jwks_file` (a path), or neither (then the issuer's
`/.well-known/openid-configuration` names its `jwks_uri`). A token names its issuer (`iss`)
and key (`kid`); its signature is checked with that issuer's published key of that id, and its
`aud`, `exp` and `nbf` with PyJWT's checks. Only asymmetric algorithms are taken: a token
signed with a shared secret (HS256, with the public key as the secret) or `none` is refused.

Each issuer's key set is fetched once and kept `OIDC_JWKS_TTL_S`; a token naming a key id the
set lacks (the issuer rotated its keys) fetches it again at once, but at most once every
`OIDC_JWKS_REFRESH_S` per issuer, so tokens naming made-up key ids cannot make this server
flood the issuer.

A slow provider holds no sign-in longer than `OIDC_FETCH_DEADLINE_S` (issue 49): every fetch
of its documents has that deadline for all of it, however the provider trickles
(api/players/provider_fetch.py); one fetch at a time per issuer, made without a lock held, so
a token whose key is known never waits for it (a set past its TTL is fetched again in the
background, its keys still used meanwhile), a token that needs it waits at most the deadline,
and each issuer's fetches are its own: another issuer's sign-ins never queue behind them.
Flask-free.
"""
from __future__ import annotations

import http.client
import json
import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code
from api.players.provider_fetch import fetch_json

if TYPE_CHECKING:
    import jwt

log = logging.getLogger(__name__)

ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
FETCH_TIMEOUT_S = 5.0  # the longest single wait within a fetch
FETCH_DEADLINE_S = 3.0  # a fetch's whole time (OIDC_FETCH_DEADLINE_S)
REQUIRED_CLAIMS = ("iss", "sub", "aud", "exp")


class TokenRefused(ApiError):
    """An identity token this server does not take; `code` says why."""

    status, code = 401, Code.TOKEN_MALFORMED


class IssuerUnavailable(ApiError):
    status, code = 503, Code.ISSUER_UNAVAILABLE


@dataclass(frozen=True)
class Issuer:
    issuer: str
    audience: str | tuple[str, ...]
    jwks_uri: str | None = None
    jwks_file: str | None = None


def parse_issuers(raw: str) -> tuple[Issuer, ...]:
    """OIDC_ISSUERS: `[{"issuer": ..., "audience": ..., "jwks_uri" | "jwks_file": ...}, ...]`."""
    if not raw.strip():
        return ()
    found = []
    for item in json.loads(raw):
        audience = item["audience"]
        found.append(Issuer(item["issuer"], tuple(audience) if isinstance(audience, list) else audience,
                            item.get("jwks_uri"), item.get("jwks_file")))
    return tuple(found)


class KeySet:
    """One issuer's published keys: fetched when first needed, again after `ttl_s`, and at once
    (at most every `refresh_s`) when a token names a key id it lacks; each fetch within
    `deadline_s`, one at a time, none under the lock."""

    def __init__(self, issuer: Issuer, ttl_s: float, refresh_s: float, deadline_s: float = FETCH_DEADLINE_S):
        self.issuer, self.ttl_s, self.refresh_s, self.deadline_s = issuer, ttl_s, refresh_s, deadline_s
        self._lock = threading.Lock()  # held only to read and write the fields, never across a fetch
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched_at: float | None = None  # the last fetch that succeeded (the TTL's start)
        self._tried_at: float | None = None  # the last fetch tried (what the refresh interval counts from)
        self._fetching: threading.Event | None = None  # set when the fetch under way ends
        self._jwks_uri = issuer.jwks_uri

    def _known(self, kid: str | None) -> jwt.PyJWK | None:
        if kid is None and len(self._keys) == 1:  # a token without `kid` and a set of one key
            return next(iter(self._keys.values()))
        return self._keys.get(kid or "")

    def key(self, kid: str | None) -> jwt.PyJWK | None:
        with self._lock:
            now = time.monotonic()
            stale = self._fetched_at is None or now - self._fetched_at >= self.ttl_s
            lacking = self._known(kid) is None
            may_try = self._tried_at is None or now - self._tried_at >= self.refresh_s
            fetch, mine = self._fetching, None
            if (stale or lacking) and may_try and fetch is None:
                self._tried_at = now
                mine = self._fetching = threading.Event()
        if mine is not None and not lacking:  # the key is known: this token goes on, the set is fetched behind it
            threading.Thread(target=self._fetch, args=(mine, now), name="identity-keys", daemon=True).start()
        elif mine is not None:
            self._fetch(mine, now)
        elif fetch is not None and lacking:
            fetch.wait(self.deadline_s + 1.0)  # another request's fetch, which ends by its deadline
        with self._lock:
            if self._fetched_at is None:  # retry once this server would fetch them again
                wait = self.refresh_s - (time.monotonic() - (self._tried_at or 0.0))
                raise IssuerUnavailable("The identity provider's keys cannot be read just now: try again shortly.",
                                        headers={"Retry-After": str(max(1, math.ceil(wait)))})
            return self._known(kid)

    def _fetch(self, done: threading.Event, now: float) -> None:
        try:
            self._refresh(now)
        finally:
            with self._lock:
                self._fetching = None
            done.set()

    def _refresh(self, now: float) -> None:
        """Fetches the key set; on a failure keeps the keys it had (and tries again no sooner
        than refresh_s: the issuer may be down)."""
        try:
            document = self._document()
        except (OSError, ValueError, http.client.HTTPException) as e:
            log.warning("the key set of %s could not be read: %s", self.issuer.issuer, e)
            return
        import jwt  # PyJWT and its cryptography: 8 MB of every web worker that only a JWT needs

        keys = {}
        for jwk in document.get("keys", []):
            try:
                key = jwt.PyJWK(jwk)
            except jwt.PyJWTError:
                continue  # a key of a type or algorithm PyJWT does not take: other keys still work
            if jwk.get("use", "sig") == "sig":
                keys[jwk.get("kid", "")] = key
        with self._lock:
            self._keys, self._fetched_at = keys, now

    def _document(self) -> dict[str, Any]:
        if self.issuer.jwks_file:
            with open(self.issuer.jwks_file, encoding="utf-8") as f:
                document: dict[str, Any] = json.load(f)
            return document
        until = time.monotonic() + self.deadline_s  # discovery and key set, within one deadline
        if self._jwks_uri is None:  # discovery, once
            config = fetch_json(self.issuer.issuer.rstrip("/") + "/.well-known/openid-configuration",
                                self.deadline_s, FETCH_TIMEOUT_S)
            if config.get("issuer") != self.issuer.issuer or not isinstance(config.get("jwks_uri"), str):
                raise ValueError("the discovery document names another issuer or no jwks_uri")
            self._jwks_uri = config["jwks_uri"]
        left = until - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the discovery document took the whole {self.deadline_s:g} s")
        fetched: dict[str, Any] = fetch_json(self._jwks_uri, left, FETCH_TIMEOUT_S)
        return fetched


class TokenVerifier:
    def __init__(self, issuers: tuple[Issuer, ...], ttl_s: float = 3600.0, refresh_s: float = 30.0,
                 leeway_s: float = 30.0, deadline_s: float = FETCH_DEADLINE_S):
        self.issuers = {i.issuer: i for i in issuers}
        self.key_sets = {i.issuer: KeySet(i, ttl_s, refresh_s, deadline_s) for i in issuers}
        self.leeway_s = leeway_s

    def verify(self, token: str) -> dict[str, Any]:
        """The token's claims once its issuer, signature, audience and times are checked;
        TokenRefused (a code saying why) otherwise."""
        import jwt  # at the first identity token a process sees (see KeySet._refresh)

        try:
            header = jwt.get_unverified_header(token)
            claimed = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            raise TokenRefused("This bearer token looks like a JWT but cannot be read.",
                               code=Code.TOKEN_MALFORMED) from None
        named = claimed.get("iss")
        issuer = self.issuers.get(named) if isinstance(named, str) else None
        if issuer is None:
            raise TokenRefused("This token's issuer (`iss`) is not one this server trusts.",
                               code=Code.TOKEN_UNKNOWN_ISSUER)
        if header.get("alg") not in ALGORITHMS:
            raise TokenRefused("This token is not signed with a public-key algorithm "
                               f"this server takes ({', '.join(ALGORITHMS)}).", code=Code.TOKEN_BAD_SIGNATURE)
        key = self.key_sets[issuer.issuer].key(header.get("kid"))
        if key is None:
            raise TokenRefused("This token is signed with a key its issuer does not publish.",
                               code=Code.TOKEN_BAD_SIGNATURE)
        return self._checked(token, key, header["alg"], issuer)

    def _checked(self, token: str, key: jwt.PyJWK, alg: str, issuer: Issuer) -> dict[str, Any]:
        import jwt

        try:
            claims: dict[str, Any] = jwt.decode(token, key, algorithms=[alg], audience=issuer.audience,
            issuer=issuer.issuer,
                                      leeway=self.leeway_s, options={"require": list(REQUIRED_CLAIMS)})
        except jwt.ExpiredSignatureError:
            raise TokenRefused("This token has expired: sign in again.", code=Code.TOKEN_EXPIRED) from None
        except jwt.ImmatureSignatureError:
            raise TokenRefused("This token is not valid yet (`nbf` or `iat` is in "
                               "the future): check the device's clock.", code=Code.TOKEN_NOT_YET_VALID) from None
        except jwt.InvalidAudienceError:
            raise TokenRefused("This token was issued for another audience (`aud`) "
                               "than this server.", code=Code.TOKEN_WRONG_AUDIENCE) from None
        except (jwt.InvalidSignatureError, jwt.InvalidKeyError, jwt.InvalidAlgorithmError):
            raise TokenRefused("This token's signature does not verify with its "
                               "issuer's key.", code=Code.TOKEN_BAD_SIGNATURE) from None
        except jwt.PyJWTError as e:  # a required claim missing, a claim of the wrong type
            raise TokenRefused(f"This token cannot be taken: {e}.", code=Code.TOKEN_MALFORMED) from None
        if not isinstance(claims.get("sub"), str) or not claims["sub"] or len(claims["sub"]) > 255:
            raise TokenRefused("This token's subject (`sub`) is not a string of 1 to 255 characters.",
                               code=Code.TOKEN_MALFORMED)
        return claims
