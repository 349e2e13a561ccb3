"""What a seat cannot see, drawn anew from what it can (issue 34): `determinize(state, seat, rng)`.

Everything of a Small World state is public (views.py) but each other seat's coin total,
until the game is over. Nothing else hidden has a place in the state:
- face-down markers and unrevealed bombs have no face in it (drawn when revealed, into the
  event): there is nothing to resample;
- the banner and badge piles are unordered sets (`race_pile`, `power_pile`, sorted; the
  combo drawn at a refill is drawn then, in `decide`), and what they hold follows from the
  box and what is on the table; `returned` banners and `power_discards` were put back in
  public: kept as they are;
- `bombs` (live, dud not yet revealed) follows from the revealed ones: public.

So a determinization redraws each other seat's coins, from the seat's own information alone:
its own total (every seat started with the same coins and scores by the same rules, so its
own total is the best scale of what the others have), the difference in regions held now
(what each scores a turn) and a spread that widens with the rounds played. Its own coins, and
so its legal moves, are untouched; the draws are as many whatever the hidden totals are, so
two states the seat cannot tell apart give the same world for the same rng.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import OVER, State

if TYPE_CHECKING:
    import random


def _held(state: State, seat: int) -> int:
    p = state.players[seat]
    races = {(p.race, False), (p.declined, True)}
    return sum(1 for r in state.regions if (r.race, r.declined) in races and r.race is not None)


def coins_guess(state: State, seat: int, other: int, rng: random.Random) -> int:
    """A draw of `other`'s coins as `seat` may guess them."""
    mine = state.players[seat].coins
    lead = _held(state, other) - _held(state, seat)
    spread = 1.0 + 0.3 * state.round
    return max(0, round(mine + lead + rng.gauss(0.0, spread)))


def determinize(state: State, seat: int, rng: random.Random) -> State:
    if state.turn.step == OVER or state.final is not None:
        return state  # every total is shown once the game is over
    players = tuple(p if s == seat else p._replace(coins=coins_guess(state, seat, s, rng))
                    for s, p in enumerate(state.players))
    return state.with_(players=players)
