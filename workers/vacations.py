"""Vacations in the games: the reconciler's clock tick pauses a player's clocks in every game of
theirs when a vacation begins and starts them again when it ends (api/seating/pauses.py's
`clock_paused` / `clock_resumed`, reason `vacation`), and, when one of a player's deadlines
comes, pauses that seat instead of timing it out if the player is on vacation (a game started
during it) or allowed a day to be taken (workers/clocks.py asks `instead_of_timeout` first).

The moments come from api/players/vacations.py's sorted sets (one ZRANGEBYSCORE each when
nothing is due). Ends are judged before starts, so that a vacation that begins where the last
one ends keeps the clocks stopped; a vacation found over already when its start is judged (a
reconciler that was down) is not applied. Each game's pause is from the vacation's start
(`since`), not from when the poll saw it, so the player loses no time to the poll's delay.
"""
from __future__ import annotations

import logging
import time

from api.players.accounts import GAMES_KEPT, Players
from api.players.vacations import Vacations
from api.seating.pauses import Pauses

log = logging.getLogger(__name__)


class Away:
    def __init__(self, vacations: Vacations, players: Players, pauses: Pauses):
        self.vacations, self.players, self.pauses = vacations, players, pauses

    def games_of(self, player: str) -> list[str]:
        """The games the player sits in (its games' list: GAMES_KEPT most recent)."""
        return [game_id for game_id, _ in self.players.games_page(player, None, GAMES_KEPT)]

    def apply_due(self, now_ms: int | None = None) -> int:
        """Pauses and resumes the clocks of the vacations begun or ended by now; returns in how
        many games a clock changed."""
        now = now_ms if now_ms is not None else int(time.time() * 1000)
        changed = 0
        for player, vacation in self.vacations.due("ends", now):
            failed = 0
            if not self.vacations.on_vacation(player, now):  # (the next one may begin right there)
                resumed, failed = self.pauses.vacation_ended(player, self.games_of(player))
                changed += resumed
            if not failed:  # else the next tick tries again (each game's resumption happens once)
                self.vacations.done("ends", player, vacation["id"])
        for player, vacation in self.vacations.due("starts", now):
            failed = 0
            if not vacation.get("gone") and vacation["end"] > now:
                paused, failed = self.pauses.vacation_started(player, self.games_of(player), vacation["start"])
                changed += paused
            if not failed:
                self.vacations.done("starts", player, vacation["id"])
        if changed:
            log.info("vacations: clocks paused or resumed in %d game(s)", changed)
        return changed

    def instead_of_timeout(self, game_id: str, player: str | None, deadline_ms: int) -> bool:
        """Whether a seat whose deadline has come is paused instead of timed out: its player is
        on vacation (one that began before this game started, or whose start no poll saw yet:
        this game is paused from the vacation's start), or allowed a day to be taken and has one
        left (their clocks stop from that deadline in every game of theirs)."""
        if not player:
            return False
        current = self.vacations.on_vacation(player, deadline_ms)
        if current is not None:
            return self.pauses.vacation_started(player, [game_id], current["start"])[0] > 0
        vacation = self.vacations.take_auto(player, deadline_ms)
        if vacation is None:
            return False
        self.pauses.vacation_started(player, self.games_of(player), deadline_ms)
        self.vacations.done("starts", player, vacation["id"])
        log.info("vacations: player %s took a day of vacation at a deadline", player)
        return True
