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

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from itertools import combinations, permutations
from math import comb, perm
from operator import itemgetter
from typing import NamedTuple

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
    by arithmetic, runs by their chains' counts, swaps as binomials)."""
    if state.over or not is_seat(actor) or actor != state.turn:
        return [], 0
    board = _board(state, actor)
    singles = board.singles
    page = [{"type": "play", "place": {SQUARE_IDS[q]: TILE_IDS[t]}} for ((q, t),) in singles[:limit]]
    n_plays = len(singles)
    for group, sized in board.numbers:
        for k, sets in sized:
            if len(page) >= limit:
                n_plays += len(sets) * perm(len(group), k)
                continue
            orders = _tile_orders(group, k)
            n_plays += len(sets) * len(orders)
            need = limit - len(page)
            whole, part = divmod(need, len(orders))  # square sets taken whole, then part of one
            chosen_ids = [_square_ids(chosen) for chosen in sets[:whole + 1]]
            if k == 2:  # the most made (two tiles of a number): a literal, twice dict(zip())'s speed
                page += [{"type": "play", "place": {a: order[0], b: order[1]}}
                         for a, b in chosen_ids[:whole] for order in orders]
                if part and whole < len(sets):
                    a, b = chosen_ids[whole]
                    page += [{"type": "play", "place": {a: order[0], b: order[1]}} for order in orders[:part]]
                continue
            page += [{"type": "play", "place": dict(zip(ids, order))} for ids in chosen_ids[:whole] for order in orders]
            if part and whole < len(sets):
                page += [{"type": "play", "place": dict(zip(chosen_ids[whole], order))} for order in orders[:part]]
    for spans in board.runs:
        for tiles, chains in spans:
            n_plays += chains.n
            need = limit - len(page)
            if need > 0:
                page += [{"type": "play", "place": {SQUARE_IDS[v >> 4]: TILE_IDS[tiles[v & 15]] for v in play}}
                         for play in chains.plays[:need]]
    n_swaps = _swap_count(state, actor)
    if len(page) < limit:
        page += swap_moves(state, actor)[:limit - len(page)]
    if n_plays + n_swaps == 0:
        return [{"type": "pass"}][:limit], 1
    return page, n_plays + n_swaps


class _Board(NamedTuple):
    """A seat's plays in one state, as groups that legal_page makes or counts and summary
    reads, in legal_moves' order: the singles, then per number of 2+ tiles the square sets
    of each size, then per suit of 2+ tiles each run's tiles with its chains."""
    singles: list  # ((square, tile),) each
    numbers: list  # (the number's tiles, ((k, its good k-sets of squares), ...)) per number
    runs: list     # ((tiles from the lowest number up, _Chains), ...) per suit


_last_board: tuple = (None, None, None)  # (state, seat, _Board): the newest one made


def _board(state: State, seat: int) -> _Board:
    """The seat's _Board, made once for a state: a GET of the moves makes the page and then
    the summary of the same state (the last one made is kept, with its state, whose identity
    tells it apart: states are immutable)."""
    global _last_board
    held = _last_board
    if held[0] is state and held[1] == seat:
        return held[2]
    top, squares, avail, by_number, by_suit = _groups(state, seat)
    numbers = []
    for number, group in by_number.items():
        if len(group) >= 2:
            showing = _showing_number(top, number)
            numbers.append((tuple(group), [(k, _joined_square_sets(squares, showing, k))
                                           for k in range(2, min(len(group), len(squares)) + 1)]))
    suits = _suit_tops(top)
    runs = [[(tiles, _chains(free, pattern))
             for tiles, free, pattern in _run_spans(squares, group, *suits.get(suit, _NONE_SHOWING))]
            for suit, group in by_suit.items() if len(group) >= 2]
    board = _Board(_singles(top, squares, avail), numbers, runs)
    _last_board = (state, seat, board)
    return board


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


def _runs(top: list, squares: tuple[int, ...], suit: int, group: list) -> list:
    # Tiles of one suit are all different, and a run joins only numbers one apart: so a run
    # is a chain low, low+1, ..., high whose consecutive squares are linked. All played tiles
    # are in one run exactly when every number from their lowest to their highest is played or
    # already showing ("bridge"), and each number's square is linked to the next one's.
    out: list[tuple[tuple[int, int], ...]] = []
    for tiles, free, pattern in _run_spans(squares, group, *_suit_tops(top).get(suit, _NONE_SHOWING)):
        out += [tuple([(v >> 4, tiles[v & 15]) for v in play]) for play in _chains(free, pattern).plays]
    return out


_NONE_SHOWING: tuple[dict[int, int], int] = ({}, 0)


def _suit_tops(top: list) -> dict:
    """Per suit showing on the board: (its numbers' squares, its numbers as bits)."""
    suits: dict[int, tuple[dict[int, int], int]] = {}
    for q, t in enumerate(top):
        if t >= 0:
            showing, shown = suits.get(SUIT[t]) or ({}, 0)
            showing[NUMBER[t]] = q
            suits[SUIT[t]] = (showing, shown | 1 << NUMBER[t])
    return suits


def _run_spans(squares: tuple[int, ...], group: list, showing: dict, shown: int) -> Iterator[tuple]:
    """(tiles, free, pattern) for each choice of a suit's tiles (`group`) that can make one run:
    its tiles from the lowest number up; `free`, the squares it may cover; `pattern`, per number
    from the lowest to the highest, -1 where a tile is played, else the square already showing
    it (a bridge). `showing`, `shown`: the suit's numbers on the board (_suit_tops)."""
    for pick, k, low, high, gaps in _choices(tuple([NUMBER[t] for t in group]), len(squares)):
        tiles = pick(group)
        if not gaps:  # no gap: no bridge
            yield tiles, squares, _NO_BRIDGE[k]
            continue
        if gaps & ~shown:
            continue  # a number of the span neither played nor showing
        pattern = tuple([showing[x] if gaps >> x & 1 else -1 for x in range(low, high + 1)])
        free = tuple([q for q in squares if q not in pattern])  # a bridge must stay uncovered
        yield tiles, free, pattern


@lru_cache(maxsize=1 << 12)
def _choices(numbers: tuple[int, ...], n_squares: int) -> tuple:
    """Per choice of 2 or more of a suit's tiles (their `numbers`, in the group's order), in
    combinations' order: (what picks them from the group, lowest number first; how many; the
    lowest and highest numbers, the numbers between them not chosen as bits). A suit's tiles
    differ in number, so this depends on the numbers alone: kept per group shape."""
    out = []
    for k in range(2, min(len(numbers), n_squares) + 1):
        for chosen in combinations(range(len(numbers)), k):
            ranks = sorted(chosen, key=numbers.__getitem__)
            low, high = numbers[ranks[0]], numbers[ranks[-1]]
            gaps = ((2 << high) - (1 << low)) & ~_mask_bits(numbers[i] for i in chosen)
            out.append((itemgetter(*ranks), k, low, high, gaps))
    return tuple(out)


def _mask_bits(numbers: Iterable[int]) -> int:
    m = 0
    for x in numbers:
        m |= 1 << x
    return m


_NO_BRIDGE = tuple((-1,) * k for k in range(N_TILES + 1))


class _Chains(NamedTuple):
    plays: tuple   # per chain: its (square, i) as square << 4 | i, by square (i: the tile's place from the lowest)
    n: int         # len(plays)
    covers: tuple  # per played tile (from the lowest): its squares in every chain, as bits


@lru_cache(maxsize=1 << 12)
def _chains(free: tuple[int, ...], pattern: tuple[int, ...]) -> _Chains:
    """Every chain of a run: a square of `free` per played number (-1 in `pattern`), each linked
    to the previous number's square (a bridge's, when the number is showing), no square twice;
    walked in the order the plays are listed (free's order first, then each square's links).
    It depends on the squares and the pattern only, never on which tiles: so it is walked once
    per shape and kept (a process meets few shapes; the tiles are put in by the callers)."""
    free_mask = _mask(free)
    paths: list[tuple[int, ...]] = []

    def walk(i: int, prev: int | None, used: int, path: tuple[int, ...]) -> None:
        if i == len(pattern):
            paths.append(path)
            return
        bridge = pattern[i]
        if bridge >= 0:  # a showing number: the chain passes through its square (never first)
            if prev is not None and bridge in NEIGHBOURS[prev]:
                walk(i + 1, bridge, used, path)
            return
        open_ = free_mask & ~used
        for q in (free if prev is None else NEIGHBOURS[prev]):
            if open_ >> q & 1:
                walk(i + 1, q, used | 1 << q, (*path, q))

    walk(0, None, 0, ())
    played = pattern.count(-1)
    covers = [0] * played
    for path in paths:
        for i, q in enumerate(path):
            covers[i] |= 1 << q
    # Small ints (Python keeps one of each): a kept chain is one short tuple, not a tuple of pairs;
    # i < 16: a run has at most 8 tiles (a rack and the market).
    return _Chains(tuple(tuple(sorted(q << 4 | i for i, q in enumerate(path))) for path in paths), len(paths),
                   tuple(covers))


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
    board = _board(state, seat)
    where: dict = {}
    for ((q, t),) in board.singles:
        where[t] = where.get(t, 0) | 1 << q
    count = len(board.singles)
    for group, sized in board.numbers:
        on = 0  # the squares of every good square set
        for k, sets in sized:
            count += len(sets) * perm(len(group), k)
            for chosen in sets:
                on |= _mask(chosen)
        if on:
            for t in group:
                where[t] = where.get(t, 0) | on
    for spans in board.runs:
        for tiles, chains in spans:
            count += chains.n
            for tile, on in zip(tiles, chains.covers):
                if on:
                    where[tile] = where.get(tile, 0) | on
    return {"play_count": count, "swap_count": _swap_count(state, seat),
            "tiles": {TILE_IDS[t]: [SQUARE_IDS[q] for q in range(N_SQUARES) if m >> q & 1]
                      for t, m in sorted(where.items())}}

