"""Inference of what another seat reserved blind and still holds (issue 56; a bench variant,
not shipped: bench/README.md, "Splendor's blind-reserve inference against uniform worlds").

determinize.py deals another seat's blind reserve uniformly from the unseen cards of its level.
But the holder knows its card, and what it did since reserving it is public:
- a turn it began able to pay for the card (its tokens, gold and bonuses, all public) and ended
  still holding it: a card it could afford and did not buy is less likely (NOT_BOUGHT a turn);
- the gems it took: each gem it took that the card still lacked makes it more likely (TOWARD,
  a factor of exp(TOWARD) a gem), as a holder works toward the card it keeps;
- every card keeps FLOOR of its weight whatever the turns say (a holder that does not buy what
  it can, or takes gems for other cards, still holds some card).
A hypothesis (a card of the slot's level the seat cannot see) weighs the product of its factors
(importance weights over the uniform deal); a world draws each hidden slot's card by weight
from what is left of its level's unseen cards, then deals the rest into the deck as
determinize.py does.

What the seat has watched is a `Record`: `watch(view)` at every one of the seat's decisions
reads only public fields of the other seats (tokens, bonuses, bought cards, how many blind
reserves and of which level: a determinization keeps a slot's level), so the views of two
states the seat cannot tell apart leave the same record, and with the same record and rng give
the same weights and worlds (tests/splendor/test_infer.py). With no evidence about any hidden
slot a world is determinize.py's, draw for draw.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import NamedTuple

from .bots import _lacking
from .determinize import _LEVEL, determinize
from .state import Player, State

NOT_BOUGHT = 0.3  # the likelihood factor of a turn the holder could pay for the card and kept it
TOWARD = 0.3      # per gem taken that the card lacked: a factor of exp(TOWARD)
FLOOR = 0.05      # the weight every card keeps (a holder that does not play as assumed is not ruled out)


class Turn(NamedTuple):
    """One turn of a holder, as every seat saw it: what it held when the turn began and the
    gems it gained by it (net of any it returned), per colour."""
    tokens: tuple  # 6 ints before the turn
    bonuses: tuple  # 5 ints before the turn
    taken: tuple  # 6 ints: the tokens gained (0 where it spent or gained none)


@dataclass
class Slot:
    """A blind reserve of another seat: its level row and the turns it was kept through."""
    row: int
    turns: list = field(default_factory=list)


def _public(player: Player) -> tuple:
    """What every seat sees of a player: tokens, bonuses, bought cards, blind reserves' levels."""
    return player.tokens, player.bonuses, player.bought, tuple(_LEVEL[c] for c in player.blind)


class Record:
    """What `seat` has seen the other seats do with their blind reserves. Call `watch` with the
    seat's view at each of its decisions: between two of its turns every other seat had one
    turn of its own, begun with the player the seat saw last (no other seat's turn changes it)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.turns = -1  # the state's completed turns at the last watch
        self.seen: dict[int, tuple] = {}  # other seat -> its public player at the last watch
        self.slots: dict[int, list[Slot]] = {}  # other seat -> its blind reserves, reserving order

    def watch(self, state: State) -> None:
        if state.turns == self.turns:  # the same turn (a return of tokens, a noble): nothing new
            return
        one_turn = self.turns >= 0 and state.turns - self.turns == state.n
        self.turns = state.turns
        for s, player in enumerate(state.players):
            if s == self.seat:
                continue
            now, before = _public(player), self.seen.get(s)
            self.seen[s] = now
            if before is None or not one_turn:  # what happened in between unknown: no evidence kept
                self.slots[s] = [Slot(row) for row in now[3]]
                continue
            slots = self.slots[s]
            for slot in _held(slots, before, now):
                slot.turns.append(_turn(before, now))


def _turn(before: tuple, now: tuple) -> Turn:
    gained = tuple(a - b if a > b else 0 for a, b in zip(now[0][:5], before[0][:5]))
    return Turn(before[0], before[1], gained + (0,))  # (gold comes with a reserve, for no card)


def _held(slots: list, before: tuple, now: tuple) -> list:
    """A seat's slots through its one turn from `before` to `now` (its public players): the
    ones it kept through it (updating `slots`: a blind card bought, one reserved)."""
    rows_before, rows_now = before[3], now[3]
    if len(rows_now) < len(rows_before):  # a blind card bought: the buy names it, so its level
        row = _LEVEL[now[2][-1]]
        # its level's first slot (two blind reserves of a level, one bought, are not told apart)
        slots.remove(next(slot for slot in slots if slot.row == row))
        return list(slots)
    held = list(slots)
    slots.extend(Slot(row) for row in rows_now[len(rows_before):])  # reserved blind in the turn
    return held


def likelihood(card: int, turns: list) -> float:
    """The weight of `card` in a slot kept through `turns` (1 with no evidence): FLOOR, plus the
    rest times the product of the turns' factors."""
    log = 0.0
    for tokens, bonuses, taken in turns:
        lacking = _lacking(card, bonuses, tokens)
        if lacking == 0:
            log += math.log(NOT_BOUGHT)
        elif any(taken):
            after = _lacking(card, bonuses, tuple(t + k for t, k in zip(tokens, taken)))
            log += TOWARD * (lacking - after)
    return FLOOR + (1 - FLOOR) * math.exp(log)


class Posterior:
    """The weights of every hidden slot's hypotheses in the seat's view `state`, and worlds drawn
    by them (a `determinize` for the search: `posterior.world`)."""

    def __init__(self, state: State, seat: int, record: Record) -> None:
        self.state, self.seat = state, seat
        self.pools: list[list[int]] = [sorted(deck) for deck in state.decks]
        hidden = [(s, k, c) for s, p in enumerate(state.players) if s != seat for k, c in enumerate(p.blind)]
        for _s, _k, card in hidden:
            self.pools[_LEVEL[card]].append(card)
        for pool in self.pools:
            pool.sort()
        # (seat, position in its blind reserves, row, weights over that row's pool)
        self.slots: list[tuple[int, int, int, list[float]]] = []
        for s, k, card in hidden:
            row = _LEVEL[card]
            slots = record.slots.get(s, [])
            turns = slots[k].turns if k < len(slots) and slots[k].row == row else []
            self.slots.append((s, k, row, [likelihood(c, turns) for c in self.pools[row]]))
        self.evidence = any(any(w != 1.0 for w in ws) for *_, ws in self.slots)

    def chance(self, index: int, card: int) -> float:
        """The chance a world deals `card` to hidden slot `index` (its weight's share of the row;
        exact for a slot alone in its level among the hidden ones)."""
        _s, _k, row, weights = self.slots[index]
        pool = self.pools[row]
        return weights[pool.index(card)] / sum(weights) if card in pool else 0.0

    def world(self, state: State, seat: int, rng: random.Random) -> State:
        if not self.evidence or state is not self.state or seat != self.seat:
            return determinize(state, seat, rng)
        pools = [list(pool) for pool in self.pools]
        dealt: dict[tuple[int, int], int] = {}
        for s, k, row, weights in self.slots:
            pool, weight_of = pools[row], dict(zip(self.pools[row], weights))
            left = [weight_of[c] for c in pool]
            if not any(left):  # every card left ruled out (cannot happen: weights are positive)
                left = [1.0] * len(pool)
            card = rng.choices(pool, left)[0]
            pool.remove(card)
            dealt[(s, k)] = card
        for pool in pools:
            rng.shuffle(pool)
        players = list(state.players)
        for s in {s for s, *_ in self.slots}:
            player = players[s]
            swap = {c: dealt[(s, k)] for k, c in enumerate(player.blind)}
            players[s] = player._replace(reserved=tuple(swap.get(c, c) for c in player.reserved),
                                         blind=tuple(swap[c] for c in player.blind))
        return state._replace(decks=tuple(tuple(pool) for pool in pools), players=tuple(players))
