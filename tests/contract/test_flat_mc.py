"""bench/flat_mc.py's flat Monte Carlo baseline (issue 56) keeps working: a seeded game of every
hosted game played to its end, the baseline in one seat with a tiny CPU budget (its k arms tried
once each), every move it plays one of the real state's legal moves, and it runs at least one
iteration per arm; and the match runner seats two levels, alternating seats, and counts wins."""
from __future__ import annotations

import json
import random

import pytest

from bench import flat_mc
from bench.flat_mc import FlatMC
from domain import registry
from domain.contract import SYSTEM
from domain.play import fold

pytestmark = pytest.mark.unit


SHORT = {"fairy-tile": {"round_limit": 10}}  # its fewest rounds: the evaluation is its costliest


def _key(move) -> str:
    return json.dumps(move, sort_keys=True)


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.name)
def test_the_baseline_plays_only_legal_moves_from_its_seats_view_to_the_end(game):
    baseline = FlatMC(game, k=2, cpu_s=0.0)
    rng = random.Random(3)
    other = next(level for level in game.bots if level not in ("random", "expert"))
    options = {**game.default_options(), **SHORT.get(game.name, {})}
    state = fold(game, game.setup(options, game.min_seats, random.Random(3)))
    for _ in range(game.max_events):
        actors = game.actors(state)
        if not actors:
            break
        actor = actors[0]
        if actor == 0:
            seen = game.determinize(state, 0, rng) if game.determinize is not None else state
            move = baseline(seen, 0, rng)
            assert _key(move) in {_key(m) for m in game.legal_moves(state, 0)}
        elif actor == SYSTEM:
            move = game.legal_moves(state, actor)[0]
        else:
            move = game.bots[other](state, actor, rng)
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
    assert not game.actors(state), "the game did not end"
    assert baseline.iterations and min(baseline.iterations) >= 2


def test_the_runner_alternates_seats_and_counts_a_levels_wins(monkeypatch, capsys):
    seen = []

    def fake_play(game, levels, seed, baseline, cpu, budget_from):
        seen.append((dict(levels), seed))
        cpu.setdefault(levels[0], []).append(0.001)
        return {"winners": [0]}  # seat 0 always wins

    monkeypatch.setattr(flat_mc, "play", fake_play)
    out = flat_mc.match("splendor", 10, 4, a="greedy", b="flat-mc", verbose=False)
    assert [s for _, s in seen] == [10, 11, 12, 13]
    assert [levels[0] for levels, _ in seen] == ["greedy", "flat-mc", "greedy", "flat-mc"]
    assert out["wins"] == 2 and out["played"] == 4
    assert "greedy won 2 (50.0%, 95% Wilson CI 15.0-85.0%" in capsys.readouterr().out
    with pytest.raises(AssertionError):
        flat_mc.match("splendor", 1, 1, a="careful", b="flat-mc")


@pytest.mark.parametrize(("scores", "winners", "seat", "ahead"), [
    ([5, 9, 12], [0], 0, 1.0),    # fewest points wins (Witches): ahead of both
    ([5, 9, 12], [0], 1, 0.5),    # behind the winner, ahead of the last
    ([12, 9, 5], [0], 1, 0.5),    # most points wins: the same place
    ([12, 9, 5], [0], 2, 0.0),
    ([7, 7, 3], [0, 1], 1, 0.75),  # a shared win: half against the other winner
    ([7, 7, 3], [0], 1, 0.5),     # equal scores, the tie-break's winner ahead
])
def test_the_pairwise_score_reads_places_from_the_scores_and_the_winners(scores, winners, seat, ahead):
    assert flat_mc.pairwise({"winners": winners, "scores": scores}, seat, 3) == ahead


def test_a_three_seat_match_prints_the_pairwise_score(monkeypatch, capsys):
    def fake_play(game, levels, seed, baseline, cpu, budget_from):
        return {"winners": [0], "scores": [3, 8, 9]}  # seat 0 fewest fire points, always

    monkeypatch.setattr(flat_mc, "play", fake_play)
    out = flat_mc.match("witches", 1, 3, a="careful", b="random", verbose=False)
    assert out["pairwise"] == [1.0, 0.5, 0.0]  # careful in seat 0 (first), then seat 1 (second), seat 2 (last)
    assert "careful finished ahead of 3 of 6 opponents (50.0%" in capsys.readouterr().out
