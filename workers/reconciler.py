"""The reconciler: the outbox's safety net. Appending a move and enqueueing the next bot turn
are two writes; a crash between them (or a worker killed mid-job) would stall a game. Every
few seconds the reconciler looks at every active game and makes sure each turn a worker owes
is queued."""
from __future__ import annotations

import logging
import time

from api.errors import ApiError
from api.service import GameService
from events.store import StoreUnavailable

from .queueing import TurnScheduler

log = logging.getLogger(__name__)


def reconcile_once(service: GameService, scheduler: TurnScheduler) -> int:
    """Re-enqueues lost turns; returns how many were (re)enqueued."""
    repaired = 0
    for game_id in service.store.active_games():
        try:
            repaired += _reconcile_game(service, scheduler, game_id)
        except StoreUnavailable:
            raise
        except ApiError:
            continue
        except Exception:  # noqa: BLE001 - one broken game must not stop the others' repair
            log.exception("reconciler: game %s could not be reconciled", game_id)
    return repaired


def _reconcile_game(service: GameService, scheduler: TurnScheduler, game_id: str) -> int:
    game = service.load(game_id)
    if game.finished:
        service.store.mark_finished(game_id)
        return 0
    return sum(1 for actor in service.automatic_actors(game)
               if scheduler.ensure(game_id, game.version, actor, repair=True))


def run_forever(service: GameService, scheduler: TurnScheduler, interval_s: float = 2.0) -> None:
    while True:
        try:
            n = reconcile_once(service, scheduler)
            if n:
                log.info("reconciler enqueued %d turn(s)", n)
        except StoreUnavailable as e:
            log.warning("reconciler: store unavailable (%s)", e)
        except Exception:  # noqa: BLE001 - keep reconciling; the next pass may succeed
            log.exception("reconciler: pass failed")
        time.sleep(interval_s)
