"""The shipped components: 15 double-sided tiles, the start layout and the 36 story cards."""
import random

import pytest

from domain.fairy_tile.conditions import parse
from domain.fairy_tile.data import CARD_IDS, CARDS, CONDITIONS
from domain.fairy_tile.feasibility import can_complete
from domain.fairy_tile.hexgrid import neighbor, opposite
from domain.fairy_tile.rules import start_kingdom
from domain.fairy_tile.tiles import (
    FIGURES,
    KINGDOM_TILES,
    LOCAL,
    START_LAYOUT,
    START_TILES,
    TERRAINS,
    TILES,
    placed_hexes,
)


def test_fifteen_double_sided_tiles_three_of_them_start_tiles():
    assert len(TILES) == 15 and len(START_TILES) == 3 and len(KINGDOM_TILES) == 12
    assert all(t.startswith("ft-tile-") for t in KINGDOM_TILES)
    for tile in TILES.values():
        assert set(tile["faces"]) == {"a", "b"}
        for face in tile["faces"].values():
            assert len(face) == 3
            assert all(h["terrain"] in TERRAINS for h in face)


@pytest.mark.parametrize("tile_id", sorted(TILES))
def test_rivers_inside_a_face_join_up(tile_id):
    for face in TILES[tile_id]["faces"].values():
        for i, cell in enumerate(face):
            assert len(cell["river"]) in (0, 2), "a river enters and leaves a hex"
            for d in range(6):
                n = neighbor(LOCAL[i], d)
                if n in LOCAL:  # an edge inside the tile: river on both sides or neither
                    other = face[LOCAL.index(n)]
                    assert (d in cell["river"]) == (opposite(d) in other["river"])


def test_kingdom_tiles_mix_terrains_with_some_castles_and_rivers():
    faces = [f for t in KINGDOM_TILES for f in TILES[t]["faces"].values()]
    terrains = [h["terrain"] for f in faces for h in f]
    assert {terrains.count(t) > 0 for t in TERRAINS} == {True}
    assert 4 <= terrains.count("castle") <= 8
    assert 10 <= sum(1 for f in faces if any(h["river"] for h in f)) <= 16


def test_start_tiles_meet_at_their_white_dots_with_one_river_through_all_three():
    kingdom, figures = start_kingdom()
    assert len(kingdom.cells) == 9
    # The white dot is h0's corner between local directions 3 and 4: the three h0 hexes are
    # mutually adjacent (they share that corner).
    h0s = [placed_hexes(s["tile"], s["side"], s["at"], s["rotation"])[0][0] for s in START_LAYOUT]
    from domain.fairy_tile.hexgrid import distance
    assert all(distance(a, b) == 1 for a in h0s for b in h0s if a != b)
    # One river course crossing all three start tiles.
    river = {h for h, (_, rv) in kingdom.cells.items() if rv}
    tiles_with_river = {s["tile"] for s in START_LAYOUT
                        for h, _, rv, _ in placed_hexes(s["tile"], s["side"], s["at"], s["rotation"]) if rv}
    assert len(tiles_with_river) == 3
    start = next(iter(river))
    seen, stack = {start}, [start]
    while stack:
        h = stack.pop()
        for d in kingdom.cells[h][1]:
            n = neighbor(h, d)
            if n in river and opposite(d) in kingdom.cells[n][1] and n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen == river


def test_figures_start_on_their_emblems():
    kingdom, figures = start_kingdom()
    princess, knight, dragon = figures
    assert kingdom.terrain(princess) == "castle"
    assert kingdom.terrain(knight) == "forest"
    assert kingdom.terrain(dragon) == "mountain"


def test_thirty_six_numbered_cards_with_distinctive_ids():
    assert len(CARD_IDS) == 36
    assert [CARDS[c]["number"] for c in CARD_IDS] == list(range(1, 37))
    assert all(c == f"ft-card-{CARDS[c]['number']}" for c in CARD_IDS)
    assert all(CARDS[c]["title"] and CARDS[c]["text"] for c in CARD_IDS)


ATTESTED = [
    "princess meet knight on forest",
    "princess meet knight on plain",
    "princess meet dragon on mountain",
    "princess arrive castle",
    "knight arrive castle",
    "dragon arrive big mountain",
    "dragon arrive castle and (dragon see princess or dragon see knight)",
    "dragon see knight",
]


@pytest.mark.parametrize("condition", ATTESTED)
def test_the_attested_cards_are_in_the_deck(condition):
    matches = [c for c in CARD_IDS if CARDS[c]["condition"] == condition]
    assert len(matches) == 1 and CARDS[matches[0]]["attested"]


def test_the_rest_spread_over_the_three_figures_and_the_verbs():
    subjects = [CONDITIONS[c][1] if CONDITIONS[c][0] not in ("and", "or") else CONDITIONS[c][1][0][1]
                for c in CARD_IDS]
    for figure in FIGURES:
        assert 9 <= subjects.count(figure) <= 15
    words = " ".join(CARDS[c]["condition"] for c in CARD_IDS)
    for word in ("see", "arrive", "meet", "pass", "big", "river", " and ", " or "):
        assert word in words


def _built_kingdom(seed):
    """The start and all 12 kingdom tiles, laid at random legal places."""
    rng = random.Random(seed)
    kingdom, figures = start_kingdom()
    tiles = list(KINGDOM_TILES)
    rng.shuffle(tiles)
    for tile in tiles:
        side = rng.choice("ab")
        at, rotation = rng.choice(kingdom.placements(tile, side))
        kingdom = kingdom.lay(tile, side, at, rotation)
    return kingdom, dict(zip(FIGURES, figures))


def test_every_card_can_be_completed_with_the_shipped_tiles():
    kingdoms = [_built_kingdom(seed) for seed in range(6)]
    for card_id in CARD_IDS:
        assert parse(CARDS[card_id]["condition"]) == CONDITIONS[card_id]
        assert any(can_complete(k, pos, CONDITIONS[card_id]) for k, pos in kingdoms), card_id
