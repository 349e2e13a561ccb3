"""The kingdom: the laid hexes, and what the card words need to know about them (regions, big
rivers, lines of sight, where the drawn tile may go). Derived facts are cached on the object:
a Kingdom never changes, laying a tile makes a new one."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from .hexgrid import Hex, neighbor, neighbors, opposite, ray, sight
from .tiles import layout, placed_hexes, shape

if TYPE_CHECKING:
    from collections.abc import Hashable


T = TypeVar("T")


@dataclass(frozen=True)
class Kingdom:
    # hex -> (terrain, frozenset of river edge directions); never mutated after construction.
    cells: dict
    _cache: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def lay(self, tile_id: str, side: str, at: Hex, rotation: int) -> Kingdom:
        cells = dict(self.cells)
        for h, terrain, rivers, _ in placed_hexes(tile_id, side, at, rotation):
            cells[h] = (terrain, rivers)
        return Kingdom(cells)

    def terrain(self, h: Hex) -> str:
        return self.cells[h][0]

    def has_river(self, h: Hex) -> bool:
        return bool(self.cells[h][1])

    def _cached(self, key: Hashable, compute: Callable[[], T]) -> T:
        cache = self._cache
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def big(self, terrain: str) -> frozenset:
        """Hexes that belong to a big region: 3 or more connected hexes of `terrain`."""
        return self._cached(("big", terrain), lambda: self._regions(terrain))

    def _regions(self, terrain: str) -> frozenset:
        todo = {h for h, (t, _) in self.cells.items() if t == terrain}
        big = set()
        while todo:
            region, stack = set(), [todo.pop()]
            while stack:
                h = stack.pop()
                region.add(h)
                for n in neighbors(h):
                    if n in todo:
                        todo.discard(n)
                        stack.append(n)
            if len(region) >= 3:
                big |= region
        return frozenset(big)

    def big_river(self) -> frozenset:
        """Hexes of a river course of 5 or more hexes, connected along the river itself (two
        river hexes side by side whose rivers do not meet on their shared edge are not joined)."""
        return self._cached("big_river", self._big_river)

    def _big_river(self) -> frozenset:
        cells = self.cells
        todo = {h for h, (_, rv) in cells.items() if rv}
        big = set()
        while todo:
            course, stack = set(), [todo.pop()]
            while stack:
                h = stack.pop()
                course.add(h)
                for d in cells[h][1]:
                    n = neighbor(h, d)
                    if n in todo and opposite(d) in cells[n][1]:
                        todo.discard(n)
                        stack.append(n)
            if len(course) >= 5:
                big |= course
        return frozenset(big)

    def sight(self, h: Hex) -> frozenset:
        return self._cached(("sight", h), lambda: frozenset(sight(h, self.cells)))

    def lines(self, h: Hex) -> tuple:
        """The 6 lines of sight from h, each with h itself first."""
        return self._cached(("lines", h), lambda: tuple((h,) + tuple(ray(h, d, self.cells)) for d in range(6)))

    def castles(self) -> tuple:
        return self._cached("castles", lambda: tuple(sorted(h for h, (t, _) in self.cells.items() if t == "castle")))

    def placements(self, tile_id: str, side: str) -> tuple:
        """Where the drawn tile may go: ((q, r), rotation) sorted. The best tier that has any
        place: (1) touching along 2+ edges in one run with rivers continued, (2) touching with
        rivers continued, (3) touching at all."""
        return self._cached(("placements", tile_id, side), lambda: self._placements(tile_id, side))

    def laid(self, tile_id: str, side: str) -> dict:
        """{(at, rotation): the kingdom after laying the tile there} for every placement, in
        placements' order; cached, so the bots judge every card against the same laid kingdoms
        (and their cached regions) instead of laying the tile again per card."""
        return self._cached(("laid", tile_id, side), lambda: {
            (at, rotation): self.lay(tile_id, side, at, rotation) for at, rotation in self.placements(tile_id, side)})

    def _placements(self, tile_id: str, side: str) -> tuple:
        tiers: tuple[list[tuple[Hex, int]], ...] = ([], [], [])
        for at, rotation in self._candidates():
            tier = self.placement_tier(tile_id, side, at, rotation)
            if tier is not None:
                tiers[tier].append((at, rotation))
        for found in tiers:
            if found:
                return tuple(sorted(found))
        return ()

    def _candidates(self) -> set:
        cells = self.cells
        frontier = {n for h in cells for n in neighbors(h) if n not in cells}
        out = set()
        for e in frontier:
            for rotation in range(6):
                for dq, dr in shape(rotation):
                    at = (e[0] - dq, e[1] - dr)
                    out.add((at, rotation))
        return out

    def placement_tier(self, tile_id: str, side: str, at: Hex, rotation: int) -> int | None:
        """0, 1 or 2 (see `placements`) for a tile laid there, None when it overlaps or floats."""
        cells = self.cells
        q, r = at
        offsets, edges = layout(tile_id, side, rotation)
        for dq, dr in offsets:
            if (q + dq, r + dr) in cells:
                return None
        touch, rivers_ok = [], True
        for (dq, dr), river, back in edges:
            cell = cells.get((q + dq, r + dr))
            touch.append(cell is not None)
            if cell is not None and river != (back in cell[1]):
                rivers_ok = False
        count = sum(touch)
        if count == 0:
            return None
        runs = sum(1 for i in range(12) if touch[i] and not touch[i - 1])
        if rivers_ok and count >= 2 and runs <= 1:
            return 0
        return 1 if rivers_ok else 2

