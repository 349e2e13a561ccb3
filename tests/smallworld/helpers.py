"""Small hand-made maps and states, so each rule's test shows its own numbers."""
from __future__ import annotations

import random

from domain.smallworld import GAME
from domain.smallworld.islands import Map
from domain.smallworld.rules import decide_step
from domain.smallworld.setup import the_box
from domain.smallworld.state import CONQUER, Player, Region, State, Turn

# Island T (7 regions) and island U (2 regions); nothing links the two islands.
#   id     terrain    symbols            neighbours
SPEC = [
    ("T-1", "fields", {"entry"}, ("T-2", "T-3")),
    ("T-2", "forest", set(), ("T-1", "T-3", "T-4")),
    ("T-3", "mountain", set(), ("T-1", "T-2", "T-5")),
    ("T-4", "hill", {"magic"}, ("T-2", "T-5", "T-6")),
    ("T-5", "swamp", {"cavern", "spot"}, ("T-3", "T-4", "T-6")),
    ("T-6", "lake", set(), ("T-4", "T-5", "T-7")),
    ("T-7", "fields", {"entry"}, ("T-6",)),
    ("U-1", "forest", {"entry"}, ("U-2",)),
    ("U-2", "hill", {"cavern"}, ("U-1",)),
]


def build_map(extra=None) -> Map:
    """The map above; `extra` adds symbols, e.g. {"U-2": {"magic"}}."""
    spec = [(rid, t, sym | (extra or {}).get(rid, set()), adj) for rid, t, sym, adj in SPEC]
    ids = tuple(r[0] for r in spec)
    index = {rid: i for i, rid in enumerate(ids)}
    return Map(("T", "U"), ids, tuple(0 if rid[0] == "T" else 1 for rid in ids),
               tuple(r[1] for r in spec), tuple(frozenset(r[2]) for r in spec),
               tuple(tuple(index[a] for a in r[3]) for r in spec), index)


MAP = build_map()


def R(rid: str) -> int:
    return MAP.index[rid]


def make_state(n=2, regions=None, players=None, step=CONQUER, seat=0, display=(), rnd=1,
               rounds=10, race_pile=(), power_pile=(), map_=None, **turn) -> State:
    """regions: {id: Region}; players: {seat: Player or dict of fields}."""
    regs = [Region() for _ in MAP.ids]
    for rid, region in (regions or {}).items():
        regs[R(rid)] = region
    ps = [Player(5) for _ in range(n)]
    for seat_, p in (players or {}).items():
        ps[seat_] = p if isinstance(p, Player) else Player(**{"coins": 5, **p})
    box = the_box()
    return State(n=n, rounds=rounds, round=rnd, seat=seat, map=map_ or MAP, regions=tuple(regs),
                 players=tuple(ps), display=tuple(display), race_pile=tuple(race_pile),
                 power_pile=tuple(power_pile), turn=Turn(step, **turn),
                 box=(tuple(box["races"]), tuple(box["powers"]), tuple(box["markers"])))


def mine(seat, race, tokens, declined=False, **kw) -> Region:
    return Region(seat, race, tokens, declined, **kw)


def murloc() -> Region:
    return Region(None, "murlocs", 1)


def play(state, actor, move, seed=0):
    """One step of the rules (`decide_step`) + evolve; returns (new state, events). A move that
    ends the turn leaves it at SCORE here, for the system's `score_turn` to score; the game's own
    `decide` scores it in the same move (tests/smallworld/test_turn_scoring.py)."""
    events = decide_step(state, actor, move, random.Random(seed))
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def cost_of(state, seat, rid, use=None):
    from domain.smallworld.costs import offer_for
    offer = offer_for(state, seat, R(rid), use)
    return None if offer is None else offer.cost


def rejected(state, actor, move):
    """The MoveRejected code decide raises."""
    from domain.contract import MoveRejected
    try:
        GAME.decide(state, actor, move, random.Random(0))
    except MoveRejected as r:
        return r.code
    raise AssertionError(f"{move} was accepted")


class FixedRng:
    """An rng whose choices are scripted: the die face, then marker draws, in order."""

    def __init__(self, *picks):
        self.picks = list(picks)

    def choice(self, seq):
        want = self.picks.pop(0)
        assert want in seq
        return want


def play_with(state, actor, move, rng):
    """`play` with a given rng."""
    events = decide_step(state, actor, move, rng)
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def orcs(hand=10, **kw):
    """Seat 0 with an ability-free combo for cost tests (Orcs only add coins)."""
    return {0: {"race": "orcs", "power": "farmer", "hand": hand, **kw}}
