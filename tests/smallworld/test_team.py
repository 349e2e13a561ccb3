"""The team game (rules: Team game; the seed §5): factions and seating, the 4-row display with
faction-only picks paid to the bank, and the team score."""
import random

import pytest

from domain.contract import SYSTEM, InvalidOptions
from domain.play import fold
from domain.smallworld import GAME, catalog, team
from domain.smallworld.state import OVER, PICK, Player

from .helpers import make_state, play


def started(n, seed=1, **options):
    return fold(GAME, GAME.setup({"team": True, **options}, n, random.Random(seed)))


def test_seats_play_alliance_horde_neutral_alliance_horde():
    assert [p.faction for p in started(5).players] == ["alliance", "horde", "neutral", "alliance", "horde"]
    assert [p.faction for p in started(3).players] == ["alliance", "horde", "neutral"]
    assert [p.faction for p in started(4).players] == ["alliance", "horde", "alliance", "horde"]
    assert [p.faction for p in started(2).players] == ["alliance", "horde"]
    assert all(p.faction is None for p in fold(GAME, GAME.setup({}, 4, random.Random(1))).players)


def test_the_display_is_4_rows_of_a_power_and_a_race_of_each_faction():
    state = started(4)
    assert len(state.rows) == 4 and state.display == ()
    for power, *races in state.rows:
        assert power in catalog.POWERS
        assert [catalog.faction(r) for r in races] == ["alliance", "horde", "neutral"]
    view = GAME.view(state, 0)
    assert [row["cost"] for row in view["rows"]] == [0, 1, 2, 3]


def test_a_seat_picks_only_its_factions_race_and_pays_the_bank_per_row_climbed():
    state = started(4)
    assert [m["index"] for m in GAME.legal_moves(state, 0)] == [0, 1, 2, 3]
    row = state.rows[2]
    after, events = play(state, 0, {"type": "pick", "index": 2})
    assert (events[0]["race"], events[0]["power"], events[0]["paid"]) == (row[1], row[0], 2)
    assert after.players[0].race == row[1] and catalog.faction(row[1]) == "alliance"
    assert after.players[0].coins == 3 and sum(p.coins for p in after.players) == 5 * 4 - 2  # to the bank


def test_after_a_pick_the_column_closes_downwards_and_the_top_is_drawn():
    state = started(4)
    before = state.rows
    after, events = play(state, 0, {"type": "pick", "index": 1})
    cells = next(e for e in events if e["type"] == "rows_refilled")["cells"]
    assert {(c["row"], c["column"]) for c in cells} == {(3, "power"), (3, "alliance")}
    assert [r[0] for r in after.rows[:3]] == [before[0][0], before[2][0], before[3][0]]
    assert [r[1] for r in after.rows[:3]] == [before[0][1], before[2][1], before[3][1]]
    assert [r[2] for r in after.rows] == [r[2] for r in before]  # the Horde column did not move
    assert catalog.faction(after.rows[3][1]) == "alliance"


def test_the_neutral_column_runs_out_and_a_returned_banner_lies_under_its_pile():
    state = started(3)
    assert all(catalog.faction(r) == "alliance" for r in state.race_pile if r in team.races_of(state.race_pile, "alliance"))
    neutral_pile = team.races_of(state.race_pile, "neutral")
    assert neutral_pile == []  # the 4 Neutral races are all shown
    state = state.with_(race_pile=tuple(r for r in state.race_pile if catalog.faction(r) != "alliance"),
                        returned=("humans", "gnomes"))
    rows = tuple((p, None if k == 3 else a, h, n) for k, (p, a, h, n) in enumerate(state.rows))
    state = state.with_(rows=rows)
    events = team.refill(state, random.Random(0))
    assert {"row": 3, "column": "alliance", "key": "humans"} in events[0]["cells"]  # the first returned


def test_a_seat_that_cannot_pick_passes():
    state = started(4)
    rows = tuple((p, None, h, n) for p, a, h, n in state.rows)
    state = state.with_(rows=rows)
    assert GAME.legal_moves(state, 0) == [{"type": "skip_pick"}]


def result_of(scores, factions, score="lowest", tokens=None):
    players = tuple(Player(c, faction=f) for c, f in zip(scores, factions))
    state = make_state(n=len(scores)).with_(players=players, team={"score": score})
    return team.result(state, list(scores), tokens or [0] * len(scores))


def test_a_faction_scores_its_lowest_member_and_neutral_alone():
    r = result_of([30, 20, 25, 10, 40], ["alliance", "horde", "neutral", "alliance", "horde"])
    assert [(t["faction"], t["score"]) for t in r["teams"]] == [("alliance", 10), ("horde", 20), ("neutral", 25)]
    assert r["winners"] == [2]


def test_option_highest_takes_the_best_member():
    r = result_of([30, 20, 25, 10, 40], ["alliance", "horde", "neutral", "alliance", "horde"], score="highest")
    assert r["winners"] == [1, 4]


def test_a_tied_team_score_is_broken_by_team_tokens_on_the_boards():
    r = result_of([10, 10, 12, 14], ["alliance", "horde", "alliance", "horde"], tokens=[3, 1, 3, 4])
    assert r["winners"] == [0, 2] and r["tie_break"] == "tokens_on_board"


def test_team_score_needs_the_team_game():
    with pytest.raises(InvalidOptions):
        GAME.check_options({"team": False, "team_score": "highest"}, 4)
    GAME.check_options({"team": True, "team_score": "highest"}, 4)


@pytest.mark.parametrize("n", [4, 5])
def test_team_games_of_bots_play_to_the_end(n):
    rng = random.Random(n)
    state = started(n, seed=n)
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else GAME.bots["greedy"](state, actor, rng)
        for e in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, e)
    assert state.turn.step == OVER
    result = GAME.result(state)
    assert {t["faction"] for t in result["teams"]} >= {"alliance", "horde"}
    for seat in result["winners"]:
        assert any(seat in t["seats"] for t in result["teams"])
    assert state.turn.step != PICK
