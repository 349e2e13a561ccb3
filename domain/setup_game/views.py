"""What each viewer may see: view, redact, secrets, result.

Public: the board (stacks included: every tile on it was seen face up), the market, scores,
rack sizes and the bag's size. A rack only to its owner. The bag's content is never listed and
it has no order at all (draws happen in `decide`, written into `drew` events).
"""
from __future__ import annotations

from collections.abc import Container

from domain.contract import EVERY_TYPE, EVERYONE, AllBut, Viewer, is_seat

from .data import LINKS, N_SQUARES, SQUARE_IDS, TILE_IDS, tile_face
from .state import TEAMS, State, bonus_owner, playable_squares


def actors(state: State) -> list:
    return [] if state.over else [state.turn]


def view(state: State, viewer: Viewer) -> dict:
    out = {
        "phase": "over" if state.over else "play",
        "to_act": actors(state),
        "turn": None if state.over else state.turn,
        "seats": state.n,
        "teams": [list(t) for t in TEAMS] if state.teams else None,
        "turn_order": list(state.order),
        "goal": state.goal,
        "scores": list(state.scores),
        "board": [_square(state, q) for q in range(N_SQUARES)],
        "links": [list(link) for link in LINKS],
        "market": [tile_face(t) for t in state.market],
        "rack_sizes": [len(r) for r in state.racks],
        "bag_count": len(state.bag),
        "last_play": _last(state),
        "result": result(state),
    }
    if is_seat(viewer) and 0 <= viewer < state.n:
        out["seat"] = viewer
        out["rack"] = [tile_face(t) for t in state.racks[viewer]]
        out["your_squares"] = [SQUARE_IDS[q] for q in playable_squares(state.n, viewer)]
    if viewer == EVERYONE:
        out["racks"] = [[tile_face(t) for t in r] for r in state.racks]
        out["bag"] = [tile_face(t) for t in sorted(state.bag)]
    return out


def _square(state: State, q: int) -> dict:
    stack = state.stacks[q]
    return {"square": SQUARE_IDS[q], "owner": bonus_owner(state.n, q),
            "top": tile_face(stack[-1]) if stack else None,
            "covered": [TILE_IDS[t] for t in stack[:-1]]}


def _last(state: State) -> dict | None:
    last = state.last
    if last is None:
        return None
    return {"seat": last.seat, "place": {SQUARE_IDS[q]: TILE_IDS[t] for q, t in last.place},
            "set_tiles": [TILE_IDS[t] for t in last.set_tiles], "points": last.points,
            "bonus": list(last.bonus)}


def redact(event: dict, viewer: Viewer) -> dict:
    """A shallow copy (the caller may add fields such as the version) in which other seats'
    rack tiles are null (their count stays visible)."""
    if viewer == EVERYONE:
        return dict(event)
    kind = event["type"]
    if kind == "setup":
        racks = [r if viewer == seat else [None] * len(r) for seat, r in enumerate(event["racks"])]
        return {**event, "racks": racks}
    if kind in ("swapped", "drew") and event.get("seat") is not None and event["seat"] != viewer:
        return {**event, "tiles": [None] * len(event["tiles"])}
    return dict(event)


_HIDING = AllBut("setup", "swapped", "drew")


def as_stored(viewer: Viewer) -> Container[str]:
    """The types redact leaves as they are: all but the racks dealt, swapped and drawn (open once over)."""
    return EVERY_TYPE if viewer == EVERYONE else _HIDING


def secrets(state: State) -> dict:
    out = {}
    for seat, rack in enumerate(state.racks):
        for t in rack:
            out[TILE_IDS[t]] = frozenset((seat,))
    for t in state.bag:
        # Nobody sees what is in the bag, except a seat that put a tile back itself.
        out[TILE_IDS[t]] = frozenset(s for s, known in enumerate(state.bag_known) if t in known)
    return out


def result(state: State) -> dict | None:
    if not state.over:
        return None
    out = {"winners": list(state.winners), "scores": list(state.scores), **(state.finish or {})}
    if state.teams:
        out["teams"] = [list(t) for t in TEAMS]
    return out
