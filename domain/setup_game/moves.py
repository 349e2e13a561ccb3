"""legal_moves: every legal play and swap, enumerated without trying every placement.

A play's tiles must all lie in one set, so with 2+ tiles they all share a number (a number
set) or a suit (a run): the enumerator works group by group.
- Number sets: every tile of the number joins every other one, so legality depends only on
  WHICH squares get tiles (they must be connected through squares showing that number), not on
  which tile goes where: each good square set yields all its tile arrangements at once.
- Runs: tiles of a suit are all different, so a run is a chain of consecutive numbers along
  links; the enumerator walks that chain number by number (see `_runs`).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations, permutations
from math import comb, perm

from domain.contract import Actor, is_seat

from .data import N_SQUARES, N_TILES, NEIGHBOURS, NUMBER, SQUARE_IDS, SUIT, TILE_IDS
from .state import MAX_SWAP, State, playable_squares, tops


def legal_moves(state: State, actor: Actor) -> list:
    if state.over or not is_seat(actor) or actor != state.turn:
        return []
    moves = play_moves(state, actor) + swap_moves(state, actor)
    return moves or [{"type": "pass"}]


def legal_page(state: State, actor: Actor, limit: int) -> tuple[list, int]:
    """`legal_moves(state, actor)[:limit]` and how many legal moves there are, without building
    the others: the page's plays are made in the same order and the rest counted (number sets
    by arithmetic, runs by walking their chains without making them, swaps as binomials)."""
    if state.over or not is_seat(actor) or actor != state.turn:
        return [], 0
    top, squares, avail, by_number, by_suit = _groups(state, actor)
    singles = _singles(top, squares, avail)
    page = [{"type": "play", "place": {SQUARE_IDS[q]: TILE_IDS[t]}} for ((q, t),) in singles[:limit]]
    n_plays = len(singles)
    for number, group in by_number.items():
        if len(group) >= 2:
            showing = _showing_number(top, number)
            for k in range(2, min(len(group), len(squares)) + 1):
                sets = _joined_square_sets(squares, showing, k)
                if len(page) >= limit:
                    n_plays += len(sets) * perm(len(group), k)
                    continue
                orders = _tile_orders(tuple(group), k)
                n_plays += len(sets) * len(orders)
                need = limit - len(page)
                whole, part = divmod(need, len(orders))  # square sets taken whole, then part of one
                page += [{"type": "play", "place": dict(zip(_square_ids(chosen), order))}
                         for chosen in sets[:whole] for order in orders]
                if part and whole < len(sets):
                    ids = _square_ids(sets[whole])
                    page += [{"type": "play", "place": dict(zip(ids, order))} for order in orders[:part]]
    for suit, group in by_suit.items():
        if len(group) >= 2:
            if len(page) >= limit:
                n_plays += _runs_count(top, squares, suit, group)
                continue
            runs = _runs(top, squares, suit, group)
            n_plays += len(runs)
            page += [play_move(pairs) for pairs in runs[:limit - len(page)]]
    n_swaps = _swap_count(state, actor)
    if len(page) < limit:
        page += swap_moves(state, actor)[:limit - len(page)]
    if n_plays + n_swaps == 0:
        return [{"type": "pass"}][:limit], 1
    return page, n_plays + n_swaps


@lru_cache(maxsize=1 << 12)
def _tile_orders(group: tuple, k: int) -> tuple:
    """The tile ids of every ordered choice of k tiles of `group`, in _number_sets_lazy's order."""
    return tuple(tuple(TILE_IDS[t] for t in order) for tiles in combinations(group, k) for order in permutations(tiles))


@cache
def _square_ids(squares: tuple) -> tuple:
    return tuple(SQUARE_IDS[q] for q in squares)


def _swap_count(state: State, seat: int) -> int:
    n = len(state.racks[seat])
    return sum(comb(n, k) for k in range(1, min(MAX_SWAP, n) + 1))


def play_moves(state: State, seat: int) -> list:
    return [play_move(pairs) for pairs in placements(state, seat)]


def play_move(pairs: Iterable[tuple[int, int]]) -> dict:
    return {"type": "play", "place": {SQUARE_IDS[q]: TILE_IDS[t] for q, t in pairs}}


def swap_moves(state: State, seat: int) -> list:
    rack = sorted(state.racks[seat])
    return [{"type": "swap", "tiles": [TILE_IDS[t] for t in chosen]}
            for k in range(1, min(MAX_SWAP, len(rack)) + 1) for chosen in combinations(rack, k)]


def placements(state: State, seat: int) -> list:
    """Every legal play as a tuple of (square, tile) pairs sorted by square."""
    top, squares, avail, by_number, by_suit = _groups(state, seat)
    out = _singles(top, squares, avail)
    for number, group in by_number.items():
        if len(group) >= 2:
            out += _number_sets(top, squares, number, group)
    for suit, group in by_suit.items():
        if len(group) >= 2:
            out += _runs(top, squares, suit, group)
    return out


def _groups(state: State, seat: int) -> tuple:
    """What the enumerators read: the top tiles, the seat's playable squares, its tiles (rack
    and market) and those tiles by number and by suit."""
    top = tops(state)
    squares = playable_squares(state.n, seat)
    avail = state.racks[seat] + state.market
    by_number: dict = {}
    by_suit: dict = {}
    for t in avail:
        by_number.setdefault(NUMBER[t], []).append(t)
        by_suit.setdefault(SUIT[t], []).append(t)
    return top, squares, avail, by_number, by_suit


def _singles(top: list, squares: Iterable[int], avail: Iterable[int]) -> list:
    """One tile is legal where a linked top tile shows its number or its suit one number away
    (only the chosen square changes, so its neighbours are read as they are)."""
    out = []
    for q in squares:
        near = 0  # the linked top tiles, as bits
        for r in NEIGHBOURS[q]:
            if top[r] >= 0:
                near |= 1 << top[r]
        if near:
            out += [((q, t),) for t in avail if _JOINS[t] & near]
    return out


def _number_sets(top: list, squares: tuple[int, ...], number: int, group: list) -> list:
    return list(_number_sets_lazy(top, squares, number, group))


def _showing_number(top: list, number: int) -> int:
    """The squares whose top tile shows `number`, as a bit mask."""
    return _mask(q for q in range(N_SQUARES) if top[q] >= 0 and NUMBER[top[q]] == number)


def _number_sets_lazy(top: list, squares: tuple[int, ...], number: int, group: list) -> Iterator[tuple]:
    """The number sets of `group` on `squares`, one at a time."""
    showing = _showing_number(top, number)
    for k in range(2, min(len(group), len(squares)) + 1):
        for chosen in _joined_square_sets(squares, showing, k):
            for tiles in combinations(group, k):
                for order in permutations(tiles):
                    yield tuple(zip(chosen, order))


def _mask(squares: Iterable[int]) -> int:
    m = 0
    for q in squares:
        m |= 1 << q
    return m


# Per tile, as bits, the tiles that a linked tile of it joins in a set: the same number, or the
# same suit one number away.
_JOINS = tuple(_mask(u for u in range(N_TILES)
                     if NUMBER[u] == NUMBER[t] or (SUIT[u] == SUIT[t] and abs(NUMBER[u] - NUMBER[t]) == 1))
               for t in range(N_TILES))


_LINKED = tuple(_mask(NEIGHBOURS[q]) for q in range(N_SQUARES))  # per square, its linked squares as bits


@cache
def _square_sets(squares: tuple, k: int) -> tuple:
    return tuple((chosen, _mask(chosen)) for chosen in combinations(squares, k))


@cache
def _reach(region: int, start: int) -> int:
    """The squares of `region` (a bit mask) linked to `start` through `region`."""
    seen, todo = 1 << start, [start]
    while todo:
        q = todo.pop()
        for r in NEIGHBOURS[q]:
            bit = 1 << r
            if region & bit and not seen & bit:
                seen |= bit
                todo.append(r)
    return seen


@lru_cache(maxsize=1 << 16)
def _joined_square_sets(squares: tuple, showing: int, k: int) -> tuple:
    """The k-sets of playable squares linked to each other through squares that will show the
    number: the chosen ones and those already showing it (`showing`, a bit mask)."""
    return tuple(chosen for chosen, m in _square_sets(squares, k)
                 if not m & ~_reach(showing | m, chosen[0]))


def _runs(top: list, squares: Sequence[int], suit: int, group: list) -> list:
    # Tiles of one suit are all different, and a run joins only numbers one apart: so a run
    # is a chain low, low+1, ..., high whose consecutive squares are linked. All played tiles
    # are in one run exactly when every number from their lowest to their highest is played or
    # already showing ("bridge"), and each number's square is linked to the next one's.
    out: list[tuple[tuple[int, int], ...]] = []
    for low, high, played, showing, free, free_mask in _run_spans(top, squares, suit, group):
        _chain(low, high, played, showing, free, free_mask, None, 0, [], out)
    return out


def _run_spans(top: list, squares: Sequence[int], suit: int, group: list) -> Iterator[tuple]:
    """(low, high, played, showing, free, free_mask) for each choice of tiles that can make one
    run: the numbers from low to high all played or showing; `free`, the squares it may cover
    (and as bits)."""
    showing = {}
    shown = 0  # the numbers showing, as bits
    for q in range(N_SQUARES):
        t = top[q]
        if t >= 0 and SUIT[t] == suit:
            showing[NUMBER[t]] = q
            shown |= 1 << NUMBER[t]
    all_free = _mask(squares)
    for k in range(2, min(len(group), len(squares)) + 1):
        for tiles in combinations(group, k):
            played = {NUMBER[t]: t for t in tiles}
            low, high = min(played), max(played)
            if high - low + 1 == k:  # no gap: no bridge
                yield low, high, played, showing, squares, all_free
                continue
            if ((2 << high) - (1 << low)) & ~(shown | _mask(played)):
                continue  # a number of the span neither played nor showing
            bridges = {showing[x] for x in range(low, high + 1) if x not in played}
            free = [q for q in squares if q not in bridges]  # a bridge must stay uncovered
            yield low, high, played, showing, free, _mask(free)


def _runs_count(top: list, squares: Sequence[int], suit: int, group: list) -> int:
    """len(_runs(...)): the chains walked as _runs walks them, none made (squares as bits)."""
    return sum(_chain_count(low, high, played, showing, free, free_mask, None, 0)
               for low, high, played, showing, free, free_mask in _run_spans(top, squares, suit, group))


def _chain_count(x: int, high: int, played: dict, showing: dict, free: list, free_mask: int, prev: int | None,
                 used: int) -> int:
    """How many chains _chain would make from here (`used`: the chain's squares, as bits)."""
    if x not in played:
        assert prev is not None  # as in _chain
        q = showing[x]
        return _chain_count(x + 1, high, played, showing, free, free_mask, q, used) if q in NEIGHBOURS[prev] else 0
    open_ = free_mask & ~used
    if x == high:  # a chain has 2 numbers or more: prev is known here
        return (open_ & _LINKED[prev]).bit_count() if prev is not None else open_.bit_count()
    n = 0
    for q in (free if prev is None else NEIGHBOURS[prev]):
        if open_ >> q & 1:
            n += _chain_count(x + 1, high, played, showing, free, free_mask, q, used | 1 << q)
    return n


def _chain_where(x: int, high: int, played: dict, showing: dict, free: list, free_mask: int, prev: int | None,
                 used: int, where: dict) -> int:
    """_chain_count, also marking in `where` (tile -> squares as bits) each tile's square in
    every chain counted."""
    if x not in played:
        assert prev is not None  # as in _chain
        q = showing[x]
        if q not in NEIGHBOURS[prev]:
            return 0
        return _chain_where(x + 1, high, played, showing, free, free_mask, q, used, where)
    open_ = free_mask & ~used
    tile = played[x]
    count = 0
    for q in (free if prev is None else NEIGHBOURS[prev]):
        if open_ >> q & 1:
            n = 1 if x == high else _chain_where(x + 1, high, played, showing, free, free_mask, q, used | 1 << q, where)
            if n:
                where[tile] = where.get(tile, 0) | 1 << q
                count += n
    return count


def _chain(x: int, high: int, played: dict, showing: dict, free: Sequence[int], free_mask: int, prev: int | None,
           used: int, pairs: list, out: list) -> None:
    """Extends the chain with number x, linked to the square `prev` of number x-1 (`used`: the
    chain's squares so far, as bits)."""
    if x not in played:
        assert prev is not None  # the chain starts at a played number: a bridge has one before it
        q = showing[x]
        if q in NEIGHBOURS[prev]:  # x < high: the highest number is a played one
            _chain(x + 1, high, played, showing, free, free_mask, q, used, pairs, out)
        return
    tile = played[x]
    open_ = free_mask & ~used
    for q in (free if prev is None else NEIGHBOURS[prev]):
        if open_ >> q & 1:
            if x == high:
                out.append(tuple(sorted([*pairs, (q, tile)])))
                continue
            pairs.append((q, tile))
            _chain(x + 1, high, played, showing, free, free_mask, q, used | 1 << q, pairs, out)
            pairs.pop()


def summary(state: State, seat: Actor) -> dict:
    """A compact alternative to the full list, for clients: how many plays and swaps there
    are, and for each rack or market tile the squares where some legal play puts it (a client
    can offer those and check the whole play with `rules.preview` before sending it).

    Read from the same counts as legal_page, no play made: a number set's good square sets of
    size k take every ordered choice of k tiles of the number, so each of those tiles goes on
    every square of each such set; a run's tile goes where some whole chain puts it."""
    # A str actor (the system) is never the turn: the isinstance test only tells mypy so.
    if state.over or not isinstance(seat, int) or seat != state.turn:
        return {"play_count": 0, "swap_count": 0, "tiles": {}}
    top, squares, avail, by_number, by_suit = _groups(state, seat)
    singles = _singles(top, squares, avail)
    where: dict = {}
    for ((q, t),) in singles:
        where[t] = where.get(t, 0) | 1 << q
    count = len(singles)
    for number, group in by_number.items():
        if len(group) >= 2:
            showing = _showing_number(top, number)
            on = 0  # the squares of every good square set
            for k in range(2, min(len(group), len(squares)) + 1):
                sets = _joined_square_sets(squares, showing, k)
                count += len(sets) * perm(len(group), k)
                for chosen in sets:
                    on |= _mask(chosen)
            if on:
                for t in group:
                    where[t] = where.get(t, 0) | on
    for suit, group in by_suit.items():
        if len(group) >= 2:
            for low, high, played, showing, free, free_mask in _run_spans(top, squares, suit, group):
                count += _chain_where(low, high, played, showing, free, free_mask, None, 0, where)
    return {"play_count": count, "swap_count": _swap_count(state, seat),
            "tiles": {TILE_IDS[t]: [SQUARE_IDS[q] for q in range(N_SQUARES) if m >> q & 1]
                      for t, m in sorted(where.items())}}

