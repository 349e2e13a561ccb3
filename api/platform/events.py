"""Platform events: what the server itself records in a game's history, beside the game's own
events. No game's rules decide them and no game's reducer sees them; they are folded here, into
a small state kept next to the game's, and replay from the history like everything else.

- `game_created` (type, seats, options, seed, private) opens every history. Its seats are
  people (`{"name"}`, with `"player"` for a player who sat itself), bots, or free seats
  (`{"open": true}`, `{"invite": true}`, and a rematch's `{"open": true, "reserved_for",
  "reserved_until"}`). A game with a free seat is `waiting`: it has no deal yet.
- `seat_claimed` (seat, name, player, token_sha256, and `bot_account` for a bot account's
  claim) fills a free seat; `seat_left` frees it
  again (only while waiting). The claimer's token hash lives in the event, so a replay rebuilds
  who may act as that seat; presenting.py strips it for every viewer.
- `seats_filled` (setup_version) is appended with the claim that fills the last seat, followed
  by the game's setup events (each game's own `game_started`...): `setup_version` is the
  version after them.
- `rematch_created` (game_id) names the game that a finished game's people were invited to.
- `game_abandoned` ends a game nobody has moved in for ABANDON_AFTER, or one still waiting for
  seats WAITING_TTL after its creation (its `reason` says which): the game's status and
  result say so, it has no one to act, and it is over (its seed and hidden information open).
- Who plays a seat (api/seating/control.py decides them; api/platform/clocks.py times the seats):
  `seat_timed_out` (seat, deadline: the seat's time ran out; a bank is emptied),
  `seat_taken_by_bot` (seat, bot: that level plays the seat until `seat_returned` (seat): its
  person is back, its next decision is theirs again, an emptied bank refilled to initial_s),
  `seat_resigned` (seat, bot or null, forfeit, ends_game: the seat has left for good; with a bot
  level a bot plays on for it, with `ends_game` the game ends with the seats left as winners)
  and `game_aborted` (seat, reason: no person moved after the start; the game ends, `aborted`).
- Clocks stopped (api/platform/clocks.py): `clock_paused` (seats, reason, since, player) stops
  those seats' clocks from `since` (ms; the moment the pause began, at or before the event's
  `at`), `clock_resumed` (seats, reason, player) starts them again with the time they had. The
  reason is `vacation` (the seat's player is away: api/players/vacations.py) or `agreed`
  (every seated person agreed to pause the game); a seat stays paused while any reason holds.
  `pause_agreed` (seat) is a seated person's agreement to pause (the first is the proposal;
  the agreement that completes it is followed by `clock_paused` with reason `agreed` in the same
  append), `pause_withdrawn` (seat) a person's refusal, which drops the proposal.

A seat's state is a plain dict (see `_seat`): general enough for later changes of who plays a
seat (a bot taking a seat over and giving it back are more keys and events, not a new shape).
Pure: no I/O, no clock.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from api.platform import clocks
from domain.contract import GameDef, is_seat
from domain.copies import Replaceable
from domain.play import fold

CREATED = "game_created"
ABANDONED = "game_abandoned"
SEAT_CLAIMED = "seat_claimed"
SEAT_LEFT = "seat_left"
STARTED = "seats_filled"
REMATCH = "rematch_created"
TIMED_OUT = "seat_timed_out"
TAKEN_BY_BOT = "seat_taken_by_bot"
RETURNED = "seat_returned"
RESIGNED = "seat_resigned"
ABORTED = "game_aborted"
CLOCK_PAUSED = "clock_paused"
CLOCK_RESUMED = "clock_resumed"
PAUSE_AGREED = "pause_agreed"
PAUSE_WITHDRAWN = "pause_withdrawn"
VACATION, AGREED = "vacation", "agreed"  # why a seat's clock is paused
PLATFORM_EVENTS = frozenset({CREATED, ABANDONED, SEAT_CLAIMED, SEAT_LEFT, STARTED, REMATCH,
                             TIMED_OUT, TAKEN_BY_BOT, RETURNED, RESIGNED, ABORTED,
                             CLOCK_PAUSED, CLOCK_RESUMED, PAUSE_AGREED, PAUSE_WITHDRAWN})
ENDED_STATUSES = ("abandoned", "aborted")  # a game the platform ended otherwise is `finished`
SECRET_FIELDS = ("token_sha256",)  # never shown to anyone, not even once the game is over
# The platform events that may end a game (abandoned, aborted, a resignation or a forfeit on time).
ENDING = frozenset({ABANDONED, ABORTED, RESIGNED, TIMED_OUT})


def finishing(types: Iterable[str]) -> bool:
    """Whether an append of these event types ended its (now finished) game, and was not a
    platform note appended after its end (a rematch's)."""
    return any(t not in PLATFORM_EVENTS or t in ENDING for t in types)


@dataclass(frozen=True)
class Platform(Replaceable):  # with_: a move's fold makes one (issue 57)
    """What the platform events of a history say so far."""

    ended: dict[str, Any] | None = None  # the platform's result when it ended the game ({"outcome": ...})
    seats: tuple[dict[str, Any], ...] = ()  # one dict per seat (see _seat)
    started: bool = False  # the deal exists: every seat was filled (at creation, or by a claim)
    setup_version: int | None = None  # for a game that waited: the version after its setup
    options: dict[str, Any] | None = None
    private: bool = False  # not listed in the lobby
    rated: bool = True  # False: created casual (never rated; api/ratings/standings.py)
    rematch: str | None = None  # the id of the game this one's people were invited to
    clock: dict[str, Any] | None = None  # the `clock` option as created (api/platform/clocks.py), None: untimed
    started_at: int | None = None  # ms: when the deal was made (the abort's reference)
    person_moved: bool = False  # a person has made a move of the game (no abort then)
    # Each seat's own decisions so far: the moves of the game it made itself (its person, or its
    # own bot level), not those a bot made for it (a takeover, after a resignation) nor the
    # system's; the events one move appended (one actor, one `at`) count once. What the ratings
    # read to tell a real game from one ended before it began (api/ratings/standings.py).
    decisions: tuple[int, ...] = ()
    last_decision: tuple[Any, Any] | None = None  # (seat, at) of the last decision counted
    # the seats that agreed to the pause proposed (sorted), until it starts or is withdrawn
    pause_votes: tuple[int, ...] = ()
    agreed_pause: bool = False  # every seated person agreed: the game's clocks are stopped until one resumes


START = Platform()


def _seat(given: dict[str, Any]) -> dict[str, Any]:
    """A seat's state from its shape in `game_created`."""
    return {"name": given.get("name"), "bot": given.get("bot"), "player": given.get("player"),
            "bot_account": bool(given.get("bot_account")),
            "open": bool(given.get("open")), "invite": bool(given.get("invite")),
            "reserved_for": given.get("reserved_for"), "reserved_until": given.get("reserved_until"),
            # seats the creator named hold the creator's tokens (and its table token)
            "creator": "name" in given, "token_sha256": None,
            # who plays it now and its clock (api/platform/clocks.py, api/seating/control.py)
            "takeover": None, "resigned": False, "timed_out": 0, "turn_since": None, "bank_ms": None,
            "paused": (), "paused_since": None}  # why its clock is stopped (clocks.paused), since when


def is_free(seat: dict[str, Any]) -> bool:
    """Nobody sits here yet: a person's seat without a name."""
    return seat["bot"] is None and seat["name"] is None


def free_given(seat: dict[str, Any]) -> bool:
    """Whether a seat as sent to POST /games is one for someone else to claim."""
    return bool(seat.get("open") or seat.get("invite"))


def evolve(platform: Platform, type_: str, data: dict[str, Any], at: int | None = None) -> Platform:
    """The platform after one of its events (`at`: when it was appended, ms); an event of no
    handler leaves it as it was."""
    handler = HANDLERS.get(type_)
    return handler(platform, data, at) if handler else platform


def _created(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    clock = data.get("clock")
    bank = clocks.initial_bank(clock)
    seats = tuple({**_seat(s), "bank_ms": bank} for s in data.get("seats", ()))
    started = not any(is_free(s) for s in seats)
    return replace(platform, seats=seats, started=started, options=data.get("options"),
                   private=bool(data.get("private")), rated=data.get("rated") is not False, clock=clock,
                   started_at=at if started else None, decisions=(0,) * len(seats))


def _claimed(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return _with_seat(platform, data["seat"], name=data.get("name"), player=data.get("player"),
                      token_sha256=data.get("token_sha256"), bot_account=bool(data.get("bot_account")))


def _left(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return _with_seat(platform, data["seat"], name=None, player=None, token_sha256=None, bot_account=False)


def _started(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return replace(platform, started=True, setup_version=data.get("setup_version"), started_at=at)


def _timed_out(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    seat = platform.seats[data["seat"]]
    return _with_seat(platform, data["seat"], timed_out=seat.get("timed_out", 0) + 1,
                      bank_ms=0 if seat.get("bank_ms") is not None else None)


def _taken_by_bot(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return _with_seat(platform, data["seat"], takeover=data["bot"], turn_since=None)


def _returned(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    bank = platform.seats[data["seat"]].get("bank_ms")
    if bank is not None and bank <= 0:
        bank = clocks.initial_bank(platform.clock)
    return _with_seat(platform, data["seat"], takeover=None, bank_ms=bank)


def _resigned(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    platform = _with_seat(platform, data["seat"], resigned=True, takeover=data.get("bot"), turn_since=None)
    if not data.get("ends_game") or platform.ended is not None:
        return platform
    resigned = [i for i, s in enumerate(platform.seats) if s.get("resigned")]
    return replace(platform, ended={
        "outcome": "resigned", "winners": [i for i in range(len(platform.seats)) if i not in resigned],
        "resigned": resigned, "reason": data.get("reason", "")})


def _aborted(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    if platform.ended is not None:  # the first ending stands
        return platform
    return replace(platform, ended={"outcome": "aborted", "winners": [], "reason": data.get("reason", ""),
                                    "by": data.get("seat")})


def _abandoned(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    if platform.ended is not None:
        return platform
    return replace(platform, ended={"outcome": "abandoned", "winners": [], "reason": data.get("reason", ""),
                                    "idle_seconds": data.get("idle_seconds")})


def _rematch(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return platform if platform.rematch is not None else replace(platform, rematch=data.get("game_id"))


def _pause_agreed(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return replace(platform, pause_votes=tuple(sorted({*platform.pause_votes, data["seat"]})))


def _pause_withdrawn(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    return replace(platform, pause_votes=())


def _with_seat(platform: Platform, index: int, **changes: Any) -> Platform:
    seats = list(platform.seats)
    seats[index] = {**seats[index], **changes}
    return replace(platform, seats=tuple(seats))


def _paused(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    reason = data["reason"]
    since = data.get("since", at)
    if at is not None and since is not None:
        since = min(since, at)  # never stopped later than the event says it was
    seats = list(platform.seats)
    for i in data.get("seats", ()):
        seat = seats[i]
        if reason in seat.get("paused", ()):
            continue
        first = not seat.get("paused")
        seats[i] = {**seat, "paused": (*seat.get("paused", ()), reason),
                    "paused_since": since if first else seat.get("paused_since")}
    if reason == AGREED:
        return replace(platform, seats=tuple(seats), agreed_pause=True, pause_votes=())
    return replace(platform, seats=tuple(seats))


def _resumed(platform: Platform, data: dict[str, Any], at: int | None) -> Platform:
    reason = data["reason"]
    seats = list(platform.seats)
    for i in data.get("seats", ()):
        seat = seats[i]
        if reason not in seat.get("paused", ()):
            continue
        left = tuple(r for r in seat["paused"] if r != reason)
        if left or at is None:
            seats[i] = {**seat, "paused": left}
        else:  # its clock runs again, with the time it had when it stopped
            seats[i] = {**seat, "paused": (), "paused_since": None, "turn_since": clocks.resumed_since(seat, at)}
    if reason == AGREED:
        return replace(platform, seats=tuple(seats), agreed_pause=False)
    return replace(platform, seats=tuple(seats))


# Each platform event's fold: (platform, its data, when it was appended) -> platform.
HANDLERS: dict[str, Callable[[Platform, dict[str, Any], int | None], Platform]] = {
    CREATED: _created,
    SEAT_CLAIMED: _claimed,
    SEAT_LEFT: _left,
    STARTED: _started,
    TIMED_OUT: _timed_out,
    TAKEN_BY_BOT: _taken_by_bot,
    RETURNED: _returned,
    RESIGNED: _resigned,
    ABORTED: _aborted,
    CLOCK_PAUSED: _paused,
    CLOCK_RESUMED: _resumed,
    PAUSE_AGREED: _pause_agreed,
    PAUSE_WITHDRAWN: _pause_withdrawn,
    REMATCH: _rematch,
    ABANDONED: _abandoned,
}


def paused_seats(platform: Platform, reason: str | None = None) -> list[int]:
    """The seats whose clock is stopped (for `reason`, or for any)."""
    return [i for i, s in enumerate(platform.seats)
            if s.get("paused") and (reason is None or reason in s["paused"])]


def abandoned_event(idle_seconds: int, reason: str | None = None) -> dict[str, Any]:
    """The event the system appends to a game nobody has moved in for `idle_seconds` (or, with
    its reason, to a game whose free seats nobody took in that time)."""
    return {"type": ABANDONED, "reason": reason or f"no move for {idle_seconds} s", "idle_seconds": idle_seconds}


def fold_stored(definition: GameDef, stored: Iterable[Any], state: Any, platform: Platform) -> tuple[Any, Platform]:
    """(game state, platform state) after stored events (StoredEvent: .type, .data, .actor,
    .at): the game's own events go through its reducer, platform events through `evolve`. In a
    clocked game the clocks' step (api/platform/clocks.py: who owes a decision since when) follows each
    group of events one append wrote (the same actor and `at`), on the state after the group."""
    own: list[Any] = []
    pending = None  # (actor, at) of a clocked game's group whose step is still to come
    decided = _Decisions(platform)
    for e in stored:
        actor, at = getattr(e, "actor", None), getattr(e, "at", None)
        if pending is not None and pending != (actor, at):
            platform, pending = clocks.step(platform, definition, state, *pending), None
        if e.type in PLATFORM_EVENTS:
            if own:
                state, own = fold(definition, own, state), []
            platform = evolve(decided.into(platform), e.type, e.data, at)
        else:
            if not platform.person_moved and is_seat(actor) and actor < len(platform.seats) and \
                    clocks.clocked(platform.seats[actor]):
                platform = replace(platform, person_moved=True)
            if is_seat(actor):
                decided.note(platform, actor, at)
            if platform.clock is None:
                own.append(e.data)
                continue
            state = fold(definition, [e.data], state)
        if platform.clock is not None:
            pending = (actor, at)
    if own:
        state = fold(definition, own, state)
    if pending is not None:
        platform = clocks.step(platform, definition, state, *pending)
    return state, decided.into(platform)


class _Decisions:
    """Each seat's own decisions, counted along one fold and written into the platform state
    before its next platform event and at the end (not once per move: a replay's cost)."""

    __slots__ = ("counts", "last")

    def __init__(self, platform: Platform) -> None:
        self.counts: list[int] | None = None  # counted since the last write, None: nothing since
        self.last = platform.last_decision

    def note(self, platform: Platform, seat: int, at: int | None) -> None:
        """A game event of `seat`: the first of a move (a new actor or `at`) is one more decision
        of the seat's own, unless a bot plays the seat for its person."""
        if (seat, at) == self.last or seat >= len(platform.seats):
            return
        played = platform.seats[seat]
        if played.get("takeover") or played.get("resigned"):
            return
        if self.counts is None:
            self.counts = list(platform.decisions) + [0] * (len(platform.seats) - len(platform.decisions))
        self.counts[seat] += 1
        self.last = (seat, at)

    def into(self, platform: Platform) -> Platform:
        if self.counts is None:
            return platform
        counts, self.counts = self.counts, None
        return platform.with_(decisions=tuple(counts), last_decision=self.last)


def status(platform: Platform, game_result: dict[str, Any] | None) -> str:
    if platform.ended is not None:
        outcome = platform.ended["outcome"]
        return outcome if outcome in ENDED_STATUSES else "finished"
    if not platform.started:
        return "waiting"
    return "finished" if game_result is not None else "active"


def result(platform: Platform, game_result: dict[str, Any] | None) -> dict[str, Any] | None:
    return platform.ended if platform.ended is not None else game_result
