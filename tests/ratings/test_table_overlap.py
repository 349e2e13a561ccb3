"""Table-overlap collusion (issue 50), the projection alone (api/moderation/signals.py's
table_overlap, pure): in 3-6 seat games, a pair of accounts where one wins while the other
finishes last, far more often than chance gives, over the pair's rolling window of games
together; flagged with its evidence. Unit: constructed rated games."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from api.moderation import signals


def _game(i, order, kind="witches"):
    """A rated game whose identities finished in `order` (best first)."""
    return signals.RatedGame(
        f"g{i:03}", kind, 1000 * i, {w: r for r, w in enumerate(order)}, dict.fromkeys(order, 30), 900.0
    )


def _overlap(games):
    return [
        (f["level"], f["identities"], f["figures"]["won_while_the_other_was_last"])
        for f in signals.table_overlap(games)
    ]


def test_one_feeding_the_other_at_four_tables_is_flagged_with_its_evidence():
    games = [_game(i, ["player:boss", f"player:x{i}", f"player:y{i}", "player:feeder"]) for i in range(4)]
    found = signals.table_overlap(games)
    assert [(f["signal"], f["level"], f["identities"]) for f in found] == [
        ("table_overlap", "flag", ["player:boss", "player:feeder"])
    ]
    figures = found[0]["figures"]
    assert found[0]["games"] == ["g000", "g001", "g002", "g003"]
    assert (figures["games_together"], figures["won_while_the_other_was_last"]) == (4, 4)
    assert figures["chance_if_independent"] == float(f"{(1 / 12) ** 4:.3g}")  # 4 seats: 1 in 12 a game
    assert [g["game"] for g in figures["per_game"]] == found[0]["games"]


def test_three_of_three_warn_and_two_say_nothing():
    three = [_game(i, ["player:a", "player:m", "player:b"]) for i in range(3)]
    assert _overlap(three) == [("warning", ["player:a", "player:b"], 3)]  # (1/6)^3 = 0.0046
    assert _overlap(three[:2]) == []


def test_a_pair_that_sits_together_often_with_ordinary_results_is_not_flagged():
    """Eight players in random orders at 4-seat tables, 300 games: pairs meet often, and chance
    alone makes no flag (nor, here, a warning)."""
    rng = random.Random(5)
    people = [f"player:p{i}" for i in range(8)]
    games = [_game(i, rng.sample(people, 4)) for i in range(300)]
    assert [f for f in signals.table_overlap(games) if f["level"] == "flag"] == []


def test_the_window_forgets_old_games_together():
    fed = [_game(i, ["player:a", "player:m", "player:n", "player:b"]) for i in range(4)]
    later = [
        _game(10 + i, [f"player:w{i}", "player:a", "player:b", f"player:l{i}"]) for i in range(signals.OVERLAP_WINDOW)
    ]
    assert _overlap(fed)[0][0] == "flag"
    assert _overlap(fed + later) == []  # the window holds only the last 20 games together


def test_two_seat_games_bots_and_seven_seat_tables_are_not_judged():
    two = [_game(i, ["player:a", "player:b"], "splendor") for i in range(6)]
    bots = [_game(i, ["bot:expert", "player:m", "bot:random"]) for i in range(6)]
    seven = [_game(i, ["player:a"] + [f"player:m{j}" for j in range(5)] + ["player:b"]) for i in range(6)]
    assert _overlap(two) == _overlap(bots) == _overlap(seven) == []


@pytest.mark.parametrize("chances", [[0.5] * 4, [1 / 12, 1 / 6, 1 / 30], [0.2, 0.9, 0.01, 0.3, 0.5]])
def test_the_chance_is_the_poisson_binomial_tail(chances):
    for k in range(len(chances) + 1):
        exact = sum(
            math.prod(p if hit else 1 - p for p, hit in zip(chances, outcome))
            for outcome in itertools.product([False, True], repeat=len(chances))
            if sum(outcome) >= k
        )
        assert math.isclose(signals.at_least(k, chances), exact, rel_tol=1e-9, abs_tol=1e-12)
