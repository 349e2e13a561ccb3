"""The turn jobs' work (their RQ entry point: jobs.take_turn, above the composition root).
A job is a pure function of (prefix, game, version, actor) against the event
store: it plays the turn only if the game is still at that version and the actor still has
to act, and appends with that expected version, so a duplicate or stale run is a no-op.

A job plays on while the next turn is again one worker's to play (one bot or the system, as in
a bot's multi-move turn or a game of bots), up to CHAIN_TURNS turns or CHAIN_SECONDS, then
hands the rest to the queue: RQ's own bookkeeping (about 25 Redis commands a job, several of
them fsynced writes) then costs once per chain instead of once per turn, and the game does not
wait in the queue between its turns. A worker that dies mid-chain loses no turn for good: the
reconciler enqueues what a stopped game owes.
"""
from __future__ import annotations

import logging
import time

from api import logs, metrics
from api.errors import IllegalMove, VersionConflict
from api.games.service import GameService, Scheduler
from domain.contract import SYSTEM
from domain.play import bot_move, rng_for

log = logging.getLogger(__name__)

CHAIN_TURNS = 20
CHAIN_SECONDS = 0.05


def choose_move(game, actor) -> dict:
    """The system plays its one listed move; a bot seat plays its level's policy, from what its
    seat may see (domain/play.py's bot_move)."""
    definition = game.definition
    if actor == SYSTEM:
        return definition.legal_moves(game.state, SYSTEM)[0]
    rng = rng_for(game.seed, game.version, f"bot:{actor}")
    return bot_move(definition, game.state, actor, game.bot_level(actor), rng)


class Chain:
    """A job's scheduler: keeps the next turn to play it in the same job when it is a single
    actor's and the chain's budget allows; anything else goes to the queue."""

    def __init__(self, queue: Scheduler):
        self.queue = queue
        self.turns_left = CHAIN_TURNS
        self.deadline = time.monotonic() + CHAIN_SECONDS
        self.kept: tuple | None = None

    def __call__(self, game_id: str, version: int, actors: list) -> None:
        if len(actors) == 1 and self.turns_left > 0 and time.monotonic() < self.deadline:
            self.kept = (game_id, version, actors[0])
            self.turns_left -= 1
            return
        self.queue(game_id, version, actors)

    def take(self) -> tuple | None:
        kept, self.kept = self.kept, None
        return kept

    def release(self) -> None:
        """Queues a kept turn the job will not play after all (it is failing)."""
        kept = self.take()
        if kept is not None:
            self.queue(kept[0], kept[1], [kept[2]])


def play_turn(service: GameService, game_id: str, version: int, actor, scheduler: Scheduler | None = None) -> str:
    game = service.load(game_id)
    if game.version != version or actor not in service.automatic_actors(game):
        return "stale"
    move = choose_move(game, actor)
    context = logs.bind(game_id=game_id, version=version)
    try:
        answer = service.move(game_id, actor, move, expected_version=version, scheduler=scheduler, automatic=True)
    except VersionConflict:
        return "stale"
    except IllegalMove as e:  # a bot that picks an illegal move is a bug: fail loudly
        log.error("bot move refused in %s at %s: %s %s", game_id, version, e.code, e.message)
        raise
    finally:
        logs.unbind(context)
    if game.last_at is not None and answer["events"]:
        metrics.turn_delay.labels(game.definition.name, metrics.actor_kind(actor, game.bot_level)).observe(
            max(0, answer["events"][0]["at"] - game.last_at) / 1000)
    return "played"


def play_chain(service: GameService, game_id: str, version: int, actor) -> tuple[str, int]:
    """Plays the turn, then the turns that follow while they are one worker's; returns the
    first turn's outcome and how many turns were played."""
    chain = Chain(service.scheduler)
    first = current = (game_id, version, actor)
    played = 0
    try:
        outcome = play_turn(service, *current, chain)
        played += outcome == "played"
        while (kept := chain.take()) is not None:
            current = kept
            played += play_turn(service, *current, chain) == "played"
    except BaseException:
        chain.release()
        if current is not first:  # a kept turn failed: it gets a job (and a failure record) of its own
            try:
                chain.queue(current[0], current[1], [current[2]])
            except Exception:
                log.warning("game %s: could not queue the failed turn at %s", current[0], current[1], exc_info=True)
        raise
    return outcome, played
