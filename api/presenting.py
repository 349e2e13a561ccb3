"""What leaves the server, per viewer: the game, its events, its legal moves.

Every channel (GET game, history pages, past states, move answers, the live stream) goes
through these functions, so redaction happens in one place.
"""
from __future__ import annotations

from typing import Optional

from domain.contract import EVERYONE
from domain.play import upcast

from .fairness import commitment, fairness
from .platform_events import PLATFORM_EVENTS
from .repository import CREATED, Game


def viewer_for(game: Game, seat: Optional[int]):
    """Once a game is over, its whole story is open to everyone."""
    return EVERYONE if game.finished else seat


def present(game: Game, viewer, type_: str, data: dict, version: int, actor=None, at=None) -> dict:
    """One event as `viewer` may see it, in the shape of a history page's element."""
    if type_ == CREATED:
        shown = dict(data)
        shown["seed_sha256"] = commitment(data.get("seed"))  # seen by all from the start
        if viewer != EVERYONE:
            shown.pop("seed", None)  # the seed would tell every future shuffle
    elif type_ in PLATFORM_EVENTS:
        shown = dict(data)  # the platform's own events hold no one's secrets
    else:
        shown = game.definition.redact(upcast(game.definition, data), viewer)
    return {"version": version, "type": type_, "actor": actor, "at": at, "data": shown}


def describe(game: Game, seat: Optional[int]) -> dict:
    """The game as a seat (or a spectator, seat None) may see it."""
    definition = game.definition
    return {
        "id": game.id,
        "type": definition.name,
        "version": game.version,
        "status": game.status,
        "to_act": game.actors(),
        "seats": [{"seat": i, "name": s.get("name", s.get("bot")), "bot": s.get("bot")}
                  for i, s in enumerate(game.seats)],
        "you": seat,
        "view": definition.view(game.state, viewer_for(game, seat)),
        "result": game.result if game.finished else None,
        "fairness": fairness(game.seed, game.finished),
    }


def legal_moves(game: Game, seat: Optional[int]) -> list:
    if seat is None or game.finished:
        return []
    return game.definition.legal_moves(game.state, seat)


def moves_summary(game: Game, seat: Optional[int]) -> Optional[dict]:
    if game.definition.summary is None or seat is None or game.finished:
        return None
    return game.definition.summary(game.state, seat)
