"""determinize: a SetUp state as one seat may picture it, its unseen tiles dealt anew (issue 34).

What a seat sees (views.py): the board (covered tiles too), the market, the scores, its own
rack, every rack's size and the bag's count. What it does not see: which tiles are on the other
racks (a partner's too, in the team game) and which are in the bag (the bag has no order:
`decide` draws from it at random). So the unseen tiles are every tile but the board's, the
market's and its own rack's; they are sorted (a canonical order, whatever the state held),
shuffled with `rng`, and dealt: each other rack gets as many as it holds (sorted: the order of
a hidden rack means nothing), the bag the rest.

`bag_known` (per seat, the tiles it put back into the bag that are still there) is only the
leak oracle's (views.secrets): no view, legal move or rule reads it. The seat's own entry is
not what the seat knows either (it cannot tell whether another seat has drawn one of them since),
and the others' are their secrets: so the determinization keeps none of it (all empty), rather
than anything the seat could not have told.
"""
from __future__ import annotations

import random
from dataclasses import replace

from .data import N_TILES
from .state import State

_EMPTY: frozenset[int] = frozenset()


def determinize(state: State, seat: int, rng: random.Random) -> State:
    seen = {t for stack in state.stacks for t in stack} | set(state.market) | set(state.racks[seat])
    unseen = [t for t in range(N_TILES) if t not in seen]  # sorted: the canonical order
    rng.shuffle(unseen)
    racks, k = [], 0
    for other, rack in enumerate(state.racks):
        if other == seat:
            racks.append(rack)
        else:
            racks.append(tuple(sorted(unseen[k:k + len(rack)])))
            k += len(rack)
    return replace(state, racks=tuple(racks), bag=frozenset(unseen[k:]), bag_known=(_EMPTY,) * state.n)
