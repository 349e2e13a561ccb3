"""The state of a Witches game: one frozen dataclass of tuples, rebuilt by `evolve`.

Seats are numbered clockwise: the player on your left (the next to play) is seat + 1.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import COLOUR, VALUE, WIZARD

Trick = Sequence[tuple[int, str]]  # (seat, card) in play order

PASSING, PLAYING, SPELL_CHOICE, SCORING, OVER = "passing", "playing", "spell_choice", "scoring", "over"

# Cards passed per seat count (3p: 4, 4p and 5p: 3, 6p: 2).
PASS_COUNT = {3: 4, 4: 3, 5: 3, 6: 2}
HAND_SIZE = {n: 60 // n for n in PASS_COUNT}


@dataclass(frozen=True)
class Options:
    target_score: int
    rounds: int  # 0: play until someone reaches target_score
    pygmy_queen_points: int
    earth_witch_variant: bool


@dataclass(frozen=True)
class State:
    n: int
    options: Options
    round: int = 0
    dealer: int = 0
    direction: str = "left"
    phase: str = PASSING
    hands: tuple[tuple[str, ...], ...] = ()  # per seat, canonical card order
    # per seat: the cards it passed this round, or None before it passed
    passed: tuple[tuple[str, ...] | None, ...] = ()
    received: tuple[tuple[str, ...], ...] = ()  # per seat: the cards it received this round (() before the exchange)
    leader: int = 0  # who leads the trick being played
    trick: tuple[tuple[int, str], ...] = ()  # ((seat, card), ...) of the trick being played, in play order
    tricks_played: int = 0  # tricks completed this round
    taken: tuple[tuple[str, ...], ...] = ()  # per seat: the cards of the tricks it took this round
    tricks_won: tuple[int, ...] = ()  # per seat, this round
    last_trick: tuple[tuple[int, str], ...] = ()  # ((seat, card), ...) of the last completed trick
    last_winner: int | None = None
    # per seat: the colours it showed it lacks this round (it did not follow a led colour); public
    voids: tuple[frozenset[str], ...] = ()
    totals: tuple[int, ...] = ()  # running fire points per seat
    history: tuple[tuple[int, ...], ...] = ()  # per round: the points each seat scored
    spell: tuple[int, str, int] | None = None  # (caster, kind, amount) once the last trick shows a spell
    spell_choice: str | None = None  # "others" | "self" once the caster chose
    winners: tuple[int, ...] = ()
    end_reason: str | None = None


def direction_for(n: int, round_no: int) -> str:
    """3 and 5 seats alternate left/right; 4 and 6 cycle left, right, across."""
    cycle = ("left", "right") if n % 2 else ("left", "right", "across")
    return cycle[(round_no - 1) % len(cycle)]


def pass_target(n: int, direction: str, seat: int) -> int:
    step = {"left": 1, "right": -1, "across": n // 2}[direction]
    return (seat + step) % n


def pass_source(n: int, direction: str, seat: int) -> int:
    step = {"left": 1, "right": -1, "across": n // 2}[direction]
    return (seat - step) % n


def dealer_for(n: int, round_no: int) -> int:
    """Seat 0 deals the first round; the deal passes clockwise."""
    return (round_no - 1) % n


def to_play(state: State) -> int:
    return (state.leader + len(state.trick)) % state.n


def led_colour(trick: Trick) -> str | None:
    """The colour to follow: that of the first non-wizard card (None while only wizards)."""
    for _, card in trick:
        colour = COLOUR[card]
        if colour != WIZARD:
            return colour
    return None


def trick_winner(trick: Trick) -> int:
    """Highest card of the led colour; a trick of wizards only goes to the first wizard."""
    colour = led_colour(trick)
    if colour is None:
        return trick[0][0]
    best_seat, best_value = -1, -1
    for seat, card in trick:
        if COLOUR[card] == colour and VALUE[card] > best_value:
            best_seat, best_value = seat, VALUE[card]
    return best_seat
