"""The platform's decisions: who sits where and who plays a seat, as pure functions of a game.

Each takes the game as loaded (and the moment, `at`, where time matters) and returns the
platform events (api/platform/events.py) to append, [] when nothing needs doing (a second
resignation, the return of a seat that is back already, an abort of an aborted game), or raises
the command's refusal. No I/O, no clock: the commands (api/seating/) load the game, call them
and append what they decide at the version they judged (api/games/appending.py), so the
store's version check decides every race.

- `claim`: `seat_claimed`; the claim that fills the last seat adds `seats_filled` and the
  game's setup events, drawn from the seed committed at creation.
- `leave`: `seat_left`, a claimed seat of a waiting game freed.
- `rematch`: `rematch_created`, unless another rematch was made first.
- `time_out`: per seat past its deadline `seat_timed_out`, then with `on_timeout: bot`
  `seat_taken_by_bot`, with `forfeit` `seat_resigned` (as a resignation).
- `resign`: `seat_resigned`; the game ends (`ends_game`, the seats left winning) when fewer
  than its minimum of seats would be left in it, otherwise a bot plays on for the seat.
- `return_seat`: `seat_returned`, a seat a bot took over is its person's again.
- `abort`: `game_aborted` by a seated person when no person has moved `abort_after_s` after the
  start.
- `agree_pause`: `pause_agreed`, and `clock_paused` (reason `agreed`) once every seated person
  agreed (bots do not count: they need no rest); `resume`: `clock_resumed`, or `pause_withdrawn`
  of a proposal not yet agreed by all.
- `vacation_pause`, `vacation_resume`: `clock_paused` / `clock_resumed` (reason `vacation`) for
  the seats a player on vacation holds in a game.
"""
from __future__ import annotations

import hmac
import time
from typing import Any, Protocol

from api.errors import ApiError, Code, ValidationFailed
from api.platform import clocks
from api.platform import events as pe
from api.words import Wording
from domain.contract import GameDef, MoveRejected
from domain.play import rng_for


class Judged(Protocol):
    """What a decision reads of a game (api/games/repository.py's Game)."""

    id: str
    definition: GameDef
    meta: dict[str, Any]
    seed: Any
    version: int
    state: Any
    platform: pe.Platform

    @property
    def seats(self) -> tuple[Any, ...]: ...

    @property
    def started(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def status(self) -> str: ...

    def seat_of_player(self, player_id: str) -> int | None: ...


class SeatTaken(ApiError):
    status, code = 409, Code.SEAT_TAKEN


class SeatConflict(ApiError):
    """A seat command the seats' state refuses (409): each refusal names its own code."""
    status = 409

    def __init__(self, message: str, *, code: Code, **kwargs: Any):
        super().__init__(message, code=code, **kwargs)


class UnknownSeat(ApiError):
    status, code = 404, Code.UNKNOWN_SEAT


class InvalidInvite(ApiError):
    status, code = 403, Code.INVALID_INVITE


class SeatResigned(ApiError):
    status, code = 409, Code.SEAT_RESIGNED


class AbortNotAllowed(ApiError):
    status, code = 409, Code.ABORT_NOT_ALLOWED


def setup(definition: GameDef, options: dict[str, Any], n_seats: int, seed: Any) -> list[Any]:
    """The game's setup events (the deal), from the seed: the same at creation or at the claim
    that fills a waiting game's last seat."""
    try:
        return definition.setup(options, n_seats, rng_for(seed, 0, "setup"))
    except MoveRejected as e:
        raise ValidationFailed(e.message, code=e.code, details=e.details, wording=Wording.of(e, definition.name)) from e


def _check_seat(game: Judged, seat: int) -> None:
    if not 0 <= seat < len(game.seats):
        raise UnknownSeat(f"Game {game.id} has seats 0 to {len(game.seats) - 1}.", version=game.version)


# ---- claims ----------------------------------------------------------------------------------

def claim(game: Judged, seat: int, name: str, player: str | None, token_sha256: str,
          invite_sha256: str | None, at: int, bot_account: bool = False) -> list[dict[str, Any]]:
    """Seats a claimer (a player's id, or None for somebody anonymous) with the hash of the
    token it will be given; `invite_sha256` the hash of the invite code it sent; `bot_account`:
    the player is a bot account (an outside program: shown so at the table)."""
    _check_claim(game, seat, player, invite_sha256, at)
    claimed = {"type": pe.SEAT_CLAIMED, "seat": seat, "name": name, "player": player, "token_sha256": token_sha256}
    if bot_account:
        claimed["bot_account"] = True
    events = [claimed]
    if sum(1 for s in game.seats if pe.is_free(s)) == 1:
        events += _start_events(game, len(events))
    return events


def _check_claim(game: Judged, seat: int, player: str | None, invite_sha256: str | None, at: int) -> None:
    _check_seat(game, seat)
    state = game.seats[seat]
    if game.finished:
        raise SeatConflict(f"Game {game.id} is over.", code=Code.GAME_OVER, version=game.version)
    if game.started:
        raise SeatTaken(f"Game {game.id} has started: its seats are all taken.", code=Code.GAME_STARTED,
                        version=game.version)
    if state["bot"] is not None:
        raise SeatConflict(f"Seat {seat} is a bot's.", code=Code.SEAT_IS_BOT, version=game.version)
    if not pe.is_free(state):
        raise SeatTaken(f"Seat {seat} is taken.", version=game.version)
    if player is not None and game.seat_of_player(player) is not None:
        raise SeatConflict(f"You already sit in seat {game.seat_of_player(player)} of this game.",
                           code=Code.ALREADY_SEATED, version=game.version)
    reserved = state["reserved_for"]
    if reserved and player != reserved and at < (state["reserved_until"] or 0):
        raise SeatConflict(f"Seat {seat} is kept for another player until "
                           f"{time.strftime('%H:%M:%S', time.gmtime(state['reserved_until'] / 1000))} UTC.",
                           code=Code.SEAT_RESERVED, version=game.version)
    if state["invite"]:
        expected = game.meta.get("invite_sha256")
        if invite_sha256 is None or expected is None or not hmac.compare_digest(invite_sha256, expected):
            raise InvalidInvite(f"Seat {seat} is by invitation: send the game's invite code as ?invite=CODE.",
                                version=game.version)


def _start_events(game: Judged, before: int) -> list[dict[str, Any]]:
    """`seats_filled` and the setup events, as the version after them will be."""
    dealt = setup(game.definition, game.platform.options or {}, len(game.seats), game.seed)
    setup_version = game.version + before + 1 + len(dealt)
    return [{"type": pe.STARTED, "setup_version": setup_version}, *dealt]


def leave(game: Judged, seat: int) -> list[dict[str, Any]]:
    """Frees a claimed seat of a waiting game."""
    _check_seat(game, seat)
    if game.started or game.finished:
        raise SeatConflict("The game has started: its seats can no longer be left.",
                           code=Code.GAME_STARTED, version=game.version)
    state = game.seats[seat]
    if state["creator"] or state["token_sha256"] is None:
        raise SeatConflict(f"Seat {seat} was not claimed: only a claimed seat can be left.",
                           code=Code.SEAT_NOT_CLAIMED, version=game.version)
    return [{"type": pe.SEAT_LEFT, "seat": seat, "player": state["player"]}]


def rematch(game: Judged, new_game: str) -> list[dict[str, Any]]:
    """Names the finished game's rematch, unless another one was named first."""
    return [] if game.platform.rematch else [{"type": pe.REMATCH, "game_id": new_game}]


# ---- who plays a seat ---------------------------------------------------------------------

def leaving(game: Judged, seat: int, platform: pe.Platform | None = None) -> tuple[str | None, bool]:
    """(the bot that plays on for a seat that leaves, whether the game ends instead): it ends
    when fewer than its minimum of seats would be left in it."""
    platform = platform or game.platform
    left = sum(1 for i, s in enumerate(platform.seats) if i != seat and not s.get("resigned"))
    if left < game.definition.min_seats:
        return None, True
    clock = platform.clock or {}
    return clock.get("takeover_bot") or clocks.strongest_bot(game.definition), False


def time_out(game: Judged, now: int) -> list[dict[str, Any]]:
    """The timeouts of the seats whose deadline has passed by `now` (the system's events)."""
    if game.finished:
        return []
    clock = game.platform.clock or {}
    events: list[dict[str, Any]] = []
    platform = game.platform
    for seat in clocks.expired(game.platform, now):
        batch = [{"type": pe.TIMED_OUT, "seat": seat, "deadline": clocks.deadline(game.platform, seat),
                  "on_timeout": clock["on_timeout"]}]
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
    return events


def resign(game: Judged, seat: int) -> list[dict[str, Any]]:
    _check_seat(game, seat)
    if game.seats[seat].get("resigned"):
        return []  # said already: the same answer, nothing appended
    _check_playing(game, seat)
    bot, ends = leaving(game, seat)
    return [{"type": pe.RESIGNED, "seat": seat, "bot": bot, "forfeit": False, "ends_game": ends,
             "reason": f"seat {seat} resigned"}]


def return_seat(game: Judged, seat: int) -> list[dict[str, Any]]:
    _check_seat(game, seat)
    state = game.seats[seat]
    if state.get("resigned"):
        raise SeatResigned(f"Seat {seat} resigned: it cannot come back.", version=game.version)
    if not state.get("takeover"):
        return []  # a person plays it already
    _check_playing(game, seat)
    return [{"type": pe.RETURNED, "seat": seat}]


def abort(game: Judged, seat: int, now: int, abort_after_s: float) -> list[dict[str, Any]]:
    _check_seat(game, seat)
    if game.status == "aborted":
        return []
    _check_playing(game, seat)
    platform = game.platform
    if platform.person_moved:
        raise AbortNotAllowed("A person has moved in this game: it can no longer be aborted (resign instead).",
                              version=game.version)
    allowed = (platform.started_at or 0) + int(abort_after_s * 1000)
    if now < allowed:
        raise AbortNotAllowed(
            f"A game may be aborted when no person has moved {abort_after_s:g} s after its start: "
            f"from {clocks.iso(allowed)}.", version=game.version, details={"allowed_from": clocks.iso(allowed)})
    return [{"type": pe.ABORTED, "seat": seat, "reason": f"no person moved within {abort_after_s:g} s of the start"}]


def _check_playing(game: Judged, seat: int) -> None:
    if game.finished:
        raise SeatConflict(f"Game {game.id} is over.", code=Code.GAME_OVER, version=game.version)
    if not game.started or game.state is None:
        raise SeatConflict(f"Game {game.id} has not started (a seat of a waiting game is left, not resigned).",
                           code=Code.GAME_NOT_STARTED, version=game.version)
    if game.seats[seat]["bot"] is not None:
        raise SeatConflict(f"Seat {seat} is a bot's.", code=Code.SEAT_IS_BOT, version=game.version)


# ---- pauses ----------------------------------------------------------------------------------

def seated_people(game: Judged) -> list[int]:
    """The seats whose people agree to a pause: a person sits there and has not resigned (one a
    bot took over after a timeout counts: its person may return). Bots do not count."""
    return [i for i, s in enumerate(game.seats) if s["bot"] is None and not pe.is_free(s) and not s.get("resigned")]


def pause_state(game: Judged) -> dict[str, Any]:
    """The pause as anyone sees it: `paused` (every seated person agreed), who agreed so far,
    and whose agreement is needed."""
    platform = game.platform
    return {"paused": platform.agreed_pause, "agreed": list(platform.pause_votes), "needed": seated_people(game)}


def agree_pause(game: Judged, seat: int) -> list[dict[str, Any]]:
    """A seated person's agreement to pause the game; the last one needed stops every clock."""
    _check_seat(game, seat)
    _check_playing(game, seat)
    platform = game.platform
    if platform.agreed_pause or seat in platform.pause_votes:
        return []  # paused already, or agreed already: nothing appended
    events = [{"type": pe.PAUSE_AGREED, "seat": seat}]
    if set(seated_people(game)) <= {*platform.pause_votes, seat}:
        events.append({"type": pe.CLOCK_PAUSED, "seats": list(range(len(game.seats))), "reason": pe.AGREED})
    return events


def resume(game: Judged, seat: int) -> list[dict[str, Any]]:
    """A seated person ends the agreed pause (one is enough), or withdraws a proposal."""
    _check_seat(game, seat)
    _check_playing(game, seat)
    platform = game.platform
    if platform.agreed_pause:
        return [{"type": pe.CLOCK_RESUMED, "seats": pe.paused_seats(platform, pe.AGREED), "reason": pe.AGREED,
                 "seat": seat}]
    if platform.pause_votes:
        return [{"type": pe.PAUSE_WITHDRAWN, "seat": seat}]
    return []


def _players_seats(game: Judged, player: str) -> list[int]:
    return [i for i, s in enumerate(game.seats) if s.get("player") == player and not s.get("resigned")]


def vacation_pause(game: Judged, player: str, since: int) -> list[dict[str, Any]]:
    """Stops the clocks of the seats `player` holds, from `since` (its vacation's start)."""
    if game.finished or not game.started:
        return []
    seats = [i for i in _players_seats(game, player) if pe.VACATION not in game.seats[i].get("paused", ())]
    if not seats:
        return []
    return [{"type": pe.CLOCK_PAUSED, "seats": seats, "reason": pe.VACATION, "since": since, "player": player}]


def vacation_resume(game: Judged, player: str) -> list[dict[str, Any]]:
    """Starts the clocks of the seats `player` holds again: the vacation is over."""
    if game.finished:
        return []
    seats = [i for i in pe.paused_seats(game.platform, pe.VACATION) if game.seats[i].get("player") == player]
    if not seats:
        return []
    return [{"type": pe.CLOCK_RESUMED, "seats": seats, "reason": pe.VACATION, "player": player}]
