"""The islands: loading and validating `data/islands.json`, and the static map of a game.

A game's map is the tuple of the sides in play (one side of each drawn board); `map_for`
builds, once per tuple, the flat index the rules work on: region ids, terrain, symbols and
adjacency as tuples of region indexes.
"""
from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import catalog

TERRAINS = ("fields", "forest", "hill", "swamp", "mountain", "lake", "sea")
WATER = ("lake", "sea")
SYMBOLS = ("entry", "magic", "cavern", "murloc", "spot")
SIZE_LIMITS = {"S": (7, 9), "M": (9, 11), "L": (11, 13)}
MAX_LAKES = 2
MIN_ENTRIES = 2


class IslandError(ValueError):
    """The island data breaks a limit of the rules (decision 1)."""


def _check_side(name: str, side: dict) -> None:
    size, regions = side["size"], side["regions"]
    low, high = SIZE_LIMITS[size]
    if not low <= len(regions) <= high:
        raise IslandError(f"{name}: {len(regions)} regions, {size} islands have {low}-{high}")
    numbers = [r["n"] for r in regions]
    if numbers != list(range(1, len(regions) + 1)):
        raise IslandError(f"{name}: regions must be numbered 1..{len(regions)} in order")
    adj = {r["n"]: set(r["adj"]) for r in regions}
    for r in regions:
        if r["terrain"] not in TERRAINS:
            raise IslandError(f"{name}-{r['n']}: unknown terrain {r['terrain']!r}")
        if set(r["symbols"]) - set(SYMBOLS):
            raise IslandError(f"{name}-{r['n']}: unknown symbols {r['symbols']}")
        if r["terrain"] in WATER and {"entry", "murloc", "spot"} & set(r["symbols"]):
            raise IslandError(f"{name}-{r['n']}: water cannot hold entry, murloc or spot")
        for other in adj[r["n"]]:
            if other == r["n"] or other not in adj:
                raise IslandError(f"{name}-{r['n']}: bad neighbour {other}")
            if r["n"] not in adj[other]:
                raise IslandError(f"{name}: adjacency {r['n']}-{other} is not symmetric")
    if not _connected(adj):
        raise IslandError(f"{name}: the island is not connected")
    def count(pred: Callable[[dict[str, Any]], bool]) -> int:
        return sum(1 for r in regions if pred(r))
    if count(lambda r: "entry" in r["symbols"]) < MIN_ENTRIES:
        raise IslandError(f"{name}: fewer than {MIN_ENTRIES} entry regions")
    if count(lambda r: r["terrain"] == "lake") > MAX_LAKES:
        raise IslandError(f"{name}: more than {MAX_LAKES} lakes")
    if count(lambda r: "spot" in r["symbols"]) != 1:
        raise IslandError(f"{name}: exactly one S/M/L marker spot is needed")


def _connected(adj: dict) -> bool:
    start = next(iter(adj))
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(adj[node] - seen)
    return len(seen) == len(adj)


def _check_combinations(sides: dict) -> None:
    """In every legal draw (boards by seat count, any side of each) the box suffices."""
    by_board: dict = {}
    for _name, side in sides.items():
        by_board.setdefault(side["board"], []).append(side)
    per_size = {s: [b for b, v in by_board.items() if v[0]["size"] == s] for s in SIZE_LIMITS}
    def tally(side: dict[str, Any], what: str) -> int:
        return sum(
            1 for r in side["regions"] if r["terrain"] == "mountain"
        ) if what == "mountain" else sum(1 for r in side["regions"] if "murloc" in r["symbols"])
    for sizes in catalog.all_board_size_lists():
        need = {s: sizes.count(s) for s in set(sizes)}
        for s, k in need.items():
            if len(per_size[s]) < k:
                raise IslandError(f"{k} boards of size {s} are needed, {len(per_size[s])} exist")
        for what, limit in (("mountain", catalog.SUPPLIES["mountains"]), ("murloc", catalog.SUPPLIES["murlocs"])):
            worst = sum(
                max(sum(max(tally(side, what) for side in by_board[b]) for b in combo)
                    for combo in itertools.combinations(per_size[s], k))
                for s, k in need.items())
            if worst > limit:
                raise IslandError(f"{sizes}: up to {worst} {what}s, the box has {limit}")


def validate(sides: dict) -> dict:
    for name, side in sides.items():
        if side["size"] not in SIZE_LIMITS or not name.startswith(side["board"]):
            raise IslandError(f"{name}: bad size or board name")
        _check_side(name, side)
    _check_combinations(sides)
    return sides


@lru_cache(maxsize=1)
def load() -> dict:
    return validate(json.loads((Path(__file__).parent / "data" / "islands.json").read_text()))


def boards() -> dict:
    """{board: [side, ...]} by size: {"S": {"S1": ["S1a", "S1b"], ...}, ...}."""
    out: dict = {s: {} for s in SIZE_LIMITS}
    for name, side in load().items():
        out[side["size"]].setdefault(side["board"], []).append(name)
    return out


@dataclass(frozen=True)
class Map:
    """The static map of one game: region index -> facts. Compared by its sides only."""

    sides: tuple
    ids: tuple           # "L1a-3"
    island: tuple        # index of the side in `sides`
    terrain: tuple
    symbols: tuple       # frozenset per region
    adj: tuple           # tuple of neighbour indexes per region
    index: dict          # id -> index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Map) and self.sides == other.sides

    def __hash__(self) -> int:
        return hash(self.sides)

    def has(self, i: int, symbol: str) -> bool:
        return symbol in self.symbols[i]

    def water(self, i: int) -> bool:
        return self.terrain[i] in WATER


@lru_cache(maxsize=64)
def map_for(sides: tuple) -> Map:
    data = load()
    ids: list[str] = []
    island: list[int] = []
    terrain: list[str] = []
    symbols: list[frozenset[str]] = []
    adj: list[tuple[int, ...]] = []
    for k, name in enumerate(sides):
        base = len(ids)
        for r in data[name]["regions"]:
            ids.append(f"{name}-{r['n']}")
            island.append(k)
            terrain.append(r["terrain"])
            symbols.append(frozenset(r["symbols"]))
            adj.append(tuple(base + n - 1 for n in r["adj"]))
    return Map(tuple(sides), tuple(ids), tuple(island), tuple(terrain), tuple(symbols),
               tuple(adj), {rid: i for i, rid in enumerate(ids)})
