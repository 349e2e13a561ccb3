"""Nobody waits forever: timeouts, bots taking a seat over, returning, resigning, aborting.

Each decision (api/platform/decisions.py) is a platform event appended at the version it was
judged on (api/games/appending.py), so the store's version check decides every race as it does
between moves: a late move and the timeout of its seat (one wins per version), a return and the
bot's turn, two resignations. A command that changes nothing (a second resignation, a return of
a seat that is back already, an abort of an aborted game) answers the game as it is and appends
nothing.

- `time_out` (the reconciler's clock poll, workers/clocks.py): each seat whose deadline has
  passed gets `seat_timed_out`, then `seat_taken_by_bot` or `seat_resigned`.
- `resign`, `return_seat`, `abort`: a seat's own commands, the seat resolved by the one rule of
  who a caller acts as (api/games/callers.py).
Flask-free: the routes (api/http/seat_control.py) parse and shape.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api import metrics
from api.errors import VersionConflict
from api.games.appending import decide_and_append, now_ms
from api.games.repository import Game
from api.platform import clocks, decisions
from domain.contract import SYSTEM
from events.store import NewEvent

if TYPE_CHECKING:
    from api.games.service import GameService

ABORT_AFTER_S = 60.0


def answer(game: Game, seat: int | None, changed: bool) -> dict[str, Any]:
    return {"id": game.id, "seat": seat, "version": game.version, "status": game.status,
            "changed": changed, "result": game.result if game.finished else None}


def by(actor: object, decide: Callable[[Game, int], list[Any]]) -> Callable[[Game, int], list[Any]]:
    """A decision whose events `actor` appends."""
    return lambda game, at: [NewEvent(e["type"], e, actor) for e in decide(game, at)]


class SeatControl:
    def __init__(self, service: GameService, abort_after_s: float = ABORT_AFTER_S) -> None:
        self.service = service
        self.abort_after_s = abort_after_s

    # ---- the clock's decisions (the reconciler's poll) --------------------------------------

    def time_out(self, game: Game, now: int | None = None) -> int:
        """Times out the seats of `game` (as loaded, judged again if it moved meanwhile) whose
        deadline has passed by `now`; returns how many (0: none due)."""
        moment = now if now is not None else now_ms()
        try:
            decided = decide_and_append(self.service, game.id, by(SYSTEM, lambda g, at: decisions.time_out(g, moment)),
                                        game=game)
        except VersionConflict:
            return 0  # the game keeps moving: its next mark judges the deadline again
        if not decided.events:
            return 0
        seats = len(clocks.expired(decided.game.platform, moment))
        metrics.seat_changes.labels("timed_out").inc(seats)
        return seats

    # ---- a seat's own commands ---------------------------------------------------------------

    def _judged(self, game_id: str, seat: int, decide: Callable[[Game, int], list[Any]]) -> dict[str, Any]:
        decided = decide_and_append(self.service, game_id, by(seat, decide))
        if not decided.events:
            return answer(decided.game, seat, False)
        metrics.seat_changes.labels(decided.events[-1].type.removeprefix("seat_").removeprefix("game_")).inc()
        return answer(decided.appended, seat, True)

    def resign(self, game_id: str, seat: int) -> dict[str, Any]:
        return self._judged(game_id, seat, lambda game, at: decisions.resign(game, seat))

    def return_seat(self, game_id: str, seat: int) -> dict[str, Any]:
        return self._judged(game_id, seat, lambda game, at: decisions.return_seat(game, seat))

    def abort(self, game_id: str, seat: int, now: int | None = None) -> dict[str, Any]:
        return self._judged(game_id, seat, lambda game, at: decisions.abort(
            game, seat, now if now is not None else at, self.abort_after_s))
