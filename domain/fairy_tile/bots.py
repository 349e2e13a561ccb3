"""Bot policies: `random`, and `storyteller`, which looks for adventures that complete its card.

storyteller, on its turn:
1. if one adventure (a figure move or laying the drawn tile) makes its card hold, take it;
2. else, with an active magic token, if two adventures in a row make it hold, take the first
   (the second is found by rule 1 next);
3. else, after an adventure (second phase) finish; at the start of a turn turn the page, which
   brings a new card and activates the magic token for the next turn.
Only moves that can matter are tried: moves of the figures the card names, and tiles when the
card looks at sight or big regions.
"""
from __future__ import annotations

from .conditions import Context, figures_in, holds, movers_in
from .data import CONDITIONS
from .moves import figure_moves, legal_moves, tile_moves
from .rules import evolve
from .tiles import FIGURES


def random_policy(state, seat, rng):
    """Uniform over the kinds of move first (so tiles, with their many places, do not crowd out
    the figures), then over the moves of that kind."""
    moves = legal_moves(state, seat)
    kinds = {}
    for m in moves:
        kinds.setdefault(m.get("figure", m["type"]), []).append(m)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def _outcomes(state, tree):
    """[(move, state after it)] for the adventures worth trying for this card."""
    seat = state.current
    wanted = figures_in(tree) if not _looks_at_land(tree) else set(FIGURES)
    out = []
    for figure in FIGURES:
        if figure not in wanted:
            continue
        for move, to, path, passed in figure_moves(state, figure):
            event = {"type": "figure_moved", "seat": seat, "figure": figure, "from": None,
                     "to": to, "path": path, "passed_castle": passed}
            out.append((move, _quiet(evolve(state, event))))
    if _looks_at_land(tree) and state.pile:
        tile, side = state.pile[0]
        for move in tile_moves(state):
            event = {"type": "tile_laid", "seat": seat, "tile": tile, "side": side,
                     "at": move["at"], "rotation": move["rotation"]}
            out.append((move, _quiet(evolve(state, event))))
    return out


def _quiet(state):
    from dataclasses import replace
    return replace(state, phase="second")


def _looks_at_land(tree) -> bool:
    if tree[0] in ("and", "or"):
        return any(_looks_at_land(t) for t in tree[1])
    return tree[0] in ("see", "see_line", "see_fig") or (len(tree) > 2 and tree[-1] and tree[-1][0] in ("big", "big_river"))


def _holds(state, tree) -> bool:
    return holds(tree, Context(state.kingdom, state.positions(), state.moved, state.passed))


def storyteller_policy(state, seat, rng):
    hand = state.seats[seat].hand
    tree = CONDITIONS[hand]
    first = _outcomes(state, tree)
    winners = [m for m, after in first if _holds(after, tree)]
    if winners:
        return rng.choice(winners)
    if state.phase == "adventure" and state.seats[seat].magic:
        for move, after in first:
            if any(_holds(a2, tree) for _, a2 in _outcomes(after, tree)):
                return move
    return {"type": "finish"} if state.phase == "second" else {"type": "turn_page"}


assert movers_in
BOTS = {"random": random_policy, "storyteller": storyteller_policy}
