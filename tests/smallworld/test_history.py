"""First-half histories (game_started v1, no box) replay with the box they were played with."""
import json

from domain.play import fold
from domain.smallworld import GAME
from domain.smallworld.evolve import FIRST_HALF
from tests.recorded.record import HERE


def test_a_v1_start_is_upcast_to_the_first_half_box():
    recording = json.loads((HERE / "smallworld-of-warcraft" / "5-seats.json").read_text())
    events = [e["data"] for e in recording["events"] if e["type"] != "game_created"]
    assert "box" not in events[0] and events[0].get("v", 1) == 1
    state = fold(GAME, events)
    assert state.box == tuple(tuple(FIRST_HALF[k]) for k in ("races", "powers", "markers"))
    assert GAME.result(state) == recording["final"]["result"]
    assert len(FIRST_HALF["races"]) == 8 and len(FIRST_HALF["powers"]) == 13 and len(FIRST_HALF["markers"]) == 6


def test_new_games_start_with_the_whole_box():
    state = fold(GAME, GAME.setup({}, 3, __import__("random").Random(1)))
    assert len(state.box[0]) == 16 and len(state.box[1]) == 20 and len(state.box[2]) == 12
