"""Optimistic concurrency, written once: every command that changes a game (a move, a claim, a
leave, a rematch, a resignation, an abort, a return, a timeout) loads the game, decides on it
and appends at the version it loaded. The store's version check refuses an append that someone
else's beat (Conflict); the command is then judged again on the game as it now is, up to
ATTEMPTS times, and answered `409 version_conflict` with the game's current version after that.

A refused append answers the events its writer lacks (the store's `held`), so judging again
costs no read of its own: each attempt is one round trip.

A decision is a function `(game, at) -> events`: it raises the command's refusal, or returns
the events to append (none: nothing needs doing, nothing is appended). `at` is the moment the
attempt is made, the one its events are appended with, so a decision that weighs the time (a
deadline) weighs the time its events will carry.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api.errors import GameArchived, VersionConflict
from api.games.repository import Game

if TYPE_CHECKING:
    from api.games.service import GameService
from events.archive import Archived
from events.store import Conflict

ATTEMPTS = 50  # judgements of one command before answering 409: each lost one means another append won
TOO_FAST = "The game is changing too fast; read it again and retry."

Decide = Callable[[Game, int], list[Any]]
Append = Callable[[Game, list[Any], int], Any]  # (game judged, its events, at) -> what was appended


@dataclass(frozen=True)
class Decided:
    game: Game  # the game as the decision that stood was made on
    events: list[Any]  # what it decided ([]: nothing appended)
    appended: Any  # what `append` answered (for platform events, the game after them); None when nothing was


def now_ms() -> int:
    return int(time.time() * 1000)


def decide_and_append(service: GameService, game_id: str, decide: Decide, append: Append | None = None,
                      lost: Any = None, game: Game | None = None) -> Decided:
    """Judges `decide` on the game and appends what it decides at the game's version, again on
    the game reloaded whenever another append won. `append` defaults to the service's platform
    append; `lost` is the metric counted for each lost race (a labelled counter, or None);
    `game` a state already held to judge first (the next attempts reload)."""
    append = append or (lambda judged, events, at: service.append_platform(judged, events, at))
    for _ in range(ATTEMPTS):
        if game is None:
            game = service.load(game_id)
        at = now_ms()
        events = decide(game, at)
        if not events:
            return Decided(game, [], None)
        try:
            return Decided(game, events, append(game, events, at))
        except Archived as e:  # its history is closed: only a rematch's note could come this late
            raise GameArchived("This game was moved to the archive: it takes no more changes (a rematch is "
                               "offered until it is archived, ARCHIVE_AFTER_S after its end).",
                               version=game.version) from e
        except Conflict as e:
            if lost is not None:
                lost.inc()
            # Someone appended between our read and our write: judge again, on the game caught
            # up with the events the refusal carried (no read of our own), else reloaded.
            game = service.games.caught_up(game, e.events) if e.events else None
    raise VersionConflict(TOO_FAST, version=service.store.version(game_id))
