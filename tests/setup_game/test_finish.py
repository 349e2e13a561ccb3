"""The finish at 31 / 27 / 23, its tie-breaks, and the team game's order and win rule."""
import random

import pytest

from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.finish import finish_detail

from .helpers import apply, first, play, start

QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}
# The 7s: the player puts the heart 7 on C1; W1/W2 (seat 1) and N1/N2 (seat 2) hold 7s.
SEVENS = {"C2": "s1", "C3": "c1", "C4": "h9", "W1": "s7", "W2": "c7", "N1": "d7", "N2": "st7"}


@pytest.mark.parametrize("n,goal", [(2, 31), (3, 27), (4, 23)])
def test_reaching_the_finish_ends_the_game_at_once(n, goal):
    racks = [["st10", "h2"]] + [[] for _ in range(n - 1)]
    state = start(n=n, board={**QUIET, "C3": "d10"}, racks=racks, market=["c10"],
                  scores=[goal - 3] + [0] * (n - 1))
    events, after = apply(state, play({"S1": "st10", "S2": "c10"}))
    assert [e["type"] for e in events] == ["set_made", "game_ended"]  # no refill, no next turn
    assert after.over and GAME.actors(after) == []
    result = GAME.result(after)
    assert result["winners"] == [0] and result["scores"][0] == goal and result["reason"] == "finish"


def test_one_point_short_the_game_goes_on():
    state = start(board={**QUIET, "C3": "d10"}, racks=[["st10"], []], market=["c10"], scores=[27, 0])
    _, after = apply(state, play({"S1": "st10", "S2": "c10"}))
    assert not after.over and after.scores == (30, 0) and GAME.result(after) is None


def _sevens(scores, turn=0):
    racks = [[], [], []]
    racks[turn] = ["h7"]
    return start(n=3, board=SEVENS, racks=racks, scores=scores, turn=turn)


def test_several_reach_it_the_highest_score_wins():
    # Player 0: +5 -> 27; seat 1: +2 -> 28 (bonus points): seat 1 wins.
    events, after = apply(_sevens([22, 26, 0]), play({"C1": "h7"}))
    assert GAME.result(after)["winners"] == [1]
    assert first(events, "game_ended")["tie_break"] == "highest_score"


def test_several_tied_on_top_the_player_whose_turn_it_was_wins():
    _, after = apply(_sevens([23, 26, 0]), play({"C1": "h7"}))  # 28 and 28
    assert GAME.result(after)["winners"] == [0]
    assert GAME.result(after)["tie_break"] == "player_whose_turn"


def test_others_tied_on_top_by_bonus_points_share_the_win():
    # Player 0 reaches nothing (5 -> 10); seats 1 and 2 both reach 27 through bonus points.
    _, after = apply(_sevens([5, 25, 25]), play({"C1": "h7"}))
    assert GAME.result(after)["winners"] == [1, 2]
    assert GAME.result(after)["tie_break"] == "shared"


def test_team_game_turns_go_0_2_1_3():
    state = fold(GAME, GAME.setup({"teams": True}, 4, random.Random(9)))
    seen = []
    rng = random.Random(0)
    for _ in range(8):
        seat = GAME.actors(state)[0]
        seen.append(seat)
        swap = next(m for m in GAME.legal_moves(state, seat) if m["type"] == "swap")
        for event in GAME.decide(state, seat, swap, rng):
            state = GAME.evolve(state, event)
    assert seen == [0, 2, 1, 3, 0, 2, 1, 3]


@pytest.mark.parametrize("scores,mover,winners,rule", [
    ([23, 5, 10, 12], 0, [2, 3], "lowest_score_loses"),      # my partner is last: we lose
    ([23, 12, 10, 5], 0, [0, 1], "lowest_score_loses"),
    ([23, 5, 22, 5], 2, [0, 1], "highest_score"),            # lowest tied across teams
    ([20, 5, 24, 5], 0, [2, 3], "highest_score"),
    ([23, 5, 23, 5], 2, [2, 3], "team_that_placed_last"),    # both tied: the mover's team
    ([23, 5, 23, 5], 1, [0, 1], "team_that_placed_last"),
    ([23, 4, 4, 9], 3, [0, 1], "highest_score"),           # seat 0 tops it
])
def test_team_win_rule(scores, mover, winners, rule):
    detail = finish_detail(scores, 23, mover, teams=True)
    assert detail["winners"] == winners and detail["tie_break"] == rule


def test_team_game_ends_with_a_team_result():
    # Seat 0 reaches 23 but partner seat 1 has the lowest score: team 2+3 wins.
    state = start(n=4, teams=True, board={**QUIET, "C3": "d10"}, racks=[["st10"], [], [], []],
                  market=["c10"], scores=[20, 1, 5, 6])
    _, after = apply(state, play({"S1": "st10", "S2": "c10"}))
    result = GAME.result(after)
    assert result["winners"] == [2, 3] and result["winning_team"] == 1
    assert result["teams"] == [[0, 1], [2, 3]]


def test_nobody_at_the_finish_no_result():
    assert finish_detail([30, 30], 31, 0, teams=False) is None
