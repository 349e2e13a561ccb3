"""What each viewer may see: a seat sees its own hand and the cards it passed and received;
everybody sees every card once played, who took each trick, and the scores."""
from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from domain.contract import EVERY_TYPE, EVERYONE, AllBut, is_seat

from .moves import actors
from .state import OVER, PASS_COUNT, PASSING, State, led_colour, pass_source, pass_target

if TYPE_CHECKING:
    from domain.contract import Event, Viewer


def _seat_of(viewer: Viewer, n: int) -> int | None:
    return viewer if is_seat(viewer) and 0 <= viewer < n else None


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    n = state.n
    out = {
        "phase": state.phase,
        "to_act": actors(state),
        "n_seats": n,
        "options": _options(state),
        "round": state.round,
        "dealer": state.dealer,
        "pass_direction": state.direction,
        "pass_count": PASS_COUNT[n],
        "hand_sizes": [len(h) for h in state.hands],
        "passed_seats": [s for s, p in enumerate(state.passed) if p is not None],
        "leader": state.leader,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "led_colour": led_colour(state.trick),
        "tricks_played": state.tricks_played,
        "tricks_won": list(state.tricks_won),
        "taken": [list(t) for t in state.taken],
        "last_trick": _last_trick(state),
        "totals": list(state.totals),
        "round_points": [list(p) for p in state.history],
        "spell": _spell(state),
        "result": result(state),
    }
    seat = _seat_of(viewer, n)
    if seat is not None:
        exchanged = state.phase != PASSING
        passed = state.passed[seat]
        out["hand"] = list(state.hands[seat])
        out["passed"] = None if passed is None else list(passed)
        out["passed_to"] = pass_target(n, state.direction, seat)
        out["received"] = list(state.received[seat]) if exchanged else None
        out["received_from"] = pass_source(n, state.direction, seat)
    elif viewer == EVERYONE:
        out["hands"] = [list(h) for h in state.hands]
        out["passes"] = [None if p is None else list(p) for p in state.passed]
    return out


def _options(state: State) -> dict:
    o = state.options
    return {"target_score": o.target_score, "rounds": o.rounds,
            "pygmy_queen_points": o.pygmy_queen_points, "earth_witch_variant": o.earth_witch_variant}


def _last_trick(state: State) -> dict[str, Any] | None:
    if not state.last_trick:
        return None
    return {"cards": [{"seat": s, "card": c} for s, c in state.last_trick], "winner": state.last_winner}


def _spell(state: State) -> dict[str, Any] | None:
    if state.spell is None:
        return None
    caster, kind, points = state.spell
    return {"caster": caster, "kind": kind, "points": points, "choice": state.spell_choice}


def redact(event: Event, viewer: Viewer) -> Event:
    kind = event["type"]
    if viewer == EVERYONE or kind not in ("round_dealt", "cards_passed", "cards_exchanged"):
        return event
    seat = viewer if is_seat(viewer) else None
    if kind == "round_dealt":
        out = {k: v for k, v in event.items() if k != "hands"}
        out["hand_sizes"] = [len(h) for h in event["hands"]]
        if seat is not None and 0 <= seat < len(event["hands"]):
            out["hand"] = event["hands"][seat]
        return out
    if kind == "cards_passed":
        if event["seat"] == seat:
            return event
        return {"type": kind, "seat": event["seat"]}
    passes = [p for p in event["passes"] if seat is not None and seat in (p["from"], p["to"])]
    return {"type": kind, "direction": event["direction"], "passes": passes}


_HIDING = AllBut("round_dealt", "cards_passed", "cards_exchanged")


def as_stored(viewer: Viewer) -> Container[str]:
    """The types redact leaves as they are: all but the deal and the passes (open once over)."""
    return EVERY_TYPE if viewer == EVERYONE else _HIDING


def secrets(state: State) -> dict:
    """Every card in a hand is secret to its holder, and a passed card also to its passer;
    cards passed but not yet exchanged are secret to the passer alone."""
    n, out = state.n, {}
    for seat, hand in enumerate(state.hands):
        mine = frozenset((seat,))
        got = state.received[seat] if state.received else ()
        if got:
            both = frozenset((seat, pass_source(n, state.direction, seat)))
        for card in hand:
            out[card] = both if got and card in got else mine
        passed = state.passed[seat] if state.passed else None
        if passed is not None and state.phase == PASSING:
            for card in passed:
                out[card] = mine
    return out


def result(state: State) -> dict[str, Any] | None:
    if state.phase != OVER:
        return None
    return {
        "winners": list(state.winners),
        "scores": list(state.totals),
        "reason": state.end_reason,
        "rounds_played": state.round,
        "round_points": [list(p) for p in state.history],
    }
