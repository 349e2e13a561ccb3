"""Who pays for a request: the budgets every caller has, and the headers that tell it.

- A request with a bearer token counts against that token (by its hash, never the token
  itself): RATE_LIMIT per RATE_WINDOW_S.
- A request without one counts against the client's address (api/http/client_address.py, which
  honours TRUSTED_PROXIES): reads ADDRESS_READ_LIMIT, live streams opened ADDRESS_STREAM_LIMIT,
  per ADDRESS_WINDOW_S.
- Creating a game or a player always counts against the address, token or not (a made-up token
  must not buy a fresh budget): ADDRESS_CREATE_LIMIT per ADDRESS_WINDOW_S.
- Each of those address budgets has its network's beside it (the address's IPv4 /24 or IPv6
  /64: NETWORK_PREFIX_V4, NETWORK_PREFIX_V6): NETWORK_READ_LIMIT, NETWORK_STREAM_LIMIT,
  NETWORK_CREATE_LIMIT per ADDRESS_WINDOW_S, so a client holding many addresses of one network
  (an IPv6 /64 is one host's) gets the network's budget once.
- A game created without a player's key also spends the server's own budget for those,
  ANONYMOUS_CREATE_LIMIT per ADDRESS_WINDOW_S whatever the address (charged by the route, which
  knows whether the key is a player's: `charge_anonymous_creation`).
- A game created with a player's key (or identity token) spends that player's budget,
  PLAYER_CREATE_LIMIT per PLAYER_CREATE_WINDOW_S whatever its keys and addresses (bot accounts
  too; charged by the route: `charge_player_creation`).
- Every 401 answered to a request that presents a credential (a token, a recovery code to
  `POST /recover`, a passkey's answer to `POST /passkeys/sign-in`, a stream's `?ticket=`),
  and every proof refused at `POST /players/me/step-up` (a 403, issue 51: a recovery code or
  identity token guessed there), counts as a failed authentication of the address; past
  ADDRESS_AUTH_FAILURES in a window, that address's requests presenting one are refused until
  the window ends (guessing tokens or codes, or minting a token per request to dodge the
  address's budget, stops there).
`/health`, its probes and `/metrics` are not limited (load balancers and Prometheus poll them).

Every limited answer says where its caller stands, in the IETF draft's fields
(draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "token";q=100;w=10` and
`RateLimit: "token";r=37;t=4` (r: requests left, t: seconds until the window ends); a refusal is
`429 rate_limited` with `Retry-After` and `details.ratelimit = {"key", "seconds"}`.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, current_app, g, request

from api.errors import ApiError, Code
from api.games.callers import hash_token
from api.http import current
from api.http.auth import parse_bearer
from api.http.client_address import client_address, network_of
from api.http.ratelimit import Decision, RateLimiter

UNLIMITED_PATHS = frozenset({"/health", "/health/live", "/health/ready", "/metrics"})  # probes and scrapes
CREDENTIAL_PATHS = frozenset({"/recover", "/passkeys/sign-in"})  # POST: a credential in the body


def presents_credential(environ: Mapping[str, Any]) -> bool:
    """Whether the request presents a credential: its 401 is a failed authentication."""
    if "HTTP_AUTHORIZATION" in environ:
        return True
    if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO", "") in CREDENTIAL_PATHS:
        return True
    query = environ.get("QUERY_STRING", "")
    return "ticket=" in query and any(part.startswith("ticket=") for part in query.split("&"))


class RateLimited(ApiError):
    status, code = 429, Code.RATE_LIMITED


class Budgets:
    """One limiter per kind of budget, from the app's configuration."""

    def __init__(self, connection: Any, prefix: str, config: Mapping[str, Any]) -> None:
        window = int(config["ADDRESS_WINDOW_S"])
        self.token = RateLimiter(connection, prefix, int(config["RATE_LIMIT"]), int(config["RATE_WINDOW_S"]))
        self.read = RateLimiter(connection, prefix, int(config["ADDRESS_READ_LIMIT"]), window)
        self.stream = RateLimiter(connection, prefix, int(config["ADDRESS_STREAM_LIMIT"]), window)
        self.create = RateLimiter(connection, prefix, int(config["ADDRESS_CREATE_LIMIT"]), window)
        self.auth_failures = RateLimiter(connection, prefix, int(config["ADDRESS_AUTH_FAILURES"]), window)
        self.read_network = RateLimiter(connection, prefix, int(config["NETWORK_READ_LIMIT"]), window)
        self.stream_network = RateLimiter(connection, prefix, int(config["NETWORK_STREAM_LIMIT"]), window)
        self.create_network = RateLimiter(connection, prefix, int(config["NETWORK_CREATE_LIMIT"]), window)
        self.anonymous_create = RateLimiter(connection, prefix, int(config["ANONYMOUS_CREATE_LIMIT"]), window)
        self.player_create = RateLimiter(connection, prefix, int(config["PLAYER_CREATE_LIMIT"]),
                                         int(config["PLAYER_CREATE_WINDOW_S"]))
        self.prefixes = (int(config["NETWORK_PREFIX_V4"]), int(config["NETWORK_PREFIX_V6"]))

    def network(self, address: str) -> str:
        return network_of(address, *self.prefixes)


_WHAT = {"token": "requests with this token", "address": "requests without a token from your address",
         "stream": "live streams opened from your address", "create": "games created from your address",
         "auth_failures": "failed authentications from your address",
         "network": "requests without a token from your network",
         "stream_network": "live streams opened from your network",
         "create_network": "games created from your network",
         "anonymous_create": "games created without a player's key on this server",
         "player_create": "games created by this player"}


def _refuse(key: str, decision: Decision) -> RateLimited:
    return RateLimited(
        f"Too many {_WHAT[key]}: at most {decision.limit} every {decision.window_s} s. "
        f"Retry in {decision.reset} s.",
        details={"ratelimit": {"key": key, "seconds": decision.reset}},
        headers={"Retry-After": str(decision.reset), **_headers(key, decision)})


def _headers(key: str, decision: Decision) -> dict[str, Any]:
    return {"RateLimit-Policy": _policy(key, decision.limit, decision.window_s),
            "RateLimit": f'"{key}";r={decision.remaining};t={decision.reset}'}


@functools.cache  # a budget's policy never changes in a process: its few strings written once
def _policy(key: str, limit: int, window_s: int) -> str:
    return f'"{key}";q={limit};w={window_s}'


def _charge(budgets: Budgets) -> None:
    environ = current.req().environ  # read directly: this runs before every request
    path = environ.get("PATH_INFO", "")
    if path in UNLIMITED_PATHS:
        return
    header = environ.get("HTTP_AUTHORIZATION")
    creating = path in ("/games", "/players") and environ.get("REQUEST_METHOD") == "POST"
    address = None
    if budgets.auth_failures.any_exhausted() and presents_credential(environ):
        address = client_address()
        if budgets.auth_failures.exhausted("auth:" + address):
            window = budgets.auth_failures.window_s
            raise _refuse("auth_failures", Decision(False, budgets.auth_failures.limit, 0, window, window))
    if creating:
        address = address or client_address()
        _admit_with_network(budgets, "create", address)
    subject = _token_subject(header) if header is not None else None
    if subject is not None:
        _admit(budgets.token, "token", subject)
    elif path.endswith("/stream"):
        _admit_with_network(budgets, "stream", address or client_address())
    elif not creating:
        _admit_with_network(budgets, "address", address or client_address())


# Authorization header's hash -> its token's budget subject (None: no bearer token): a client
# sends the same header with every request, and parsing it and its token's SHA-256 were a tenth
# of the charge (issue 57). Keyed by the string's own hash (computed once per string, and the
# process's random SipHash key), so the table holds no secret: a memory dump finds no token in
# it. At most SUBJECTS_KEPT, cleared when full (no flood of made-up tokens grows it).
_subjects: dict[int, str | None] = {}
SUBJECTS_KEPT = 4096


def _token_subject(header: str) -> str | None:
    key = hash(header)
    try:
        return _subjects[key]
    except KeyError:
        pass
    if len(_subjects) >= SUBJECTS_KEPT:
        _subjects.clear()
    token = parse_bearer(header)
    subject = _subjects[key] = None if token is None else "token:" + hash_token(token)[:32]
    return subject


# key -> (the address's limiter, its subject's prefix, the network's key, limiter, subject's prefix)
_PAIRS = {"address": ("read", "addr:", "network", "read_network", "net:"),
          "stream": ("stream", "stream:", "stream_network", "stream_network", "stream-net:"),
          "create": ("create", "create:", "create_network", "create_network", "create-net:")}


def _admit_with_network(budgets: Budgets, key: str, address: str) -> None:
    """The address's budget and its network's: the network's first (its refusal spends none of
    the address's); the headers show the tighter of the two."""
    own, own_prefix, net_key, network, net_prefix = _PAIRS[key]
    net = _take(getattr(budgets, network), net_key, net_prefix + budgets.network(address))
    mine = _take(getattr(budgets, own), key, own_prefix + address)
    g.ratelimit = min((key, mine), (net_key, net), key=lambda charged: charged[1].remaining)


def _take(limiter: RateLimiter, key: str, subject: str) -> Decision:
    decision = limiter.take(subject)
    if not decision.allowed:
        raise _refuse(key, decision)
    return decision


def _admit(limiter: RateLimiter, key: str, subject: str) -> None:
    current.glob().ratelimit = (key, _take(limiter, key, subject))  # the last charged is the one the headers show


def charge_anonymous_creation() -> None:
    """A game created without a player's key spends the server's budget for those, shared by
    every address and process (a flood from many addresses meets it once)."""
    _take(current_app.extensions["budgets"].anonymous_create, "anonymous_create", "create-anonymous")


def charge_player_creation(player_id: str) -> None:
    """A game created by a player spends the player's own budget, shared by all its keys and
    addresses (a player flooding from many addresses meets it once)."""
    _take(current_app.extensions["budgets"].player_create, "player_create", "create-player:" + player_id)


def charger(app: Flask, budgets: Budgets) -> Callable[[], None]:
    """Before the route: the request charged to its budget (a refusal is a 429)."""
    app.extensions["budgets"] = budgets

    def charge() -> None:
        _charge(app.extensions["budgets"])

    return charge


STEP_UP_PATH = "/players/me/step-up"  # its 403s are proofs refused (api/players/step_up.py)


def teller(app: Flask) -> Callable[[Response, set[str]], Response]:
    """After the route: the answer's RateLimit headers; a 401 to a request presenting a
    credential counted as its address's failed authentication."""

    def tell(response: Response, names: set[str]) -> Response:
        charged = current.glob().get("ratelimit")
        if charged is not None and "ratelimit" not in names:
            key, decision = charged
            response.headers.add("RateLimit-Policy", _policy(key, decision.limit, decision.window_s))
            response.headers.add("RateLimit", f'"{key}";r={decision.remaining};t={decision.reset}')
        refused = response.status_code == 401 or (response.status_code == 403 and request.path == STEP_UP_PATH)
        if refused and presents_credential(request.environ):
            try:
                app.extensions["budgets"].auth_failures.count("auth:" + client_address())
            except Exception:
                app.logger.warning("could not count a failed authentication", exc_info=True)
        return response

    return tell
