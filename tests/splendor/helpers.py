"""Small builders for Splendor rule tests: a known table, players set up as a test needs,
and moves applied through decide + evolve (never by poking the engine's internals)."""
from __future__ import annotations

import random

from domain.contract import SYSTEM
from domain.splendor import GAME
from domain.splendor.data import CARD_BY_ID, CARD_IDS, LEVEL_CARDS, NOBLE_IDS, TOKEN_NAMES
from domain.splendor.state import NEW_PLAYER

decide, evolve = GAME.decide, GAME.evolve


def started_event(n=2, strict=False, nobles=None):
    """A game_started event with decks in CSV order: the market shows each level's first
    4 cards (sp-1-01..04, sp-2-01..04, sp-3-01..04) and the decks hold the rest, top first."""
    gems = {2: 4, 3: 5, 4: 7}[n]
    market = [[CARD_IDS[c] for c in LEVEL_CARDS[level][:4]] for level in (1, 2, 3)]
    decks = [[CARD_IDS[c] for c in LEVEL_CARDS[level][4:]] for level in (1, 2, 3)]
    return {
        "type": "game_started", "n_seats": n, "options": {"strict_take_three": strict},
        "supply": {**{c: gems for c in TOKEN_NAMES[:5]}, "gold": 5},
        "nobles": nobles if nobles is not None else list(NOBLE_IDS[: n + 1]),
        "market": market, "deck_sizes": [len(d) for d in decks], "decks": decks,
    }


def start(n=2, strict=False, nobles=None):
    return evolve(None, started_event(n, strict, nobles))


def toks(**counts):
    """A 6-slot token tuple: toks(red=2, gold=1)."""
    return tuple(counts.get(name, 0) for name in TOKEN_NAMES)


def bonus(**counts):
    return tuple(counts.get(name, 0) for name in TOKEN_NAMES[:5])


def card(card_id):
    return CARD_BY_ID[card_id]


def with_player(state, seat, tokens=None, bonuses=None, points=None, reserved=None, blind=(), bought=None):
    """The state with one player replaced (reserved/blind/bought given as card ids)."""
    p = state.players[seat]
    p = NEW_PLAYER._replace(
        tokens=tokens if tokens is not None else p.tokens,
        bonuses=bonuses if bonuses is not None else p.bonuses,
        points=points if points is not None else p.points,
        reserved=tuple(card(c) for c in reserved) if reserved is not None else p.reserved,
        blind=tuple(card(c) for c in blind) if blind else p.blind,
        bought=tuple(card(c) for c in bought) if bought is not None else p.bought,
        nobles=p.nobles,
    )
    players = list(state.players)
    players[seat] = p
    return state._replace(players=tuple(players))


def with_supply(state, **counts):
    supply = list(state.supply)
    for name, n in counts.items():
        supply[TOKEN_NAMES.index(name)] = n
    return state._replace(supply=tuple(supply))


def act(state, actor, move):
    """decide + evolve: returns (events, new state)."""
    events = decide(state, actor, move, random.Random(0))
    for event in events:
        state = evolve(state, event)
    return events, state


def moves_of(state, actor, kind=None):
    moves = GAME.legal_moves(state, actor)
    return [m for m in moves if kind is None or m["type"] == kind]


def score(state):
    return act(state, SYSTEM, {"type": "score_game"})
