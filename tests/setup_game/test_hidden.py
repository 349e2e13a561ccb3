"""Hidden information: a seat sees its own rack only; nobody sees the bag's content."""
import json
import random

from domain.contract import EVERYONE, SPECTATOR
from domain.setup_game import GAME
from domain.setup_game.data import TILE_IDS as GAME_IDS

from .helpers import apply, start, tid

QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}


def _state():
    return start(board=QUIET, racks=[["h2", "h4"], ["c2", "d9"]], market=["s5"])


def test_a_seat_sees_its_rack_and_only_the_size_of_the_others():
    view = GAME.view(_state(), 0)
    assert [t["id"] for t in view["rack"]] == [tid("h2"), tid("h4")]
    assert view["rack_sizes"] == [2, 2]
    text = json.dumps(view)
    assert tid("c2") not in text and tid("d9") not in text


def test_spectators_see_no_rack_and_nobody_sees_the_bag():
    state = _state()
    text = json.dumps(GAME.view(state, SPECTATOR))
    for tile in ("h2", "h4", "c2", "d9"):
        assert tid(tile) not in text
    for viewer in (0, 1, SPECTATOR):
        view = GAME.view(state, viewer)
        assert view["bag_count"] == len(state.bag)
        assert not any(json.dumps(tile) in json.dumps(view) for tile in
                       (GAME_IDS[t] for t in state.bag))


def test_everyone_sees_all_racks_once_allowed():
    view = GAME.view(_state(), EVERYONE)
    assert [len(r) for r in view["racks"]] == [2, 2]
    assert len(view["bag"]) == view["bag_count"] == len(_state().bag)


def test_setup_event_shows_each_seat_its_own_rack_only():
    event, = GAME.setup({"teams": False}, 3, random.Random(2))
    for viewer in (0, 1, 2):
        racks = GAME.redact(event, viewer)["racks"]
        for seat, rack in enumerate(racks):
            assert (rack == event["racks"][seat]) if seat == viewer else rack == [None] * 4
    assert GAME.redact(event, SPECTATOR)["racks"] == [[None] * 4] * 3
    assert GAME.redact(event, EVERYONE) == event


def test_draws_and_swaps_of_another_seat_show_only_a_count():
    state = start(board=QUIET, racks=[["h2", "h4"], []], bag=["st1", "st2"])
    events, after = apply(state, {"type": "swap", "tiles": [tid("h2")]})
    drew, swapped = events[0], events[1]
    assert GAME.redact(drew, 1)["tiles"] == [None] and GAME.redact(swapped, 1)["tiles"] == [None]
    assert GAME.redact(drew, 0) == drew and GAME.redact(swapped, SPECTATOR)["tiles"] == [None]
    # the swapper alone knows what it put back in the bag
    secrets = GAME.secrets(after)
    assert secrets[tid("h2")] == frozenset({0})
    assert secrets[events[0]["tiles"][0]] == frozenset({0})
    assert secrets[tid("st1") if events[0]["tiles"][0] != tid("st1") else tid("st2")] == frozenset()


def test_redact_returns_copies_the_caller_may_extend():
    event, = GAME.setup({"teams": False}, 2, random.Random(2))
    for viewer in (0, 1, SPECTATOR, EVERYONE):
        out = GAME.redact(event, viewer)
        assert out is not event
        out["version"] = 1
    assert "version" not in event


def test_market_draws_are_public():
    state = start(board={**QUIET, "C3": "d10"}, racks=[["st10"], []], market=["c10"])
    events, _ = apply(state, {"type": "play", "place": {"S1": tid("st10"), "S2": tid("c10")}})
    market = next(e for e in events if e["type"] == "drew" and e["to"] == "market")
    assert GAME.redact(market, 1) == market
