"""Stopping a game's clocks: a pause every seated person agrees to, and a player's vacation.

Each is a platform event appended at the version it was judged on (api/games/appending.py), as
the other seat commands are (api/seating/control.py): `pause_agreed`, then `clock_paused` once
everyone agreed, `clock_resumed` or `pause_withdrawn` (api/platform/decisions.py decides them).
A vacation's `clock_paused` / `clock_resumed` are the system's, appended in every game of the
player's (workers/vacations.py says when). Flask-free: the routes (api/http/seat_control.py)
parse and shape.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, UnknownGame
from api.games.appending import decide_and_append
from api.platform import decisions
from api.seating.control import answer, by
from domain.contract import SYSTEM

if TYPE_CHECKING:
    from api.games.repository import Game
    from api.games.service import GameService


class Pauses:
    def __init__(self, service: GameService) -> None:
        self.service = service

    def _judged(self, game_id: str, seat: int, decide: Callable[[Game, int], list[Any]]) -> dict[str, Any]:
        decided = decide_and_append(self.service, game_id, by(seat, decide))
        if not decided.events:
            return {**answer(decided.game, seat, False), "pause": decisions.pause_state(decided.game)}
        return {**answer(decided.appended, seat, True), "pause": decisions.pause_state(decided.appended)}

    def agree(self, game_id: str, seat: int) -> dict[str, Any]:
        return self._judged(game_id, seat, lambda game, at: decisions.agree_pause(game, seat))

    def resume(self, game_id: str, seat: int) -> dict[str, Any]:
        return self._judged(game_id, seat, lambda game, at: decisions.resume(game, seat))

    # ---- a player's vacation (the system's events) -------------------------------------------

    def vacation_started(self, player: str, game_ids: Iterable[str], since: int) -> tuple[int, int]:
        """Stops `player`'s clocks in each game from `since`: (games changed, games to try again)."""
        return self._each(game_ids, lambda game, at: decisions.vacation_pause(game, player, since))

    def vacation_ended(self, player: str, game_ids: Iterable[str]) -> tuple[int, int]:
        """Starts `player`'s clocks again in each game: (games changed, games to try again)."""
        return self._each(game_ids, lambda game, at: decisions.vacation_resume(game, player))

    def _each(self, game_ids: Iterable[str], decide: Callable[[Game, int], list[Any]]) -> tuple[int, int]:
        changed = failed = 0
        for game_id in game_ids:
            try:
                if decide_and_append(self.service, game_id, by(SYSTEM, decide)).events:
                    changed += 1
            except UnknownGame:  # gone (expired): nothing to stop or start
                continue
            except ApiError:  # archived, or changing too fast: the caller tries again
                failed += 1
        return changed, failed
