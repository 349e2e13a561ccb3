"""Bot policies: `random`, and `storyteller`, which looks for adventures that complete its card.

storyteller, on its turn (only moves that can matter are tried: moves of the figures its card
names, and tiles when the card looks at the land: sight, big regions, rivers):
1. if one adventure makes its card hold, take it (then `finish`, if it has a second one);
2. else, if two adventures in a row make it hold, take the first: with an active magic token it
   takes the second at once, without one it hopes the kingdom stays as it is until next turn;
3. else, after a first adventure, finish;
4. else, if the card can still be completed (see feasibility.plan) and the figures are at most
   WALK moves from where they must stand before the last turn (or few cards are left), move
   one figure a step along a shortest way there;
5. else, if the card cannot be completed in this kingdom, lay a tile (one that makes it
   possible, if any);
6. else turn the page (a new card, and the magic token for next time).
Plans that span turns (2 without a token, 4, 5) give way to turning the page one time in four,
so that two storytellers never tug the same figure to and fro for ever.
"""
from __future__ import annotations

from typing import Any

from .conditions import Context, figures_in, holds
from .data import CONDITIONS
from .feasibility import can_complete, distances, plan
from .moves import legal_moves
from .tiles import FIGURES


def random_policy(state, seat, rng):
    """Uniform over the kinds of move first (so tiles, with their many places, do not crowd out
    the figures), then over the moves of that kind."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for m in legal_moves(state, seat):
        kinds.setdefault(m.get("figure", m["type"]), []).append(m)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


class _Sim:
    """What a card looks at, after some adventures: a light stand-in for the state."""
    __slots__ = ("kingdom", "pos", "moved", "passed", "pile")

    def __init__(self, kingdom, pos, moved, passed, pile):
        self.kingdom, self.pos, self.moved, self.passed, self.pile = kingdom, pos, moved, passed, pile

    def holds(self, tree) -> bool:
        return holds(tree, Context(self.kingdom, self.pos, self.moved, self.passed))


def _looks_at_land(tree) -> bool:
    if tree[0] in ("and", "or"):
        return any(_looks_at_land(t) for t in tree[1])
    if tree[0] in ("see", "see_line", "see_fig"):
        return True
    place = tree[-1]
    return bool(place) and place[0] in ("big", "big_river", "river")


def _next(sim, tree, land: bool, figures) -> list:
    """[(move, sim after it)] for the adventures worth trying from `sim`."""
    from .movement import MOVERS
    out = []
    for figure in figures:
        for key, to, _, passed in MOVERS[figure](sim.kingdom, sim.pos[figure]):
            move = _move_dict(figure, key)
            after = _Sim(sim.kingdom, {**sim.pos, figure: to}, sim.moved | {figure},
                         sim.passed | {figure} if passed else sim.passed, sim.pile)
            out.append((move, after))
    if land and sim.pile:
        tile, side = sim.pile[0]
        for at, rotation in sim.kingdom.placements(tile, side):
            move = {"type": "lay_tile", "at": list(at), "rotation": rotation}
            out.append((move, _Sim(sim.kingdom.lay(tile, side, at, rotation), sim.pos, sim.moved,
                                   sim.passed, sim.pile[1:])))
    return out


def _needs_land(tree) -> bool:
    if tree[0] in ("and", "or"):
        return any(_needs_land(t) for t in tree[1])
    place = tree[-1]
    return bool(place) and (place[0] in ("big", "big_river") or tree[0] == "see_line")


def storyteller_policy(state, seat, rng):
    tree = CONDITIONS[state.seats[seat].hand]
    land = _looks_at_land(tree)
    figures = FIGURES if land else [f for f in FIGURES if f in figures_in(tree)]
    sim = _Sim(state.kingdom, state.positions(), state.moved, state.passed, state.pile)
    first = _next(sim, tree, land, figures)
    done = [m for m, after in first if after.holds(tree)]
    if done:
        return rng.choice(done)
    # Two in a row. Without the token the second comes next turn, so the first must not need
    # this turn's movement to count then: judge the pair from a fresh turn.
    second_now = state.phase == "adventure" and state.seats[seat].magic
    if state.phase == "adventure":
        plans = []
        for move, after in first:
            if not second_now:
                after = _Sim(after.kingdom, after.pos, frozenset(), frozenset(), after.pile)
            if any(a2.holds(tree) for _, a2 in _next(after, tree, land and move["type"] != "lay_tile", figures)):
                plans.append(move)
                if len(plans) >= 3:
                    break
        # A plan that spans turns can be undone by the others (two storytellers would tug a
        # figure to and fro for ever): now and then turn the page instead.
        if plans and (second_now or rng.random() >= PATIENCE_LOSS):
            return rng.choice(plans)
    if state.phase == "second":
        return {"type": "finish"}
    move = _walk_or_build(state, seat, tree, sim, first, rng)
    if move is None and state.seats[seat].magic and state.pile:
        move = _invest(state, rng)  # the token is already active: build the land instead
    return move or {"type": "turn_page"}


def _land_score(kingdom) -> int:
    """How much of what land cards ask for the kingdom has: big regions and a big river."""
    return sum(1 for t in ("plain", "forest", "mountain") if kingdom.big(t)) + 2 * bool(kingdom.big_river())


def _invest(state, rng):
    tile, side = state.pile[0]
    now = _land_score(state.kingdom)
    scored = [(_land_score(state.kingdom.lay(tile, side, at, r)), at, r)
              for at, r in state.kingdom.placements(tile, side)]
    best = max((s for s, _, _ in scored), default=now)
    if best <= now:
        return None
    at, r = rng.choice([(at, r) for s, at, r in scored if s == best])
    return {"type": "lay_tile", "at": list(at), "rotation": r}


WALK = 4
PATIENCE_LOSS = 0.25


def _walk_or_build(state, seat, tree, sim, first, rng):
    positions = state.positions()
    if not can_complete(state.kingdom, positions, tree):
        tiles = [(m, after) for m, after in first if m["type"] == "lay_tile"]
        helpful = [m for m, after in tiles if can_complete(after.kingdom, positions, tree)]
        if helpful:
            return rng.choice(helpful)
        if tiles:
            best = max(_land_score(after.kingdom) for _, after in tiles)
            return rng.choice([m for m, after in tiles if _land_score(after.kingdom) == best])
        return None
    found = plan(state.kingdom, positions, tree)
    if found is None:
        return None
    total, targets = found
    # Cards that need the land (big regions, rivers) are worked on while tiles remain: once the
    # pile is empty the land may never allow them again.
    urgent = len(state.seats[seat].book) <= 2 or (state.pile and _needs_land(tree))
    if total == 0 or (total > WALK and not urgent) or (not urgent and rng.random() < PATIENCE_LOSS):
        return None
    figure = min((f for f in targets if targets[f] != positions[f]),
                 key=lambda f: distances(state.kingdom, f, positions[f])[0][targets[f]])
    key = distances(state.kingdom, figure, positions[figure])[1][targets[figure]]
    return _move_dict(figure, key)


def _move_dict(figure, key):
    from .hexgrid import DIR_NAMES
    if figure == "dragon":
        return {"type": "move", "figure": "dragon", "direction": DIR_NAMES[key]}
    move = {"type": "move", "figure": figure, "to": list(key[0])}
    if key[1] is not None:
        move["via"] = list(key[1])
    return move


BOTS = {"random": random_policy, "storyteller": storyteller_policy}
