"""One Settings read from the environment once, one composition root (wiring.py, beside app.py): the
web process, every worker role, the RQ jobs (jobs.py), tools/ and the tests (tests/fakes.py) build
the same graph, with the same listeners, from it."""
from __future__ import annotations

import dataclasses
import inspect
import ipaddress
import subprocess
import sys
from pathlib import Path

import pytest

import wiring
from api import settings as settings_module
from api.settings import Settings

ROOT = Path(__file__).resolve().parent.parent.parent

# Every variable read, a value for it, and what the Settings field holds then.
FROM_ENV = {
    "REDIS_URL": ("redis://h:1/0", "redis://h:1/0"),
    "REDIS_CLUSTER_NODES": ("a:1,b:2", "a:1,b:2"),
    "QUEUE_REDIS_URL": ("redis://q:1/0", "redis://q:1/0"),
    "KEY_PREFIX": ("p:", "p:"),
    "TURN_QUEUE": ("tq", "tq"),
    "WEBHOOK_QUEUE": ("wq", "wq"),
    "EXTRA_GAME_MODULES": ("tests.platform.high_card, other,", ("tests.platform.high_card", "other")),
    "BOT_ITERATIONS": ("0.5", 0.5),
    "ANALYSIS_QUEUE": ("aq", "aq"),
    "ANALYSIS_ITERATIONS": ("12", 12),
    "ANALYSIS_PER_DAY": ("3", 3),
    "ANALYSIS_HEARTBEAT_S": ("0.5", 0.5),
    "VAPID_ROTATE": ("1", True),
    "FINISHED_TTL": ("30", 30),
    "ARCHIVE_URL": ("postgresql://a@h/db", "postgresql://a@h/db"),
    "ARCHIVE_AFTER_S": ("0.5", 0.5),
    "ARCHIVE_RETENTION_S": ("86400", 86400.0),
    "EXPORT_CACHE_TTL": ("0", 0),
    "SNAPSHOT_EVERY": ("25", 25),
    "WARM_GAMES": ("0", False),
    "MAX_BODY_BYTES": ("1024", 1024),
    "RATE_LIMIT": ("7", 7),
    "RATE_WINDOW_S": ("3", 3),
    "ABORT_AFTER_S": ("0.5", 0.5),
    "DEFER_AFTER_APPEND": ("0", False),
    "TRUSTED_PROXIES": ("10.0.0.0/8", "10.0.0.0/8"),
    "ACCESS_LOG": ("1", True),
    "ALLOW_CLIENT_SEEDS": ("1", True),
    "EXPORT_MEMORY_MB": ("1.5", 1.5),
    "ADDRESS_WINDOW_S": ("5", 5),
    "ADDRESS_READ_LIMIT": ("6", 6),
    "ADDRESS_STREAM_LIMIT": ("7", 7),
    "ADDRESS_CREATE_LIMIT": ("8", 8),
    "ADDRESS_AUTH_FAILURES": ("9", 9),
    "NETWORK_PREFIX_V4": ("16", 16),
    "NETWORK_PREFIX_V6": ("48", 48),
    "NETWORK_READ_LIMIT": ("10", 10),
    "NETWORK_STREAM_LIMIT": ("11", 11),
    "NETWORK_CREATE_LIMIT": ("12", 12),
    "ANONYMOUS_CREATE_LIMIT": ("13", 13),
    "MAX_ANONYMOUS_GAMES": ("0", 0),
    "PLAYER_CREATE_LIMIT": ("14", 14),
    "PLAYER_CREATE_WINDOW_S": ("15", 15),
    "MAX_WAITING_GAMES_PER_PLAYER": ("4", 4),
    "LOBBY_GAMES_PER_PLAYER": ("5", 5),
    "CORS_ORIGINS": ("*", "*"),
    "SSE_KEEPALIVE_S": ("0.5", 0.5),
    "SSE_MAX_SECONDS": ("30", 30.0),
    "SSE_MAX_STREAMS": ("10", 10),
    "SSE_MAX_STREAMS_PER_ADDRESS": ("11", 11),
    "SSE_MAX_STREAMS_PER_SEAT": ("12", 12),
    "SSE_REDIS_CONNECTIONS": ("13", 13),
    "SSE_OPENS_PER_S": ("14.5", 14.5),
    "LIVE_GATHER_MS": ("0", 0.0),
    "SSE_STREAM_LEASE_S": ("15", 15.0),
    "WEBHOOK_MAX_PER_OWNER": ("2", 2),
    "WEBHOOK_TIMEOUT_S": ("1.5", 1.5),
    "WEBHOOK_DEADLINE_S": ("4", 4.0),
    "WEBHOOK_RETRY_BASE_S": ("2", 2.0),
    "WEBHOOK_RETRY_MAX_S": ("60", 60.0),
    "WEBHOOK_DISABLE_AFTER_S": ("600", 600.0),
    "WEBHOOK_PROGRESS_TTL_S": ("100", 100),
    "WEBHOOK_ALLOW_LOOPBACK": ("1", True),
    "WEBHOOK_ALLOWED_NETWORKS": ("10.0.0.0/8, 192.168.1.0/24", ("10.0.0.0/8", "192.168.1.0/24")),
    "VAPID_PRIVATE_KEY": ("raw-key", "raw-key"),
    "VAPID_KEY_FILE": ("/k.pem", "/k.pem"),
    "VAPID_SUBJECT": ("mailto:ops@example.com", "mailto:ops@example.com"),
    "PUSH_TTL_S": ("60", 60),
    "PUSH_TIMEOUT_S": ("1.5", 1.5),
    "PUSH_DEADLINE_S": ("4", 4.0),
    "PUSH_DRAIN_S": ("1", 1.0),
    "PUSH_QUEUED_GRACE_S": ("0.5", 0.5),
    "PUSH_MAX_PER_PLAYER": ("2", 2),
    "PUSH_ALLOW_LOOPBACK": ("1", True),
    "PUSH_RETRY_BASE_S": ("0.5", 0.5),
    "PUSH_RETRY_MAX_S": ("60", 60.0),
    "PUSH_MAX_ATTEMPTS": ("3", 3),
    "PUSH_REMINDERS_PER_GAME": ("3", 3),
    "PUSH_REMINDERS_PER_DAY": ("1", 1),
    "FCM_CREDENTIALS": ("/etc/fcm.json", "/etc/fcm.json"),
    "FCM_PROJECT_ID": ("demo", "demo"),
    "FCM_URL": ("http://127.0.0.1:9", "http://127.0.0.1:9"),
    "APNS_KEY": ("/etc/apns.p8", "/etc/apns.p8"),
    "APNS_KEY_ID": ("KEY1234567", "KEY1234567"),
    "APNS_TEAM_ID": ("TEAM123456", "TEAM123456"),
    "APNS_BUNDLE_ID": ("org.example.games", "org.example.games"),
    "APNS_URL": ("https://api.sandbox.push.apple.com", "https://api.sandbox.push.apple.com"),
    "PUBLIC_URL": ("https://games.example", "https://games.example"),
    "APPLE_APP_IDS": ("ABCDE12345.org.example.a, ABCDE12345.org.example.b",
                      ("ABCDE12345.org.example.a", "ABCDE12345.org.example.b")),
    "ANDROID_PACKAGES": ("org.example.a", ("org.example.a",)),
    "ANDROID_CERT_FINGERPRINTS": ("AB:CD", ("AB:CD",)),
    "CLOCK_WARNING_S": ("3600", 3600.0),
    "CLOCK_WARNING_MIN_S": ("0", 0.0),
    "CLOCK_WARNING_SCAN_S": ("0.5", 0.5),
    "RECONCILE_INTERVAL": ("0.5", 0.5),
    "TURN_LOST_AFTER_S": ("5", 5.0),
    "RECONCILER_HEARTBEAT_MIN_S": ("2", 2),
    "CLOCK_POLL_S": ("0.1", 0.1),
    "CLOCK_REARM_S": ("5", 5.0),
    "ABANDON_AFTER": ("2", 2.0),
    "VACATION_DAYS_PER_YEAR": ("10", 10),
    "WAITING_TTL": ("3", 3.0),
    "LOG_LEVEL": ("WARNING", "WARNING"),
    "OIDC_ISSUERS": ('[{"issuer": "https://i", "audience": "a"}]', '[{"issuer": "https://i", "audience": "a"}]'),
    "OIDC_JWKS_TTL_S": ("60", 60.0),
    "OIDC_JWKS_REFRESH_S": ("2", 2.0),
    "OIDC_LEEWAY_S": ("0", 0.0),
    "OIDC_FETCH_DEADLINE_S": ("1.5", 1.5),
    "WEBAUTHN_RP_ID": ("games.example", "games.example"),
    "WEBAUTHN_ORIGIN": ("https://games.example", "https://games.example"),
    "WEBAUTHN_RP_NAME": ("Games", "Games"),
    "MODERATORS": ("p1, p2", ("p1", "p2")),
    "MODERATION_ADDRESS_KEY": ("s3cret", "s3cret"),
    "ADDRESS_RETENTION_DAYS": ("7", 7.0),
    "MODERATION_LOOKBACK_S": ("3600", 3600.0),
    "PEEKING_ITERATIONS": ("12", 12),
    "LINK_SAME_ADDRESS": ("0", False),
    "LINK_LOOPBACK": ("1", True),
    "LINK_KEY_LINEAGE": ("0", False),
    "LINK_IDENTITY_SUBJECT": ("0", False),
    "CHAT_MAX_LENGTH": ("200", 200),
    "CHAT_RATE": ("3", 3),
    "CHAT_WORDS_EN": ("darn,heck", "darn,heck"),
    "CHAT_WORDS_KO": ("-", "-"),
    "RATED_PAIRS_PER_DAY": ("3", 3),
}


def test_each_variable_sets_its_field():
    assert set(FROM_ENV) == Settings.names()
    read = Settings.from_env({name: raw for name, (raw, _) in FROM_ENV.items()})
    for name, (_, expected) in FROM_ENV.items():
        assert getattr(read, name.lower()) == expected, name
    assert Settings.from_env({}) == Settings()


def test_the_defaults_are_todays():
    from api.games.repository import SNAPSHOT_EVERY
    from api.history import export_memory, finished_exports
    from api.live.leases import DEFAULT_LEASE_S
    from api.live.stream_limits import DEFAULT_MAX_STREAMS
    from api.push.subscriptions import PushSubscriptions
    from api.seating.control import ABORT_AFTER_S
    from api.webhooks.manage import DEFAULT_MAX_PER_OWNER
    from workers import clock_warnings, clocks, deliveries, queueing
    from workers.abandon import ABANDON_AFTER_S, WAITING_TTL_S
    from workers.archiver import ARCHIVE_AFTER_S
    from workers.push.sending import PushSettings

    d = Settings()
    assert (d.redis_url, d.redis_cluster_nodes, d.queue_redis_url, d.key_prefix) == (None, None, None, "")
    assert (d.turn_queue, d.webhook_queue) == (queueing.DEFAULT_QUEUE, deliveries.DEFAULT_QUEUE)
    assert d.analysis_heartbeat_s == queueing.ANALYSIS_HEARTBEAT_S
    assert d.extra_game_modules == () and d.finished_ttl is None
    assert (d.export_cache_ttl, d.export_memory_mb) == (finished_exports.DEFAULT_TTL_S, export_memory.DEFAULT_MB)
    assert d.snapshot_every == SNAPSHOT_EVERY
    assert (d.max_body_bytes, d.rate_limit, d.rate_window_s, d.abort_after_s) == (64 * 1024, 100, 10, ABORT_AFTER_S)
    assert (d.defer_after_append, d.access_log, d.allow_client_seeds) == (True, False, False)
    assert (d.trusted_proxies, d.cors_origins) == ("", "")
    assert (d.address_window_s, d.address_read_limit, d.address_stream_limit, d.address_create_limit,
            d.address_auth_failures) == (60, 1200, 60, 30, 30)
    assert (d.sse_keepalive_s, d.sse_max_seconds, d.sse_max_streams, d.sse_max_streams_per_address,
            d.sse_max_streams_per_seat, d.sse_redis_connections, d.sse_opens_per_s, d.live_gather_ms,
            d.sse_stream_lease_s) == (15, 3600, DEFAULT_MAX_STREAMS, 50, 16, 8, 500, 20, DEFAULT_LEASE_S)
    assert d.webhook_max_per_owner == DEFAULT_MAX_PER_OWNER
    assert wiring.delivery_settings(d) == deliveries.Settings()
    assert wiring.push_settings(d) == PushSettings()
    assert (d.clock_warning_s, d.clock_warning_min_s, d.clock_warning_scan_s) == (
        clock_warnings.CLOCK_WARNING_S, clock_warnings.CLOCK_WARNING_MIN_S, clock_warnings.WARN_SCAN_S)
    assert (d.vapid_private_key, d.vapid_key_file, d.vapid_rotate, d.push_max_per_player) == (
        "", "", False, inspect.signature(PushSubscriptions).parameters["max_per_player"].default)
    assert (d.reconcile_interval, d.clock_poll_s, d.clock_rearm_s, d.abandon_after, d.log_level) == (
        2, clocks.CLOCK_POLL_S, clocks.CLOCK_REARM_S, ABANDON_AFTER_S, "INFO")
    assert d.waiting_ttl == WAITING_TTL_S
    assert d.turn_lost_after_s == queueing.LOST_AFTER_S
    assert (d.push_drain_s, d.push_queued_grace_s) == (PushSettings().drain_s, queueing.QUEUED_GRACE_S)
    from workers.heartbeat import RECONCILER_TTL_MIN_S

    assert d.reconciler_heartbeat_min_s == RECONCILER_TTL_MIN_S
    from api.players.vacations import DAYS_PER_YEAR

    assert d.vacation_days_per_year == DAYS_PER_YEAR
    assert (d.oidc_issuers, d.oidc_jwks_ttl_s, d.oidc_jwks_refresh_s, d.oidc_leeway_s) == ("", 3600, 30, 30)
    from api.players.identity_tokens import FETCH_DEADLINE_S

    assert d.oidc_fetch_deadline_s == FETCH_DEADLINE_S
    assert (d.webauthn_rp_id, d.webauthn_origin, d.webauthn_rp_name) == ("", "", "Game server")
    assert (d.archive_url, d.archive_after_s) == ("", ARCHIVE_AFTER_S)
    assert (d.network_prefix_v4, d.network_prefix_v6, d.network_read_limit, d.network_stream_limit,
            d.network_create_limit, d.anonymous_create_limit, d.max_anonymous_games) == (
        24, 64, 4800, 240, 120, 600, 10_000)
    assert (d.player_create_limit, d.player_create_window_s, d.max_waiting_games_per_player,
            d.lobby_games_per_player) == (60, 600, 10, 3)


@pytest.mark.parametrize("env", [{}, {"FINISHED_TTL": "", "EXPORT_CACHE_TTL": "5", "EXPORT_MEMORY_MB": "2"},
                                 {"FINISHED_TTL": " 40 "}, {"FINISHED_TTL": "  "}])
def test_the_modules_own_readers_agree(env, monkeypatch):
    from api.history import export_memory, finished_exports
    from events.redis_store import finished_ttl_from_env

    for name in ("FINISHED_TTL", "EXPORT_CACHE_TTL", "EXPORT_MEMORY_MB"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    read = Settings.from_env()
    assert read.finished_ttl == finished_ttl_from_env()
    assert read.export_cache_ttl == finished_exports.ttl_from_env()
    assert read.export_memory_mb == export_memory.mb_from_env()


def test_the_webhook_delivery_settings_read_as_the_workers_read_them():
    from workers import deliveries

    env = {name: raw for name, (raw, _) in FROM_ENV.items() if name.startswith("WEBHOOK_")}
    built = wiring.delivery_settings(Settings.from_env(env))
    assert built == deliveries.Settings.from_env(env)
    assert ipaddress.ip_address("192.168.1.7") in built.policy.allowed_networks[1]


def _listeners(service) -> list[str]:
    return [type(listener).__name__ for listener in service.listeners]


def _no_redis(tmp_path) -> Settings:
    # Nothing here talks to Redis: the clients connect at their first command.
    return Settings(redis_url=f"unix://{tmp_path}/no-redis.sock", key_prefix="w:")


def test_bootstrap_attaches_the_feed_exports_and_webhooks_once(tmp_path):
    services = wiring.bootstrap(_no_redis(tmp_path))
    assert _listeners(services.service) == ["PlayerFeed", "FinishedExports", "Notifier", "TournamentResults", "ChallengeAnswers",
        "PeekingJobs"]
    push_notify = services.service.listeners[0].push  # asked in the feed's pipeline (issue 30)
    assert push_notify.subs is services.pushes.subs and services.matchmaker.told == push_notify.players
    assert services.service.games.snapshot_every == Settings().snapshot_every
    assert wiring.bootstrap(dataclasses.replace(_no_redis(tmp_path), snapshot_every=7)).service.games.snapshot_every == 7
    assert list(services.listeners) == services.service.listeners
    assert services.service.players is services.players
    assert services.lobby.service is services.service and services.lobby.index is services.lobby_index
    assert services.seat_control.service is services.service
    assert services.clock_tick.control is services.seat_control
    assert services.webhooks.service is services.service and services.webhooks.subs is services.deliveries.subs


def test_bootstrap_takes_fakes_and_builds_the_whole_graph_in_memory():
    """The tests' graph (tests/fakes.py) is the processes': the given store and scheduler in the
    service, every other service on the in-memory clients, each collaborator once."""
    from events.memory_store import InMemoryEventStore
    from tests import fakes

    store, queued = InMemoryEventStore(), []
    services = fakes.services(store, lambda game_id, version, actors: queued.append((version, actors)),
                              key_prefix="f:", snapshot_every=7)
    assert services.store is store and services.service.store is store and services.deliveries.events is store
    assert services.service.games.snapshot_every == 7 and services.players.prefix == "f:"
    assert _listeners(services.service) == ["PlayerFeed", "FinishedExports", "Notifier", "TournamentResults", "ChallengeAnswers",
        "PeekingJobs"]
    assert services.ratings.ledger is services.ledger and services.ledger.told is not None
    assert services.deliveries.rating_changes == services.ledger.game_changes
    created = services.service.create("high-card", [{"name": "A"}, {"bot": "random"}], {}, seed=1)
    assert services.service.load(created["id"]).version == created["version"] and queued  # the bot's turn


def test_the_live_streams_parts_are_the_roots_on_their_own_client(tmp_path):
    services = wiring.bootstrap(_no_redis(tmp_path))
    import redis

    live_client = redis.Redis.from_url(f"unix://{tmp_path}/live.sock")  # connects at its first command
    parts = services.live(live_client)
    assert parts.inboxes.redis is live_client and parts.tickets.redis is live_client
    assert parts.tickets.key_in_use == parts.inboxes.key_in_use and parts.store.redis is live_client
    assert services.tickets.redis is services.connections.store  # issued on the requests' client


def test_the_web_process_and_every_worker_role_and_job_hear_the_same(tmp_path, monkeypatch):
    """What create_app, `python -m workers <role>` and the jobs build: the same listeners."""
    import rq

    import workers.__main__ as workers_main
    import workers.beating  # its class made of the real SimpleWorker, before the patch below
    import workers.turn_worker
    from api import logs
    from app import create_app
    from workers import reconciler

    url = f"unix://{tmp_path}/no-redis.sock"
    app = create_app({"REDIS_URL": url, "KEY_PREFIX": "w:", "TESTING": True})
    web = _listeners(app.extensions["games"])
    assert web == ["PlayerFeed", "FinishedExports", "Notifier", "TournamentResults", "ChallengeAnswers",
        "PeekingJobs"]

    built: dict = {}
    real_bootstrap = wiring.bootstrap

    def recording(settings, *args, **kwargs):
        built["services"] = real_bootstrap(settings, *args, **kwargs)
        return built["services"]

    ran: dict = {}
    monkeypatch.setattr(wiring, "bootstrap", recording)
    monkeypatch.setattr(logs, "configure", lambda level=None: None)  # not the test session's logging
    monkeypatch.setattr(reconciler, "run_forever", lambda service, *a, **k: ran.update(service=service, kw=k))
    idle = lambda queues, **k: type("W", (), {"work": lambda self, **kw: None})()
    monkeypatch.setattr(rq, "SimpleWorker", idle)
    monkeypatch.setattr(workers.turn_worker, "TurnWorker", idle)
    monkeypatch.setenv("PROCESS_ROLE", "test")
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("KEY_PREFIX", "w:")
    settings_module.of_process.cache_clear()
    try:
        for role in ("worker", "webhooks", "reconciler"):
            workers_main.main([role])
            assert _listeners(built["services"].service) == web, role
        assert ran["service"] is built["services"].service
        assert ran["kw"]["clock_tick"] is built["services"].clock_tick
        monkeypatch.setattr(wiring, "bootstrap", real_bootstrap)
        job_connection = built["services"].connections.queue
        turn = wiring.for_job(job_connection, "j:", turn_queue="j:turns")
        delivery = wiring.for_job(job_connection, "j:", webhook_queue="j:webhooks")
        assert _listeners(turn.service) == _listeners(delivery.service) == web
        assert turn.scheduler.queue.name == "j:turns" and delivery.deliveries.queue.name == "j:webhooks"
        assert wiring.for_job(job_connection, "j:", turn_queue="j:turns") is turn  # once per process and queue
    finally:
        settings_module.of_process.cache_clear()


def test_create_app_overrides_win_over_the_environment(tmp_path, monkeypatch):
    from api.games.deferred import immediately
    from app import create_app

    monkeypatch.setenv("RATE_LIMIT", "7")
    monkeypatch.setenv("ABORT_AFTER_S", "90")
    monkeypatch.setenv("SSE_OPENS_PER_S", "3")
    app = create_app({"REDIS_URL": f"unix://{tmp_path}/no-redis.sock", "KEY_PREFIX": "o:", "TURN_QUEUE": "o:turns",
                      "WEBHOOK_QUEUE": "o:webhooks", "RATE_LIMIT": 9, "ABORT_AFTER_S": 0.5,
                      "DEFER_AFTER_APPEND": False, "TESTING": True})
    settings = app.extensions["settings"]
    assert dataclasses.replace(settings) == settings and settings.rate_limit == 9 and app.config["RATE_LIMIT"] == 9
    assert app.config["SSE_OPENS_PER_S"] == 3.0 and app.config["MAX_CONTENT_LENGTH"] == settings.max_body_bytes
    assert app.config["TESTING"] is True
    assert app.extensions["seat_control"].abort_after_s == 0.5
    services = app.extensions["services"]
    assert services.service.defer is immediately
    assert services.store.keys.prefix == "o:" and services.scheduler.queue.name == "o:turns"
    assert services.deliveries.queue.name == "o:webhooks"


@pytest.mark.process
def test_settings_and_wiring_stay_light():
    """The workers read the settings before RQ and the games; the wiring has no HTTP edge."""
    code = ("import sys, api.settings; heavy = {'rq', 'redis', 'flask', 'domain'} & set(sys.modules); "
            "assert not heavy, heavy; import wiring; "
            "edge = {'flask', 'werkzeug', 'marshmallow', 'gevent'} & set(sys.modules); assert not edge, edge")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_web_workers_stop_after_graceful_timeout_s():
    """app.py's web command: gunicorn's graceful timeout is GRACEFUL_TIMEOUT_S, 5 s unless set
    (a live stream never finishes: a server with one open takes that long to stop)."""
    import app

    def graceful(env: dict) -> str:
        web = app._children(env)["web"]
        return web[web.index("--graceful-timeout") + 1]

    assert graceful({}) == "5"
    assert graceful({"GRACEFUL_TIMEOUT_S": "1"}) == "1"
