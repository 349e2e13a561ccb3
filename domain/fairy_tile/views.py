"""What each viewer may see: views, redacted events, the secrets oracle and the result."""
from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from domain.contract import EVERY_TYPE, EVERYONE, AllBut, is_seat

from .data import card_public
from .hexgrid import DIR_NAMES
from .moves import actors
from .tiles import FIGURES, face

if TYPE_CHECKING:
    from domain.contract import Event, Viewer

    from .kingdom import Kingdom
    from .state import State


def _hex_cells(kingdom: Kingdom) -> list[dict[str, Any]]:
    return [{"q": q, "r": r, "terrain": t, "river": [DIR_NAMES[d] for d in sorted(rv)]}
            for (q, r), (t, rv) in sorted(kingdom.cells.items())]


def tile_face(tile_id: str, side: str) -> dict:
    """A tile face as a client draws it (local hexes h0 (0,0), h1 (1,0), h2 (0,1))."""
    hexes = [{"terrain": c["terrain"], "river": [DIR_NAMES[d] for d in c["river"]]} for c in face(tile_id, side)]
    return {"tile": tile_id, "side": side, "hexes": hexes}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    everyone = viewer == EVERYONE
    seats = []
    for i, s in enumerate(state.seats):
        entry = {"seat": i, "book_size": len(s.book), "has_card": s.hand is not None,
                 "told": [card_public(c) for c in s.told], "magic_active": s.magic, "out": s.out}
        if everyone:
            entry["hand"] = card_public(s.hand) if s.hand else None
            entry["book"] = list(s.book)
        seats.append(entry)
    out = {
        "phase": state.phase,
        "to_act": actors(state),
        "current": state.current,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "kingdom": _hex_cells(state.kingdom),
        "laid_tiles": [{"tile": t, "side": s, "at": list(at), "rotation": r} for t, s, at, r in state.laid],
        "figures": {f: list(h) for f, h in zip(FIGURES, state.figures)},
        "pile_size": len(state.pile),
        "next_tile": tile_face(*state.pile[0]) if state.pile else None,
        "moved_this_turn": sorted(state.moved),
        "passed_castle_this_turn": sorted(state.passed),
        "adventures_this_turn": state.adventures,
        "seats": seats,
        "result": result(state),
    }
    if is_seat(viewer) and 0 <= viewer < state.n:
        hand = state.seats[viewer].hand
        out["hand"] = card_public(hand) if hand else None
    if everyone:
        out["pile"] = [tile_face(t, s) for t, s in state.pile]
    return out


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer == EVERYONE:
        return event
    kind = event["type"]
    if kind == "game_set_up":
        out = {"type": kind, "seats": event["seats"], "round_limit": event["round_limit"],
               "book_sizes": [len(b) - 1 if b else 0 for b in event["books"]],
               "pile_size": len(event["pile"]),
               "next_tile": list(event["pile"][0]) if event["pile"] else None}
        if is_seat(viewer) and 0 <= viewer < len(event["books"]) and event["books"][viewer]:
            out["hand"] = event["books"][viewer][0]
        return out
    if kind in ("card_told", "page_turned") and viewer != event["seat"]:
        return {k: v for k, v in event.items() if k != "drawn"}
    return event


_HIDING = AllBut("game_set_up", "card_told", "page_turned")


def as_stored(viewer: Viewer) -> Container[str]:
    """The types redact leaves as they are: all but the set-up and the drawn cards (open once over)."""
    return EVERY_TYPE if viewer == EVERYONE else _HIDING


def secrets(state: State) -> dict[str, frozenset[int]]:
    out = {}
    for i, s in enumerate(state.seats):
        if s.hand is not None:
            out[s.hand] = frozenset([i])
        for card in s.book:
            out[card] = frozenset()
    for tile, _ in state.pile[1:]:
        out[tile] = frozenset()  # the top tile shows its face on the pile: it is public
    return out


def result(state: State) -> dict[str, Any] | None:
    if not state.over:
        return None
    return {"winners": list(state.winners), "scores": [len(s.told) for s in state.seats],
            "reason": state.reason, "out": [i for i, s in enumerate(state.seats) if s.out],
            "turns": state.turn}

