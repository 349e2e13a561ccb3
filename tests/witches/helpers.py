"""Small builders for Witches tests: states are made by folding events (and, for the end of
a round, by placing taken cards and playing the last trick through decide + evolve)."""
from __future__ import annotations

import random
from dataclasses import replace

from domain.play import fold
from domain.witches import GAME
from domain.witches.cards import card_id, sort_cards
from domain.witches.state import PASS_COUNT, PLAYING, dealer_for, direction_for


def c(colour: str, value: int) -> str:
    return card_id(colour, value)


def wiz(i: int = 1) -> str:
    return f"wi-wizard-{i}"


def options(**over) -> dict:
    return {**GAME.default_options(), **over}


def started(n: int, hands, round_no: int = 1, **opts):
    """A game whose round `round_no` was dealt these hands (any sizes: rules never count)."""
    events = [
        {"type": "game_started", "n_seats": n, "options": options(**opts)},
        {"type": "round_dealt", "round": round_no, "dealer": dealer_for(n, round_no),
         "pass_direction": direction_for(n, round_no), "pass_count": PASS_COUNT[n],
         "hands": [list(sort_cards(h)) for h in hands]},
    ]
    return fold(GAME, events)


def playing(n: int, hands, leader: int = 0, round_no: int = 1, **opts):
    """Straight to trick play with these hands, `leader` to lead (passing skipped)."""
    state = started(n, hands, round_no, **opts)
    return replace(state, phase=PLAYING, leader=leader)


def play(state, seat: int, card: str):
    events = GAME.decide(state, seat, {"type": "play", "card": card}, random.Random(0))
    return fold(GAME, events, state), events


def play_trick(state, cards):
    """Plays one card per seat, starting with whoever is to act."""
    events = []
    for card in cards:
        (seat,) = GAME.actors(state)
        state, new = play(state, seat, card)
        events += new
    return state, events


def round_end(n: int, taken, totals=None, **opts):
    """A state right after the last trick: `taken[s]` are the cards seat s took this round.
    The last trick goes through decide + evolve: seat 0 leads blue 14 and wins plain blue
    cards (no points) that nobody named."""
    named = {card for cards in taken for card in cards}
    assert "wi-blue-14" not in named, "round_end keeps blue 14 for seat 0's last trick"
    spare = [c("blue", v) for v in range(1, 11) if c("blue", v) not in named]
    hands = [["wi-blue-14"]] + [[spare[i]] for i in range(n - 1)]
    state = playing(n, hands, leader=0, **opts)
    state = replace(state, taken=tuple(tuple(t) for t in taken), totals=tuple(totals or [0] * n))
    state, _ = play_trick(state, [h[0] for h in hands])
    return state
