"""Inference of another seat's hidden rack from the last set it made (issue 56).

A seat that made a set showed, besides the set, every set it did NOT make: with a rack that
would have made a much better one, it would likely have made that. The tiles it kept are still
on its rack (it has not moved since), so they are the evidence's subject:
- the position it played from is public (the board and market before the set, which of the
  placed tiles came from its rack, its rack's size: `LastPlay`), and so is how many tiles it
  kept (its rack's size less the tiles it placed from it);
- a hypothesis is the set of kept tiles K, drawn uniformly from the tiles the deciding seat
  cannot see; its likelihood is the chance a softmax over the greedy value (points, plus the
  bonus handed to partners less that handed to opponents) of every set the rack K + the placed
  rack tiles could make there chose the set made, mixed with FLOOR of a uniform choice (an
  opponent that does not play greedily at all is not ruled out);
- `Posterior` weighs POOL such hypotheses once per decision (sampling importance resampling),
  and each world draws one of them by weight, then deals the rest of that rack, the other racks
  and the bag uniformly from what is left (as determinize.py does).

Everything read is what the seat sees: the state's public fields, its own rack, and the tiles
it cannot see as one sorted pool (the hidden racks' contents are never read), so two states the
seat cannot tell apart give the same worlds for the same rng (tests/setup_game/test_infer.py).
With no usable evidence (no set made yet, the last set the seat's own, or its setter has moved
since) a world is determinize.py's, draw for draw.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from .bots import _valued
from .data import N_TILES
from .determinize import determinize
from .moves import placements
from .state import State, team_of

BETA = 3.0    # the softmax's sharpness, per point of greedy value (bench/setup_infer.py's diagnostic)
FLOOR = 0.05  # the share of a uniform choice among the sets the rack could make
POOL = 24     # kept-tile hypotheses weighed per decision (about 18 ms of CPU at p50)

_EMPTY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Evidence:
    setter: int
    kept: int           # tiles it kept: they are on its rack now
    before: State       # the public position it played from (every rack empty)
    from_rack: tuple    # the placed tiles that came from its rack
    value: float        # the greedy value of the set it made


def evidence(state: State, seat: int) -> Evidence | None:
    """The last set's evidence about its setter's rack, or None when there is none to use."""
    last = state.last
    if last is None or last.seat == seat or not last.stacks_before:
        return None
    if state.turns - last.turns >= state.n:  # the setter has moved since (a swap): its rack changed
        return None
    kept = last.rack_size - len(last.from_rack)
    if not 0 < kept <= len(state.racks[last.seat]):
        return None
    before = replace(state, stacks=last.stacks_before, market=last.market_before, racks=((),) * state.n,
                     bag=_EMPTY, bag_known=(_EMPTY,) * state.n, turn=last.seat)
    bonus = sum(b * (1 if state.teams and team_of(s) == team_of(last.seat) else -1)
                for s, b in enumerate(last.bonus) if s != last.seat)
    return Evidence(last.seat, kept, before, last.from_rack, last.points + bonus)


def likelihood(ev: Evidence, kept: tuple) -> float:
    """The chance the setter made its set had it kept `kept` (softmax over greedy values, FLOOR
    of a uniform choice)."""
    racks = list(ev.before.racks)
    racks[ev.setter] = tuple(kept) + ev.from_rack
    before = replace(ev.before, racks=tuple(racks))
    values = [points + bonus for _, (points, bonus) in _valued(before, ev.setter, placements(before, ev.setter))]
    if not values:  # unreachable from a real game: the set made is one of them
        return 0.0
    z = sum(math.exp(BETA * (v - ev.value)) for v in values)
    return FLOOR / len(values) + (1 - FLOOR) / max(z, 1.0)


def unseen(state: State, seat: int) -> list:
    """The tiles `seat` cannot see, sorted (determinize.py's pool)."""
    seen = {t for stack in state.stacks for t in stack} | set(state.market) | set(state.racks[seat])
    return [t for t in range(N_TILES) if t not in seen]


class Posterior:
    """Worlds of `seat`'s view with the last setter's kept tiles drawn by their likelihood."""

    def __init__(self, state: State, seat: int, rng: random.Random, pool: int = POOL) -> None:
        self.state, self.seat = state, seat
        self.ev = evidence(state, seat)
        self.unseen = unseen(state, seat)
        self.hypotheses: list[tuple] = []
        self.weights: list[float] = []
        if self.ev is not None and len(self.unseen) >= self.ev.kept:
            for _ in range(pool):
                kept = tuple(sorted(rng.sample(self.unseen, self.ev.kept)))
                self.hypotheses.append(kept)
                self.weights.append(likelihood(self.ev, kept))
        if not any(self.weights):
            self.hypotheses, self.weights = [], []

    def __call__(self, rng: random.Random) -> State:
        """One world (expert.choose's `dealer` hands these out)."""
        if not self.hypotheses:
            return determinize(self.state, self.seat, rng)
        assert self.ev is not None
        kept = rng.choices(self.hypotheses, self.weights)[0]
        rest = [t for t in self.unseen if t not in kept]
        rng.shuffle(rest)
        racks, k = [], 0
        for other, rack in enumerate(self.state.racks):
            if other == self.seat:
                racks.append(rack)
                continue
            take = len(rack) - (len(kept) if other == self.ev.setter else 0)
            dealt = rest[k:k + take]
            k += take
            racks.append(tuple(sorted(dealt + list(kept) if other == self.ev.setter else dealt)))
        return replace(self.state, racks=tuple(racks), bag=frozenset(rest[k:]), bag_known=(_EMPTY,) * self.state.n)
