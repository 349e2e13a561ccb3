"""Platform events: what the server itself records in a game's history, beside the game's own
events. No game's rules decide them and no game's reducer sees them; they are folded here, into
a small state kept next to the game's, and replay from the history like everything else.

- `game_created` (type, seats, options, seed, private) opens every history. Its seats are
  people (`{"name"}`, with `"player"` for a player who sat itself), bots, or free seats
  (`{"open": true}`, `{"invite": true}`, and a rematch's `{"open": true, "reserved_for",
  "reserved_until"}`). A game with a free seat is `waiting`: it has no deal yet.
- `seat_claimed` (seat, name, player, token_sha256) fills a free seat; `seat_left` frees it
  again (only while waiting). The claimer's token hash lives in the event, so a replay rebuilds
  who may act as that seat; presenting.py strips it for every viewer.
- `seats_filled` (setup_version) is appended with the claim that fills the last seat, followed
  by the game's setup events (each game's own `game_started`...): `setup_version` is the
  version after them.
- `rematch_created` (game_id) names the game that a finished game's people were invited to.
- `game_abandoned` ends a game nobody has moved in for ABANDON_AFTER: the game's status and
  result say so, it has no one to act, and it is over (its seed and hidden information open).

A seat's state is a plain dict (see `_seat`): general enough for later changes of who plays a
seat (a bot taking a seat over and giving it back are more keys and events, not a new shape).
Pure: no I/O, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

from domain.contract import GameDef
from domain.play import fold

CREATED = "game_created"
ABANDONED = "game_abandoned"
SEAT_CLAIMED = "seat_claimed"
SEAT_LEFT = "seat_left"
STARTED = "seats_filled"
REMATCH = "rematch_created"
PLATFORM_EVENTS = frozenset({CREATED, ABANDONED, SEAT_CLAIMED, SEAT_LEFT, STARTED, REMATCH})
SECRET_FIELDS = ("token_sha256",)  # never shown to anyone, not even once the game is over


@dataclass(frozen=True)
class Platform:
    """What the platform events of a history say so far."""

    ended: Optional[dict] = None  # the platform's result when it ended the game ({"outcome": ...})
    seats: tuple = ()  # one dict per seat (see _seat)
    started: bool = False  # the deal exists: every seat was filled (at creation, or by a claim)
    setup_version: Optional[int] = None  # for a game that waited: the version after its setup
    options: Optional[dict] = None
    private: bool = False  # not listed in the lobby
    rematch: Optional[str] = None  # the id of the game this one's people were invited to


START = Platform()


def _seat(given: dict) -> dict:
    """A seat's state from its shape in `game_created`."""
    return {"name": given.get("name"), "bot": given.get("bot"), "player": given.get("player"),
            "open": bool(given.get("open")), "invite": bool(given.get("invite")),
            "reserved_for": given.get("reserved_for"), "reserved_until": given.get("reserved_until"),
            # seats the creator named hold the creator's tokens (and its table token)
            "creator": "name" in given, "token_sha256": None}


def is_free(seat: dict) -> bool:
    """Nobody sits here yet: a person's seat without a name."""
    return seat["bot"] is None and seat["name"] is None


def free_given(seat: dict) -> bool:
    """Whether a seat as sent to POST /games is one for someone else to claim."""
    return bool(seat.get("open") or seat.get("invite"))


def evolve(platform: Platform, type_: str, data: dict) -> Platform:
    if type_ == CREATED:
        seats = tuple(_seat(s) for s in data.get("seats", ()))
        return replace(platform, seats=seats, started=not any(is_free(s) for s in seats),
                       options=data.get("options"), private=bool(data.get("private")))
    if type_ == SEAT_CLAIMED:
        return _with_seat(platform, data["seat"], name=data.get("name"), player=data.get("player"),
                          token_sha256=data.get("token_sha256"))
    if type_ == SEAT_LEFT:
        return _with_seat(platform, data["seat"], name=None, player=None, token_sha256=None)
    if type_ == STARTED:
        return replace(platform, started=True, setup_version=data.get("setup_version"))
    if type_ == REMATCH and platform.rematch is None:
        return replace(platform, rematch=data.get("game_id"))
    if type_ == ABANDONED and platform.ended is None:
        return replace(platform, ended={"outcome": "abandoned", "winners": [], "reason": data.get("reason", ""),
                                        "idle_seconds": data.get("idle_seconds")})
    return platform


def _with_seat(platform: Platform, index: int, **changes) -> Platform:
    seats = list(platform.seats)
    seats[index] = {**seats[index], **changes}
    return replace(platform, seats=tuple(seats))


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
    if not platform.started:
        return "waiting"
    return "finished" if game_result is not None else "active"


def result(platform: Platform, game_result: Optional[dict]) -> Optional[dict]:
    return platform.ended if platform.ended is not None else game_result
