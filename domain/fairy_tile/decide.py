"""decide: checks a client's move and answers with events, ending the turn where it ends."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, NoReturn

from domain.contract import SYSTEM, MoveRejected, is_seat

from ..words import seat
from .conditions import Context, holds
from .data import CONDITIONS
from .feasibility import can_complete
from .hexgrid import DIR_NAMES, Hex
from .movement import MOVERS
from .rules import evolve
from .tiles import FIGURES

if TYPE_CHECKING:
    import random

    from domain.contract import Actor, Event, Move

    from .kingdom import Kingdom
    from .state import State

_ADVENTURE_PHASES = ("adventure", "second")


def decide(state: State | None, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    if state is None or state.over:
        raise MoveRejected("game_over", "The game is over.")
    if actor == SYSTEM:
        raise MoveRejected("not_your_turn", "The server has nothing to do now: a player is to act.")
    if not is_seat(actor) or actor != state.current:
        raise MoveRejected("not_your_turn", "It is {seat}'s turn, not yours.", args={"seat": seat(state.current)})
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise MoveRejected("invalid_move", "A move must be an object with a string \"type\".")
    handler = _HANDLERS.get(move["type"])
    if handler is None:
        raise MoveRejected("unknown_move_type", "Fairy Tile has no move called {value}.",
                           args={"value": repr(move["type"][:40])})
    return handler(state, move)


def _keys(move: Move, *allowed_sets: set[str]) -> None:
    if set(move) not in [set(a) | {"type"} for a in allowed_sets]:
        wanted = [", ".join(sorted(a)) for a in allowed_sets]
        if not wanted[0]:
            raise MoveRejected("invalid_move", "This move takes no field besides type.")
        if len(wanted) > 1:
            raise MoveRejected("invalid_move", "This move takes exactly these fields besides type: {fields} or "
                               "{other}.", args={"fields": wanted[0], "other": wanted[1]})
        raise MoveRejected("invalid_move", "This move takes exactly these fields besides type: {fields}.",
                           args={"fields": wanted[0]})


def _hex(value: object, name: str) -> Hex:
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise MoveRejected("invalid_move", "\"{field}\" must be a hex given as [q, r] with two integers.",
                           args={"field": name})
    return (value[0], value[1])


def _figure_move(state: State, move: Move) -> list[Event]:
    figure = move.get("figure")
    key: int | tuple[Hex, Hex | None]  # a direction's index for the dragon, else (to, via)
    if figure not in FIGURES:
        raise MoveRejected("invalid_move", "\"figure\" must be princess, knight or dragon.")
    if figure == "dragon":
        _keys(move, {"figure", "direction"})
        if move["direction"] not in DIR_NAMES:
            raise MoveRejected("invalid_move", "\"direction\" must be one of e, se, sw, w, nw, ne.")
        key = DIR_NAMES.index(move["direction"])
    else:
        _keys(move, {"figure", "to", "via"}, *([{"figure", "to"}] if figure == "princess" else []))
        key = (_hex(move["to"], "to"), _hex(move["via"], "via") if "via" in move else None)
    _check_phase(state)
    found = move_table(state.kingdom, figure, state.position(figure)).get(key)
    if found is None:
        _why_not(figure)
    to, path, passed = found
    event = {"type": "figure_moved", "seat": state.current, "figure": figure,
             "from": list(state.position(figure)), "to": list(to),
             "path": [list(h) for h in path], "passed_castle": passed}
    return _adventure(state, event)


def move_table(kingdom: Kingdom, figure: str, at: Hex) -> dict[Any, tuple[Hex, tuple[Hex, ...], bool]]:
    """{key: (to, path, passed_castle)} of a figure's moves, cached on the kingdom."""
    def build() -> dict[Any, tuple[Hex, tuple[Hex, ...], bool]]:
        return {key: (to, path, passed) for key, to, path, passed in MOVERS[figure](kingdom, at)}
    return kingdom._cached(("table", figure, at), build)


def _why_not(figure: str) -> NoReturn:
    if figure == "princess":
        raise MoveRejected("illegal_figure_move", "The Princess moves one step to an adjacent hex, and may jump "
                           "between castles only together with that step.")
    if figure == "knight":
        raise MoveRejected("illegal_figure_move", "The Knight moves exactly two hexes through the kingdom, ending two "
                           "hexes away (never on or next to where he began); \"via\" is the hex between.")
    raise MoveRejected("illegal_figure_move", "The Dragon must fly at least one hex in that direction.")


def _lay_tile(state: State, move: Move) -> list[Event]:
    _keys(move, {"at", "rotation"})
    at = _hex(move["at"], "at")
    rotation = move["rotation"]
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation <= 5:
        raise MoveRejected("invalid_move", "\"rotation\" must be an integer from 0 to 5.")
    _check_phase(state)
    if not state.pile:
        raise MoveRejected("pile_empty", "The tile pile is empty: no more tiles can be laid.")
    tile, side = state.pile[0]
    if (at, rotation) not in state.kingdom.placements(tile, side):
        raise MoveRejected("illegal_placement", "The tile cannot go there: it must touch the kingdom "
                           "along at least two connected edges, with every river continued.")
    nxt = list(state.pile[1]) if len(state.pile) > 1 else None
    event = {"type": "tile_laid", "seat": state.current, "tile": tile, "side": side,
             "at": list(at), "rotation": rotation, "next_tile": nxt}
    return _adventure(state, event)


def _check_phase(state: State) -> None:
    if state.phase not in _ADVENTURE_PHASES:
        raise MoveRejected("illegal_move", "You cannot take another adventure this turn.")


def _adventure(state: State, event: Event) -> list[Event]:
    events = []
    if state.phase == "second":
        events.append({"type": "magic_used", "seat": state.current})
    events.append(event)
    for e in events:
        state = evolve(state, e)
    if state.phase == "closing":
        events += close_turn(state)
    return events


def _turn_page(state: State, move: Move) -> list[Event]:
    _keys(move, set())
    if state.phase != "adventure":
        raise MoveRejected("illegal_move",
                           "You have already taken an adventure this turn: you cannot turn the page now.")
    seat = state.seats[state.current]
    book = seat.book + (seat.hand,)
    event = {"type": "page_turned", "seat": state.current, "drawn": book[0]}
    return [event] + close_turn(evolve(state, event))


def _finish(state: State, move: Move) -> list[Event]:
    _keys(move, set())
    if state.phase != "second":
        raise MoveRejected("illegal_move", "There is nothing to finish: take an adventure or turn the page.")
    return close_turn(replace(state, phase="closing"))


def card_holds(state: State, seat: int) -> bool:
    hand = state.seats[seat].hand
    ctx = Context(state.kingdom, state.positions(), state.moved, state.passed, state.stopped_in())
    return hand is not None and holds(CONDITIONS[hand], ctx)


def is_stuck(state: State, seat: int) -> bool:
    """A player whose last card can never be completed: the pile is empty and no moves can."""
    s = state.seats[seat]
    if s.out or s.book or s.hand is None or state.pile:
        return False
    return not can_complete(state.kingdom, state.positions(), CONDITIONS[s.hand])


def close_turn(state: State) -> list[Event]:
    """Tell the card if it holds (only after an adventure), put out whoever is stuck, then end
    the game or pass the turn."""
    me, events = state.current, []

    def emit(event: Event) -> None:
        nonlocal state
        events.append(event)
        state = evolve(state, event)

    if state.adventures and card_holds(state, me):
        book = state.seats[me].book
        emit({"type": "card_told", "seat": me, "card": state.seats[me].hand, "drawn": book[0] if book else None})
        if not book:
            emit({"type": "game_ended", "reason": "book_finished", "winners": [me]})
            return events
    for i in range(state.n):
        if is_stuck(state, i):
            emit({"type": "player_out", "seat": i})
    alive = [i for i, s in enumerate(state.seats) if not s.out]
    if not alive:
        emit({"type": "game_ended", "reason": "all_out", "winners": []})
    elif state.turn >= state.turn_limit:
        best = max(len(state.seats[i].told) for i in alive)
        emit({"type": "game_ended", "reason": "round_limit",
              "winners": [i for i in alive if len(state.seats[i].told) == best]})
    else:
        nxt = min(alive, key=lambda i: (i - me - 1) % state.n)  # the next seat still in play
        emit({"type": "turn_ended", "seat": me, "next": nxt})
    return events


_HANDLERS = {"move": _figure_move, "lay_tile": _lay_tile, "turn_page": _turn_page, "finish": _finish}
