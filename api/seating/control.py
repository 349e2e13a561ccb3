"""Nobody waits forever: timeouts, bots taking a seat over, returning, resigning, aborting.

Each decision is a platform event (api/platform/events.py) appended at the version it was
judged on, so the store's version check decides every race as it does between moves: a late
move and the timeout of its seat (one wins per version), a return and the bot's turn, two
resignations. A command that changes nothing (a second resignation, a return of a seat that is
back already, an abort of an aborted game) answers the game as it is and appends nothing.

- `time_out` (the reconciler's clock poll, workers/clocks.py): each seat whose deadline has
  passed gets `seat_timed_out`, then with `on_timeout: bot` `seat_taken_by_bot` (the clock's
  `takeover_bot` plays its turns), with `forfeit` `seat_resigned` (as a resignation).
- `resign`: `seat_resigned`; the game ends (`ends_game`, the seats left winning) when fewer
  than its minimum of seats would be left in it, otherwise a bot plays on for the seat.
- `return_seat`: `seat_returned`, a seat a bot took over is its person's again.
- `abort`: `game_aborted` by a seated person when no person has moved ABORT_AFTER_S after the
  start.
Flask-free: the routes (routes_seat_control.py) parse and shape.
"""
from __future__ import annotations

import time
from typing import Optional

from domain.contract import SYSTEM
from events.store import Conflict, NewEvent

from api.platform import clocks, events as pe
from api import metrics
from api.errors import ApiError, Code, SeatNotYours
from api.seating.claims import SeatConflict, UnknownSeat
from api.games.repository import Game
from api.games.callers import TABLE

ABORT_AFTER_S = 60.0
ATTEMPTS = 20


class SeatResigned(ApiError):
    status, code = 409, Code.SEAT_RESIGNED


class AbortNotAllowed(ApiError):
    status, code = 409, Code.ABORT_NOT_ALLOWED


def now_ms() -> int:
    return int(time.time() * 1000)


def answer(game: Game, seat: Optional[int], changed: bool) -> dict:
    return {"id": game.id, "seat": seat, "version": game.version, "status": game.status,
            "changed": changed, "result": game.result if game.finished else None}


def leaving(game: Game, seat: int, platform=None) -> tuple[Optional[str], bool]:
    """(the bot that plays on for a seat that leaves, whether the game ends instead): it ends
    when fewer than its minimum of seats would be left in it."""
    platform = platform or game.platform
    left = sum(1 for i, s in enumerate(platform.seats) if i != seat and not s.get("resigned"))
    if left < game.definition.min_seats:
        return None, True
    clock = platform.clock or {}
    return clock.get("takeover_bot") or clocks.strongest_bot(game.definition), False


class SeatControl:
    def __init__(self, service, abort_after_s: float = ABORT_AFTER_S):
        self.service = service
        self.abort_after_s = abort_after_s

    # ---- the clock's decisions (the reconciler's poll) --------------------------------------

    def time_out(self, game: Game, now: Optional[int] = None) -> int:
        """Times out the seats of `game` (as loaded) whose deadline has passed by `now`; returns
        how many (0: none due, or the game moved first: the version check refused us)."""
        now = now if now is not None else now_ms()
        if game.finished:
            return 0
        seats = clocks.expired(game.platform, now)
        if not seats:
            return 0
        clock = game.platform.clock
        events, platform = [], game.platform
        for seat in seats:
            timed = {"type": pe.TIMED_OUT, "seat": seat, "deadline": clocks.deadline(game.platform, seat),
                     "on_timeout": clock["on_timeout"]}
            batch = [timed]
            if clock["on_timeout"] == "bot":
                batch.append({"type": pe.TAKEN_BY_BOT, "seat": seat, "bot": clock["takeover_bot"]})
            else:
                bot, ends = leaving(game, seat, platform)
                batch.append({"type": pe.RESIGNED, "seat": seat, "bot": bot, "forfeit": True, "ends_game": ends,
                              "reason": f"seat {seat}'s time ran out"})
            for e in batch:
                platform = pe.evolve(platform, e["type"], e)
            events += batch
            if platform.ended is not None:
                break
        try:
            self.service.append_platform(game, [NewEvent(e["type"], e, SYSTEM) for e in events])
        except Conflict:
            return 0  # a move (or another poller) came first: judged again at the new version
        metrics.seat_changes.labels("timed_out").inc(len(seats))
        return len(seats)

    # ---- a seat's own commands ---------------------------------------------------------------

    def _judged(self, game_id: str, seat: int, decide) -> dict:
        """Loads, decides (None: nothing to append) and appends, again after a lost race."""
        service = self.service
        for _ in range(ATTEMPTS):
            game = service.load(game_id)
            if not 0 <= seat < len(game.seats):
                raise UnknownSeat(f"Game {game.id} has seats 0 to {len(game.seats) - 1}.", version=game.version)
            events = decide(game)
            if not events:
                return answer(game, seat, False)
            try:
                updated = service.append_platform(game, [NewEvent(e["type"], e, seat) for e in events])
            except Conflict:
                continue
            metrics.seat_changes.labels(events[-1]["type"].removeprefix("seat_").removeprefix("game_")).inc()
            return answer(updated, seat, True)
        raise SeatConflict("The game is changing too fast; read it again and retry.")

    def resign(self, game_id: str, seat: int) -> dict:
        def decide(game: Game) -> list:
            state = game.seats[seat]
            if state.get("resigned"):
                return []  # said already: the same answer, nothing appended
            _check_playing(game, seat)
            bot, ends = leaving(game, seat)
            return [{"type": pe.RESIGNED, "seat": seat, "bot": bot, "forfeit": False, "ends_game": ends,
                     "reason": f"seat {seat} resigned"}]
        return self._judged(game_id, seat, decide)

    def return_seat(self, game_id: str, seat: int) -> dict:
        def decide(game: Game) -> list:
            state = game.seats[seat]
            if state.get("resigned"):
                raise SeatResigned(f"Seat {seat} resigned: it cannot come back.", version=game.version)
            if not state.get("takeover"):
                return []  # a person plays it already
            _check_playing(game, seat)
            return [{"type": pe.RETURNED, "seat": seat}]
        return self._judged(game_id, seat, decide)

    def abort(self, game_id: str, seat: int, now: Optional[int] = None) -> dict:
        def decide(game: Game) -> list:
            if game.status == "aborted":
                return []
            _check_playing(game, seat)
            platform = game.platform
            if platform.person_moved:
                raise AbortNotAllowed("A person has moved in this game: it can no longer be aborted (resign instead).",
                                      version=game.version)
            moment = now if now is not None else now_ms()
            allowed = (platform.started_at or 0) + int(self.abort_after_s * 1000)
            if moment < allowed:
                raise AbortNotAllowed(
                    f"A game may be aborted when no person has moved {self.abort_after_s:g} s after its start: "
                    f"from {clocks.iso(allowed)}.", version=game.version, details={"allowed_from": clocks.iso(allowed)})
            return [{"type": pe.ABORTED, "seat": seat,
                     "reason": f"no person moved within {self.abort_after_s:g} s of the start"}]
        return self._judged(game_id, seat, decide)


def _check_playing(game: Game, seat: int) -> None:
    if game.finished:
        raise SeatConflict(f"Game {game.id} is over.", code=Code.GAME_OVER, version=game.version)
    if not game.started or game.state is None:
        raise SeatConflict(f"Game {game.id} has not started (a seat of a waiting game is left, not resigned).",
                           code=Code.GAME_NOT_STARTED, version=game.version)
    if game.seats[seat]["bot"] is not None:
        raise SeatConflict(f"Seat {seat} is a bot's.", code=Code.SEAT_IS_BOT, version=game.version)


def seat_of_caller(game: Game, holder, asked: Optional[int]) -> int:
    """The seat a seat command acts for: the token's (a seat's token or a player's key), or the
    one the table token names (`?seat=N`, or in the path)."""
    if holder is None:
        raise SeatNotYours("This needs the seat's token, a player's key seated in the game, or the table token.")
    if holder == TABLE:
        held = game.table_seats()
        if asked is None:
            if len(held) != 1:
                raise SeatNotYours("The table token holds several seats: name one with ?seat=N.",
                                   code=Code.SEAT_REQUIRED, status=400)
            return held[0]
        if asked not in held:
            raise SeatNotYours(f"The table token does not hold seat {asked}.")
        return asked
    if asked is not None and asked != holder:
        raise SeatNotYours(f"You hold seat {holder}, not seat {asked}.")
    return holder
