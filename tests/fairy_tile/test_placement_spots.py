"""Where a tile may go, from each kingdom's spots (domain/fairy_tile/kingdom.py, issue 57): the
tile-free facts of every way a tile may lie, worked out once a kingdom, and for a kingdom laid
from one whose spots are known only around the laid hexes. The placements are those of the
rule applied spot by spot (placement_tier over every candidate), whichever way they were found."""
from __future__ import annotations

import pickle
import random

import pytest

from domain.fairy_tile.kingdom import Kingdom
from domain.fairy_tile.tiles import KINGDOM_TILES

from .helpers import started

pytestmark = pytest.mark.unit


def _by_the_rule(kingdom: Kingdom, tile: str, side: str) -> tuple:
    tiers: tuple[list, ...] = ([], [], [])
    for at, rotation in kingdom._candidates():
        tier = kingdom.placement_tier(tile, side, at, rotation)
        if tier is not None:
            tiers[tier].append((at, rotation))
    return next((tuple(sorted(found)) for found in tiers if found), ())


@pytest.mark.parametrize("seed", [1, 2])
def test_placements_are_the_rules_whether_the_spots_were_laid_from_a_kingdom_or_found_anew(seed):
    rng = random.Random(seed)
    kingdom = started(seed=seed)[0].kingdom
    tiles = [(tile, side) for tile in KINGDOM_TILES for side in "ab"]
    for _ in range(12):
        asked = rng.sample(tiles, 4)
        anew = Kingdom(dict(kingdom.cells))  # no spots to start from
        for tile, side in asked:
            expected = _by_the_rule(kingdom, tile, side)
            assert kingdom.placements(tile, side) == expected
            assert anew.placements(tile, side) == expected
        tile, side = asked[0]
        options = kingdom.placements(tile, side)
        at, rotation = rng.choice(options)
        kingdom = kingdom.lay(tile, side, at, rotation)
        assert "spots from" in kingdom._cache  # its spots will follow from its parent's


def test_a_pickled_kingdom_leaves_its_spots_behind_and_finds_them_again():
    kingdom = started(seed=3)[0].kingdom
    tile, side = KINGDOM_TILES[0], "a"
    placements = kingdom.placements(tile, side)
    child = kingdom.lay(tile, side, *placements[0])
    for k in (kingdom, child):
        copied = pickle.loads(pickle.dumps(k))
        assert "spots" not in copied._cache and "spots from" not in copied._cache
        assert copied == k
        assert copied.placements(KINGDOM_TILES[1], "b") == _by_the_rule(k, KINGDOM_TILES[1], "b")
