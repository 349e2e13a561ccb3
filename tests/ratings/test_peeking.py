"""The peeking detector (issue 50): how much better a player's decisions are explained by the real
hidden state than by what its seat saw. The pure judgement (api/moderation/signals.py) on
constructed evidence, and the evidence itself (domain/analysis.py): the honest model's search
depends on nothing its seat cannot see, the peeking model's does."""
from __future__ import annotations

import math
import random

import pytest

from api.moderation import signals
from domain import registry
from domain.analysis import peek_evidence
from domain.play import fold
from domain.search import key as move_key
from tests.contract.test_game_contract import _options

SEAT_FIRST = {"a": 0.1, "b": 0.9}  # the search from the seat's determinizations prefers b
HIDDEN_FIRST = {"a": 0.9, "b": 0.1}  # the search of the real state prefers a


def _decisions(who: str, played: list[str], honest=SEAT_FIRST, peeking=HIDDEN_FIRST) -> list[signals.PeekDecision]:
    return [signals.PeekDecision(who, f"g{i // 10}", "setup", i, 2, move, honest, peeking)
            for i, move in enumerate(played)]


@pytest.fixture
def no_allowance(monkeypatch):
    """The ratio judged against the fixed thresholds alone (the allowance has its own test)."""
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE", {})
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE_UNMEASURED", 0.0)


def test_a_player_the_hidden_state_explains_is_flagged_with_its_figures(no_allowance):
    per = math.log((0.8 * 0.9 + 0.1) / (0.8 * 0.1 + 0.1))  # epsilon 0.2 over two moves
    assert signals.log_ratio(_decisions("p", ["a"])[0]) == per
    flags = signals.peeking_flags(_decisions("player:peeker", ["a"] * 25) + _decisions("player:honest", ["b"] * 25))
    assert [(f["signal"], f["level"], f["identities"]) for f in flags] == [("peeking", "flag", ["player:peeker"])]
    figures = flags[0]["figures"]
    assert figures["decisions"] == 25 and figures["log_likelihood_ratio"] == round(25 * per, 3)
    assert (figures["decisions_where_the_models_differ"], figures["played_the_hidden_states_first"],
            figures["played_the_seats_first"]) == (25, 25, 0)
    assert flags[0]["games"] == ["g0", "g1", "g2"]


def test_a_few_telling_decisions_warn_and_too_few_decisions_say_nothing(no_allowance):
    same = {"a": 0.5, "b": 0.5}
    few = _decisions("player:lucky", ["a"] * 4) + _decisions("player:lucky", ["a"] * 20, same, same)
    assert [(f["level"], f["figures"]["decisions"]) for f in signals.peeking_flags(few)] == [("warning", 24)]
    assert signals.peeking_flags(_decisions("player:new", ["a"] * (signals.PEEK_MIN_DECISIONS - 1))) == []
    assert signals.peeking_level(signals.PEEK_MIN_DECISIONS, signals.PEEK_FLAG_LLR) == "flag"


def test_an_honest_drift_below_the_allowance_never_counts_and_a_peekers_larger_one_does(monkeypatch):
    """The thresholds grow by the game type's allowance per decision (measured: an honest bot's
    ratio drifts up a little, and any drift crosses a fixed threshold in time): a drift of
    0.03 a decision over 400 decisions (12, past the flag) is nothing against an allowance of
    0.05; 0.08 a decision is a flag (32 against 9.21 + 20); a type not measured gets the largest."""
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE", {"setup": 0.05})
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE_UNMEASURED", 0.1)
    assert signals.peek_allowance("setup") == 0.05 and signals.peek_allowance("chess-960") == 0.1

    def drifting(who: str, per: float) -> list[signals.PeekDecision]:
        share = (0.5 * math.exp(per) - 0.1) / 0.8  # 0.8 share + 0.2 / 2 = 0.5 e^per: a ratio of `per` for a
        return _decisions(who, ["a"] * 400, {"a": 0.5, "b": 0.5}, {"a": share, "b": 1 - share})

    honest, peeker = drifting("player:honest", 0.03), drifting("player:peeker", 0.08)
    assert math.isclose(signals.log_ratio(honest[0]), 0.03) and math.isclose(signals.log_ratio(peeker[0]), 0.08)
    flags = signals.peeking_flags(honest + peeker)
    assert [(f["level"], f["identities"]) for f in flags] == [("flag", ["player:peeker"])]
    figures = flags[0]["figures"]
    assert figures["allowed"] == 20.0 and figures["warn_at"] == round(signals.PEEK_WARN_LLR + 20, 3)
    assert figures["flag_at"] == round(signals.PEEK_FLAG_LLR + 20, 3)
    assert signals.peeking_level(400, 12.0) == "flag" and signals.peeking_level(400, 12.0, 20.0) is None


def test_a_decision_weighs_at_most_what_a_choice_of_two_can():
    """A move among thousands that one search happened to try and the other did not (Witches'
    passes at 80 iterations: 5.5 alone, past the warning) counts as a two-move decision's most."""
    tried = signals.PeekDecision("p", "g", "witches", 1, 4845, "x", {"y": 1.0}, {"x": 0.0125, "y": 0.9875})
    assert signals.log_ratio(tried) == signals.PEEK_CLIP == math.log(0.9 / 0.1)
    untried = signals.PeekDecision("p", "g", "witches", 1, 4845, "x", {"x": 0.0125, "y": 0.9875}, {"y": 1.0})
    assert signals.log_ratio(untried) == -signals.PEEK_CLIP


def test_the_evidence_models_what_the_seat_saw_and_what_was_hidden():
    """Splendor's decks permuted where seat 0 cannot see them: the honest model's shares are the
    same (it searches the seat's determinizations only), the peeking model's differ."""
    game = registry.get("splendor")
    real = fold(game, game.setup(_options(game, {}), 2, random.Random(3)))
    permuted = game.determinize(real, 0, random.Random(9))
    assert game.view(permuted, 0) == game.view(real, 0) and permuted != real
    move = game.legal_moves(real, 0)[0]
    found = [peek_evidence(game, state, 0, move, 42, 1, 40) for state in (real, permuted)]
    assert found[0]["honest"] == found[1]["honest"] and found[0]["peeking"] != found[1]["peeking"]
    assert found[0]["moves"] == len(game.legal_moves(real, 0))
    assert found[0]["played"] == '{"colors": ["white", "blue", "green"], "type": "take_gems"}' == move_key(move)
    assert math.isclose(sum(found[0]["peeking"].values()), 1.0)
