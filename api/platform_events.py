"""Platform events: what the server itself records in a game's history, beside the game's own
events. No game's rules decide them and no game's reducer sees them; they are folded here, into
a small state kept next to the game's, and replay from the history like everything else.

`game_created` (type, seats, options, seed) opens every history. `game_abandoned` ends a game
nobody has moved in for ABANDON_AFTER: the game's status and result say so, it has no one to
act, and it is over (its seed and hidden information open to all). Later platform events
(seat claims in a lobby, timeouts, resignations, aborts) join PLATFORM_EVENTS and `evolve`.
Pure: no I/O, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

from domain.contract import GameDef
from domain.play import fold

CREATED = "game_created"
ABANDONED = "game_abandoned"
PLATFORM_EVENTS = frozenset({CREATED, ABANDONED})


@dataclass(frozen=True)
class Platform:
    """What the platform events of a history say so far."""

    ended: Optional[dict] = None  # the platform's result when it ended the game ({"outcome": ...})


START = Platform()


def evolve(platform: Platform, type_: str, data: dict) -> Platform:
    if type_ == ABANDONED and platform.ended is None:
        return replace(platform, ended={"outcome": "abandoned", "winners": [], "reason": data.get("reason", ""),
                                        "idle_seconds": data.get("idle_seconds")})
    return platform


def abandoned_event(idle_seconds: int) -> dict:
    """The event the system appends to a game nobody has moved in for `idle_seconds`."""
    return {"type": ABANDONED, "reason": f"no move for {idle_seconds} s", "idle_seconds": idle_seconds}


def fold_stored(definition: GameDef, stored: Iterable, state, platform: Platform) -> tuple:
    """(game state, platform state) after stored events (StoredEvent: .type, .data): the game's
    own events go through its reducer, platform events through `evolve`."""
    own = []
    for e in stored:
        if e.type in PLATFORM_EVENTS:
            if own:
                state, own = fold(definition, own, state), []
            platform = evolve(platform, e.type, e.data)
        else:
            own.append(e.data)
    if own:
        state = fold(definition, own, state)
    return state, platform


def status(platform: Platform, game_result: Optional[dict]) -> str:
    if platform.ended is not None:
        return platform.ended["outcome"]
    return "finished" if game_result is not None else "active"


def result(platform: Platform, game_result: Optional[dict]) -> Optional[dict]:
    return platform.ended if platform.ended is not None else game_result
