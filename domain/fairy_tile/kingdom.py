"""The kingdom: the laid hexes, and what the card words need to know about them (regions, big
rivers, lines of sight, where the drawn tile may go). Derived facts are cached on the object:
a Kingdom never changes, laying a tile makes a new one."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from .hexgrid import Hex, neighbor, neighbors, opposite, ray, sight
from .tiles import layout, outline, placed_hexes, shape

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
        laid = []
        for h, terrain, rivers, _ in placed_hexes(tile_id, side, at, rotation):
            cells[h] = (terrain, rivers)
            laid.append(h)
        kingdom = Kingdom(cells)
        spots = self._cache.get(_SPOTS)
        if spots is not None:  # the new kingdom's spots follow from these (_spots)
            kingdom._cache[_FROM] = (spots, tuple(laid))
        return kingdom

    def __getstate__(self) -> dict:
        """Pickled (a snapshot) without the spots: a dict of hundreds of entries, made again
        from the cells when asked."""
        state = dict(self.__dict__)
        cache = state["_cache"]
        if _SPOTS in cache or _FROM in cache:
            state["_cache"] = {k: v for k, v in cache.items() if k not in (_SPOTS, _FROM)}
        return state

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
        """placement_tier's tiers for every spot, from the spots' tile-free facts (_spots) and the
        tile's rivers along its outline as bits: the rivers continue when every touching edge
        has a river on both sides or on neither."""
        tiers: tuple[list[tuple[Hex, int]], ...] = ([], [], [])
        masks = _river_masks(tile_id, side)
        for spot, (touch, rivers) in self._spots().items():
            if (masks[spot[1]] ^ rivers) & touch:
                tiers[2].append(spot)
            elif _SHAPED[touch]:
                tiers[0].append(spot)
            else:
                tiers[1].append(spot)
        for found in tiers:
            if found:
                return tuple(sorted(found))
        return ()

    def _spots(self) -> dict:
        """{(at, rotation): (touch, rivers)} for every way a tile may lie that overlaps no hex
        and touches one: the outline edges (in outline order, as bits) that touch a hex, and
        those whose hex has a river on the shared edge. What no tile changes, so a kingdom
        works them out once for every tile, and a kingdom laid from one whose spots are known
        (a move's next kingdom) works out again only the spots that touch the laid hexes
        (issue 57: every laid tile made a new kingdom whose placements were found anew)."""
        cache = self._cache
        spots = cache.get(_SPOTS)
        if spots is not None:
            return spots
        cells = self.cells
        held = cache.pop(_FROM, None)
        if held is not None:
            before, laid = held
            spots = dict(before)
            for key in {(add_hex(h, offset), rotation) for h in laid for rotation in range(6)
                        for offset in _REACH[rotation]}:
                found = _spot(cells, key[0], key[1])
                if found is None:
                    spots.pop(key, None)
                else:
                    spots[key] = found
        else:
            spots = {}
            for at, rotation in self._candidates():
                found = _spot(cells, at, rotation)
                if found is not None:
                    spots[(at, rotation)] = found
        cache[_SPOTS] = spots
        return spots

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



# The cache's keys: a kingdom's spots; (the spots of the kingdom it was laid from, the laid hexes).
_SPOTS, _FROM = "spots", "spots from"


def add_hex(h: Hex, offset: Hex) -> Hex:
    return (h[0] + offset[0], h[1] + offset[1])


def _frame(rotation: int) -> tuple:
    """A tile's geometry at a rotation, whatever the tile: its hexes' offsets from `at`, and per
    outline edge (in outline order) its bit, the offset of the hex outside it and the direction
    back from that hex (layout's, without the rivers)."""
    offsets = shape(rotation)
    return offsets, tuple((1 << n, neighbor(offsets[i], d), opposite(d)) for n, (i, d) in enumerate(outline(rotation)))


_FRAMES = tuple(_frame(rotation) for rotation in range(6))
# Per rotation, the offsets from a hex h of every `at` whose tile covers h or touches it: the
# spots a hex laid at h changes.
_REACH = tuple(tuple({(-dq, -dr) for dq, dr in (*offsets, *(o for _, o, _ in edges))})
               for offsets, edges in _FRAMES)


def _spot(cells: dict, at: Hex, rotation: int) -> tuple[int, int] | None:
    """(touch, rivers) of a tile lying at (at, rotation) (Kingdom._spots), None when it overlaps a hex or floats."""
    q, r = at
    offsets, edges = _FRAMES[rotation]
    for dq, dr in offsets:
        if (q + dq, r + dr) in cells:
            return None
    touch = rivers = 0
    for bit, (dq, dr), back in edges:
        cell = cells.get((q + dq, r + dr))
        if cell is not None:
            touch |= bit
            if back in cell[1]:
                rivers |= bit
    return (touch, rivers) if touch else None


@cache
def _river_masks(tile_id: str, side: str) -> tuple[int, ...]:
    """Per rotation, the tile's outline edges (layout's order, as bits) that carry a river."""
    return tuple(sum(1 << i for i, (_, river, _) in enumerate(layout(tile_id, side, rotation)[1]) if river)
                 for rotation in range(6))


def _shaped(touch: int) -> bool:
    """Touching along 2 edges or more, all in one run around the (cyclic) outline."""
    starts = touch & ~(((touch << 1) | (touch >> 11)) & 0xFFF)  # edges touching whose previous one does not
    return touch.bit_count() >= 2 and starts.bit_count() <= 1


_SHAPED = tuple(_shaped(touch) for touch in range(1 << 12))
