"""Turn clocks: the `clock` creation option, and each seat's deadline derived from the history.

A clock is `{"per_move_s": 60}` (each decision has its own time), `{"days_per_move": 3}`
(correspondence: each decision has that many days, 1 to 14) or `{"initial_s": 600,
"increment_s": 10}` (a bank per seat, Fischer increment: each decision spends the time it took
and earns the increment), with `"on_timeout": "bot" | "forfeit"` (default `bot`) and
`"takeover_bot"` (default: the game's strongest level, the last one it lists). The option is
checked and stored with its defaults in `game_created`, so a history replays with the clock it
was played with whatever the defaults become.

Nothing here reads the wall clock. A seat's clock runs from the `at` of the event that made it
owe a decision (or of its own previous decision: each decision has its own time) to its next
decision; the seat's state (platform_events._seat) keeps `turn_since` (ms) and, with a bank,
`bank_ms`. `step` is called by the platform fold after each event of a clocked game, so every
replay (a cold load, a snapshot's tail, a past version, the live stream) computes the same
deadlines. Only seats played by a person are clocked: bots, seats a bot took over and resigned
seats are not. Simultaneous phases run one clock per seat that owes a decision.

A seat's clock can be paused (`clock_paused` / `clock_resumed`, api/platform/events.py): for
its player's vacation, or for a pause every seated person agreed to. A paused seat has no
deadline; the time it spends paused is not counted (its `turn_since` moves on by the pause's
length when it resumes, and a bank spends nothing of it), so it resumes with the time it had.

Pure: no Flask, no I/O, no clock.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code, ValidationFailed
from domain.contract import GameDef, is_seat

if TYPE_CHECKING:
    from api.platform.events import Platform

MAX_S = 7 * 24 * 3600  # a week per decision, or in a bank
MAX_INCREMENT_S = 3600
MAX_DAYS_PER_MOVE = 14  # correspondence: two weeks a decision at most
DAY_MS = 24 * 3600 * 1000
KEYS = ("per_move_s", "days_per_move", "initial_s", "increment_s", "on_timeout", "takeover_bot")
PER_MOVE = ("per_move_s", "days_per_move")  # the forms where each decision has its own time


class InvalidClock(ValidationFailed):
    status, code = 400, Code.INVALID_CLOCK


class TimeExpired(ApiError):
    status, code = 409, Code.TIME_EXPIRED


class SeatPlayedByBot(ApiError):
    status, code = 409, Code.SEAT_PLAYED_BY_BOT


def strongest_bot(definition: GameDef) -> str:
    """The level that takes over a timed-out seat by default: the last a game lists (each game
    lists `random` first and its stronger bot after it)."""
    return list(definition.bots)[-1]


def _seconds(clock: dict[str, Any], name: str, low: float, high: float) -> float:
    value = clock[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise InvalidClock(f"clock.{name} is a number of seconds.",
                           details={"fields": {f"clock.{name}": ["Not a number."]}})
    if not low <= value <= high:
        raise InvalidClock(f"clock.{name} is between {low:g} and {high:g} seconds; {value!r} was given.",
                           details={"fields": {f"clock.{name}": ["Out of range."]}})
    return int(value) if float(value).is_integer() else float(value)


def _days(value: Any) -> int:
    # 3.0 is the whole number 3, as JSON Schema's `integer` says (a client's float of an int)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidClock(f"clock.days_per_move is a whole number of days, 1 to {MAX_DAYS_PER_MOVE}; "
                           f"{value!r} was given.",
                           details={"fields": {"clock.days_per_move": ["Not a whole number."]}})
    if not 1 <= value <= MAX_DAYS_PER_MOVE:
        raise InvalidClock(f"clock.days_per_move is between 1 and {MAX_DAYS_PER_MOVE} days; {value!r} was given.",
                           details={"fields": {"clock.days_per_move": ["Out of range."]}})
    return value


def per_move_ms(clock: dict[str, Any]) -> int | None:
    """A decision's own time (ms) under a per-move clock; None under a bank."""
    if "days_per_move" in clock:
        return int(clock["days_per_move"]) * DAY_MS
    return ms(clock["per_move_s"]) if "per_move_s" in clock else None


def checked(definition: GameDef, clock: Any) -> dict[str, Any] | None:
    """The clock as stored in `game_created` (defaults filled in), or None for no clock.
    Raises InvalidClock (400 `invalid_clock`, a sentence) for anything else."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise InvalidClock("clock is an object: {\"per_move_s\": 60} or {\"initial_s\": 600, \"increment_s\": 10}.")
    unknown = sorted(set(clock) - set(KEYS))
    if unknown:
        raise InvalidClock(f"clock has no field {', '.join(map(str, unknown))} (it takes {', '.join(KEYS)}).",
                           details={"unknown": [str(u) for u in unknown]})
    forms = [k for k in ("per_move_s", "days_per_move", "initial_s") if k in clock]
    if len(forms) != 1:
        raise InvalidClock("A clock has either per_move_s (each decision its own time), days_per_move (each "
                           "decision that many days) or initial_s (a bank per seat, with increment_s): not both "
                           "and not neither.")
    out: dict[str, Any] = {}
    if forms[0] in PER_MOVE:
        if "increment_s" in clock:
            raise InvalidClock(f"increment_s goes with initial_s (a bank), not with {forms[0]}.")
        if forms[0] == "per_move_s":
            out["per_move_s"] = _seconds(clock, "per_move_s", 1, MAX_S)
        else:
            out["days_per_move"] = _days(clock["days_per_move"])
    else:
        out["initial_s"] = _seconds(clock, "initial_s", 1, MAX_S)
        out["increment_s"] = _seconds(clock, "increment_s", 0, MAX_INCREMENT_S) if "increment_s" in clock else 0
    on_timeout = clock.get("on_timeout", "bot")
    if on_timeout not in ("bot", "forfeit"):
        raise InvalidClock("clock.on_timeout is \"bot\" (a bot plays the seat until its person returns) or "
                           "\"forfeit\" (the seat leaves the game).")
    out["on_timeout"] = on_timeout
    bot = clock.get("takeover_bot", strongest_bot(definition))
    if not isinstance(bot, str) or bot not in definition.bots:
        raise InvalidClock(f"clock.takeover_bot is one of {definition.title}'s bots: {', '.join(definition.bots)}.")
    out["takeover_bot"] = bot
    return out


def ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def initial_bank(clock: dict[str, Any] | None) -> int | None:
    return ms(clock["initial_s"]) if clock and "initial_s" in clock else None


def clocked(seat: dict[str, Any]) -> bool:
    """Whether a seat's decisions are timed: a person plays it (no bot, no takeover, not resigned)."""
    return seat["bot"] is None and not seat.get("takeover") and not seat.get("resigned")


def paused(seat: dict[str, Any]) -> bool:
    """Whether the seat's clock is paused (its player's vacation, or a pause everyone agreed to)."""
    return bool(seat.get("paused"))


def _spent(seat: dict[str, Any], since: int, at: int) -> int:
    """The time a decision owed since `since` took by `at`, a pause's time left out."""
    stopped: int | None = seat.get("paused_since")
    if paused(seat) and stopped is not None:
        return max(0, stopped - since)
    return max(0, at - since)


def resumed_since(seat: dict[str, Any], at: int) -> int | None:
    """A seat's `turn_since` once its pause ends at `at`: moved on by the paused time, so the
    seat has exactly the time it had when the pause began (all of it, when it came to owe the
    decision during the pause)."""
    since: int | None = seat.get("turn_since")
    stopped: int | None = seat.get("paused_since")
    if since is None or stopped is None:
        return since
    return since + max(0, at - max(stopped, since))


def step(platform: Platform, definition: GameDef, state: Any, actor: object, at: int | None) -> Platform:
    """The platform state after one event of a clocked game (`actor` made it at `at`)."""
    clock = platform.clock
    if clock is None or state is None or at is None or not platform.started:
        return platform
    try:
        over = platform.ended is not None or definition.result(state) is not None
        owing = set() if over else {a for a in definition.actors(state) if is_seat(a)}
    except Exception:
        return platform
    increment = ms(clock.get("increment_s", 0))
    seats, changed = list(platform.seats), False
    for i, seat in enumerate(seats):
        since, bank = seat.get("turn_since"), seat.get("bank_ms")
        new_since, new_bank = since, bank
        acted = actor == i and since is not None and since != at  # a decision of its own (once per append)
        if acted and bank is not None and since is not None:  # (acted: since is not None)
            new_bank = max(0, bank - _spent(seat, since, at)) + increment
        if i in owing and clocked(seat):
            if since is None or acted:
                new_since = at
        else:
            new_since = None
        if new_since != since or new_bank != bank:
            seats[i] = {**seat, "turn_since": new_since, "bank_ms": new_bank}
            changed = True
    return replace(platform, seats=tuple(seats)) if changed else platform


def _remaining(clock: dict[str, Any], s: dict[str, Any]) -> int | None:
    """What the seat's current decision has left when its clock stopped (a paused seat)."""
    since: int | None = s.get("turn_since")
    stopped: int | None = s.get("paused_since")
    if since is None or stopped is None:
        return None
    budget = per_move_ms(clock)
    left: int = budget if budget is not None else (s.get("bank_ms") or 0)
    return max(0, left - max(0, stopped - since))


def deadline(platform: Platform, seat: int) -> int | None:
    """When seat's current decision times out (ms), None when it owes none under a clock (or
    its clock is paused)."""
    clock = platform.clock
    if clock is None or platform.ended is not None:
        return None
    s = platform.seats[seat]
    since: int | None = s.get("turn_since")
    if since is None or not clocked(s) or paused(s):
        return None
    budget = per_move_ms(clock)
    return since + (budget if budget is not None else int(s.get("bank_ms") or 0))


def deadlines(platform: Platform) -> dict[int, int]:
    """Each seat that owes a timed decision: its deadline (ms)."""
    if platform.clock is None:
        return {}
    found = {i: deadline(platform, i) for i in range(len(platform.seats))}
    return {i: d for i, d in found.items() if d is not None}


def next_deadline(platform: Platform) -> int | None:
    return min(deadlines(platform).values(), default=None)


def expired(platform: Platform, now_ms: int) -> list[int]:
    return sorted(i for i, d in deadlines(platform).items() if d <= now_ms)


def abandonment_from(platform: Platform, last_at: int, now_ms: int) -> int:
    """The moment a game's idleness counts from (workers/abandon.py): the later of its last
    event and the current deadline (a 14-day clock is not abandoned at 7), and `now` while any
    seat's clock is paused (a vacation, an agreed pause): a stopped game is never idle."""
    if any(paused(s) for s in platform.seats) or getattr(platform, "agreed_pause", False):
        return max(last_at, now_ms)
    return max(last_at, next_deadline(platform) or last_at)


def iso(at_ms: int | None) -> str | None:
    if at_ms is None:
        return None
    return datetime.fromtimestamp(at_ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def shown(platform: Platform, now_ms: int) -> dict[str, Any] | None:
    """The clock as a viewer sees it at `now_ms`: its options, the earliest deadline (UTC) and
    each seat's remaining time (`remaining_ms`: of the decision it owes, or with a bank, the
    bank; null for a seat no clock times) and deadline, and `paused` (why, for a seat whose
    clock is stopped: `vacation`, `agreed`). Nothing secret: everyone sees it."""
    clock = platform.clock
    if clock is None:
        return None
    due = deadlines(platform)
    seats = []
    for i, s in enumerate(platform.seats):
        d = due.get(i)
        if d is not None:
            remaining = max(0, d - now_ms)
        elif not clocked(s) or platform.ended is not None:
            remaining = None
        elif paused(s) and s.get("turn_since") is not None:
            remaining = _remaining(clock, s)
        elif "initial_s" not in clock:
            remaining = per_move_ms(clock)
        else:
            remaining = s.get("bank_ms")
        shown_seat: dict[str, Any] = {"seat": i, "remaining_ms": remaining, "deadline": iso(d)}
        if paused(s) and platform.ended is None:
            shown_seat["paused"] = list(s["paused"])
        seats.append(shown_seat)
    return {**clock, "deadline": iso(min(due.values(), default=None)), "seats": seats}


def check_actor(game: Any, actor: object, at: int, automatic: bool = False) -> None:  # game: a Game
    """Refuses a person's move for a seat a bot plays (409 `seat_played_by_bot`: return to it
    first), and a seat's decision that comes after its deadline (409 `time_expired`: the
    timeout, appended by the reconciler's clock poll at this same version, wins that race;
    nothing is appended)."""
    if not is_seat(actor) or not 0 <= actor < len(game.seats):
        return
    seat = game.seats[actor]
    if not automatic and seat["bot"] is None and seat.get("takeover"):
        raise SeatPlayedByBot(
            f"A bot plays seat {actor} now" + (" (it resigned)." if seat.get("resigned") else
                                               f": POST /games/{game.id}/seats/{actor}/return to play it again."),
            version=game.version)
    check_in_time(game, actor, at)


def check_in_time(game: Any, actor: object, at: int) -> None:
    platform = game.platform
    if platform.clock is None or not is_seat(actor):
        return
    due = deadline(platform, actor)
    if due is not None and at > due:
        raise TimeExpired(f"Seat {actor}'s time ran out at {iso(due)}; the server is timing the seat out.",
                          version=game.version, details={"deadline": iso(due)})
