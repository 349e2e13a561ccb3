"""A clock's warning: before a person's timed decision falls due, the player is told
(`clock_warning` in the player's stream, and so by Web Push: api/push/), once per decision.

A reconciler sweep. The turn clocks' due set (workers/clocks.py) holds each clocked game's
next deadline; every WARN_SCAN_S the sweep reads the marks falling due within CLOCK_WARNING_S
(one ZRANGEBYSCORE) and, for each mark it has not planned yet, loads the game once and plans a
warning per seat that owes a timed decision: at a quarter of the decision's time before its
deadline, and at most CLOCK_WARNING_S before it (a day: a correspondence move of three days is
warned 18 hours ahead, one of an hour 15 minutes ahead). Decisions shorter than
CLOCK_WARNING_MIN_S (ten minutes) are not warned: their player is at the board. The warning is
written once however many reconcilers run or restart (a marker per game, seat and decision,
set if absent, expiring after the deadline; a paused clock's decision, resumed, is warned
anew); a move before it makes the mark stale, and nothing is said."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from api.errors import UnknownGame
from api.platform import clocks
from api.players.accounts import Players

log = logging.getLogger(__name__)

CLOCK_WARNING_S = 86400.0
CLOCK_WARNING_MIN_S = 600.0
WARN_SCAN_S = 2.0
SCAN_LIMIT = 10_000


@dataclass
class Warning:
    seat: int
    player_id: str
    game_type: str
    since: int  # when the decision began (its seat's turn_since: the same across versions)
    at: int  # when to warn (ms)
    deadline: int  # ms
    said: bool = False


class ClockWarnings:
    def __init__(self, service, players: Players, told: Callable[[list[str]], object] | None = None,
                 lead_s: float = CLOCK_WARNING_S, min_decision_s: float = CLOCK_WARNING_MIN_S,
                 scan_every_s: float = WARN_SCAN_S):
        self.service, self.players, self.told = service, players, told
        self.lead_ms, self.min_decision_ms = clocks.ms(lead_s), clocks.ms(min_decision_s)
        self.scan_every_s = scan_every_s
        self.plans: dict[tuple[str, int], list[Warning]] = {}  # (game, version) -> its warnings
        self.next_scan = 0.0

    def __call__(self) -> int:
        if time.monotonic() < self.next_scan:
            return 0
        self.next_scan = time.monotonic() + self.scan_every_s
        now = int(time.time() * 1000)
        marks = self.service.store.clocks_due(now + self.lead_ms, SCAN_LIMIT)
        planned: dict[tuple[str, int], list[Warning]] = {}
        said = 0
        for game_id, version, _ in marks:
            key = (game_id, version)
            plan = self.plans.get(key)
            if plan is None:
                plan = self._plan(game_id, version)
                if plan is None:
                    continue  # an append in flight: planned at a later scan
            planned[key] = plan
            for warning in plan:
                if not warning.said and warning.at <= now < warning.deadline:
                    warning.said = True
                    said += self._say(game_id, version, warning, now)
        self.plans = planned  # a mark gone (moved, timed out) takes its plan with it
        return said

    def _plan(self, game_id: str, version: int) -> list[Warning] | None:
        try:
            game = self.service.load(game_id)
        except UnknownGame:
            return []
        if game.version < version:
            return None
        if game.finished or game.version > version:
            return []
        plan = []
        for seat, deadline in clocks.deadlines(game.platform).items():
            player_id = game.seats[seat].get("player")
            since = game.platform.seats[seat].get("turn_since")
            if not player_id or since is None or deadline - since < self.min_decision_ms:
                continue
            warn_at = deadline - min(self.lead_ms, (deadline - since) // 4)
            plan.append(Warning(seat, player_id, game.definition.name, since, warn_at, deadline))
        return plan

    def _say(self, game_id: str, version: int, warning: Warning, now: int) -> int:
        redis, prefix = self.players.redis, self.players.prefix
        # Per decision, not per version: another seat's move (a simultaneous phase) makes a new
        # version, and a new plan, of the same decision.
        marker = f"{prefix}game:{{{game_id}}}:clock-warned:{warning.seat}:{warning.since}"
        if not redis.set(marker, 1, nx=True, px=max(1, warning.deadline - now) + 60_000):
            return 0  # another reconciler said it
        entry = {"type": "clock_warning", "game_id": game_id, "game_type": warning.game_type, "version": version,
                 "at": now, "seat": warning.seat, "deadline": clocks.iso(warning.deadline),
                 "remaining_ms": warning.deadline - now}
        self.players.write_inbox(redis, warning.player_id, entry, now)
        if self.told is not None:
            self.told([warning.player_id])
        return 1
