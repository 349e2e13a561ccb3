"""Can a card still ever be completed, and how? Used for the player who is out (the pile is
empty, so the kingdom is final, and their last card can no longer be completed) and by the
storyteller bot to plan.

The figures move independently and any player may move any figure, so every position a figure
can reach from where it stands is possible before the card's owner plays their last turn. That
turn may have two adventures (turning the page activates the magic token and keeps a lone last
card in hand). So the card is possible when some choice of, per figure it mentions: standing on
a reachable hex (cost 0), one move from a reachable hex (cost 1), or two moves in a row (cost 2,
the first passing a castle), with total cost at most 2, makes it hold.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .conditions import Context, figures_in, holds, movers_in
from .hexgrid import Hex
from .movement import MOVERS

if TYPE_CHECKING:
    from .conditions import Tree
    from .kingdom import Kingdom

INF = float("inf")
# (distance to origin, cost, hex, moved, passed, origin): how a figure may end the last turn
Outcome = tuple[Any, ...]


def distances(kingdom: Kingdom, figure: str, start: Hex) -> tuple[dict[Hex, int], dict[Hex, Any]]:
    """({hex: moves needed}, {hex: key of the first move towards it}) from `start`."""
    return kingdom._cached(("dist", figure, start), lambda: _bfs(kingdom, figure, start))


def _bfs(kingdom: Kingdom, figure: str, start: Hex) -> tuple[dict[Hex, int], dict[Hex, Any]]:
    mover, dist, first, queue = MOVERS[figure], {start: 0}, {start: None}, deque([start])
    while queue:
        h = queue.popleft()
        for key, to, _, _ in mover(kingdom, h):
            if to not in dist:
                dist[to] = dist[h] + 1
                first[to] = key if h == start else first[h]
                queue.append(to)
    return dist, first


def reachable(kingdom: Kingdom, figure: str, start: Hex) -> frozenset[Hex]:
    return kingdom._cached(("reach", figure, start), lambda: frozenset(distances(kingdom, figure, start)[0]))


def _outcomes(kingdom: Kingdom, figure: str, dist: dict[Hex, int], moving: bool) -> list[Outcome]:
    """[(distance to origin, cost, hex, moved, passed, origin)], nearest origin first: what a
    figure can look like at the end of the last turn, and where it must stand before it."""
    best = {(0, h, False, False): h for h in dist}
    if moving:
        mover = MOVERS[figure]

        def offer(key: tuple[int, Hex, bool, bool], origin: Hex) -> None:
            if key not in best or dist[origin] < dist[best[key]]:
                best[key] = origin

        entered_passing: dict[Hex, Hex] = {}
        for a in dist:
            for _, to, _, passed in mover(kingdom, a):
                offer((1, to, True, passed), a)
                if passed and (to not in entered_passing or dist[a] < dist[entered_passing[to]]):
                    entered_passing[to] = a
        for b, a in entered_passing.items():
            for _, to, _, _ in mover(kingdom, b):
                if (1, to, True, True) not in best:
                    offer((2, to, True, True), a)
    return sorted((dist[o],) + k + (o,) for k, o in best.items())


def _single_parts(tree: Tree, figure: str) -> list[Tree]:
    parts = tree[1] if tree[0] == "and" else (tree,)
    return [p for p in parts if figures_in(p) == {figure}]


def _search(kingdom: Kingdom, positions: dict[str, Hex], tree: Tree,
            want_best: bool) -> tuple[int, dict[str, Outcome]] | None:
    """The cheapest (or, without want_best, the first) way to complete the card:
    (total distance, {figure: outcome}) or None."""
    figures = sorted(figures_in(tree))
    moving = movers_in(tree)
    choices = []
    for f in figures:
        dist = distances(kingdom, f, positions[f])[0]
        options = _outcomes(kingdom, f, dist, f in moving)
        own = _single_parts(tree, f)  # parts of an "and" naming f alone narrow f on their own
        if own:
            options = [o for o in options if all(holds(p, _ctx(kingdom, positions, {f: o})) for p in own)]
        choices.append(options)
    found: list[Any] = [INF, None]  # [best total distance, {figure: outcome} or None]
    chosen: dict[str, tuple[Any, ...]] = {}

    def rec(i: int, cost: int, score: int) -> bool:
        if i == len(figures):
            if holds(tree, _ctx(kingdom, positions, chosen)):
                found[:] = [score, dict(chosen)]
                return not want_best
            return False
        for option in choices[i]:
            if score + option[0] >= found[0]:
                break  # options are nearest first: nothing cheaper follows
            if cost + option[1] > 2:
                continue
            chosen[figures[i]] = option
            if rec(i + 1, cost + option[1], score + option[0]):
                return True
        chosen.pop(figures[i], None)
        return False

    rec(0, 0, 0)
    return None if found[1] is None else (found[0], found[1])


def _ctx(kingdom: Kingdom, positions: dict[str, Hex], chosen: dict[str, Outcome]) -> Context:
    pos = dict(positions)
    moved, passed = set(), set()
    for f, (_, _, h, m, p, _) in chosen.items():
        pos[f] = h
        if m:
            moved.add(f)
        if p:
            passed.add(f)
    return Context(kingdom, pos, frozenset(moved), frozenset(passed))


def can_complete(kingdom: Kingdom, positions: dict[str, Hex], tree: Tree) -> bool:
    figures = sorted(figures_in(tree))
    key = ("feasible", tree, tuple(reachable(kingdom, f, positions[f]) for f in figures))
    return kingdom._cached(key, lambda: _search(kingdom, positions, tree, False) is not None)


def plan(kingdom: Kingdom, positions: dict[str, Hex], tree: Tree) -> tuple[int, dict[str, Hex]] | None:
    """The nearest way to complete the card: (total moves to get the figures in place,
    {figure: hex it must stand on before the last turn}), or None when it is impossible."""
    key = ("plan", tree, tuple(sorted(positions.items())))
    found = kingdom._cached(key, lambda: _search(kingdom, positions, tree, True))
    if found is None:
        return None
    return found[0], {f: option[5] for f, option in found[1].items()}
