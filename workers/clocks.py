"""Enforcing turn clocks: the due-time set, polled by the reconciler process.

Every append that leaves a clocked game owing a person's decision marks `<game>:<version>` in
the clocks set (events/redis_store.py) with that version's earliest deadline, in the same round
trip as the append, and drops the previous version's mark. Each poll (CLOCK_POLL_S, default
0.2 s) reads the marks due (one ZRANGEBYSCORE, whatever the number of games) and judges each
from the game's history (api/platform/clocks.py), never from the mark: a mark of an older version is
dropped, an early one (a writer that lost the version race) is moved to the true deadline, and
a due one appends the timeout at that version (api/seating/control.py), which the store refuses if
a move came first. The marks are in Redis (appendonly): they outlive a killed worker, a killed
reconciler and a Redis restart, and a mark lost anyway is re-armed by `rearm` (the reconciler
walks the clocked games at its start and every CLOCK_REARM_S, default 60 s).

Vacations (workers/vacations.py) are judged in the same tick, before the deadlines: a vacation
that begins stops its player's clocks first, and a due seat whose player allowed it takes a day
of vacation from its deadline instead of timing out.

Why a sorted set and not RQ's `enqueue_at`: measured by `python -m bench.clocks` (see
bench/README.md and docs/architecture.md), the poll fires a deadline within its interval,
costs one command per poll, and needs no RQ scheduler process; the re-arm is needed either way.
"""
from __future__ import annotations

import logging
import time

from api.errors import UnknownGame
from api.platform import clocks
from api.seating.control import SeatControl

log = logging.getLogger(__name__)

CLOCK_POLL_S = 0.2
CLOCK_REARM_S = 60.0
RETRY_MS = 1000  # a mark ahead of its game (an append still in flight, or one that lost): looked at again


def now_ms() -> int:
    return int(time.time() * 1000)


def fire_due(service, control: SeatControl, now: int | None = None, limit: int = 200, away=None) -> int:
    """Judges the deadline marks due by `now`; returns how many seats were timed out. `away`
    (workers/vacations.py's Away): a due seat's player may take a day of vacation instead."""
    store = service.store
    now = now if now is not None else now_ms()
    fired = 0
    for game_id, version, _ in store.clocks_due(now, limit):
        try:
            game = service.load(game_id)
        except UnknownGame:
            store.clock_done(game_id, version)
            continue
        if game.finished or game.version > version:
            store.clock_done(game_id, version)  # stale: a later version has its own mark
            continue
        if game.version < version:
            store.clock_mark(game_id, version, now + RETRY_MS, only_existing=True)
            continue
        due = clocks.next_deadline(game.platform)
        if due is None:
            store.clock_done(game_id, version)
        elif due > now:
            store.clock_mark(game_id, version, due, only_existing=True)
        elif away is not None and _on_vacation_instead(away, game, now):
            store.clock_done(game_id, version)  # paused (a new version, with its own mark if a seat still owes)
        else:
            fired += control.time_out(game, now)
            store.clock_done(game_id, version)  # timed out (a new version, a new mark) or moved on
    return fired


def _on_vacation_instead(away, game, now: int) -> bool:
    """Whether a due seat was paused instead (its player on vacation, or taking a day of it):
    the game is judged again at its next version."""
    took = False
    for seat in clocks.expired(game.platform, now):
        took |= away.instead_of_timeout(game.id, game.seats[seat].get("player"), clocks.deadline(game.platform, seat))
    return took


def rearm(service) -> int:
    """Marks the next deadline of every unfinished clocked game (a mark lost to a crash comes
    back); returns how many games owe a timed decision."""
    store = service.store
    after, armed = "", 0
    while True:
        page = store.clocked_games(after, 500)
        if not page:
            return armed
        for game_id in page:
            try:
                game = service.load(game_id)
            except UnknownGame:
                continue
            if game.finished:
                store.mark_finished(game_id)
                continue
            due = clocks.next_deadline(game.platform)
            if due is not None:
                store.clock_rearm(game_id, game.version, due)
                armed += 1
        after = page[-1]


class ClockTick:
    """The reconciler's clock step: fire what is due; re-arm at the start and now and then."""

    def __init__(self, service, control: SeatControl, rearm_every_s: float = CLOCK_REARM_S, away=None):
        self.service, self.control, self.away = service, control, away
        self.rearm_every_s = rearm_every_s
        self.next_rearm = 0.0

    def __call__(self) -> int:
        if time.monotonic() >= self.next_rearm:
            armed = rearm(self.service)
            self.next_rearm = time.monotonic() + self.rearm_every_s
            if armed:
                log.info("clocks: re-armed the deadlines of %d game(s)", armed)
        if self.away is not None:
            self.away.apply_due()  # vacations begun or ended: their clocks stopped or started first
        fired = fire_due(self.service, self.control, away=self.away)
        if fired:
            log.info("clocks: timed out %d seat(s)", fired)
        return fired
