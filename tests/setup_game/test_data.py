"""The components file: 50 tiles, 12 squares, the spec's links; bad data is refused at load."""
import copy
import json

import pytest

from domain.setup_game import data

SPEC_LINKS = {frozenset(p.split("-")) for p in (
    "C1-C2 C1-C3 C2-C4 C3-C4 N1-N2 N1-C1 N2-C2 W1-W2 W1-C1 W2-C3 E1-E2 E1-C2 E2-C4 S1-S2 "
    "S1-C3 S2-C4").split()}


def test_fifty_tiles_five_suits_numbers_one_to_ten():
    assert data.N_TILES == 50
    faces = {(data.SUITS[data.SUIT[t]], data.NUMBER[t]) for t in range(50)}
    assert faces == {(s, n) for s in ("spade", "heart", "diamond", "club", "star") for n in range(1, 11)}
    assert all(i.startswith("su-") for i in data.TILE_IDS)


def test_twelve_squares_with_the_spec_links_and_owners():
    assert set(data.SQUARE_IDS) == {"N1", "N2", "W1", "W2", "E1", "E2", "S1", "S2", "C1", "C2", "C3", "C4"}
    links = {frozenset((data.SQUARE_IDS[a], data.SQUARE_IDS[b]))
             for a in range(12) for b in data.NEIGHBOURS[a]}
    assert links == SPEC_LINKS
    owner = dict(zip(data.SQUARE_IDS, data.OWNER))
    assert owner == {"C1": None, "C2": None, "C3": None, "C4": None, "S1": 0, "S2": 0,
                     "W1": 1, "W2": 1, "N1": 2, "N2": 2, "E1": 3, "E2": 3}


def _doc():
    return json.loads(data.COMPONENTS_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("breakage", [
    lambda d: d["tiles"].append(dict(d["tiles"][0])),                       # duplicate id
    lambda d: d["tiles"].append({"id": "x", "suit": "heart", "number": 1}),  # repeated face
    lambda d: d["tiles"].append({"id": "x", "suit": "moon", "number": 1}),   # unknown suit
    lambda d: d["tiles"].append({"id": "x", "suit": "heart", "number": 0}),  # bad number
    lambda d: d["links"].append(["C1", "Z9"]),                               # unknown square
    lambda d: d["links"].append(["C1", "C1"]),                               # self link
    lambda d: d["links"].append(["C2", "C1"]),                               # listed twice
    lambda d: d["squares"][0].update(owner=7),                               # bad owner
    lambda d: d["squares"].__setitem__(slice(None), [s for s in d["squares"] if s["owner"] != 3]),
])
def test_bad_component_data_is_refused(breakage):
    doc = copy.deepcopy(_doc())
    breakage(doc)
    with pytest.raises(data.ComponentDataError):
        data._load(doc)


def test_the_shipped_file_loads():
    assert data._load(_doc())["tile_ids"] == data.TILE_IDS
