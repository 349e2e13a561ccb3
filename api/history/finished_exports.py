"""A long game's export, made once when it ends (a GameService listener).

A finished game's history looks the same to everyone and never changes, so api/history/export.py keeps
its whole chunks of NDJSON lines beside the history for EXPORT_CACHE_TTL. Made here by the
append that ends the game (after the answer: the service's outbox), the first export a client
asks for (a replayer, an archive, a harvest following `game.finished`) copies bytes instead of
cutting 10,000 lines out of the stream. Only games of at least one whole chunk: shorter ones
have nothing to keep, and their export is one read anyway.
"""
from __future__ import annotations

import logging
import os
from typing import Any

from api.games.repository import Game
from api.history import export
from api.platform import events as pe
from domain.contract import EVERYONE
from events.store import EventStore

log = logging.getLogger(__name__)
DEFAULT_TTL_S = 600


def ttl_from_env() -> int:
    """EXPORT_CACHE_TTL: how long a finished game's export chunks are kept (0: never made)."""
    return int(os.environ.get("EXPORT_CACHE_TTL", DEFAULT_TTL_S))


class FinishedExports:
    def __init__(self, store: EventStore, ttl_s: int):
        self.store = store
        self.ttl_s = ttl_s

    def __call__(self, game: Game, events: list[Any]) -> None:
        if self.ttl_s <= 0 or game.version < export.CHUNK or not game.finished:
            return
        if not pe.finishing([t for t, _ in events]):
            return  # a note after the end (a rematch's): made already
        for _ in export.ndjson(self.store, game, EVERYONE, 0, self.ttl_s):
            pass  # each whole chunk is cached as it is made
        log.info("game %s: export of %s events kept for %s s", game.id, game.version, self.ttl_s)
