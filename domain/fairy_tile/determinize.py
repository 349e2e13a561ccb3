"""determinize(state, seat, rng): a Fairy Tile state the seat cannot tell from `state` (issue 34).

What a seat cannot see:
- the card in every other seat's hand;
- the content and order of every story book, its own included (only the books' sizes are
  public: the state does not record which cards a seat put back by turning the page);
- the order and sides of the tile pile below its top tile (the top tile shows its face).
Everything else (the kingdom, the figures, the laid and told cards, the top tile, the magic
tokens, who is out, the turn's phase, its own hand) is public or its own, and kept.

The unseen cards (all cards but the told ones and the seat's hand) are collected sorted,
shuffled with `rng`, and dealt: first into the other seats' hands, seat by seat, then into the
books, seat by seat, each book keeping its size. The one constraint the state lets a seat
know is honoured: when the pile is empty, a seat whose book is empty holds a card that can no
longer be completed if it is out, and one that still can if it is not (else it would have been
put out); its hand is drawn among the unseen cards that fit, when any do. The unseen tiles (the
kingdom tiles neither laid nor on top of the pile) are collected sorted, shuffled, and each
given a side drawn with `rng`. So the result depends on the seat's information alone: any
state the seat cannot tell from this one gives the same determinization for the same rng.
"""
from __future__ import annotations

import random
import threading
import weakref
from collections import OrderedDict
from dataclasses import replace

from .data import CARD_IDS, CONDITIONS
from .feasibility import can_complete
from .kingdom import Kingdom
from .state import State
from .tiles import KINGDOM_TILES


def determinize(state: State, seat: int, rng: random.Random) -> State:
    if state is None:
        return state
    seats = state.seats
    own = seats[seat].hand
    told = {c for s in seats for c in s.told}
    pool = sorted(c for c in CARD_IDS if c not in told and c != own)
    rng.shuffle(pool)
    hands = [s.hand for s in seats]
    positions = state.positions() if not state.pile else None
    for i, s in enumerate(seats):
        if i == seat or s.hand is None:
            continue
        pick = 0
        if positions is not None and not s.book:
            fits = [k for k, c in enumerate(pool)
                    if can_complete(state.kingdom, positions, CONDITIONS[c]) != s.out]
            if fits:
                pick = fits[0]
        hands[i] = pool.pop(pick)
    books = []
    for s in seats:
        books.append(tuple(pool[:len(s.book)]))
        del pool[:len(s.book)]
    new_seats = tuple(replace(s, hand=hands[i], book=books[i]) for i, s in enumerate(seats))
    pile = state.pile
    if len(pile) > 1:
        used = {t for t, _, _, _ in state.laid} | {pile[0][0]}
        tiles = sorted(t for t in KINGDOM_TILES if t not in used)
        rng.shuffle(tiles)
        pile = (pile[0],) + tuple((t, rng.choice(("a", "b"))) for t in tiles)
    return replace(state, seats=new_seats, pile=pile, kingdom=thinking_copy(state.kingdom))


# The bots derive much from a kingdom while they think (every placement of the drawn tile, their
# regions, what each card needs), and a turn's several decisions share one kingdom. Cached on the
# game's own kingdom, that stayed in the server's game cache (about 650 KB a game, pickled, up to
# 2,000 games a process: bench/README.md); so the bots think on a copy (the same cells), and the
# copies of the last few kingdoms are kept here, for the next decision of the same turn.
THINKING_KEPT = 16
_thinking_lock = threading.Lock()
_thinking: OrderedDict[int, tuple[weakref.ref, Kingdom]] = OrderedDict()


def thinking_copy(kingdom: Kingdom) -> Kingdom:
    """The bots' copy of `kingdom`: the one made for it before while it is among the last
    THINKING_KEPT, else a new one (the id is checked against a weak reference: ids are reused)."""
    with _thinking_lock:  # bots may think in threads
        kept = _thinking.get(id(kingdom))
        if kept is not None and kept[0]() is kingdom:
            _thinking.move_to_end(id(kingdom))
            return kept[1]
        copy = Kingdom(kingdom.cells)
        _thinking[id(kingdom)] = (weakref.ref(kingdom), copy)
        while len(_thinking) > THINKING_KEPT:
            _thinking.popitem(last=False)
        return copy
