"""Witches' conservation laws, true after every event of any game (the property tests,
tests/contract/test_properties.py, check them along drawn playouts)."""
from __future__ import annotations

from domain.witches.cards import DECK, sort_cards
from domain.witches.state import HAND_SIZE, OVER, PASS_COUNT, PASSING, SCORING, SPELL_CHOICE, State


def check(state: State, before: State | None = None, settled: bool = True) -> None:
    assert all(t >= 0 for t in state.totals), "running totals are floored at 0"
    if state.round == 0:
        return  # only game_started: nothing dealt yet
    n, full = state.n, HAND_SIZE[state.n]
    assert all(hand == sort_cards(hand) for hand in state.hands), "hands in canonical order"
    if state.phase == PASSING:
        places = [c for hand in state.hands for c in hand] + [c for cards in state.passed if cards for c in cards]
        for hand, cards in zip(state.hands, state.passed):
            assert len(hand) == full - (PASS_COUNT[n] if cards is not None else 0)
    else:
        places = ([c for hand in state.hands for c in hand] + [c for _, c in state.trick]
                  + [c for cards in state.taken for c in cards])
        in_trick = {seat for seat, _ in state.trick}
        assert [seat for seat, _ in state.trick] == [(state.leader + i) % n for i in range(len(state.trick))]
        for seat, hand in enumerate(state.hands):
            assert len(hand) == full - state.tricks_played - (seat in in_trick), "one card a trick"
        assert sum(state.tricks_won) == state.tricks_played
        assert all(len(cards) == n * won for cards, won in zip(state.taken, state.tricks_won))
        if state.phase in (SPELL_CHOICE, SCORING):
            assert state.tricks_played == full
    assert sorted(places) == sorted(DECK), "every card is in exactly one place"
    assert len(state.history) in (state.round - 1, state.round), "each round is scored once"
    if state.phase == OVER:
        rounds, target = state.options.rounds, state.options.target_score
        assert state.round == rounds if rounds else max(state.totals) >= target, "the game ends when its options say"
