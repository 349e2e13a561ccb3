"""Which regions a race may attack, and what a conquest costs (rules decision 5).

cost = 2 + mountain + wisp wall + every defending token (Murlocs and one's own declined race
included) + 1 travel for an entry region not adjacent to the race; then each reduction of
the race, power and markers in turn, each keeping the cost at 1 or more; never below 1.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

from .abilities import hooks_for
from .state import State

BASE_COST = 2
DIE_MAX = 3  # the reinforcement die's best face: a final conquest may be 3 tokens short


class Offer(NamedTuple):
    """One way to attack region i: its cost and, if any, the once-per-turn marker used."""
    region: int
    cost: int
    use: Optional[str] = None


def _reach(state: State, seat: int, i: int, hooks, mine: set) -> Optional[int]:
    """None when region i is not a legal target, else the travel cost (0 or 1)."""
    if i in mine:
        return None
    first = not mine
    if state.map.water(i) and not any(h.can_conquer_water(c) for h, c in hooks):
        return None
    if not first and any(j in mine for j in state.map.adj[i]):
        return 0
    if any(h.reachable_as_adjacent(c, i, first) for h, c in hooks):
        return 0
    if state.map.has(i, "entry"):
        return 0 if any(h.travel_free(c, i) for h, c in hooks) else 1
    return None


def raw_cost(state: State, i: int, travel: int) -> int:
    region = state.regions[i]
    cost = BASE_COST + travel + region.tokens
    cost += state.map.terrain[i] == "mountain"
    cost += region.wall
    return cost


def _reduce(cost: int, by: int) -> int:
    return max(1, cost - by) if by else cost


def offers(state: State, seat: int) -> list:
    """Every (region, cost, use) the seat's active race may attempt now."""
    hooks = hooks_for(state, seat)
    if not hooks:
        return []
    mine = set(hooks[0][1].regions)
    usable = [(h, c) for h, c in hooks if h.use_reduction and h.key not in state.turn.used]
    out = []
    for i in range(len(state.regions)):
        travel = _reach(state, seat, i, hooks, mine)
        if travel is None:
            continue
        cost = raw_cost(state, i, travel)
        for h, c in hooks:
            cost = _reduce(cost, h.cost_reduction(c, i))
        out.append(Offer(i, cost))
        for h, _ in usable:
            cheaper = _reduce(cost, h.use_reduction)
            if cheaper < cost:
                out.append(Offer(i, cheaper, h.key))
    return out


def offer_for(state: State, seat: int, i: int, use: Optional[str]) -> Optional[Offer]:
    for offer in offers(state, seat):
        if offer.region == i and offer.use == use:
            return offer
    return None
