"""The shipped tiles (tiles.json) and the geometry of laying a triangular tile.

A tile is 3 mutually adjacent hexes. In local coordinates h0 is (0, 0), h1 (1, 0) and h2 (0, 1);
a placement puts h0 on `at` and turns the tile by `rotation` 60-degree steps clockwise, which
turns every river edge with it. Rotations 0..5 give both triangle orientations, so (at, rotation)
names every way a tile can lie.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .hexgrid import add, neighbor, rotate

if TYPE_CHECKING:
    from .hexgrid import Hex

TERRAINS = ("plain", "forest", "mountain", "castle")
FIGURES = ("princess", "knight", "dragon")
LOCAL = ((0, 0), (1, 0), (0, 1))

_DOC = json.loads((Path(__file__).with_name("tiles.json")).read_text())
TILES = {t["id"]: t for t in _DOC["tiles"]}
START_TILES = tuple(t["id"] for t in _DOC["tiles"] if t["start"])
KINGDOM_TILES = tuple(t["id"] for t in _DOC["tiles"] if not t["start"])
START_LAYOUT = tuple(_DOC["start_layout"])


def shape(rotation: int) -> tuple:
    """The offsets of h0, h1, h2 from `at` for a rotation."""
    return _SHAPES[rotation % 6]


_SHAPES = tuple(tuple(rotate(o, k) for o in LOCAL) for k in range(6))


def _outline_at_rotation_0() -> tuple:
    """The 12 outer edges of the tile as (hex index, direction), in order around the outline, so
    that consecutive edges share a corner (the list is cyclic)."""
    hexes = list(LOCAL)
    out: list[tuple[int, int]] = []
    i = 0
    for _ in range(3):
        inner = {d for d in range(6) if neighbor(hexes[i], d) in hexes}
        a = next(d for d in range(6) if {d, (d + 1) % 6} == inner)
        out.extend((i, (a + k) % 6) for k in range(2, 6))
        i = hexes.index(neighbor(hexes[i], a))
    return tuple(out)


_OUTLINE0 = _outline_at_rotation_0()
_OUTLINES = tuple(tuple((i, (d + k) % 6) for i, d in _OUTLINE0) for k in range(6))


def outline(rotation: int) -> tuple:
    return _OUTLINES[rotation % 6]


def face(tile_id: str, side: str) -> list:
    return TILES[tile_id]["faces"][side]


def placed_hexes(tile_id: str, side: str, at: Hex, rotation: int) -> list:
    """[(hex, terrain, river dirs frozenset, emblem or None)] of a tile laid at (at, rotation)."""
    out = []
    for offset, cell in zip(shape(rotation), face(tile_id, side)):
        rivers = frozenset((d + rotation) % 6 for d in cell["river"])
        out.append((add(tuple(at), offset), cell["terrain"], rivers, cell.get("emblem")))
    return out



@cache
def layout(tile_id: str, side: str, rotation: int) -> tuple:
    """Precomputed geometry for fast placement checks: (hex offsets from `at`, and per outline
    edge in order: (offset of the outside neighbour, river on the tile's side, direction back))."""
    cells = placed_hexes(tile_id, side, (0, 0), rotation)
    offsets = tuple(h for h, _, _, _ in cells)
    edges = []
    for i, d in outline(rotation):
        h, _, rivers, _ = cells[i]
        edges.append((neighbor(h, d), d in rivers, (d + 3) % 6))
    return offsets, tuple(edges)
