"""The reconciler: the outbox's safety net, and the end of abandoned games.

Appending a move and enqueueing the next bot turn are two writes; a crash between them (or a
worker killed mid-job) would stall a game. Every few seconds the reconciler makes sure each
turn a worker owes is queued.

A pass costs what the games owing work cost, not what all games cost: an append whose game then
owes a worker's turn marks it in the owing set in the same round trip (events/redis_store.py),
and only those games are looked at. A game that has moved since the last pass is alive and not
loaded; one that stopped is loaded and judged: its owed turns are (re)enqueued, and once it
owes nothing (a person is to act) it leaves the set, unless a later move marked it again.
Games waiting for a person cost nothing; 100,000 of them cost two commands a pass
(bench/idle_games.py). Then the games idle for ABANDON_AFTER, and those still waiting for seats
WAITING_TTL after their creation, are ended (workers/abandon.py).

Every node of a deployment may run a reconciler: before judging a game a pass takes the game's
lease (`game:{id}:lease:reconcile`, SET NX with a TTL a little under a pass), so two nodes never
judge one game at once and a game is judged about once per interval whatever the number of
nodes. What they might still both do is safe anyway: a turn's job id is deterministic, settling
is conditional, and every append names the version it was decided at.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import redis

from api import metrics
from api.errors import ApiError
from api.games.service import GameService
from events.archive import ArchiveUnavailable
from events.store import StoreUnavailable

from . import heartbeat
from .abandon import ABANDON_AFTER_S, WAITING_TTL_S, abandon_idle, expire_waiting
from .queueing import TurnScheduler

log = logging.getLogger(__name__)


class Watch:
    """What the last pass saw: game id -> the version it was at."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}


def reconcile_once(service: GameService, scheduler: TurnScheduler, watch: Watch | None = None,
                   abandon_after_s: float | None = None, lease_ms: int | None = None,
                   waiting_ttl_s: float | None = None) -> int:
    """Re-enqueues lost turns of the games that may owe one; returns how many were (re)enqueued.
    Without a Watch every such game is judged now. With abandon_after_s, ends idle games too;
    with waiting_ttl_s, the games nobody joined in that time."""
    repaired = 0
    owing = [game_id for game_id, _ in service.store.owing_games()]
    versions = service.store.versions(owing) if watch is not None and owing else {}
    for game_id in owing:
        if watch is not None:
            last = watch.seen.get(game_id)
            watch.seen[game_id] = versions[game_id]
            if last is None or last != versions[game_id]:
                continue  # moving (or new to us): alive
        try:
            if lease_ms and not service.store.lease(game_id, "reconcile", lease_ms):
                continue  # another node's pass is judging it
            repaired += _reconcile_game(service, scheduler, game_id)
        except StoreUnavailable:
            raise
        except ApiError:
            continue
        except Exception:
            log.exception("reconciler: game %s could not be reconciled", game_id)
            continue
    if watch is not None and len(watch.seen) > len(owing):
        marked = set(owing)
        watch.seen = {g: v for g, v in watch.seen.items() if g in marked}
    if abandon_after_s is not None:
        abandon_idle(service, abandon_after_s)
    if waiting_ttl_s is not None:
        expire_waiting(service, waiting_ttl_s)
    return repaired


def _reconcile_game(service: GameService, scheduler: TurnScheduler, game_id: str) -> int:
    """Turns (re)enqueued for one game; a game that owes nothing leaves the owing set."""
    game = service.load(game_id)
    if game.finished:
        service.finish(game)
        return 0
    actors = service.automatic_actors(game)
    if not actors:
        service.store.settle(game_id, game.version)
        return 0
    return sum(1 for actor in actors if scheduler.ensure(game_id, game.version, actor, repair=True))


def run_forever(service: GameService, scheduler: TurnScheduler, interval_s: float = 2.0,
                abandon_after_s: float = ABANDON_AFTER_S, sweeps: tuple = (), clock_tick=None,
                clock_poll_s: float = 0.2, waiting_ttl_s: float = WAITING_TTL_S,
                heartbeat_min_s: int = heartbeat.RECONCILER_TTL_MIN_S) -> None:
    """`sweeps`: more repairs run each pass (webhook deliveries: workers/deliveries/sweep.py).
    `clock_tick`: the turn clocks' poll (workers/clocks.py), every clock_poll_s between passes.
    `heartbeat_min_s`: the shortest life of the pass's heartbeat (workers/heartbeat.py)."""
    watch = Watch()
    log.info("reconciler started: a pass every %s s", interval_s)
    state = {"migrated": False}
    next_pass = 0.0
    while True:
        if clock_tick is not None:
            _guarded(clock_tick, "clocks")
        if time.monotonic() >= next_pass:
            _guarded(lambda: _pass(service, scheduler, watch, abandon_after_s, sweeps, interval_s, state,
                                   waiting_ttl_s, heartbeat_min_s), "pass")
            next_pass = time.monotonic() + interval_s
        wait = max(0.0, next_pass - time.monotonic())
        time.sleep(min(wait, clock_poll_s) if clock_tick is not None else wait)


def _guarded(step, name: str) -> None:
    try:
        step()
    except (StoreUnavailable, redis.ConnectionError, redis.TimeoutError) as e:
        metrics.redis_errors.labels("reconciler").inc()
        log.warning("reconciler: store unavailable (%s)", e)
    except Exception:
        log.exception("reconciler: %s failed", name)


def _isolated(name: str, work: Callable[[], Any], failed: dict[str, str]) -> None:
    """Runs one part of a pass; its failure is logged and noted in `failed` (the part -> why),
    and the pass goes on: an archive that cannot be reached fails the archiver's and the
    ratings' sweeps (the harvest reads the archive), not the turns, the clocks, the other sweeps
    or the heartbeat, and so not the node's readiness (issue 49)."""
    try:
        work()
    except ArchiveUnavailable as e:
        failed[name] = f"archive unavailable ({e})"
        log.warning("reconciler: %s: the archive cannot be reached (%s)", name, e)
    except (StoreUnavailable, redis.ConnectionError, redis.TimeoutError) as e:
        metrics.redis_errors.labels("reconciler").inc()
        failed[name] = f"store unavailable ({e})"
        log.warning("reconciler: %s: store unavailable (%s)", name, e)
    except Exception as e:
        failed[name] = f"failed ({type(e).__name__})"
        log.exception("reconciler: %s failed", name)


def _pass(service, scheduler, watch, abandon_after_s, sweeps, interval_s, state, waiting_ttl_s=None,
          heartbeat_min_s: int = heartbeat.RECONCILER_TTL_MIN_S) -> dict[str, str]:
    """One pass: each part isolated (_isolated), then the heartbeat, which names the parts that
    failed (heartbeat.readiness reports them as degraded). Returns those parts."""
    failed: dict[str, str] = {}

    def migrate() -> None:
        if not state["migrated"]:  # the first layout's set of active games, once
            moved = service.store.migrate_active()
            state["migrated"] = True
            if moved:
                log.info("reconciler: moved %d games of the first layout into the owing and idle sets", moved)

    def turns() -> None:
        n = reconcile_once(service, scheduler, watch, lease_ms=max(100, int(interval_s * 900)))
        if n:
            log.info("reconciler enqueued %d turn(s)", n)

    _isolated("migrate", migrate, failed)
    _isolated("turns", turns, failed)
    if abandon_after_s is not None:
        _isolated("abandon", lambda: abandon_idle(service, abandon_after_s), failed)
    if waiting_ttl_s is not None:
        _isolated("waiting", lambda: expire_waiting(service, waiting_ttl_s), failed)
    for sweep in sweeps:
        _isolated(getattr(sweep, "__name__", None) or type(sweep).__name__, sweep, failed)
    heartbeat.beat_reconciler(scheduler.connection, scheduler.prefix, interval_s, failed, heartbeat_min_s)
    return failed
