"""Refilling the market then the rack, swapping 1-4 tiles, and the empty bag that takes the
covered tiles back."""
import pytest

from domain.setup_game.data import SQUARE_INDEX

from .helpers import apply, play, rejected, start, tid, tix

QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}


def _kinds(events):
    return [(e["type"], e.get("to")) for e in events]


def test_after_a_set_the_market_is_refilled_first_then_the_rack():
    state = start(board={**QUIET, "N1": "d10"}, racks=[["st10", "h2"], ["c2"]],
                  market=["c10", "s5", "s6", "s7"])
    events, after = apply(state, play({"C1": "st10", "C2": "c10"}))
    assert _kinds(events) == [("set_made", None), ("drew", "market"), ("drew", "rack"),
                              ("next_turn", None)]
    assert len(events[1]["tiles"]) == 1 and len(events[2]["tiles"]) == 3  # rack 1 -> 4
    assert len(after.market) == 4 and len(after.racks[0]) == 4 and after.turn == 1
    drawn = set(events[1]["tiles"] + events[2]["tiles"])
    assert drawn.isdisjoint({tid(t) for t in ("st10", "c10", "h2", "c2")})
    assert len(after.bag) == len(state.bag) - 4


def test_an_empty_bag_takes_every_covered_tile_back_and_drawing_goes_on():
    # Bag: 1 tile. Covered: heart 5 and diamond 1 (under C1), spade 9 (under C2).
    state = start(board={"C3": "c6", "C4": "h8"},
                  stacks={"C1": ["h5", "d1", "h1"], "C2": ["s9", "s3"]},
                  racks=[["h2", "h4", "c2"], []], market=["st2", "st3"], bag=["d4"])
    # heart 2 on C2 (over the spade 3) joins heart 1 on C1; star 2 on N2 joins the heart 2
    events, after = apply(state, play({"C2": "h2", "N2": "st2"}))
    kinds = [e["type"] for e in events]
    assert kinds == ["set_made", "drew", "bag_refilled", "drew", "drew", "next_turn"]
    assert events[1]["tiles"] == [tid("d4")]          # the last bag tile, to the market
    assert events[2]["count"] == 4                    # h5, d1, s9 and (just covered) s3
    assert len(events[3]["tiles"]) == 2 and len(events[4]["tiles"]) == 2  # market to 4; rack to 4
    assert all(len(s) <= 1 for s in after.stacks)     # only top tiles stay on the board
    assert len(after.market) == 4 and len(after.racks[0]) == 4
    assert after.bag == frozenset({tix("h5"), tix("d1"), tix("s9"), tix("s3")}) - \
        {t for t in after.market + after.racks[0]}


def test_with_nothing_to_draw_the_market_and_rack_stay_short():
    state = start(board={**QUIET, "C3": "d10"}, racks=[["st10", "h2"], []], market=["c10"], bag=[])
    events, after = apply(state, play({"S1": "st10", "S2": "c10"}))  # covers nothing
    assert [e["type"] for e in events] == ["set_made", "next_turn"]
    assert after.market == () and len(after.racks[0]) == 1


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_swap_draws_that_many_then_puts_the_swapped_tiles_back(count):
    rack = ["h2", "h4", "c2", "d9"]
    state = start(board=QUIET, racks=[rack, []], market=["s5"], bag=["st1", "st2", "st3", "st4"])
    out = [tid(t) for t in rack[:count]]
    events, after = apply(state, {"type": "swap", "tiles": out})
    assert [e["type"] for e in events] == ["drew", "swapped", "next_turn"]
    assert set(events[0]["tiles"]) <= {tid(t) for t in ("st1", "st2", "st3", "st4")}
    assert len(events[0]["tiles"]) == count and events[1]["tiles"] == sorted(out, key=lambda t: tix_of(t))
    assert len(after.racks[0]) == 4 and after.turn == 1
    assert {tix_of(t) for t in out} <= after.bag and len(after.bag) == 4
    assert after.bag_known[0] == frozenset(tix_of(t) for t in out)


def tix_of(tile_id):
    from domain.setup_game.data import TILE_INDEX
    return TILE_INDEX[tile_id]


def test_swapped_tiles_never_come_straight_back():
    # The bag holds exactly the tiles needed: a swap of 2 draws both, then returns its own.
    state = start(board=QUIET, racks=[["h2", "h4"], []], market=[], bag=["st1", "st2"])
    events, after = apply(state, {"type": "swap", "tiles": [tid("h2"), tid("h4")]})
    assert sorted(events[0]["tiles"]) == sorted([tid("st1"), tid("st2")])
    assert after.bag == frozenset({tix("h2"), tix("h4")})


def test_swap_with_an_empty_bag_refills_it_from_the_covered_tiles_first():
    state = start(board={"C3": "c6", "C4": "h8", "C2": "s3"}, stacks={"C1": ["d1", "h1"]},
                  racks=[["h2"], []], bag=[])
    events, after = apply(state, {"type": "swap", "tiles": [tid("h2")]})
    assert [e["type"] for e in events] == ["bag_refilled", "drew", "swapped", "next_turn"]
    assert events[1]["tiles"] == [tid("d1")] and after.bag == frozenset({tix("h2")})
    assert after.stacks[SQUARE_INDEX["C1"]] == (tix("h1"),)


def test_swap_order_in_the_move_does_not_matter():
    state = start(board=QUIET, racks=[["h2", "h4"], []], bag=["st1", "st2"])
    a, _ = apply(state, {"type": "swap", "tiles": [tid("h4"), tid("h2")]})
    b, _ = apply(state, {"type": "swap", "tiles": [tid("h2"), tid("h4")]})
    assert a == b


def test_swap_needs_rack_tiles():
    state = start(board=QUIET, racks=[["h2"], []], market=["h4"])
    assert rejected(state, {"type": "swap", "tiles": [tid("h4")]}).code == "tile_not_in_rack"
