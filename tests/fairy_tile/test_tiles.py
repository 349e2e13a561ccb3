"""Laying a tile: rotation, the two-connected-edges rule, rivers, the fallback, the empty pile."""
import random

import pytest

from domain.contract import MoveRejected
from domain.fairy_tile import GAME
from domain.fairy_tile.hexgrid import distance, neighbor
from domain.fairy_tile.tiles import outline, placed_hexes, shape

from .helpers import kingdom, make

PLAIN = "ft-tile-3", "a"    # plain, castle, forest; no river
RIVER = "ft-tile-2", "b"    # plain, plain, forest; a river west-east through h0 and h1


def test_rotation_turns_the_hexes_and_the_rivers():
    assert shape(0) == ((0, 0), (1, 0), (0, 1))
    assert shape(1) == ((0, 0), (0, 1), (-1, 1))
    cells = placed_hexes(*RIVER, (5, 5), 0)
    assert cells[0][0] == (5, 5) and cells[0][2] == frozenset({3, 0})
    turned = placed_hexes(*RIVER, (5, 5), 2)
    assert turned[1][0] == (4, 6) and turned[0][2] == frozenset({5, 2})
    for rotation in range(6):
        hexes = [h for h, _, _, _ in placed_hexes(*PLAIN, (0, 0), rotation)]
        assert all(distance(a, b) == 1 for a in hexes for b in hexes if a != b)


def test_the_outline_is_twelve_edges_each_next_to_the_last():
    for rotation in range(6):
        edges = outline(rotation)
        hexes = shape(rotation)
        outside = [neighbor(hexes[i], d) for i, d in edges]
        assert len(set(edges)) == 12 and all(o not in hexes for o in outside)
        for a, b in zip(outside, outside[1:] + outside[:1]):
            assert a == b or distance(a, b) == 1  # consecutive edges share a corner


def test_two_touching_edges_must_form_one_run():
    one_neighbour = kingdom({(1, -1): "p"})            # touches h0 and h1 along two edges in a row
    assert one_neighbour.placement_tier(*PLAIN, (0, 0), 0) == 0
    two_apart = kingdom({(-1, 0): "p", (2, 0): "p"})   # two edges on opposite sides
    assert two_apart.placement_tier(*PLAIN, (0, 0), 0) == 1
    single = kingdom({(0, 2): "p"})                    # only one edge
    assert single.placement_tier(*PLAIN, (0, 0), 0) == 1
    assert single.placement_tier(*PLAIN, (0, 2), 0) is None        # overlaps
    assert single.placement_tier(*PLAIN, (5, 5), 0) is None        # floats


def test_rivers_must_continue_along_every_touching_edge():
    with_river = kingdom({(-1, 0): ("p", [0, 3]), (-1, 1): "p"})
    assert with_river.placement_tier(*RIVER, (0, 0), 0) == 0
    assert with_river.placement_tier(*PLAIN, (0, 0), 0) == 2       # the river would stop dead
    dry = kingdom({(-1, 0): "p", (-1, 1): "p"})
    assert dry.placement_tier(*RIVER, (0, 0), 0) == 2              # a river into a dry bank
    assert dry.placement_tier(*RIVER, (1, -1), 2) is not None


def test_the_best_tier_available_is_the_only_one_offered():
    k = kingdom({(0, 0): ("p", [0, 2, 4])})  # rivers on every other edge: no two dry edges in a row
    places = k.placements(*PLAIN)
    assert places and all(k.placement_tier(*PLAIN, at, r) == 1 for at, r in places)  # tier 1: rivers kept
    enclosed = kingdom({(0, 0): ("p", [0, 1, 2, 3, 4, 5])})
    places = enclosed.placements(*PLAIN)
    assert places and all(enclosed.placement_tier(*PLAIN, at, r) == 2 for at, r in places)
    normal = kingdom({(q, 0): "p" for q in range(4)})
    assert all(normal.placement_tier(*PLAIN, at, r) == 0 for at, r in normal.placements(*PLAIN))


def test_legal_lay_moves_list_place_and_rotation_and_decide_lays_the_side_drawn():
    state = make(kingdom({(q, 0): "p" for q in range(4)}), (0, 0), (1, 0), (2, 0),
                 pile=[PLAIN, RIVER])
    lays = [m for m in GAME.legal_moves(state, 0) if m["type"] == "lay_tile"]
    assert lays and {m["rotation"] for m in lays} == set(range(6))
    events = GAME.decide(state, 0, lays[0], random.Random(0))
    laid = events[0]
    assert laid["type"] == "tile_laid" and (laid["tile"], laid["side"]) == PLAIN
    assert laid["next_tile"] == list(RIVER)
    after = GAME.evolve(state, laid)
    assert after.pile == (RIVER,) and len(after.kingdom.cells) == 7


def test_an_illegal_place_is_refused():
    state = make(kingdom({(q, 0): "p" for q in range(4)}), (0, 0), (1, 0), (2, 0), pile=[PLAIN])
    with pytest.raises(MoveRejected) as e:
        GAME.decide(state, 0, {"type": "lay_tile", "at": [9, 9], "rotation": 0}, random.Random(0))
    assert e.value.code == "illegal_placement"


def test_no_tile_can_be_laid_once_the_pile_is_empty():
    state = make(kingdom({(q, 0): "p" for q in range(4)}), (0, 0), (1, 0), (2, 0), pile=[])
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "lay_tile"]
    with pytest.raises(MoveRejected) as e:
        GAME.decide(state, 0, {"type": "lay_tile", "at": [0, 1], "rotation": 0}, random.Random(0))
    assert e.value.code == "pile_empty"
