"""Ending abandoned games: a game nobody has moved in for ABANDON_AFTER seconds (default 7
days) is ended by the system with the platform event `game_abandoned` (api/platform/events.py)
and leaves the sets of unfinished games, so neither Redis nor the reconciler carries it on.

The idle set's score is the last activity the server knows of (creation, then whatever a check
found), so a check costs a round trip per game *due*, never a walk over every game: a game
still played is found due at most once per ABANDON_AFTER, its newest event's time read, and
its score moved there. A clocked game's idleness counts from the later of its last move and its
current deadline (a 14-day decision is not abandoned at 7), and a game with a paused clock (a
vacation, a pause everyone agreed to) is not idle: api/platform/clocks.py's `abandonment_from`.
The event is appended at the version just read (the store refuses it if
anyone moved meanwhile); it replays from the history like every event.

A game still waiting for its free seats WAITING_TTL (default 24 h) after its creation is ended
the same way (`game_abandoned`, its reason "nobody took its free seats ..."): it leaves the
lobby, its sets, and with FINISHED_TTL its keys expire as a finished game's. The waiting set
holds the games created waiting, by creation, so the pass reads only those due; one found started
leaves the set.
"""
from __future__ import annotations

import logging
import time

from api.errors import UnknownGame
from api.games.service import GameService
from api.platform import clocks
from api.platform.events import ABANDONED, abandoned_event
from domain.contract import SYSTEM
from events.store import Conflict, NewEvent

log = logging.getLogger(__name__)

ABANDON_AFTER_S = 7 * 24 * 3600
WAITING_TTL_S = 24 * 3600
BATCH = 500


def abandon_idle(service: GameService, abandon_after_s: float, now_ms: int | None = None) -> int:
    """Ends the games idle for abandon_after_s; returns how many were ended."""
    store = service.store
    now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
    cutoff = now_ms - int(abandon_after_s * 1000)
    ended = 0
    for game_id, _ in store.idle_since(cutoff, BATCH):
        last = store.last_event(game_id)
        if last is None:  # expired or never written: nothing to keep track of
            store.mark_finished(game_id)
            continue
        if last.type == ABANDONED:  # ended before a crash took the rest of the step
            service.finish(service.load(game_id))
            continue
        if last.at > cutoff:
            store.touch(game_id, last.at)  # played since: due again ABANDON_AFTER after its last move
            continue
        game = service.load(game_id)
        if game.finished:
            service.finish(game)
            continue
        since = clocks.abandonment_from(game.platform, last.at, now_ms)
        if since > cutoff:
            store.touch(game_id, since)  # a deadline still to come, or paused: looked at again later
            continue
        idle_s = (now_ms - last.at) // 1000
        try:
            store.append(game_id, game.version, [NewEvent(ABANDONED, abandoned_event(idle_s), SYSTEM)], at=now_ms)
        except Conflict:
            continue  # a move just came: the next pass finds it
        service.forget(game_id)
        over = service.load(game_id)
        service.finish(over)
        # Its players hear of it (their streams, their games; the lobby lists it no more).
        service.notify(over, [NewEvent(ABANDONED, abandoned_event(idle_s), SYSTEM)])
        ended += 1
    if ended:
        log.info("abandoned %d idle game(s)", ended)
    return ended


def expire_waiting(service: GameService, waiting_ttl_s: float, now_ms: int | None = None) -> int:
    """Ends the games still waiting for seats waiting_ttl_s after their creation; returns how
    many were ended."""
    store = service.store
    now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
    ended = 0
    for game_id, created in store.waiting_since(now_ms - int(waiting_ttl_s * 1000), BATCH):
        try:
            game = service.load(game_id)
        except UnknownGame:  # expired or never written
            store.mark_finished(game_id)
            continue
        if game.finished:
            service.finish(game)
        elif game.status != "waiting":
            store.unwait(game_id)  # its seats were taken: played on, abandoned only if idle
        else:
            waited_s = (now_ms - created) // 1000
            reason = f"nobody took its free seats in {waited_s} s"
            try:
                service.append_platform(game, [NewEvent(ABANDONED, abandoned_event(waited_s, reason), SYSTEM)],
                                        at=now_ms)  # then finished (out of the sets, the lobby), told
            except Conflict:
                continue  # a claim just came: the next pass judges it again
            ended += 1
    if ended:
        log.info("ended %d game(s) nobody joined", ended)
    return ended
