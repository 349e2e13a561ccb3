"""The set rule, on a list of top tiles (one per square, -1 = empty).

Two linked squares are joined in the *number graph* when their tiles show the same number
(different suits), and in the *run graph* when they show the same suit and numbers one apart.
A set is a connected component of either graph with 2 or more tiles.
"""
from __future__ import annotations

from collections.abc import Iterable

from .data import N_TILES, NEIGHBOURS, NUMBER, SUIT

NUMBER_SET = 0
RUN = 1


def joined(kind: int, a: int, b: int) -> bool:
    """Whether tiles a and b (both real tiles) are neighbours in the `kind` graph."""
    if kind == NUMBER_SET:
        return NUMBER[a] == NUMBER[b] and SUIT[a] != SUIT[b]
    return SUIT[a] == SUIT[b] and (NUMBER[a] - NUMBER[b] in (1, -1))


# Per kind, per tile: the tiles it joins in that graph, as bits (`joined`, tabled); then either.
_JOINS = tuple(tuple(sum(1 << b for b in range(N_TILES) if joined(kind, a, b)) for a in range(N_TILES))
               for kind in (NUMBER_SET, RUN))
_JOINS_ANY = tuple(n | r for n, r in zip(*_JOINS, strict=True))


def component(tops: list, start: int, kind: int) -> set:
    """The squares connected to `start` in the `kind` graph (including `start`)."""
    joins = _JOINS[kind]
    seen = {start}
    todo = [start]
    while todo:
        q = todo.pop()
        row = joins[tops[q]]
        for r in NEIGHBOURS[q]:
            other = tops[r]
            if other >= 0 and row >> other & 1 and r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


def in_a_set(tops: list, square: int) -> bool:
    """Whether the tile on `square` belongs to some set (has a joined neighbour)."""
    row = _JOINS_ANY[tops[square]]
    return any(tops[r] >= 0 and row >> tops[r] & 1 for r in NEIGHBOURS[square])


def one_set_holds(tops: list, squares: Iterable[int]) -> bool:
    """Whether one single set contains the tiles on all `squares` (the legality rule)."""
    squares = list(squares)
    for kind in (NUMBER_SET, RUN):
        comp = component(tops, squares[0], kind)
        if len(comp) >= 2 and all(q in comp for q in squares):
            return True
    return False


def scoring_squares(tops: list, squares: Iterable[int]) -> set:
    """The squares of every set that contains a tile on one of `squares` (each square once)."""
    scored: set = set()
    for kind in (NUMBER_SET, RUN):
        done: set = set()
        for q in squares:
            if q in done:
                continue
            comp = component(tops, q, kind)
            done |= comp
            if len(comp) >= 2:
                scored |= comp
    return scored
