"""What leaves the server, per viewer: the game, its events, its legal moves.

Every channel (GET game, history pages, past states, move answers, the live stream) goes
through these functions, so redaction happens in one place.
"""
from __future__ import annotations

import time
from typing import Any, Protocol

from api.games.repository import CREATED, Game
from api.platform import clocks, decisions
from api.platform.events import PLATFORM_EVENTS, SECRET_FIELDS
from api.platform.fairness import commitment, fairness
from domain.contract import EVERYONE, GameDef, Viewer
from domain.play import upcast


class Finishes(Protocol):
    """A game as far as its viewer goes: a Game, or an export's Ended (api/history/export.py)."""

    @property
    def finished(self) -> bool: ...


class Defined(Protocol):
    """A game as far as presenting one event goes: its definition (a Game, or an Ended)."""

    @property
    def definition(self) -> GameDef: ...


def viewer_for(game: Finishes, seat: int | None) -> Viewer:
    """Once a game is over, its whole story is open to everyone."""
    return EVERYONE if game.finished else seat


def present(game: Defined, viewer: Viewer, type_: str, data: dict[str, Any], version: int, actor: object = None,
            at: int | None = None) -> dict[str, Any]:
    """One event as `viewer` may see it, in the shape of a history page's element."""
    if type_ == CREATED:
        shown = dict(data)
        shown["seed_sha256"] = commitment(data.get("seed"))  # seen by all from the start
        if viewer != EVERYONE:
            shown.pop("seed", None)  # the seed would tell every future shuffle
    elif type_ in PLATFORM_EVENTS:
        # The platform's own events hold no one's secrets but a claimed seat's token hash,
        # which nobody is shown, ever (a hash would let anyone test guesses offline).
        shown = {k: v for k, v in data.items() if k not in SECRET_FIELDS}
    else:
        shown = game.definition.redact(upcast(game.definition, data), viewer)
    return {"version": version, "type": type_, "actor": actor, "at": at, "data": shown}


def describe(game: Game, seat: int | None, now_ms: int | None = None) -> dict[str, Any]:
    """The game as a seat (or a spectator, seat None) may see it; a clocked game's `clock` as
    of now_ms (each seat's remaining time and deadline: api/platform/clocks.py)."""
    definition = game.definition
    described = {
        "id": game.id,
        "type": definition.name,
        "version": game.version,
        "status": game.status,
        "to_act": game.actors(),
        "seats": [public_seat(i, s) for i, s in enumerate(game.seats)],
        "you": seat,
        # No view before the deal: a waiting game (or a version inside its setup) has none.
        "view": None if not game.dealt else definition.view(game.state, viewer_for(game, seat)),
        "result": game.result if game.finished else None,
        "fairness": fairness(game.seed, game.finished),
        "rematch": game.platform.rematch,
    }
    if game.status == "active":  # a seated person may abort it (from ABORT_AFTER_S) until a person moves
        described["abortable"] = not game.platform.person_moved
    if game.platform.clock is not None:
        described["clock"] = clocks.shown(game.platform, now_ms if now_ms is not None else int(time.time() * 1000))
    if (game.platform.pause_votes or game.platform.agreed_pause) and not game.finished:
        described["pause"] = decisions.pause_state(game)  # a pause proposed or agreed (api/seating/pauses.py)
    return described


def clock_at_event(game: Game, at: int | None) -> dict[str, Any] | None:
    """What a live event carries of a clocked game (`game` as after the event): the deadlines,
    and each seat's remaining time as of the event."""
    if game.platform.clock is None or at is None:
        return None
    return clocks.shown(game.platform, at)


def public_seat(index: int, seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as anyone may see it: who sits there (and the player's id), or that it is free."""
    shown = {"seat": index, "name": seat["name"] if seat["bot"] is None else seat["bot"], "bot": seat["bot"]}
    if seat["player"] is not None:
        shown["player"] = seat["player"]
    if seat.get("bot_account"):
        shown["bot_account"] = True  # an outside program plays as this player
    if seat.get("takeover"):
        shown["played_by_bot"] = seat["takeover"]  # a bot plays a person's seat (timed out, resigned)
    if seat.get("resigned"):
        shown["resigned"] = True
    if seat.get("timed_out"):
        shown["timed_out"] = seat["timed_out"]
    if seat["bot"] is None and seat["name"] is None:
        shown["open"] = not seat["invite"]
        shown["invite"] = seat["invite"]
        if seat["reserved_for"] is not None:
            shown["reserved_for"], shown["reserved_until"] = seat["reserved_for"], seat["reserved_until"]
    return shown


def legal_moves(game: Game, seat: int | None) -> list[Any]:
    if seat is None or game.finished or not game.dealt:
        return []
    return game.definition.legal_moves(game.state, seat)


def legal_page(game: Game, seat: int | None, limit: int) -> tuple[list[Any], int]:
    """legal_moves(game, seat)[:limit] and how many there are; a game with many moves makes only
    the page's (its definition's legal_page)."""
    if seat is None or game.finished or not game.dealt:
        return [], 0
    page = game.definition.legal_page
    if page is not None:
        return page(game.state, seat, limit)
    every = game.definition.legal_moves(game.state, seat)
    return every[:limit], len(every)


def moves_summary(game: Game, seat: int | None) -> dict[str, Any] | None:
    if game.definition.summary is None or seat is None or game.finished or not game.dealt:
        return None
    return game.definition.summary(game.state, seat)
