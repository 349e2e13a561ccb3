"""Every pairing of many random tournaments (2-6 seats, odd counts, withdrawals, late joins, voids)
agrees with the oracle written from the rules' text (oracle.py), and with its own recomputation
from the history (api/tournaments/verify.py)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.tournaments.verify import verify
from tests.tournaments import oracle
from tests.tournaments.simulate import play


@st.composite
def shapes(draw):
    fmt = draw(st.sampled_from(["swiss", "swiss", "round_robin", "arena"]))
    seats = draw(st.integers(2, 6))
    least = draw(st.integers(2, seats))
    entrants = draw(st.integers(seats, 15 if fmt != "round_robin" else 9))
    return fmt, seats, least, entrants, draw(st.integers(1, 5)), draw(st.integers(0, 2**32))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(shapes())
def test_every_pairing_agrees_with_the_oracle_and_recomputes(shape):
    fmt, seats, least, entrants, rounds, seed = shape
    events = play(random.Random(seed), fmt, seats, least, entrants, rounds)
    assert any(e["type"] == "round_paired" for e in events)
    assert oracle.check(events) == []
    assert all(r["inputs"] and r["tables"] for r in verify(events)), verify(events)


@pytest.mark.parametrize("seed", range(6))
def test_swiss_two_seats_never_repeats_while_avoidable(seed):
    """A field of 8 playing 7 rounds: each round has as few repeats as any pairing of its players
    (the oracle's exhaustive search), and the first 4 none at all (the pairs not played yet then
    make a graph of degree >= 4 = n/2 on 8 players: by Dirac's theorem it has a Hamiltonian cycle,
    so a perfect matching without a repeat always exists)."""
    events = play(random.Random(seed), "swiss", 2, 2, 8, rounds=7, withdraw=0, late=0, void=0, no_show=0)
    paired = [e for e in events if e["type"] == "round_paired"]
    assert len(paired) == 7
    pairs = Counter(frozenset(t) for e in paired[:4] for t in e["tables"])
    assert len(pairs) == 16 and set(pairs.values()) == {1}
    assert oracle.check(events) == []


def test_the_oracle_finds_a_repeat_and_a_forged_table():
    """The oracle can fail: a pairing edited to repeat a pair, or to seat a player twice."""
    events = play(random.Random(3), "swiss", 2, 2, 8, rounds=3, withdraw=0, late=0, void=0, no_show=0)
    paired = [e for e in events if e["type"] == "round_paired"]
    second = events.index(paired[1])
    a, b = paired[0]["tables"][0]
    others = [e for t in paired[1]["tables"] for e in t if e not in (a, b)]
    tables = [[a, b]] + [others[i:i + 2] for i in range(0, len(others), 2)]
    forged = [*events[:second], {**paired[1], "tables": tables}]
    assert oracle.check(events[:second + 1]) == []
    assert any("repeats" in p or "seat order" in p for p in oracle.check(forged))
    twice = {**paired[1], "tables": [paired[1]["tables"][0], paired[1]["tables"][0]]}
    assert any("twice" in p for p in oracle.check([*events[:second], twice]))
    assert not all(r["tables"] for r in verify([*events[:second], twice]))


def test_round_robin_two_seats_meets_everyone_once():
    for n in (4, 5, 8, 9):
        events = play(random.Random(n), "round_robin", 2, 2, n, withdraw=0, late=0, void=0, no_show=0)
        pairs = Counter(frozenset(t) for e in events if e["type"] == "round_paired" for t in e["tables"])
        assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}, n


def test_forged_standings_in_the_inputs_are_found():
    events = play(random.Random(5), "swiss", 4, 3, 10, rounds=3, withdraw=0, late=0, void=0, no_show=0)
    paired = [e for e in events if e["type"] == "round_paired"]
    second = events.index(paired[1])
    inputs = dict(paired[1]["inputs"])
    inputs["players"] = [{**p, "points": p["points"] + 1} if i == 0 else p for i, p in enumerate(inputs["players"])]
    forged = [*events[:second], {**paired[1], "inputs": inputs}]
    assert any("points" in p for p in oracle.check(forged))
    assert not verify(forged)[-1]["inputs"]


def test_the_verify_tool_reads_a_history_and_says_which_rounds_disagree(capsys, monkeypatch):
    import io

    import orjson

    from tools import tournaments as tool

    events = play(random.Random(9), "swiss", 3, 2, 7, rounds=3)
    paired = [e for e in events if e["type"] == "round_paired"]
    forged = [e if e is not paired[-1] else {**e, "tables": e["tables"][::-1]} for e in events]
    for history, status in ((events, 0), (forged, 1)):
        stdin = io.TextIOWrapper(io.BytesIO(b"".join(orjson.dumps(e) + b"\n" for e in history)))
        monkeypatch.setattr("sys.stdin", stdin)
        assert tool.main(["verify", "-"]) == status
    assert "1 disagree" in capsys.readouterr().out


def test_a_large_swiss_field_is_matched_in_blocks_without_repeats():
    """200 players (above 96: matched in blocks of 64): every round recomputes, every player
    seated once, and no pair meets twice in 3 rounds."""
    events = play(random.Random(4), "swiss", 2, 2, 200, rounds=3, withdraw=0, late=0, void=0, no_show=0)
    paired = [e for e in events if e["type"] == "round_paired"]
    assert len(paired) == 3 and all(len(e["tables"]) == 100 for e in paired)
    pairs = Counter(frozenset(t) for e in paired for t in e["tables"])
    assert set(pairs.values()) == {1}
    assert oracle.check(events) == [] and all(r["inputs"] and r["tables"] for r in verify(events))


@pytest.mark.parametrize("players, seats, least, most", [(9, 3, 1, 1), (16, 4, 1, 1), (12, 4, 0, 2), (10, 3, 0, 2),
                                                          (7, 3, 0, 2), (8, 6, 0, 2)])
def test_a_multi_seat_round_robin_is_balanced(players, seats, least, most):
    """The fewest and the most times two players meet, over the minimal rounds (the figures of
    api/tournaments/schedule.py's docstring): 9 at 3 seats and 16 at 4 meet every pair exactly
    once (a resolvable design found); the others within 2 of each other."""
    events = play(random.Random(1), "round_robin", seats, seats, players, withdraw=0, late=0, void=0, no_show=0)
    met = Counter(frozenset((a, b)) for e in events if e["type"] == "round_paired"
                  for t in e["tables"] for i, a in enumerate(t) for b in t[i + 1:])
    entrants = sorted(e["entrant"] for e in events if e["type"] == "entrant_entered")
    counts = [met.get(frozenset((a, b)), 0) for i, a in enumerate(entrants) for b in entrants[i + 1:]]
    assert (min(counts), max(counts)) == (least, most)
    assert oracle.check(events) == [] and all(r["inputs"] and r["tables"] for r in verify(events))


def test_the_schedule_is_recomputed_the_same_and_keeps_byes_fair():
    """Pure and seeded by the field's shape alone: made twice (the cache cleared), the same; each
    player's byes within one of everyone's; every round seats each player once."""
    from api.tournaments import schedule

    first = schedule.schedule(11, (4, 4), 3, 4)
    schedule.schedule.cache_clear()
    assert schedule.schedule(11, (4, 4), 3, 4) == first
    byes = Counter(p for _, off in first for p in off)
    assert max(byes[p] for p in range(11)) - min(byes[p] for p in range(11)) <= 1
    for tables, off in first:
        assert sorted([p for t in tables for p in t] + list(off)) == list(range(11))


def test_a_round_robin_player_gone_leaves_its_table_and_a_short_table_gives_byes():
    """Version 2: round r's tables are the schedule's; an entrant no longer playing leaves its
    table (4 seats, at least 3: the table plays on at 3), and a table left below `min_seats`
    gives its players byes."""
    from api.tournaments import pairing, schedule

    order = [f"p{i}" for i in range(8)]
    base = {"format": "round_robin", "round": 1, "seats": 4, "min_seats": 3, "seed": "s", "rounds": 3,
            "algorithm": {"name": pairing.ALGORITHM, "version": 2}, "order": order, "met": {}}
    (first, _), *_ = schedule.schedule(8, (4, 4), 0, 3)
    gone = order[first[0][0]]
    made = pairing.pair({**base, "players": [{"entrant": e, "byes": 0} for e in order if e != gone]})
    assert sorted(len(t) for t in made["tables"]) == [3, 4] and made["byes"] == []
    two = {order[first[0][0]], order[first[0][1]]}
    made = pairing.pair({**base, "players": [{"entrant": e, "byes": 0} for e in order if e not in two]})
    assert [len(t) for t in made["tables"]] == [4]
    assert made["byes"] == sorted(order[p] for p in first[0][2:])
