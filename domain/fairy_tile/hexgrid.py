"""Hex geometry on axial coordinates (q, r), pointy-top hexes, r growing downwards.

Directions are numbered clockwise from east: 0 e, 1 se, 2 sw, 3 w, 4 nw, 5 ne, so that turning a
vector by one 60-degree step clockwise (`rotate`) takes direction d to direction d + 1. The edge
of a hex "in direction d" is the edge it shares with its neighbour in that direction; the
neighbour sees the same edge in direction d + 3.
"""
from __future__ import annotations

from collections.abc import Container, Iterator

Hex = tuple  # (q, r)

DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIR_NAMES = ("e", "se", "sw", "w", "nw", "ne")
DIR_INDEX = {name: i for i, name in enumerate(DIR_NAMES)}


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbor(h: Hex, d: int) -> Hex:
    dq, dr = DIRS[d % 6]
    return (h[0] + dq, h[1] + dr)


def neighbors(h: Hex) -> list:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS]


def opposite(d: int) -> int:
    return (d + 3) % 6


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(v: Hex, steps: int) -> Hex:
    """Turns a vector about the origin by `steps` 60-degree steps clockwise."""
    q, r = v
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction from a to its neighbour b, or None when they are not neighbours."""
    delta = (b[0] - a[0], b[1] - a[1])
    return DIRS.index(delta) if delta in DIRS else None


def ray(start: Hex, d: int, cells: Container) -> Iterator[Hex]:
    """The hexes from `start` (excluded) straight in direction d, up to the first hex that is
    not in `cells` (a gap or the edge)."""
    dq, dr = DIRS[d]
    q, r = start[0] + dq, start[1] + dr
    while (q, r) in cells:
        yield (q, r)
        q, r = q + dq, r + dr


def sight(start: Hex, cells: Container) -> set:
    """Every hex a figure on `start` sees: its own hex and the 6 straight lines up to a gap."""
    seen = {start}
    for d in range(6):
        seen.update(ray(start, d, cells))
    return seen
