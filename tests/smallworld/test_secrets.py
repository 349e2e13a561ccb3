"""Hidden things stay hidden: a face-down marker's and an unrevealed bomb's face is not in
the state (it is drawn at the reveal), every viewer sees only their back, and coin totals
are the leak oracle's secrets, in the team game too."""
import json
import random

from domain.contract import EVERYONE, SPECTATOR
from domain.play import fold
from domain.smallworld import GAME
from domain.smallworld.state import START

from .helpers import R, make_state, mine, murloc, play


def test_a_face_down_marker_has_no_face_until_its_region_is_entered():
    regions = {"T-4": mine(0, "orcs", 1), "T-5": murloc()._replace(marker="hidden")}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 9}})
    for viewer in (0, 1, SPECTATOR, EVERYONE):
        assert GAME.view(state, viewer)["regions"][R("T-5")]["marker"] == "hidden"
    faces = {play(state, 0, {"type": "conquer", "region": "T-5"}, seed=seed)[1][0]["revealed"] for seed in range(40)}
    assert len(faces) > 3  # the same state reveals different faces: none was fixed before


def test_an_unrevealed_bomb_has_no_face_until_the_goblins_turn():
    regions = {"T-2": mine(0, "goblins", 2), "T-1": mine(1, "orcs", 3, bomb=1)}
    state = make_state(step=START, regions=regions, players={0: {"race": "goblins", "power": "farmer"},
                                                             1: {"race": "orcs", "power": "farmer"}})
    shown = [GAME.view(state, v)["regions"][R("T-1")] for v in (0, 1, SPECTATOR, EVERYONE)]
    assert all(r["bomb"] is True for r in shown)
    assert "live" not in json.dumps(shown) and "dud" not in json.dumps(shown)
    outcomes = {play(state, 0, {"type": "ready"}, seed=seed)[1][0]["bombs"][0]["live"] for seed in range(40)}
    assert outcomes == {True, False}


def test_coin_totals_are_the_oracles_secrets_in_the_team_game_too():
    state = fold(GAME, GAME.setup({"team": True}, 4, random.Random(3)))
    secrets = GAME.secrets(state)
    assert len(secrets) == 4 and all(len(seats) == 1 for seats in secrets.values())
    for viewer in range(4):
        text = json.dumps(GAME.view(state, viewer))
        for token, seats in secrets.items():
            assert (token in text) == (viewer in seats)
