"""Drawing from the bag, as events: the chance outcome is written down, so evolve never draws.

When a tile must be drawn and the bag is empty, every covered tile goes back into the bag
(a `bag_refilled` event) and the drawing goes on; if there is still nothing to draw,
the rack or market stays short.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .data import TILE_IDS


class Bag:
    """A scratch copy of the bag and of the covered tiles while `decide` plans its draws."""

    def __init__(self, bag: Iterable[int], covered: Iterable[int]) -> None:
        self.tiles = set(bag)
        self.covered = list(covered)

    def draw(self, count: int, rng: random.Random, to: str, seat: int | None = None) -> list:
        """Draws up to `count` tiles for the market (`to`="market") or a seat's rack."""
        events: list[dict[str, Any]] = []
        batch: list[int] = []
        for _ in range(count):
            if not self.tiles:
                if not self.covered:
                    break
                events += _flush(batch, to, seat)
                batch = []
                # No tile ids: evolve knows the covered tiles, and a list here would name tiles
                # that this very batch may deal into a secret rack.
                events.append({"type": "bag_refilled", "count": len(self.covered)})
                self.tiles.update(self.covered)
                self.covered = []
            tile = rng.choice(sorted(self.tiles))
            self.tiles.discard(tile)
            batch.append(tile)
        return events + _flush(batch, to, seat)

    def put_back(self, tiles: Iterable[int]) -> None:
        self.tiles.update(tiles)


def _flush(batch: list, to: str, seat: int | None) -> list:
    if not batch:
        return []
    event: dict[str, Any] = {"type": "drew", "to": to, "tiles": [TILE_IDS[t] for t in batch]}
    if to == "rack":
        event["seat"] = seat
    return [event]
