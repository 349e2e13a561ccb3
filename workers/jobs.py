"""The RQ jobs. A job is a pure function of (prefix, game, version, actor) against the event
store: it plays the turn only if the game is still at that version and the actor still has
to act, and appends with that expected version, so a duplicate or stale run is a no-op."""
from __future__ import annotations

import logging

from rq import get_current_job

from api.errors import IllegalMove, VersionConflict
from api.service import GameService
from domain.contract import SYSTEM
from domain.play import rng_for
from events.redis_store import RedisEventStore

from .queueing import TurnScheduler

log = logging.getLogger(__name__)
_services: dict = {}


def service_for(connection, prefix: str, queue_name: str) -> GameService:
    key = (id(connection), prefix, queue_name)
    if key not in _services:
        store = RedisEventStore(connection, prefix)
        _services[key] = GameService(store, TurnScheduler(connection, prefix, queue_name))
    return _services[key]


def choose_move(game, actor) -> dict:
    """The system plays its one listed move; a bot seat plays its level's policy."""
    definition = game.definition
    if actor == SYSTEM:
        return definition.legal_moves(game.state, SYSTEM)[0]
    policy = definition.bots[game.bot_level(actor)]
    return policy(game.state, actor, rng_for(game.seed, game.version, f"bot:{actor}"))


def play_turn(service: GameService, game_id: str, version: int, actor) -> str:
    game = service.load(game_id)
    if game.version != version or actor not in service.automatic_actors(game):
        return "stale"
    move = choose_move(game, actor)
    try:
        service.move(game_id, actor, move, expected_version=version)
    except VersionConflict:
        return "stale"
    except IllegalMove as e:  # a bot that picks an illegal move is a bug: fail loudly
        log.error("bot move refused in %s at %s: %s %s", game_id, version, e.code, e.message)
        raise
    return "played"


def take_turn(prefix: str, game_id: str, version: int, actor) -> str:
    job = get_current_job()
    return play_turn(service_for(job.connection, prefix, job.origin), game_id, version, actor)
