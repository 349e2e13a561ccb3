"""evolve: applies one event. Pure, no randomness (every draw is written in the events)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .data import N_SQUARES, N_TILES, SQUARE_INDEX, TILE_INDEX
from .state import LastPlay, State, covered

_EMPTY: frozenset[int] = frozenset()


def replace(state: State, **changes: Any) -> State:
    """dataclasses.replace for a State, without its __init__ (the fields copied, `changes` set):
    the same state, in half the time, for the reducer's every event."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _ints(ids: Iterable[str]) -> list:
    return [TILE_INDEX[t] for t in ids]


def _setup(state: State | None, e: dict) -> State:
    n = e["seats"]
    stacks: list[tuple[int, ...]] = [()] * N_SQUARES
    for square_id, tile_id in e["board"].items():
        stacks[SQUARE_INDEX[square_id]] = (TILE_INDEX[tile_id],)
    racks = tuple(tuple(_ints(r)) for r in e["racks"])
    market = tuple(_ints(e["market"]))
    dealt = {t for s in stacks for t in s} | {t for r in racks for t in r} | set(market)
    return State(n=n, teams=e["teams"], goal=e["goal"], order=tuple(e["order"]),
                 turn=e["order"][0], stacks=tuple(stacks), racks=racks, market=market,
                 bag=frozenset(range(N_TILES)) - dealt, bag_known=(_EMPTY,) * n,
                 scores=(0,) * n)


def _set_made(state: State, e: dict) -> State:
    seat = e["seat"]
    stacks = list(state.stacks)
    place = []
    for square_id, tile_id in e["place"].items():
        q, t = SQUARE_INDEX[square_id], TILE_INDEX[tile_id]
        stacks[q] = stacks[q] + (t,)
        place.append((q, t))
    used = set(_ints(e["from_rack"])) | set(_ints(e["from_market"]))
    racks = list(state.racks)
    racks[seat] = tuple(t for t in racks[seat] if t not in used)
    bonus = tuple(e["bonus"])
    scores = tuple(s + bonus[i] + (e["points"] if i == seat else 0) for i, s in enumerate(state.scores))
    last = LastPlay(seat=seat, place=tuple(sorted(place)), set_tiles=tuple(_ints(e["set_tiles"])),
                    points=e["points"], bonus=bonus, from_rack=tuple(_ints(e["from_rack"])),
                    rack_size=len(state.racks[seat]), stacks_before=state.stacks,
                    market_before=state.market, turns=state.turns)
    return replace(state, stacks=tuple(stacks), racks=tuple(racks),
                   market=tuple(t for t in state.market if t not in used), scores=scores, last=last)


def _drew(state: State, e: dict) -> State:
    tiles = _ints(e["tiles"])
    gone = frozenset(tiles)
    known = tuple(k - gone for k in state.bag_known) if any(state.bag_known) else state.bag_known
    changes: dict[str, Any] = dict(bag=state.bag - gone, bag_known=known)
    if e["to"] == "market":
        changes["market"] = state.market + tuple(tiles)
    else:
        racks = list(state.racks)
        racks[e["seat"]] = racks[e["seat"]] + tuple(tiles)
        changes["racks"] = tuple(racks)
    return replace(state, **changes)


def _bag_refilled(state: State, e: dict) -> State:
    back = frozenset(covered(state))
    return replace(state, stacks=tuple(s[-1:] for s in state.stacks), bag=state.bag | back)


def _swapped(state: State, e: dict) -> State:
    seat, back = e["seat"], frozenset(_ints(e["tiles"]))
    racks = list(state.racks)
    racks[seat] = tuple(t for t in racks[seat] if t not in back)
    known = list(state.bag_known)
    known[seat] = known[seat] | back
    return replace(state, racks=tuple(racks), bag=state.bag | back, bag_known=tuple(known))


def _passed(state: State, e: dict) -> State:
    return state


def _next_turn(state: State, e: dict) -> State:
    return replace(state, turn=e["seat"], turns=state.turns + 1)


def _game_ended(state: State, e: dict) -> State:
    detail = {k: v for k, v in e.items() if k not in ("type", "winners", "scores")}
    return replace(state, over=True, winners=tuple(e["winners"]), finish=detail)


# The state is None only before the first event ("setup").
_APPLY: dict[str, Callable[[Any, dict], State]] = {
    "setup": _setup, "set_made": _set_made, "drew": _drew, "bag_refilled": _bag_refilled,
    "swapped": _swapped, "passed": _passed, "next_turn": _next_turn, "game_ended": _game_ended,
}


def evolve(state: State | None, event: dict) -> State:
    return _APPLY[event["type"]](state, event)
