"""Splendor's state: immutable named tuples of ints and tuples.

Named tuples rather than frozen dataclasses because the server replays thousands of events
and random playouts must run well over 10,000 steps/s: building a tuple is several times
cheaper than a frozen dataclass `__init__`, and they are just as immutable and comparable.
Cards and nobles are ints (indexes into `data.CARDS` / `data.NOBLES`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .data import NOBLES

# Phases. PLAY: the seat to act picks one of the four actions (or pass).
# RETURN: that seat holds more than 10 tokens and must return the excess.
# NOBLE: several nobles qualify and that seat picks one.
# SCORE: the last round is complete; the server (SYSTEM) scores the game. OVER: scored.
PLAY, RETURN, NOBLE, SCORE, OVER = "play", "return_tokens", "choose_noble", "score", "over"


class Player(NamedTuple):
    tokens: tuple[int, ...]  # 6 ints: white, blue, green, red, black, gold
    bonuses: tuple[int, ...]  # 5 ints: bought cards per colour
    points: int  # prestige points (cards + nobles)
    bought: tuple[int, ...]  # card indexes, in buying order
    reserved: tuple[int, ...]  # card indexes, in reserving order
    blind: tuple[int, ...]  # the reserved cards that were drawn blind (seen only by their owner)
    nobles: tuple[int, ...]  # noble indexes, in visiting order


class State(NamedTuple):
    n: int  # seats
    strict: bool  # option strict_take_three
    supply: tuple[int, ...]  # 6 ints
    decks: tuple[tuple[int, ...], ...]  # per level: card indexes, top card first (secret order)
    market: tuple[tuple[int, ...], ...]  # per level: 4 slots, a card index or -1 for an empty slot
    nobles: tuple[int, ...]  # noble indexes still on the table
    players: tuple[Player, ...]  # Player per seat
    seat: int  # whose turn it is (in SCORE/OVER: the seat that would be next)
    phase: str
    turns: int  # completed turns, all seats together
    passes: int  # consecutive turns that were passes (n in a row: nobody can ever act again)
    last_round: bool  # someone reached 15 points: the round is being played out


EMPTY = -1
NEW_PLAYER = Player((0,) * 6, (0,) * 5, 0, (), (), (), ())


def token_count(player: Player) -> int:
    return sum(player.tokens)


def qualifying_nobles(bonuses: Sequence[int], nobles: Sequence[int]) -> list[int]:
    """Nobles on the table whose requirement these bonuses (never tokens) meet."""
    out = []
    for index in nobles:
        requires = NOBLES[index].requires
        if all(b >= r for b, r in zip(bonuses, requires)):
            out.append(index)
    return out


def need_after_bonuses(cost: tuple, bonuses: tuple) -> tuple:
    """What a card still costs in tokens once the buyer's bonuses are taken off."""
    return tuple(c - b if c > b else 0 for c, b in zip(cost, bonuses))


def gold_shortfall(need: tuple, tokens: tuple) -> int:
    """The least gold a payment needs: the coloured tokens the player lacks."""
    return sum(n - t for n, t in zip(need, tokens) if n > t)
