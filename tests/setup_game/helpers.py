"""Building SetUp states for tests: fold a hand-made setup event, then adjust.

Tiles are written short: "h7" = heart 7, "d10", "c3", "s2" (spade), "st9" (star)."""
from __future__ import annotations

import random
from dataclasses import replace

from domain.contract import MoveRejected
from domain.setup_game import GAME
from domain.setup_game.data import SQUARE_INDEX, TILE_INDEX
from domain.setup_game.state import FINISH, TEAM_ORDER

SUIT_OF = {"st": "star", "s": "spade", "h": "heart", "d": "diamond", "c": "club"}


def tid(short: str) -> str:
    """"h7" -> "su-heart-7"."""
    key = "st" if short.startswith("st") else short[0]
    return f"su-{SUIT_OF[key]}-{int(short[len(key):])}"


def tix(short: str) -> int:
    return TILE_INDEX[tid(short)]


def start(n=2, board=None, racks=None, market=(), teams=False, turn=None, scores=None,
          stacks=None, bag=None):
    """A state from a setup event with exactly these tiles (the rest in the bag).

    board: {square: tile}; stacks: {square: [bottom, ..., top]}; racks: [[tiles] per seat];
    bag: if given, only these tiles stay in the bag (the others are out of the game)."""
    racks = racks or [[] for _ in range(n)]
    event = {"type": "setup", "seats": n, "teams": teams, "goal": FINISH[n],
             "order": list(TEAM_ORDER) if teams else list(range(n)),
             "board": {q: tid(t) for q, t in (board or {}).items()},
             "racks": [[tid(t) for t in r] for r in racks], "market": [tid(t) for t in market]}
    state = GAME.evolve(None, event)
    changes = {}
    if stacks:
        new = list(state.stacks)
        for q, tiles in stacks.items():
            new[SQUARE_INDEX[q]] = tuple(tix(t) for t in tiles)
        changes["stacks"] = tuple(new)
        changes["bag"] = state.bag - {tix(t) for ts in stacks.values() for t in ts}
    if bag is not None:
        changes["bag"] = frozenset(tix(t) for t in bag)
    if turn is not None:
        changes["turn"] = turn
    if scores is not None:
        changes["scores"] = tuple(scores)
    return replace(state, **changes)


def play(place: dict) -> dict:
    return {"type": "play", "place": {q: tid(t) for q, t in place.items()}}


def decide(state, move, actor=None, seed=0):
    return GAME.decide(state, state.turn if actor is None else actor, move, random.Random(seed))


def apply(state, move, actor=None, seed=0):
    """(events, new state) of a move."""
    events = decide(state, move, actor, seed)
    for event in events:
        state = GAME.evolve(state, event)
    return events, state


def rejected(state, move, actor=None) -> MoveRejected:
    """The rejection of a move (fails the test if it is accepted)."""
    try:
        decide(state, move, actor)
    except MoveRejected as error:
        return error
    raise AssertionError(f"{move} was accepted")


def first(events, kind):
    return next(e for e in events if e["type"] == kind)
