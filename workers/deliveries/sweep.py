"""The reconciler's pass over the webhooks: due retries enqueued, the subscriptions left behind
in stopped games (a fan-out lost with a process, a delivery job with its worker) queued again,
and a finished game everyone has heard all of retired."""
from __future__ import annotations

import logging

import redis

from api.errors import ApiError
from api.games.repository import GameRepository
from api.webhooks import messages
from events.store import EventStore, StoreUnavailable

from .enqueueing import Enqueueing
from .settings import Settings, now_ms

log = logging.getLogger(__name__)


class Sweep(Enqueueing):
    """The sweep, and what it remembers between passes (`seen`, `judged`)."""

    # set by Deliveries.__init__
    events: EventStore
    games: GameRepository
    settings: Settings
    seen: dict[str, int]
    rating_changes: messages.ChangesOf
    judged: dict[str, int]

    def sweep(self) -> int:
        """Enqueues due retries and the deliveries of stopped games that are behind; returns
        how many jobs were (re)enqueued."""
        queued = 0
        now = now_ms()
        for sub_id, game_id in self.subs.due_retries(now):
            try:
                queued += self.ensure(sub_id, game_id, repair=True)
            except (redis.ConnectionError, redis.TimeoutError):
                raise
            except Exception:
                log.exception("webhook sweep: the retry of %s in %s could not be queued", sub_id, game_id)
            self.subs.retry_taken(sub_id, game_id)
        games = self.subs.subscribed_games()
        versions = self.events.versions(games) if games else {}
        for game_id in games:
            version = versions[game_id]
            last, self.seen[game_id] = self.seen.get(game_id), version
            if last != version or self.judged.get(game_id) == version:
                continue  # moving (its fan-out runs), or already found caught up
            try:
                queued += self._catch_up(game_id, version, now)
            except ApiError:
                self.subs.retire_game(game_id, self.settings.progress_ttl_s)  # gone (FINISHED_TTL)
            except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable):
                raise
            except Exception:
                log.exception("webhook sweep: game %s could not be judged", game_id)
        if len(self.seen) > len(games):
            kept = set(games)
            self.seen = {g: v for g, v in self.seen.items() if g in kept}
            self.judged = {g: v for g, v in self.judged.items() if g in kept}
        return queued

    def _catch_up(self, game_id: str, version: int, now: int) -> int:
        subs = self.subs.covering(game_id)
        progress = self.subs.progresses(game_id, subs)
        behind = [s for s in subs if s in progress and progress[s].version <= version]
        game = self.games.load(game_id)
        if game.setup_version is None:
            behind = []  # waiting for people: nothing to tell before its setup
        elif not behind and game.finished and messages.to_be_rated(game):
            # Its game.rated's place (messages.RATED_PLACE) not passed by all yet: owed once counted.
            if self.rating_changes(game_id) is None:
                return 0  # not counted yet: judged again at the next pass, never retired before
            place = version + messages.RATED_PLACE
            behind = [s for s in subs if s in progress and (progress[s].version, progress[s].index) == (place, 0)]
        queued = 0
        for sub_id in behind:
            if progress[sub_id].next_at <= now and not self.subs.locked(game_id, sub_id):
                queued += self.ensure(sub_id, game_id, repair=True)
        if not behind:
            self.judged[game_id] = version
            if not subs:
                self.subs.forget_game(game_id)
            elif game.finished:
                # Nothing more will happen in it: its keys expire, Redis does not keep every game.
                self.subs.retire_game(game_id, self.settings.progress_ttl_s)
        return queued
