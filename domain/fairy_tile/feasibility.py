"""Can a card still ever be completed? Used for the player who is out: the pile is empty (so the
kingdom is final) and their last card can no longer be completed by any moves of the figures.

The figures move independently and any player may move any figure, so every position a figure
can reach from where it stands is possible before the card's owner plays their last turn. That
turn may have two adventures (turning the page activates the magic token and keeps a lone last
card in hand). So the card is possible when some choice of, per figure it mentions: staying on a
reachable hex (cost 0), one move from a reachable hex (cost 1), or two moves in a row (cost 2,
which can also pass a castle on the first), with total cost at most 2, makes it hold.
"""
from __future__ import annotations

from itertools import product

from .conditions import Context, figures_in, holds, movers_in
from .movement import MOVERS


def reachable(kingdom, figure: str, start) -> frozenset:
    return kingdom._cached(("reach", figure, start), lambda: _reach(kingdom, figure, start))


def _reach(kingdom, figure, start):
    mover, seen, stack = MOVERS[figure], {start}, [start]
    while stack:
        h = stack.pop()
        for _, to, _, _ in mover(kingdom, h):
            if to not in seen:
                seen.add(to)
                stack.append(to)
    return frozenset(seen)


def _outcomes(kingdom, figure, reach, moving: bool) -> list:
    """[(cost, hex, moved, passed)]: what a figure can look like at the end of the last turn."""
    out = [(0, h, False, False) for h in sorted(reach)]
    if not moving:
        return out  # nothing looks at its movement: where it stands is all that matters
    mover = MOVERS[figure]
    one, entered_passing = {}, set()
    for a in reach:
        for _, to, _, passed in mover(kingdom, a):
            one[(to, passed)] = True
            if passed:
                entered_passing.add(to)
    out += [(1, h, True, p) for h, p in sorted(one)]
    two = set()
    for b in entered_passing:
        for _, to, _, passed in mover(kingdom, b):
            if (to, True) not in one:
                two.add(to)
    out += [(2, h, True, True) for h in sorted(two)]
    return out


def can_complete(kingdom, positions: dict, tree) -> bool:
    figures = sorted(figures_in(tree))
    moving = movers_in(tree)
    key = ("feasible", tree, tuple(reachable(kingdom, f, positions[f]) for f in figures))
    return kingdom._cached(key, lambda: _search(kingdom, positions, tree, figures, moving))


def _single(kingdom, positions, figure, choice) -> Context:
    _, h, moved, passed = choice
    pos = {**positions, figure: h}
    return Context(kingdom, pos, frozenset([figure]) if moved else frozenset(),
                   frozenset([figure]) if passed else frozenset())


def _search(kingdom, positions, tree, figures, moving) -> bool:
    choices = [_outcomes(kingdom, f, reachable(kingdom, f, positions[f]), f in moving) for f in figures]
    # Parts of an "and" that name one figure only narrow that figure's outcomes on their own.
    parts = tree[1] if tree[0] == "and" else (tree,)
    for i, f in enumerate(figures):
        own = [p for p in parts if figures_in(p) == {f}]
        if own:
            choices[i] = [c for c in choices[i] if all(holds(p, _single(kingdom, positions, f, c)) for p in own)]
    pos = dict(positions)
    for combo in product(*choices):
        if sum(c[0] for c in combo) > 2:
            continue
        for f, (_, h, _, _) in zip(figures, combo):
            pos[f] = h
        moved = frozenset(f for f, c in zip(figures, combo) if c[2])
        passed = frozenset(f for f, c in zip(figures, combo) if c[3])
        if holds(tree, Context(kingdom, pos, moved, passed)):
            return True
    return False
