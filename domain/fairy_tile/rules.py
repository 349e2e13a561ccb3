"""Setup and evolve: the events of Fairy Tile and how each changes the state."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .data import CARD_IDS
from .kingdom import Kingdom
from .state import Seat, State
from .tiles import FIGURES, KINGDOM_TILES, START_LAYOUT, placed_hexes

if TYPE_CHECKING:
    import random

    from domain.contract import Event

    from .hexgrid import Hex


def start_kingdom() -> tuple:
    """The start tiles laid with their white dots together, and where the figures stand on
    their emblems."""
    kingdom, figures = Kingdom({}), {}
    for spot in START_LAYOUT:
        kingdom = kingdom.lay(spot["tile"], spot["side"], spot["at"], spot["rotation"])
        for h, _, _, emblem in placed_hexes(spot["tile"], spot["side"], spot["at"], spot["rotation"]):
            if emblem:
                figures[emblem] = h
    return kingdom, tuple(figures[f] for f in FIGURES)


_START = start_kingdom()


def setup(options: dict[str, Any], n_seats: int, rng: random.Random) -> list[Event]:
    """Shuffles the 36 cards and deals them all into the books; shuffles the 12 kingdom tiles,
    each with a random side up."""
    cards = list(CARD_IDS)
    rng.shuffle(cards)
    per = len(cards) // n_seats
    books = [cards[i * per:(i + 1) * per] for i in range(n_seats)]
    tiles = list(KINGDOM_TILES)
    rng.shuffle(tiles)
    pile = [[t, rng.choice(("a", "b"))] for t in tiles]
    return [{"type": "game_set_up", "seats": n_seats, "round_limit": options["round_limit"],
             "books": books, "pile": pile}]


def _hex(v: Sequence[int]) -> Hex:
    return (v[0], v[1])


def _seat(state: State, i: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)
    return tuple(seats)


def _after_adventure(state: State, **changes: Any) -> State:
    state = replace(state, adventures=state.adventures + 1, **changes)
    second = state.adventures == 1 and state.seats[state.current].magic
    return replace(state, phase="second" if second else "closing")


def _set_up(event: Event) -> State:
    kingdom, figures = _START
    seats = tuple(Seat(book=tuple(b[1:]), hand=b[0] if b else None) for b in event["books"])
    return State(n=event["seats"], round_limit=event["round_limit"], kingdom=kingdom,
                 figures=figures, pile=tuple((t, s) for t, s in event["pile"]), seats=seats)


def _figure_moved(state: State, event: Event) -> State:
    i = FIGURES.index(event["figure"])
    figures = state.figures[:i] + (_hex(event["to"]),) + state.figures[i + 1:]
    passed = state.passed | {event["figure"]} if event["passed_castle"] else state.passed
    stopped = tuple(kv for kv in state.stopped if kv[0] != event["figure"]) + ((event["figure"], state.kingdom),)
    return _after_adventure(state, figures=figures, moved=state.moved | {event["figure"]}, passed=passed,
                            stopped=stopped)


def _tile_laid(state: State, event: Event) -> State:
    at = _hex(event["at"])
    kingdom = state.kingdom.lay(event["tile"], event["side"], at, event["rotation"])
    laid = state.laid + ((event["tile"], event["side"], at, event["rotation"]),)
    return _after_adventure(state, kingdom=kingdom, pile=state.pile[1:], laid=laid)


def _card_told(state: State, event: Event) -> State:
    seat = state.seats[event["seat"]]
    book = seat.book
    return replace(state, seats=_seat(state, event["seat"], told=seat.told + (seat.hand,),
                                      hand=book[0] if book else None, book=book[1:]))


def _page_turned(state: State, event: Event) -> State:
    seat = state.seats[event["seat"]]
    book = seat.book + (seat.hand,)
    return replace(state, phase="closing",
                   seats=_seat(state, event["seat"], hand=book[0], book=book[1:], magic=True))


def _turn_ended(state: State, event: Event) -> State:
    return replace(state, current=event["next"], phase="adventure", adventures=0,
                   moved=frozenset(), passed=frozenset(), stopped=(), turn=state.turn + 1)


def _game_ended(state: State, event: Event) -> State:
    return replace(state, phase="over", winners=tuple(event["winners"]), reason=event["reason"])


def evolve(state: State | None, event: Event) -> State:
    kind = event["type"]
    if kind == "game_set_up":
        return _set_up(event)
    assert state is not None, "every event but the set-up changes the state the set-up made"
    if kind == "figure_moved":
        return _figure_moved(state, event)
    if kind == "tile_laid":
        return _tile_laid(state, event)
    if kind == "magic_used":
        return replace(state, seats=_seat(state, event["seat"], magic=False))
    if kind == "card_told":
        return _card_told(state, event)
    if kind == "page_turned":
        return _page_turned(state, event)
    if kind == "player_out":
        return replace(state, seats=_seat(state, event["seat"], out=True))
    if kind == "turn_ended":
        return _turn_ended(state, event)
    if kind == "game_ended":
        return _game_ended(state, event)
    raise ValueError(f"unknown event type {kind!r}")
