"""A bench-only game that never ends, so the platform's read path can be measured on games of
10,000 events and more (no hosted game gets that long: Witches with 50 rounds stops near 4,300).

Hosted only by the benchmark's own server (EXTRA_GAME_MODULES=bench.long_game). Each event
carries a payload about the size of a real game's event (~150 bytes of JSON), and evolve does a
real game's kind of work: a frozen dataclass rebuilt with a tuple updated.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from domain.contract import EVERY_TYPE, EVERYONE, NO_TYPE, GameDef

NAME = "bench-long"


@dataclass(frozen=True)
class State:
    turn: int
    totals: tuple
    hands: tuple  # per seat, a tuple of small ints (hidden)
    count: int


def setup(options: dict, n: int, rng: random.Random) -> list:
    return [{"type": "dealt", "hands": [[rng.randrange(10) for _ in range(5)] for _ in range(n)]}]


def evolve(state: State | None, e: dict) -> State:
    if e["type"] == "dealt":
        return State(0, tuple(0 for _ in e["hands"]), tuple(tuple(h) for h in e["hands"]), 1)
    seat, n = e["seat"], e["n"]
    totals = state.totals[:seat] + (state.totals[seat] + n,) + state.totals[seat + 1:]
    hand = state.hands[seat][1:] + (e["drawn"],)
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
    return replace(state, turn=(seat + 1) % len(totals), totals=totals, hands=hands, count=state.count + 1)


def legal_moves(state: State, actor) -> list:
    if actor != state.turn:
        return []
    return [{"type": "play", "card": i} for i in range(len(state.hands[actor]))]


def decide(state: State, actor, move: dict, rng: random.Random) -> list:
    from domain.contract import MoveRejected

    if actor != state.turn:
        raise MoveRejected("not_your_turn", "It is not your turn.")
    card = move.get("card")
    if move.get("type") != "play" or not isinstance(card, int) or not 0 <= card < len(state.hands[actor]):
        raise MoveRejected("illegal_move", "Play one of your cards: {'type': 'play', 'card': i}.")
    return [{"type": "played", "seat": actor, "n": state.hands[actor][card], "drawn": rng.randrange(10),
             "note": "a payload of about the size a real game's event carries, for honest bytes"}]


def view(state: State, viewer) -> dict:
    return {"turn": state.turn, "totals": list(state.totals), "count": state.count,
            "hand": list(state.hands[viewer]) if isinstance(viewer, int) else None}


def redact(event: dict, viewer) -> dict:
    if viewer == EVERYONE:  # over (abandoned): its whole story is open, as a hosted game's is
        return event
    if event["type"] == "dealt":
        return {"type": "dealt", "hands": [h if i == viewer else None for i, h in enumerate(event["hands"])]}
    return {k: v for k, v in event.items() if k != "drawn" or viewer == event["seat"]}


def as_stored(viewer):
    return EVERY_TYPE if viewer == EVERYONE else NO_TYPE  # every play hides its draw from the others


GAME = GameDef(
    name=NAME, title="Bench: a game that never ends", min_seats=1, max_seats=4, rules_version="1",
    setup=setup, decide=decide, evolve=evolve, legal_moves=legal_moves,
    actors=lambda s: [s.turn], view=view, redact=redact, as_stored=as_stored, result=lambda s: None,
    secrets=lambda s: {}, bots={"random": lambda s, seat, rng: rng.choice(legal_moves(s, seat))},
    max_events=10 ** 7, move_types={"play": "play a card"},
)
