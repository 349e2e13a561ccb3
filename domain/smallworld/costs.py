"""Which regions a race may attack, and what a conquest costs (rules decision 5).

cost = 2 + mountain + wisp wall + fort + champion + every defending token (Murlocs, beasts
and one's own declined race included) + 1 travel for an entry region not adjacent to the
race; then each reduction of the race, power and markers in turn, each keeping the cost at
1 or more; never below 1, nor below the race's fewest tokens a region (Tauren 2). A Watch
Tower's region cannot be attacked at all; tolls must be affordable (tolls.py).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from . import tolls as toll_rules
from .abilities import Ability, hooks_for
from .state import State

if TYPE_CHECKING:
    from .hooks import Ctx

BASE_COST = 2
DIE_MAX = 3  # the reinforcement die's best face: a final conquest may be 3 tokens short


class Offer(NamedTuple):
    """One way to attack region i: its cost and, if any, the once-per-turn hook used."""
    region: int
    cost: int
    use: str | None = None
    die: bool = False      # a free die lowers the cost first (Gnomes)
    tolls: tuple = ()      # coins owed before the conquest


def _reach(state: State, seat: int, i: int, hooks: Sequence[tuple[Ability, Ctx]], mine: set[int]) -> int | None:
    """None when region i is not a legal target, else the travel cost (0 or 1)."""
    first = not mine
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
    cost += region.wall + region.fort + region.champion
    return cost


def _reduce(cost: int, by: int) -> int:
    return max(1, cost - by) if by else cost


def _reduced(state: State, i: int, travel: int, hooks: Sequence[tuple[Ability, Ctx]]) -> int:
    cost = raw_cost(state, i, travel)
    for h, ctx in hooks:
        cost = _reduce(cost, h.cost_reduction(ctx, i))
    return cost


def min_tokens(hooks: Sequence[tuple[Ability, Ctx]]) -> int:
    return max([h.min_tokens for h, _ in hooks] + [1])


class _Attack(NamedTuple):
    """What every region's offers read of the seat's active race, found once per call."""
    hooks: Sequence[tuple[Ability, Ctx]]
    mine: set[int]
    floor: int
    water_ok: bool
    usable: list


def _attack(state: State, seat: int) -> _Attack | None:
    hooks = hooks_for(state, seat)
    if not hooks:
        return None
    usable = [(h, c) for h, c in hooks if h.key not in state.turn.used
              and (h.use_reduction or type(h).use_cost is not Ability.use_cost)]
    return _Attack(hooks, set(hooks[0][1].regions), min_tokens(hooks),
                   any(h.can_conquer_water(c) for h, c in hooks), usable)


def _offers_at(state: State, seat: int, i: int, a: _Attack) -> list:
    """The ways to attack region i: a plain conquest first, then each usable hook's."""
    region = state.regions[i]
    if i in a.mine or region.tower or (state.map.water(i) and not a.water_ok):
        return []
    hooks, usable, floor = a.hooks, a.usable, a.floor
    travel = _reach(state, seat, i, hooks, a.mine)
    cost = None if travel is None else _reduced(state, i, travel, hooks)
    if cost is None and not usable:
        return []  # neither a plain conquest nor a use: the costs below would go unused
    out = []
    owed = toll_rules.tolls(state, seat, i)
    if cost is not None and toll_rules.affordable(state, seat, owed):
        out.append(Offer(i, max(cost, floor), None, False, tuple(owed)))
    if not usable:
        return out
    near = _reduced(state, i, 0, hooks)  # as though adjacent, for the uses that say so
    for h, ctx in usable:
        c = h.use_cost(ctx, i, cost, near)
        if c is None or (cost is not None and c >= cost and not h.use_die and not h.use_piece):
            continue
        paid = toll_rules.tolls(state, seat, i, h.use_toll) if h.use_toll else owed
        if toll_rules.affordable(state, seat, paid):
            out.append(Offer(i, max(c, floor), h.key, h.use_die, tuple(paid)))
    return out


def offers(state: State, seat: int) -> list:
    """Every (region, cost, use) the seat's active race may attempt now."""
    a = _attack(state, seat)
    if a is None:
        return []
    return [offer for i in range(len(state.regions)) for offer in _offers_at(state, seat, i, a)]


def offer_for(state: State, seat: int, i: int, use: str | None) -> Offer | None:
    """The offer of `offers` for region i and `use`, reading region i alone (a move's decide)."""
    a = _attack(state, seat)
    if a is None or not 0 <= i < len(state.regions):
        return None
    for offer in _offers_at(state, seat, i, a):
        if offer.use == use:
            return offer
    return None
