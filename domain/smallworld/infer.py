"""Each other seat's coins as one seat can count them from what it is sent (issue 56).

A coin total is secret (views.py), but every change to it is either public in its event (a
pick's cost and the coins lying on the combo, tolls, ransoms, the Forsaken's purchase, Worgen
forms, a Military Objective returned to the Humans, the payments of a scoring) or follows
from the public state the turn ends in: a turn's scoring counts the regions held, the race's
and power's bonuses, the markers and the faction bonus (scoring.turn_breakdown), all on the
open board. Only a scoring's result is redacted for the others (views.redact).

So `Ledger(seat)` folds the game's events as `seat` is sent them (each passed through
`redact` first: it never reads more) and rebuilds each other seat's redacted scoring from the
board it follows: its coins are the public count of every total. A rebuilt scoring whose
payments differ from the public ones (which a count gone wrong would show: no game reaches it
today) is booked with the public payments and leaves that seat `unsure` by the spread of a
turn's coins, the only place uncertainty would remain.

`determinize(state, seat, rng, ledger)` draws the other seats' coins around the count: exact
where nothing is unsure (every Small World game today), a normal spread where it is.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import scoring
from .evolve import evolve
from .state import OVER, State
from .views import redact

if TYPE_CHECKING:
    import random

    from .contract_bits import Event

UNSURE_SPREAD = 3.0  # coins: a turn's scoring, when it could not be rebuilt (about its mean)


class Ledger:
    """The game as `seat` can follow it: a fold of the events redacted for `seat`, each other
    seat's scoring rebuilt from the public board."""

    def __init__(self, seat: int):
        self.seat = seat
        self.state: State | None = None
        self.unsure: dict[int, float] = {}  # seat -> variance of its count (coins squared)
        self.rebuilt = 0                    # other seats' scorings counted from the board

    def see(self, event: Event) -> None:
        """One event of the game, as the server stores it; only its redacted form is read."""
        shown = redact(event, self.seat)
        if shown["type"] == "turn_scored" and "total" not in shown:
            shown = self._rebuilt(shown)
        self.state = evolve(self.state, shown)

    def _rebuilt(self, shown: Event) -> Event:
        """A redacted scoring with its gain counted from the board before it."""
        state = self.state
        assert state is not None, "a scoring before the game started"
        scorer = shown["seat"]
        gained = sum(scoring.turn_breakdown(state).values())
        paid = scoring.payments(state)
        if paid != shown.get("payments", []):
            # the count of a payer was wrong: the public payments stand, the gain is unsure
            counted = sum(p["coins"] for p in paid)
            gained += sum(p["coins"] for p in shown.get("payments", [])) - counted
            self.unsure[scorer] = self.unsure.get(scorer, 0.0) + UNSURE_SPREAD ** 2
        self.rebuilt += 1
        return {**shown, "gained": gained, "total": state.players[scorer].coins + gained}

    def coins(self, other: int) -> int:
        assert self.state is not None, "no event seen yet"
        return self.state.players[other].coins


def coins_drawn(ledger: Ledger, other: int, rng: random.Random) -> int:
    """A draw of `other`'s coins around the ledger's count (the count itself when sure)."""
    unsure = ledger.unsure.get(other, 0.0)
    if not unsure:
        return ledger.coins(other)
    return max(0, round(ledger.coins(other) + rng.gauss(0.0, math.sqrt(unsure))))


def determinize(state: State, seat: int, rng: random.Random, ledger: Ledger) -> State:
    """`state` as `seat` may imagine it: the other seats' coins drawn from `ledger` (which
    followed the game as `seat` was sent it); everything else of a Small World state is public."""
    if state.turn.step == OVER or state.final is not None:
        return state
    assert ledger.seat == seat, "a ledger follows one seat's view"
    players = tuple(p if s == seat else p._replace(coins=coins_drawn(ledger, s, rng))
                    for s, p in enumerate(state.players))
    return state.with_(players=players)
