"""Checking and scoring one set play: the pure core of `decide`, of the greedy bot and of the
dry run `rules.preview`."""
from __future__ import annotations

from dataclasses import dataclass

from domain.contract import MoveRejected

from ..words import seat as seat_arg
from ..words import word
from .data import NUMBER, SQUARE_IDS, SQUARE_INDEX, SUIT, SUITS, TILE_IDS, TILE_INDEX
from .sets import in_a_set, one_set_holds, scoring_squares
from .state import MARKET_SIZE, RACK_SIZE, State, bonus_owner, playable_squares, tops

MAX_TILES = RACK_SIZE + MARKET_SIZE  # 1 to 8 tiles: a whole rack and the whole market


@dataclass(frozen=True)
class Play:
    """A checked play: where each tile goes and what it scores."""

    place: tuple        # ((square, tile), ...) sorted by square
    from_rack: tuple
    from_market: tuple
    set_squares: tuple  # squares of every scoring set, sorted
    set_tiles: tuple    # their tiles (after the play), in square order
    points: int         # for the player: one per distinct tile in the scoring sets
    bonus: tuple        # per seat: tiles of the scoring sets on that seat's own bonus squares


def quote(value: object) -> str:
    """A client's value, quoted briefly for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def tile_name(tile: int) -> str:
    return f"the {SUITS[SUIT[tile]]} {NUMBER[tile]} ({TILE_IDS[tile]})"


def tile_args(tile: int) -> dict:
    """A tile in a refusal ("the {tile} ({id})"): its name, translated, and its id."""
    return {"tile": word(f"{SUITS[SUIT[tile]]} {NUMBER[tile]}"), "id": TILE_IDS[tile]}


def parse_place(place: object) -> list:
    """The {square id: tile id} map of a move as [(square, tile), ...] of ints, or rejected."""
    if not isinstance(place, dict) or not place:
        raise MoveRejected("invalid_move", "A play needs \"place\": an object from square ids to tile ids.")
    if len(place) > MAX_TILES:
        raise MoveRejected("too_many_tiles", "You can play at most {n} tiles in one turn.", args={"n": MAX_TILES})
    pairs, used = [], set()
    for square_id, tile_id in place.items():
        square = SQUARE_INDEX.get(square_id) if isinstance(square_id, str) else None
        if square is None:
            raise MoveRejected("unknown_square", "There is no square {value} on the board; squares are {squares}.",
                               args={"value": quote(square_id), "squares": ", ".join(SQUARE_IDS)})
        tile = TILE_INDEX.get(tile_id) if isinstance(tile_id, str) else None
        if tile is None:
            raise MoveRejected("invalid_move", "{value} is not a SetUp tile id.", args={"value": quote(tile_id)})
        if tile in used:
            raise MoveRejected("tile_used_twice", "You placed the {tile} ({id}) on two squares.", args=tile_args(tile))
        used.add(tile)
        pairs.append((square, tile))
    pairs.sort()
    return pairs


def check_play(state: State, seat: int, pairs: list) -> Play:
    """Checks a play of `pairs` [(square, tile)] by `seat` and scores it; raises MoveRejected."""
    rack, market = state.racks[seat], state.market
    allowed = playable_squares(state.n, seat)
    for square, tile in pairs:
        if square not in allowed:
            owner = bonus_owner(state.n, square)
            if owner is None:
                raise MoveRejected("square_not_yours", "Square {square} is a bonus square of another seat: you may "
                                   "play on common squares and your own.", args={"square": SQUARE_IDS[square]})
            raise MoveRejected("square_not_yours", "Square {square} is a bonus square of {seat}: you may play on "
                               "common squares and your own.",
                               args={"square": SQUARE_IDS[square], "seat": seat_arg(owner)})
        if tile not in rack and tile not in market:
            raise MoveRejected("tile_not_available", "The {tile} ({id}) is neither on your rack nor in the market.",
                               args=tile_args(tile))
    after = tops(state)
    for square, tile in pairs:
        after[square] = tile
    squares = [q for q, _ in pairs]
    for square, tile in pairs:
        if not in_a_set(after, square):
            raise MoveRejected("not_a_set", "The {tile} ({id}) on {square} would not be part of a set: it needs a "
                               "linked tile of the same number or of the same suit one number away.",
                               args={**tile_args(tile), "square": SQUARE_IDS[square]})
    if not one_set_holds(after, squares):
        raise MoveRejected("tiles_not_in_one_set", "Every tile you play must belong to one and "
                           "the same set, and these tiles would be in different sets.")
    return score(state, seat, pairs, after)


def score(state: State, seat: int, pairs: list, after: list) -> Play:
    """Scores a legal play (`after` = the tops once placed)."""
    squares = [q for q, _ in pairs]
    scored = sorted(scoring_squares(after, squares))
    bonus = [0] * state.n
    for q in scored:
        owner = bonus_owner(state.n, q)
        if owner is not None and owner != seat:
            bonus[owner] += 1
    rack = state.racks[seat]
    return Play(
        place=tuple(pairs),
        from_rack=tuple(t for _, t in pairs if t in rack),
        from_market=tuple(t for _, t in pairs if t not in rack),
        set_squares=tuple(scored),
        set_tiles=tuple(after[q] for q in scored),
        points=len(scored),
        bonus=tuple(bonus),
    )
