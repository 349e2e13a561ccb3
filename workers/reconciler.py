"""The reconciler: the outbox's safety net. Appending a move and enqueueing the next bot turn
are two writes; a crash between them (or a worker killed mid-job) would stall a game. Every
few seconds the reconciler makes sure each turn a worker owes is queued.

A stalled game is one that has not moved, so a pass costs one round trip for the versions of
all active games, and only games that have not moved since the last pass are loaded and
judged: once per version when they owe nothing (a game waiting for a person costs nothing
after that), every pass while they owe a worker's turn. Games played right now are never
loaded, however many there are.
"""
from __future__ import annotations

import logging
import time
from typing import Optional

import redis

from api import metrics
from api.errors import ApiError
from api.service import GameService
from events.store import StoreUnavailable

from . import heartbeat
from .queueing import TurnScheduler

log = logging.getLogger(__name__)


class Watch:
    """What the last pass saw: game id -> (version, whether it owes a worker's turn; None
    when not yet judged at that version)."""

    def __init__(self):
        self.seen: dict[str, tuple[int, Optional[bool]]] = {}


def reconcile_once(service: GameService, scheduler: TurnScheduler, watch: Optional[Watch] = None) -> int:
    """Re-enqueues lost turns; returns how many were (re)enqueued. Without a Watch every active
    game is judged now."""
    repaired = 0
    game_ids = service.store.active_games()
    versions = service.store.versions(game_ids) if watch is not None else {}
    for game_id in game_ids:
        if watch is not None:
            last = watch.seen.get(game_id)
            if last is None or last[0] != versions[game_id]:
                watch.seen[game_id] = (versions[game_id], None)  # moving (or new to us): alive
                continue
            if last[1] is False:
                continue  # judged at this version: it owes no worker's turn
        try:
            n, version, owes = _reconcile_game(service, scheduler, game_id)
        except StoreUnavailable:
            raise
        except ApiError:
            continue
        except Exception:  # noqa: BLE001 - one broken game must not stop the others' repair
            log.exception("reconciler: game %s could not be reconciled", game_id)
            continue
        repaired += n
        if watch is not None:
            watch.seen[game_id] = (version, owes)
    if watch is not None and len(watch.seen) > len(game_ids):
        active = set(game_ids)
        watch.seen = {g: v for g, v in watch.seen.items() if g in active}
    return repaired


def _reconcile_game(service: GameService, scheduler: TurnScheduler, game_id: str) -> tuple[int, int, bool]:
    """(turns (re)enqueued, the version judged, whether a worker owes a turn there)."""
    game = service.load(game_id)
    if game.finished:
        service.store.mark_finished(game_id)
        return 0, game.version, False
    actors = service.automatic_actors(game)
    return (sum(1 for actor in actors if scheduler.ensure(game_id, game.version, actor, repair=True)),
            game.version, bool(actors))


def run_forever(service: GameService, scheduler: TurnScheduler, interval_s: float = 2.0) -> None:
    watch = Watch()
    log.info("reconciler started: a pass every %s s", interval_s)
    while True:
        try:
            n = reconcile_once(service, scheduler, watch)
            if n:
                log.info("reconciler enqueued %d turn(s)", n)
            heartbeat.beat_reconciler(scheduler.connection, scheduler.prefix, interval_s)
        except (StoreUnavailable, redis.ConnectionError, redis.TimeoutError) as e:
            metrics.redis_errors.labels("reconciler").inc()
            log.warning("reconciler: store unavailable (%s)", e)
        except Exception:  # noqa: BLE001 - keep reconciling; the next pass may succeed
            log.exception("reconciler: pass failed")
        time.sleep(interval_s)
