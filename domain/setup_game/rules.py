"""setup and decide: every check of a move, and the events it causes (draws included)."""
from __future__ import annotations

import random

from domain.contract import Actor, InvalidOptions, Move, MoveRejected, is_seat

from ..words import seat as seat_arg
from . import moves as _moves
from .data import N_SQUARES, N_TILES, OWNER, SQUARE_IDS, TILE_IDS, TILE_INDEX
from .draws import Bag
from .finish import finish_detail
from .plays import Play, check_play, parse_place, quote, tile_args
from .state import FINISH, MARKET_SIZE, MAX_SWAP, RACK_SIZE, TEAM_ORDER, State, covered, next_seat


def check_options(options: dict, n_seats: int) -> None:
    if not isinstance(n_seats, int) or not 2 <= n_seats <= 4:
        raise InvalidOptions("SetUp is played by 2, 3 or 4 players.")
    teams = options.get("teams", False)
    if not isinstance(teams, bool):
        raise InvalidOptions("The option teams must be true or false.")
    if teams and n_seats != 4:
        raise InvalidOptions("The team game (2 against 2) needs exactly 4 seats.")


def setup(options: dict, n_seats: int, rng: random.Random) -> list:
    """Deals the board (common squares and the bonus squares of absent sides), racks, market."""
    check_options(options, n_seats)
    teams = bool(options.get("teams", False))
    tiles = list(range(N_TILES))
    rng.shuffle(tiles)
    board = {}
    for q in range(N_SQUARES):
        if OWNER[q] is None or OWNER[q] >= n_seats:
            board[SQUARE_IDS[q]] = TILE_IDS[tiles.pop()]
    racks = [[TILE_IDS[tiles.pop()] for _ in range(RACK_SIZE)] for _ in range(n_seats)]
    market = [TILE_IDS[tiles.pop()] for _ in range(MARKET_SIZE)]
    order = list(TEAM_ORDER) if teams else list(range(n_seats))
    return [{"type": "setup", "seats": n_seats, "teams": teams, "goal": FINISH[n_seats],
             "order": order, "board": board, "racks": racks, "market": market}]


def gate(state: State, actor: Actor, move: object) -> int:
    """The checks every move passes first: game running, actor's turn, a JSON object. Returns
    the actor, now known to be the seat whose turn it is."""
    if state.over:
        raise MoveRejected("game_over", "The game is over.")
    if not is_seat(actor):
        raise MoveRejected("not_your_turn", "SetUp has no server moves: only the player whose "
                           "turn it is may act.")
    if actor != state.turn:
        raise MoveRejected("not_your_turn", "It is {seat}'s turn, not yours.", args={"seat": seat_arg(state.turn)})
    if not isinstance(move, dict) or "type" not in move:
        raise MoveRejected("invalid_move", "A move must be a JSON object with a \"type\".")
    return actor


def decide(state: State, actor: Actor, move: Move, rng: random.Random) -> list:
    seat = gate(state, actor, move)
    kind = move.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise MoveRejected("unknown_move_type", "Unknown move type {value}: use \"play\", \"swap\" or, when nothing "
                           "else is possible, \"pass\".", args={"value": quote(kind)})
    keys, handle = handler
    extra = set(move) - keys
    if extra:
        raise MoveRejected("invalid_move", "A {move} move has no field {field}.",
                           args={"move": kind, "field": quote(sorted(map(str, extra))[0])})
    return handle(state, seat, move, rng)


def preview(state: State, seat: Actor, move: Move) -> dict:
    """A dry run of a play for clients (the API can expose it): {"ok": True, "points",
    "bonus", "set_tiles"} or {"ok": False, "code", "message"}. Never raises, changes nothing,
    draws nothing."""
    try:
        player = gate(state, seat, move)
        if move.get("type") != "play" or set(move) != {"type", "place"}:
            raise MoveRejected("invalid_move", "Only a play ({\"type\": \"play\", \"place\": {...}}) "
                               "can be previewed.")
        play = check_play(state, player, parse_place(move.get("place")))
    except MoveRejected as rejected:
        return {"ok": False, "code": rejected.code, "message": rejected.message}
    return {"ok": True, "points": play.points, "bonus": list(play.bonus),
            "set_tiles": [TILE_IDS[t] for t in play.set_tiles]}


def _play(state: State, seat: int, move: dict, rng: random.Random) -> list:
    play = check_play(state, seat, parse_place(move.get("place")))
    events = [_set_made(seat, play)]
    scores = [s + play.bonus[i] + (play.points if i == seat else 0) for i, s in enumerate(state.scores)]
    done = finish_detail(scores, state.goal, seat, state.teams)
    if done is not None:
        return events + [{"type": "game_ended", "reason": "finish", "scores": scores, **done}]
    # Refill the market first, then the player's rack; tiles covered by this play count as covered.
    stacks = [list(s) for s in state.stacks]
    for square, tile in play.place:
        stacks[square].append(tile)
    bag = Bag(state.bag, [t for s in stacks for t in s[:-1]])
    events += bag.draw(MARKET_SIZE - (len(state.market) - len(play.from_market)), rng, "market")
    events += bag.draw(RACK_SIZE - (len(state.racks[seat]) - len(play.from_rack)), rng, "rack", seat)
    return events + [_next_turn(state)]


def _set_made(seat: int, play: Play) -> dict:
    return {"type": "set_made", "seat": seat,
            "place": {SQUARE_IDS[q]: TILE_IDS[t] for q, t in play.place},
            "from_rack": [TILE_IDS[t] for t in play.from_rack],
            "from_market": [TILE_IDS[t] for t in play.from_market],
            "set_tiles": [TILE_IDS[t] for t in play.set_tiles],
            "points": play.points, "bonus": list(play.bonus)}


def _swap(state: State, seat: int, move: dict, rng: random.Random) -> list:
    tiles = parse_swap(state, seat, move.get("tiles"))
    # Draw first, then put the swapped-out tiles into the bag (so they cannot come straight back).
    bag = Bag(state.bag, covered(state))
    events = bag.draw(len(tiles), rng, "rack", seat)
    events.append({"type": "swapped", "seat": seat, "tiles": [TILE_IDS[t] for t in tiles]})
    return events + [_next_turn(state)]


def parse_swap(state: State, seat: int, tiles: object) -> list:
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= MAX_SWAP:
        raise MoveRejected("invalid_move", "A swap needs \"tiles\": a list of 1 to {n} tile ids from your rack.",
                           args={"n": MAX_SWAP})
    out = []
    for tile_id in tiles:
        tile = TILE_INDEX.get(tile_id) if isinstance(tile_id, str) else None
        if tile is None:
            raise MoveRejected("invalid_move", "{value} is not a SetUp tile id.", args={"value": quote(tile_id)})
        if tile in out:
            raise MoveRejected("tile_used_twice", "You listed the {tile} ({id}) twice.", args=tile_args(tile))
        if tile not in state.racks[seat]:
            raise MoveRejected("tile_not_in_rack", "The {tile} ({id}) is not on your rack.", args=tile_args(tile))
        out.append(tile)
    return sorted(out)


def _pass(state: State, seat: int, move: dict, rng: random.Random) -> list:
    if state.racks[seat] or _moves.placements(state, seat):
        raise MoveRejected("illegal_move", "You may only pass when you can neither make a set "
                           "nor swap.")
    return [{"type": "passed", "seat": seat}, _next_turn(state)]


def _next_turn(state: State) -> dict:
    return {"type": "next_turn", "seat": next_seat(state)}


_HANDLERS = {
    "play": ({"type", "place"}, _play),
    "swap": ({"type", "tiles"}, _swap),
    "pass": ({"type"}, _pass),
}
