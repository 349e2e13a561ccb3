"""Who may act now, and the complete moves each may send."""
from __future__ import annotations

from itertools import combinations, islice
from math import comb
from typing import TYPE_CHECKING

from domain.contract import SYSTEM, is_seat

from .cards import COLOUR, WIZARD
from .state import OVER, PASS_COUNT, PASSING, PLAYING, SCORING, SPELL_CHOICE, State, led_colour, to_play

if TYPE_CHECKING:
    from domain.contract import Actor, Move

SPELL_CHOICES = ("others", "self")


def actors(state: State) -> list:
    phase = state.phase
    if phase == PLAYING:
        return [to_play(state)]
    if phase == PASSING:
        # Simultaneous: every seat that has not passed yet.
        return [s for s, p in enumerate(state.passed) if p is None]
    if phase == SCORING:
        return [SYSTEM]
    if phase == SPELL_CHOICE:
        assert state.spell is not None  # evolve enters SPELL_CHOICE only with a spell shown
        return [state.spell[0]]
    return []


def playable(state: State, seat: int) -> tuple:
    """The cards `seat` may play into the current trick: any card when leading (or when only
    wizards were played so far); else a card of the led colour if it holds one, or a wizard
    (always allowed); with no card of that colour, anything."""
    hand = state.hands[seat]
    colour = led_colour(state.trick)
    if colour is None:
        return hand
    follow = tuple(c for c in hand if COLOUR[c] == colour or COLOUR[c] == WIZARD)
    if any(COLOUR[c] == colour for c in follow):
        return follow
    return hand


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if not (is_seat(actor) or actor == SYSTEM) or actor not in actors(state):
        return []
    phase = state.phase
    if phase == PLAYING and is_seat(actor):  # a seat plays and passes; the system scores
        return [{"type": "play", "card": c} for c in playable(state, actor)]
    if phase == PASSING and is_seat(actor):
        # A pass is a set of cards: listed once, in hand order (decide accepts any order).
        return passes(state.hands[actor], PASS_COUNT[state.n])
    if phase == SPELL_CHOICE:
        return [{"type": "choose_spell", "choice": c} for c in SPELL_CHOICES]
    if phase == SCORING:
        return [{"type": "score_round"}]
    return []


def passes(hand: tuple, k: int, size: int | None = None) -> list[Move]:
    """A pass of every choice of k cards of the hand, in hand order (combinations'), or of the
    first `size` choices. The choices are unpacked into a list display for the passes' sizes
    (PASS_COUNT: 4 cards with 3 seats, 3 with 4 or 5, 2 with 6), which makes the 4,845 passes of
    3 seats in half the time of `list(choice)` (1.4 -> 0.7 ms); the same lists
    (tests/witches/test_legal_page.py)."""
    choices = combinations(hand, k) if size is None else islice(combinations(hand, k), size)
    if k == 4:
        return [{"type": "pass_cards", "cards": [a, b, c, d]} for a, b, c, d in choices]
    if k == 3:
        return [{"type": "pass_cards", "cards": [a, b, c]} for a, b, c in choices]
    if k == 2:
        return [{"type": "pass_cards", "cards": [a, b]} for a, b in choices]
    return [{"type": "pass_cards", "cards": list(choice)} for choice in choices]


def legal_page(state: State, actor: Actor, limit: int) -> tuple[list[Move], int]:
    """`legal_moves(state, actor)[:limit]` and how many legal moves there are. While passing,
    a seat's moves are every choice of PASS_COUNT cards of its hand (4,845 of 20 with 3 seats):
    only the page's are made, in the list's order (the same combinations, cut short), and the
    rest counted as a binomial. Every other phase lists a hand at most: sliced."""
    if state.phase == PASSING and is_seat(actor) and actor in actors(state):
        hand, k = state.hands[actor], PASS_COUNT[state.n]
        total = comb(len(hand), k)
        size = limit if limit >= 0 else max(total + limit, 0)  # as a slice reads a negative end
        return passes(hand, k, size), total
    every = legal_moves(state, actor)
    return every[:limit], len(every)


def is_over(state: State) -> bool:
    return state.phase == OVER
