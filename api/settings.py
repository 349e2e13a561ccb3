"""Every setting the web process and the workers read, read from the environment once.

Each field is read from the environment variable of its name in capitals (`rate_limit`:
RATE_LIMIT), parsed by its type; an unset variable leaves the default. `dataclasses.replace`
makes the overrides (create_app's test_config, a job's key prefix and queue). The composition
root (wiring.py) builds the services from it; the web process's Flask config is derived from it (app.py).

What is not here: the supervisor's own (HOST, PORT, WEB_WORKERS, TURN_WORKERS,
WEBHOOK_WORKERS, DATA_DIR: app.py hands them to its children as their environment), the
logs' (LOG_FORMAT, PROCESS_ROLE: api/logs.py, set up before anything else), the metrics'
directory (PROMETHEUS_MULTIPROC_DIR, read at import by api/metrics.py) and what the event
store's clients read themselves (KEY_BUCKETS, REPLICAS_ACK, LIVE_POLL_MS: events/).

Stdlib only: the workers read it before importing RQ and the games (workers/__main__.py), and
the defaults are written here rather than imported from the modules that own them (the test
tests/platform/test_wiring.py holds them equal).
"""
from __future__ import annotations

import dataclasses
import functools
import os
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


def _flag(raw: str) -> bool:
    return raw == "1"


def _optional_int(raw: str) -> int | None:
    return int(raw) if raw.strip() else None  # FINISHED_TTL="": kept forever, as when unset


def _optional_float(raw: str) -> float | None:
    return float(raw) if raw.strip() else None  # ARCHIVE_RETENTION_S="": kept forever, as when unset


def _names(raw: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in raw.split(",") if name.strip())


@dataclass(frozen=True)
class Settings:
    # ---- where the data is (events/connection.py) ----
    redis_url: str | None = None
    redis_cluster_nodes: str | None = None
    queue_redis_url: str | None = None
    key_prefix: str = ""
    turn_queue: str = "turns"
    webhook_queue: str = "webhooks"
    extra_game_modules: tuple[str, ...] = ()  # modules defining GAME, hosted besides domain/'s
    bot_iterations: float = 1.0  # a factor on every search bot's budget (domain/search.py; tests: 0.02)
    finished_ttl: int | None = None  # no longer used: finished games go to the archive (issue 31)
    archive_url: str = ""  # "": a SQLite file under DATA_DIR; sqlite:///<path>; postgresql://...
    archive_after_s: float = 300.0  # a finished game is archived (off Redis) this long after it ended
    archive_retention_s: float | None = None  # a finished game is gone this long after it ended (None: kept)
    export_cache_ttl: int = 600  # a finished game's export chunks (0: never made)
    snapshot_every: int = 100  # a live game's state is snapshotted every this many events
    # Each append PUBLISHes its events and each web process advances the games it holds with
    # them (events/redis_announcements.py): a move on any worker is then one round trip
    warm_games: bool = True
    # ---- the HTTP edge ----
    max_body_bytes: int = 64 * 1024  # Flask's MAX_CONTENT_LENGTH
    rate_limit: int = 100
    rate_window_s: int = 10
    abort_after_s: float = 60.0
    defer_after_append: bool = True
    trusted_proxies: str = ""
    access_log: bool = False
    allow_client_seeds: bool = False
    export_memory_mb: float = 64.0
    address_window_s: int = 60
    address_read_limit: int = 1200
    address_stream_limit: int = 60
    address_create_limit: int = 30
    address_auth_failures: int = 30
    # the address's network shares budgets too (api/http/request_limits.py): an IPv4 /24, an IPv6 /64
    network_prefix_v4: int = 24
    network_prefix_v6: int = 64
    network_read_limit: int = 4800
    network_stream_limit: int = 240
    network_create_limit: int = 120
    anonymous_create_limit: int = 600  # games created without a player's key, per ADDRESS_WINDOW_S, server-wide
    max_anonymous_games: int = 10_000  # unfinished games created without a player's key (0: no cap)
    # a player's own (issue 49), bot accounts included: games it creates per PLAYER_CREATE_WINDOW_S,
    # whatever its keys and addresses; games it created waiting for seats at once (0: no cap); its
    # waiting games on one page of the lobby's listing (0: no cap)
    player_create_limit: int = 60
    player_create_window_s: int = 600
    max_waiting_games_per_player: int = 10
    lobby_games_per_player: int = 3
    cors_origins: str = ""
    # ---- signing in (api/players/identity_tokens.py, issue 36) ----
    oidc_issuers: str = ""  # JSON: [{"issuer", "audience", "jwks_uri" | "jwks_file" (neither: discovery)}]
    oidc_jwks_ttl_s: float = 3600.0  # an issuer's key set is fetched again this long after
    oidc_jwks_refresh_s: float = 30.0  # an unknown `kid` fetches it again at once, at most this often
    oidc_leeway_s: float = 30.0  # the clock skew allowed on `exp`, `nbf` and `iat`
    oidc_fetch_deadline_s: float = 3.0  # a fetch of an issuer's keys, all of it, however the issuer trickles
    webauthn_rp_id: str = ""  # passkeys' relying party: a domain ("": the request's host)
    webauthn_origin: str = ""  # the pages' origin, https://host[:port] ("": the request's scheme and host)
    webauthn_rp_name: str = "Game server"  # the name an authenticator shows
    # ---- live streams ----
    sse_keepalive_s: float = 15.0
    sse_max_seconds: float = 3600.0
    sse_max_streams: int = 8000
    sse_max_streams_per_address: int = 50
    sse_max_streams_per_seat: int = 16
    sse_redis_connections: int = 8
    sse_opens_per_s: float = 500.0
    live_gather_ms: float = 20.0
    sse_stream_lease_s: float = 60.0
    # ---- webhooks (api/webhooks/, workers/deliveries.py) ----
    webhook_max_per_owner: int = 10
    webhook_timeout_s: float = 5.0  # the longest wait within an attempt
    webhook_deadline_s: float = 15.0  # an attempt's whole time
    webhook_retry_base_s: float = 10.0
    webhook_retry_max_s: float = 3600.0
    webhook_disable_after_s: float = 86400.0
    webhook_progress_ttl_s: int = 7 * 86400
    webhook_allow_loopback: bool = False
    webhook_allowed_networks: tuple[str, ...] = ()
    # ---- game analysis (api/analysis/, jobs.analyse) ----
    analysis_queue: str = "analysis"  # the analysis jobs' RQ queue, apart from the turns'
    analysis_iterations: int = 400  # the search's iterations per decision analysed (tests: a few)
    analysis_per_day: int = 10  # analyses one player may ask for per UTC day
    analysis_heartbeat_s: float = 5.0  # a running analysis's heartbeat; 4 missed: lost, queued again
    # ---- web push (api/push/, workers/push/) ----
    vapid_private_key: str = ""  # the raw key (base64url) or a PEM; "": the file below
    vapid_key_file: str = ""  # "": vapid_private.pem under DATA_DIR, made by the first process
    vapid_subject: str = "mailto:push@localhost"  # the operator's contact, in every push's JWT
    vapid_rotate: bool = False  # 1: a changed VAPID key ends the old key's subscriptions at start (else refused)
    push_ttl_s: int = 86400  # how long a push service may hold a message for an offline device
    push_timeout_s: float = 5.0  # the longest wait within a push attempt
    push_deadline_s: float = 10.0  # a push attempt's whole time
    push_drain_s: float = 5.0  # a sender's time for starting pushes under one subscription's lease
    push_queued_grace_s: float = 5.0  # a push job queued in name only this long is lost (workers/queueing/)
    push_max_per_player: int = 10
    push_allow_loopback: bool = False  # http endpoints on 127.0.0.1 (tests, local development)
    push_retry_base_s: float = 5.0  # a failed push's first wait; doubled at each failure in a row...
    push_retry_max_s: float = 3600.0  # ...up to this
    push_max_attempts: int = 12  # failures in a row (about 2.5 hours) before a subscription is removed
    push_reminders_per_game: int = 2  # reminders (clock_warning) pushed per game before its timeout...
    push_reminders_per_day: int = 5  # ...and per player in any 24 hours (api/push/reminders.py)
    # native apps' push (issue 54, workers/push/fcm.py and apns.py): a kind unset is refused
    fcm_credentials: str = ""  # the service account's JSON key, or the path of its file ("": no FCM)
    fcm_project_id: str = ""  # "": the JSON key's project_id
    fcm_url: str = "https://fcm.googleapis.com"
    apns_key: str = ""  # the APNs auth key (.p8, PEM), or the path of its file ("": no APNs)
    apns_key_id: str = ""  # the key's id (the JWT's kid)
    apns_team_id: str = ""  # the developer team's id (the JWT's iss)
    apns_bundle_id: str = ""  # the app's bundle id (apns-topic)
    apns_url: str = "https://api.push.apple.com"  # the sandbox: https://api.sandbox.push.apple.com
    clock_warning_s: float = 86400.0  # a timed decision is warned at most this long before its deadline
    clock_warning_min_s: float = 600.0  # decisions shorter than this are not warned (workers/clock_warnings.py)
    clock_warning_scan_s: float = 2.0  # the reconciler's scans of the marks falling due, this far apart
    # ---- chat (api/chat/, issue 53) ----
    chat_max_length: int = 500  # characters of one message
    chat_rate: int = 8  # messages per player every 10 s (429 chat_too_fast beyond)
    chat_words_en: str = ""  # the English words masked (comma-separated; "": the default list, "-": none)
    chat_words_ko: str = ""  # the Korean words masked (the same)
    # ---- moderation (api/moderation/, issue 50) ----
    moderators: tuple[str, ...] = ()  # player ids with the moderator role (tools/moderators.py grants it too)
    moderation_address_key: str = ""  # the addresses' HMAC key ("": a random one kept in Redis)
    address_retention_days: float = 30.0  # how long a hashed address is kept after its last sighting
    moderation_lookback_s: float = 3 * 86400.0  # the rated games the flags read: those ended this recently
    peeking_iterations: int = 80  # the peeking detector's search per model and decision (0: no evidence gathered)
    # linked accounts (api/moderation/addresses.py): never paired by matchmaking, nor seated
    # together in a rated lobby game
    link_same_address: bool = True  # accounts seen at one address within ADDRESS_RETENTION_DAYS are linked
    link_loopback: bool = False  # ...a loopback address too (every client of a local untrusted proxy is there)
    link_key_lineage: bool = True  # a player made by a request carrying another player's key is linked to it
    link_identity_subject: bool = True  # accounts that held one identity provider's subject are linked
    rated_pairs_per_day: int = 5  # rated games matchmaking makes for one pair of players a UTC day (0: no cap)
    # ---- links that open the app (issue 54, api/http/app_links.py) ----
    public_url: str = ""  # the site's origin in answers' `links` ("": the request's)
    apple_app_ids: tuple[str, ...] = ()  # <team id>.<bundle id> of each iOS app (apple-app-site-association)
    android_packages: tuple[str, ...] = ()  # each Android app's package name (assetlinks.json)
    android_cert_fingerprints: tuple[str, ...] = ()  # the SHA-256 fingerprints of their signing certificates
    # ---- the workers ----
    reconcile_interval: float = 2.0
    reconciler_heartbeat_min_s: int = 10  # the reconciler's heartbeat lives 5 passes, at least this long
    turn_lost_after_s: float = 20.0  # a started turn job whose game has not moved this long: lost with its worker
    clock_poll_s: float = 0.2
    clock_rearm_s: float = 60.0
    abandon_after: float = 7 * 24 * 3600.0
    vacation_days_per_year: int = 30  # each player's vacation days a calendar year (UTC), api/players/vacations.py
    waiting_ttl: float = 24 * 3600.0  # a game still waiting for seats this long after its creation is ended
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        hints = typing.get_type_hints(cls)
        found: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f.name.upper())
            if raw is not None:
                found[f.name] = _PARSERS[hints[f.name]](raw)
        return cls(**found)

    @classmethod
    def names(cls) -> frozenset[str]:
        """The environment variables read (and create_app's test_config keys taken)."""
        return frozenset(f.name.upper() for f in dataclasses.fields(cls))


_PARSERS: dict[object, Callable[[str], object]] = {
    str: str, str | None: str, int: int, int | None: _optional_int, float: float,
    float | None: _optional_float, bool: _flag,
    tuple[str, ...]: _names,
}


@functools.cache
def of_process() -> Settings:
    """A worker process's settings: its environment, read at the first call (its RQ jobs share
    what its main read)."""
    return Settings.from_env()
