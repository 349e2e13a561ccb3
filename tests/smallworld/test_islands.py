import copy
import random

import pytest

from domain.smallworld import catalog, islands
from domain.smallworld.islands import IslandError, validate
from domain.smallworld.setup import draw_sides


def data():
    return copy.deepcopy(islands.load())


def test_twelve_sides_two_boards_per_size_load_and_validate():
    sides = islands.load()
    assert len(sides) == 12
    assert {s: len(b) for s, b in islands.boards().items()} == {"S": 2, "M": 2, "L": 2}
    assert all(len(v) == 2 for b in islands.boards().values() for v in b.values())


def test_every_side_keeps_the_limits_of_decision_1():
    for name, side in islands.load().items():
        regions = side["regions"]
        low, high = islands.SIZE_LIMITS[side["size"]]
        assert low <= len(regions) <= high
        assert sum("entry" in r["symbols"] for r in regions) >= 2
        assert sum(r["terrain"] == "lake" for r in regions) <= 2
        assert sum("spot" in r["symbols"] for r in regions) == 1


def test_asymmetric_adjacency_is_refused():
    d = data()
    d["S1a"]["regions"][0]["adj"].append(7)  # 1 -> 7 but not 7 -> 1
    with pytest.raises(IslandError, match="symmetric"):
        validate(d)


def test_disconnected_island_is_refused():
    d = data()
    regions = d["S1a"]["regions"]
    last = regions[-1]["n"]
    for r in regions:
        r["adj"] = [a for a in r["adj"] if a != last and r["n"] != last]
    with pytest.raises(IslandError, match="not connected"):
        validate(d)


def test_region_count_out_of_limits_is_refused():
    d = data()
    regions = d["L1a"]["regions"]
    d["L1a"]["regions"] = [r for r in regions if r["n"] <= 10]
    for r in d["L1a"]["regions"]:
        r["adj"] = [a for a in r["adj"] if a <= 10]
    with pytest.raises(IslandError, match="regions"):
        validate(d)


def test_too_many_lakes_and_too_few_entries_are_refused():
    d = data()
    land = [r for r in d["M1b"]["regions"] if not {"entry", "murloc", "spot"} & set(r["symbols"])]
    for r in land[:3]:
        r["terrain"] = "lake"
    with pytest.raises(IslandError, match="lakes"):
        validate(d)
    d = data()
    for r in d["S1a"]["regions"]:
        r["symbols"] = [s for s in r["symbols"] if s != "entry"]
    with pytest.raises(IslandError, match="entry"):
        validate(d)


def test_box_limits_hold_in_every_legal_combination():
    d = data()
    for side in ("L1a", "L1b", "L2a", "L2b"):
        for r in d[side]["regions"]:
            if r["terrain"] not in islands.WATER and "entry" not in r["symbols"]:
                r["symbols"] = sorted(set(r["symbols"]) | {"murloc"})
    with pytest.raises(IslandError, match="murloc"):
        validate(d)
    d = data()
    for r in d["L2a"]["regions"][:9]:
        if r["terrain"] not in islands.WATER:
            r["terrain"] = "mountain"
    with pytest.raises(IslandError, match="mountain"):
        validate(d)


@pytest.mark.parametrize("n,sizes,rounds", [(2, "LS", 10), (3, "LMS", 10), (4, "LMMS", 9), (5, "LLMSS", 8)])
def test_boards_and_rounds_by_seat_count(n, sizes, rounds):
    for seed in range(20):
        sides = draw_sides(n, random.Random(seed))
        assert "".join(s[0] for s in sides) == sizes
        assert len({s[:2] for s in sides}) == n  # never both sides of one board
    assert catalog.rounds_for(n) == rounds


def test_boards_and_sides_come_from_the_seed():
    seen = {tuple(draw_sides(2, random.Random(seed))) for seed in range(40)}
    assert len(seen) > 4  # boards and sides vary
    assert draw_sides(3, random.Random(7)) == draw_sides(3, random.Random(7))


def test_map_regions_are_flat_and_islands_never_touch():
    m = islands.map_for(("L1a", "M2b", "S1b"))
    assert len(m.ids) == len(set(m.ids))
    for i, nbrs in enumerate(m.adj):
        assert all(m.island[j] == m.island[i] for j in nbrs)
        assert all(i in m.adj[j] for j in nbrs)
