"""SetUp's state: one frozen dataclass of tuples and frozensets (tiles and squares as ints)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .data import N_SQUARES, OWNER

RACK_SIZE = 4
MARKET_SIZE = 4
MAX_SWAP = 4
FINISH = {2: 31, 3: 27, 4: 23}
TEAMS = ((0, 1), (2, 3))      # team game: seats 0 and 1 against seats 2 and 3
TEAM_ORDER = (0, 2, 1, 3)     # team game: the turns alternate between the teams


@dataclass(frozen=True)
class LastPlay:
    """The latest set made, for views (ints: squares and tiles), and the public position it was
    made from, which the bots' inference reads (infer.py: the sets the setter skipped)."""

    seat: int
    place: tuple          # ((square, tile), ...) sorted by square
    set_tiles: tuple      # every tile that scored, sorted
    points: int
    bonus: tuple          # per seat
    from_rack: tuple = ()       # the placed tiles that came from the setter's rack (public)
    rack_size: int = 0          # the setter's rack size before the set (public)
    stacks_before: tuple = ()   # the board before the set
    market_before: tuple = ()   # the market before the set
    turns: int = 0              # State.turns when it was made


@dataclass(frozen=True)
class State:
    n: int
    teams: bool
    goal: int
    order: tuple          # seats in turn order
    turn: int             # the seat whose turn it is
    stacks: tuple         # per square: tiles bottom -> top (only the top counts)
    racks: tuple          # per seat: tiles
    market: tuple         # face-up tiles anyone may use
    bag: frozenset        # tiles in the bag (drawn at random by decide: the bag has no order)
    bag_known: tuple      # per seat: bag tiles this seat put there itself (it knows them)
    scores: tuple
    over: bool = False
    winners: tuple = ()
    finish: dict | None = None  # the game_ended event's detail (tie-break, team)
    last: LastPlay | None = None
    turns: int = 0        # turns completed (sets made + swaps)


def tops(state: State) -> list:
    """The top tile of each square, or -1 for an empty square."""
    return [s[-1] if s else -1 for s in state.stacks]


def covered(state: State) -> list:
    """Every tile under a top tile (out of play until the bag runs empty)."""
    return [t for s in state.stacks for t in s[:-1]]


@cache
def playable_squares(n: int, seat: int) -> tuple:
    """The squares `seat` may play on: the common ones, its own bonus squares, and the bonus
    squares of sides with no player (they are common)."""
    return tuple(q for q in range(N_SQUARES)
                 if OWNER[q] is None or OWNER[q] == seat or OWNER[q] >= n)


def bonus_owner(n: int, square: int) -> int | None:
    """The seat that owns `square` as a bonus square in an n-seat game, or None if common."""
    owner = OWNER[square]
    return owner if owner is not None and owner < n else None


def team_of(seat: int) -> int:
    return 0 if seat in TEAMS[0] else 1


def next_seat(state: State) -> int:
    i = state.order.index(state.turn)
    return state.order[(i + 1) % len(state.order)]
