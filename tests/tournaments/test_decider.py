"""The tournament decider (api/tournaments): its refusals, and standings that follow adjustments."""
from __future__ import annotations

import pytest

from api.errors import ValidationFailed
from api.tournaments import decider, standings
from api.tournaments.state import fold


def _run(rules_body, entrants, results=()):
    state = decider.State()
    rules = decider.rules_from({"type": "g", "start": 0, **rules_body}, 2, 6, 0)
    events = decider.decide(state, decider.Command("create", 1, id="t", rules=rules))
    state = fold(events)
    for e in entrants:
        state = fold(decider.decide(state, decider.Command("enter", 1, entrant=e, rating=1500.0)), state)
    return state


def _result(state, round_, table, places):
    return fold(decider.decide(state, decider.Command("result", 2, round=round_, table=table, places=places)), state)


def test_rules_are_checked_and_frozen():
    with pytest.raises(ValidationFailed) as refused:
        decider.rules_from({"type": "g", "format": "swiss", "seats": 9}, 2, 6, 0)
    assert set(refused.value.details["fields"]) == {"seats", "rounds"}
    rules = decider.rules_from({"type": "g", "format": "arena", "seats": 3, "min_seats": 2, "duration_s": 600}, 2, 6, 5)
    assert rules["algorithm"] == {"name": "groups-by-score", "version": 2} and rules["start"] == 5


def test_entries_withdrawals_and_late_joins():
    state = _run({"format": "swiss", "rounds": 2, "late_join_points": 1}, ["player:a", "player:b"])
    with pytest.raises(decider.AlreadyEntered):
        decider.decide(state, decider.Command("enter", 2, entrant="player:a"))
    with pytest.raises(decider.NotEntered):
        decider.decide(state, decider.Command("withdraw", 2, entrant="player:z"))
    state = fold(decider.decide(state, decider.Command("pair", 3, seed="s")), state)
    with pytest.raises(decider.RoundNotReady):
        decider.decide(state, decider.Command("pair", 3, seed="s"))
    late = decider.decide(state, decider.Command("enter", 4, entrant="player:c"))
    assert late[0]["type"] == "entrant_late_joined" and late[0]["points"] == 1.0
    state = fold(late, state)
    assert standings.by_entrant(standings.compute(state))["player:c"]["points"] == 1.0
    state = _result(state, 1, 1, {"player:a": 1, "player:b": 2})
    state = fold(decider.decide(state, decider.Command("pair", 5, seed="t")), state)
    with pytest.raises(decider.TournamentClosed):  # past half the rounds
        decider.decide(state, decider.Command("enter", 6, entrant="player:d"))


def test_a_void_moves_the_whole_table():
    """A 4-seat round: the winner voided, the others move up a place; the void undone, back."""
    people = [f"player:{x}" for x in "abcd"]
    state = _run({"format": "swiss", "rounds": 1, "seats": 4}, people)
    state = fold(decider.decide(state, decider.Command("pair", 3, seed="s")), state)
    state = _result(state, 1, 1, {"player:a": 1, "player:b": 2, "player:c": 3, "player:d": 3})
    points = {r["entrant"]: r["points"] for r in standings.compute(state)}
    assert points == {"player:a": 6.0, "player:b": 4.0, "player:c": 1.0, "player:d": 1.0}
    void = decider.Command("adjust", 4, how="void_player", entrant="player:a", by="m", reason="engine")
    voided = fold(decider.decide(state, void), state)
    rows = standings.compute(voided)
    assert {r["entrant"]: r["points"] for r in rows} == \
        {"player:a": 0.0, "player:b": 6.0, "player:c": 3.0, "player:d": 3.0}
    assert rows[0]["entrant"] == "player:b" and rows[-1]["entrant"] == "player:a" and rows[-1]["voided"]
    assert decider.decide(voided, void) == []
    undo = decider.Command("adjust", 5, how="unvoid_player", entrant="player:a", by="m")
    assert {r["entrant"]: r["points"] for r in standings.compute(fold(decider.decide(voided, undo), voided))} == points
    game = decider.Command("adjust", 5, how="void_game", round=1, table=1, by="m")
    assert {r["points"] for r in standings.compute(fold(decider.decide(state, game), state))} == {0.0}
    fixed = decider.Command("adjust", 5, how="set_result", round=1, table=1, by="m",
                            places={"player:a": 4, "player:b": 3, "player:c": 2, "player:d": 1})
    assert standings.compute(fold(decider.decide(state, fixed), state))[0]["entrant"] == "player:d"


def test_tiebreaks_buchholz_then_head_to_head():
    people = [f"player:{x}" for x in "abcd"]
    state = _run({"format": "swiss", "rounds": 2, "tiebreaks": ["buchholz", "head_to_head"]}, people)
    state = fold(decider.decide(state, decider.Command("pair", 3, seed="s")), state)
    for k, table in enumerate(state.rounds[0].tables, 1):
        state = _result(state, 1, k, {table.seats[0]: 1, table.seats[1]: 2})
    rows = standings.compute(state)
    winners = [r for r in rows if r["points"] == 2.0]
    assert len(winners) == 2 and all(r["buchholz"] == 0.0 for r in winners)
    state = fold(decider.decide(state, decider.Command("pair", 4, seed="t")), state)
    first = state.rounds[1].tables[0]
    assert set(first.seats) == {w["entrant"] for w in winners}  # the leaders at table 1
    state = _result(state, 2, 1, dict.fromkeys(first.seats, 1))  # a draw: 1 point each
    last = state.rounds[1].tables[1]
    state = _result(state, 2, 2, {last.seats[0]: 1, last.seats[1]: 2})
    rows = standings.compute(state)
    assert [r["points"] for r in rows] == [3.0, 3.0, 2.0, 0.0]
    assert rows[0]["buchholz"] > rows[1]["buchholz"]  # beat the one who then won


def test_a_finished_tournament_takes_nothing_but_adjustments():
    state = _run({"format": "swiss", "rounds": 1}, ["player:a", "player:b"])
    state = fold(decider.decide(state, decider.Command("finish", 3)), state)
    assert state.status == "finished"
    with pytest.raises(decider.TournamentClosed):
        decider.decide(state, decider.Command("enter", 4, entrant="player:c"))


def test_the_arena_doubles_a_win_after_two_wins_in_a_row():
    people = ["player:a", "player:b", "player:c", "player:d"]
    state = _run({"format": "arena", "duration_s": 600}, people)
    wins = []
    for n in range(4):
        state = fold(decider.decide(state, decider.Command("pair", 10 + n, seed=f"{n}")), state)
        r = state.rounds[-1]
        table = next(k for k, t in enumerate(r.tables, 1) if "player:a" in t.seats)
        mate = next(e for e in r.tables[table - 1].seats if e != "player:a")
        state = _result(state, r.number, table, {"player:a": 1, mate: 2})
        for k, t in enumerate(r.tables, 1):
            if k != table:
                state = _result(state, r.number, k, {t.seats[0]: 1, t.seats[1]: 2})
        wins.append(standings.by_entrant(standings.compute(state))["player:a"]["points"])
    assert wins == [2.0, 4.0, 8.0, 12.0]  # 2, 2, then doubled: 4, 4


def test_a_player_whose_clock_ran_out_twice_is_withdrawn_as_a_no_show():
    people = ["player:a", "player:b", "player:c", "player:d"]
    state = _run({"format": "swiss", "rounds": 3}, people)
    for n in (1, 2):
        state = fold(decider.decide(state, decider.Command("pair", 3, seed=f"{n}")), state)
        for k, t in enumerate(state.rounds[-1].tables, 1):
            missed = ("player:a",) if "player:a" in t.seats else ()
            made = decider.decide(state, decider.Command("result", 4, round=n, table=k, missed=missed,
                                                         places={t.seats[0]: 1, t.seats[1]: 2}))
            assert [e["type"] for e in made] == ["game_result"] + (["entrant_withdrawn"] if missed and n == 2 else [])
            state = fold(made, state)
    assert not state.entrants["player:a"].active and state.entrants["player:b"].active
    state = fold(decider.decide(state, decider.Command("pair", 5, seed="3")), state)
    assert "player:a" not in {e for t in state.rounds[-1].tables for e in t.seats}


def test_a_tournament_started_without_enough_entrants_waits_for_them():
    state = _run({"format": "swiss", "rounds": 2, "seats": 4, "min_seats": 3}, ["player:a", "player:b"])
    assert decider.next_step(state, 10) is None
    state = fold(decider.decide(state, decider.Command("enter", 11, entrant="player:c")), state)
    assert decider.next_step(state, 12) == "pair"
