"""expert: a one-turn lookahead that counts what every seat can tell next (issue 34).

Fairy Tile is a race to tell one's book, with figures that belong to nobody. What decides a turn
is (a) whether it tells the card now, (b) whether the next seat can tell its card on its turn
with the figures left where this turn leaves them, and (c) how near this seat's own card (or
the card a turned page draws) is on its next turn. The tree search (domain/search.py) guessed
that from a few noisy playouts; this level counts it:

1. a move that tells the card now is played (the storyteller's pick among them, bots.telling_move);
2. else every candidate (every move of a figure, since moving one away is how a seat denies the
   next seat its card; the best TILES_KEPT tiles for the card; turning the page; finish) is
   played to the end of the turn (after a first adventure with the token active: a second one
   that tells the card, else `finish`, which keeps the token);
3. the turn's end is valued by `turn_value`: told cards ahead; minus the share of the cards the
   next seat may hold (every card this seat has not seen: its hand is one of them, uniformly)
   that it could tell on its turn; plus, for this seat's own card (or, after a told card or a
   turned page, the mean over the cards it may draw), whether its next turn can tell it, else
   how near its plan is; plus the token.

Nothing hidden is read: the unseen cards are counted, not sampled, the tile a laid tile uncovers
is not looked at, and no rng is drawn (the storyteller's own choice aside), so a state and a seed
give the same move, whatever the hidden cards are.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from domain.search import iterations_scale

from .bots import _looks_at_land, _move_score, _tells, move_tells, telling_move
from .conditions import Context, figures_in, holds
from .data import CARD_IDS, CONDITIONS
from .decide import decide, move_table
from .feasibility import plan
from .moves import legal_moves
from .rules import evolve
from .tiles import FIGURES

if TYPE_CHECKING:
    from domain.contract import Move

    from .conditions import Tree
    from .hexgrid import Hex
    from .kingdom import Kingdom
    from .state import State

TILES_KEPT = 4      # tiles kept among the candidates, best for the card first
WEIGHED_MIN = 3     # candidates weighed at least, however small BOT_ITERATIONS is
WIN = 30.0          # a finished game, in told cards
THREAT = 0.9        # the next seat telling on its turn, in told cards (it may miss it)
READY = 0.55        # this seat's card one turn away (the next seat may move the figures first)
NEAR = 0.5          # scale of 1/(2 + distance) of the card's plan when it is further
MAGIC = 0.2         # an active token: two adventures next turn
_EMPTY: frozenset = frozenset()


# ---- what a seat can tell at the start of its turn -------------------------------------------

Top = tuple[str, str]  # the pile's top tile: (tile id, side)


def _outcomes(kingdom: Kingdom, positions: dict[str, Hex], adventures: int) -> dict[frozenset[str], Any]:
    """{moved figures: [(positions, passed)]} after 1 (or up to 2) figure moves, without repeats;
    cached on the kingdom, as every card of the pool is checked against the same list."""
    key = ("outcomes", tuple(sorted(positions.items())), adventures)
    return kingdom._cached(key, lambda: _all_outcomes(kingdom, positions, adventures))


def _all_outcomes(kingdom: Kingdom, positions: dict[str, Hex], adventures: int) -> dict[frozenset[str], Any]:
    out: dict = {}
    seen = set()

    def add(moved: frozenset[str], pos: dict[str, Hex], passed: frozenset[str]) -> None:
        mark = (moved, tuple(pos[f] for f in FIGURES), passed)
        if mark not in seen:
            seen.add(mark)
            out.setdefault(moved, []).append((pos, passed))

    firsts = []
    for f in FIGURES:
        for to, _, passed in set(move_table(kingdom, f, positions[f]).values()):
            firsts.append((f, {**positions, f: to}, frozenset([f]) if passed else _EMPTY))
            add(frozenset([f]), firsts[-1][1], firsts[-1][2])
    if adventures >= 2:
        for f, pos, done in firsts:
            for g in FIGURES:
                for to, _, passed in set(move_table(kingdom, g, pos[g]).values()):
                    add(frozenset((f, g)), {**pos, g: to}, done | {g} if passed else done)
    return out


def can_tell(kingdom: Kingdom, positions: dict[str, Hex], card: str, adventures: int, top: Top | None) -> bool:
    """Can a seat whose turn starts here tell `card` within `adventures` (1 or 2)? Figure moves
    (only those of the card's figures change it), and for one adventure also the top tile."""
    key = ("tell", card, tuple(sorted(positions.items())), adventures, top)
    return kingdom._cached(key, lambda: _can_tell(kingdom, positions, CONDITIONS[card], adventures, top))


def _can_tell(kingdom: Kingdom, positions: dict[str, Hex], tree: Tree, adventures: int, top: Top | None) -> bool:
    if holds(tree, Context(kingdom, positions, _EMPTY, _EMPTY)):
        return True  # already true (a sight): any adventure that leaves it tells it
    figures = figures_in(tree)
    for moved, outcomes in _outcomes(kingdom, positions, adventures).items():
        if moved <= figures and any(holds(tree, Context(kingdom, pos, moved, passed)) for pos, passed in outcomes):
            return True
    return top is not None and _tile_tells(kingdom, positions, tree, top)


def _tile_tells(kingdom: Kingdom, positions: dict[str, Hex], tree: Tree, top: Top) -> bool:
    """Does laying the top tile somewhere make a card on the land (a sight) hold?"""
    if not _looks_at_land(tree):
        return False
    tile, side = top
    return any(holds(tree, Context(laid, positions, _EMPTY, _EMPTY)) for laid in kingdom.laid(tile, side).values())


def _nearness(state: State, card: str, adventures: int, top: Top | None) -> float:
    """1 when the card can be told in a turn starting here, else NEAR/(2 + its plan's distance),
    0 when this kingdom cannot complete it."""
    if can_tell(state.kingdom, state.positions(), card, adventures, top):
        return 1.0
    found = plan(state.kingdom, state.positions(), CONDITIONS[card])
    return 0.0 if found is None else NEAR / (2.0 + found[0])


# ---- the value of a turn's end ---------------------------------------------------------------

def unseen(state: State, seat: int) -> list[str]:
    """The cards the seat has not seen: any of them may be in another hand or come next."""
    told = {c for s in state.seats for c in s.told}
    return [c for c in CARD_IDS if c not in told and c != state.seats[seat].hand]


def turn_value(state: State, seat: int, pool: list[str], hand_known: bool, top: Top | None) -> float:
    """The seat's standing when its turn has ended, in told cards (see the module's 3.).
    `hand_known`: the seat still holds the card it held (else its hand is one of `pool`);
    `top`: the pile's top tile when it is the one the seat saw, else None."""
    if state.over:
        return WIN / len(state.winners) if seat in state.winners else -WIN
    me = state.seats[seat]
    if me.out:
        return -WIN
    rivals = [i for i in range(state.n) if i != seat and not state.seats[i].out]
    value: float = len(me.told) - max((len(state.seats[i].told) for i in rivals), default=0)
    nxt = state.current
    if nxt != seat and pool:
        adventures = 2 if state.seats[nxt].magic else 1
        share = sum(can_tell(state.kingdom, state.positions(), c, adventures, top) for c in pool) / len(pool)
        value -= (THREAT if state.seats[nxt].book else WIN) * share  # its last card wins it the game
    cards = [me.hand] if hand_known else pool
    if cards:
        near = sum(_nearness(state, c, 2 if me.magic else 1, top) for c in cards) / len(cards)
        value += (READY if me.book else 3 * READY) * near
    return value + MAGIC * me.magic


def _play(state: State, seat: int, move: Move) -> State:
    for event in decide(state, seat, move, random.Random(0)):  # Fairy Tile's decide draws nothing
        state = evolve(state, event)
    return state


def _end_turn(state: State, seat: int) -> State:
    """After a first adventure with the token active: a second adventure that tells the card
    (the storyteller's own judgement: bots.move_tells), else finish (the token is kept)."""
    while not state.over and state.current == seat and state.phase == "second":
        tree = CONDITIONS[state.seats[seat].hand]
        land, figures = _looks_at_land(tree), figures_in(tree)
        telling = [m for m in legal_moves(state, seat) if move_tells(state, tree, land, figures, m)]
        state = _play(state, seat, telling[0] if telling else {"type": "finish"})
    return state


def candidates(state: State, seat: int) -> list[Move]:
    """Every figure move, the best TILES_KEPT tiles for the card, turning the page, finish."""
    moves = legal_moves(state, seat)
    tiles = [m for m in moves if m["type"] == "lay_tile"]
    if len(tiles) > TILES_KEPT:
        tree = CONDITIONS[state.seats[seat].hand]
        land, figures = _looks_at_land(tree), figures_in(tree)
        order = sorted(range(len(tiles)), key=lambda k: (-_move_score(state, tree, land, figures, tiles[k]), k))
        tiles = [tiles[k] for k in sorted(order[:TILES_KEPT])]
    found = [m for m in moves if m["type"] != "lay_tile"] + tiles
    return _within_budget(found, iterations_scale())


def _within_budget(found: list[Move], scale: float) -> list[Move]:
    """Under BOT_ITERATIONS below 1 (the tests' 0.02) a share of the candidates, spread evenly
    over them and at least WEIGHED_MIN: each is a turn played out and valued, most of a
    decision's cost. The level has no iteration budget, and this is the one it scales, as the
    search levels scale theirs; at 1 (a server's default, bench/) every candidate is weighed."""
    keep = max(WEIGHED_MIN, math.ceil(len(found) * scale))
    if scale >= 1 or len(found) <= keep:
        return found
    return [found[len(found) * i // keep] for i in range(keep)]


def value_of(state: State, seat: int, move: Move, pool: list[str]) -> float:
    """turn_value at the end of the turn `move` begins (a second adventure only if it tells)."""
    after = _end_turn(_play(state, seat, move), seat)
    hand_known = move["type"] != "turn_page" and len(after.seats[seat].told) == len(state.seats[seat].told)
    top = state.pile[0] if state.pile and after.pile == state.pile else None
    return turn_value(after, seat, pool, hand_known, top)


def expert_policy(state: State, seat: int, rng: random.Random) -> Move:
    """The storyteller's move when it tells the card now; else the candidate of best value."""
    suggested = telling_move(state, seat, random.Random(rng.random()))
    if suggested is not None and _tells(state, seat, suggested):
        return suggested
    moves = candidates(state, seat)
    if len(moves) == 1:
        return moves[0]
    pool = unseen(state, seat)
    values = [value_of(state, seat, m, pool) for m in moves]
    return moves[max(range(len(moves)), key=lambda k: (values[k], -k))]
