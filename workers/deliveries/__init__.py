"""Webhook deliveries: RQ jobs on their own queue (WEBHOOK_QUEUE, worked by `python -m workers
webhooks`), so a slow receiver never delays a turn.

- The jobs' entry points are in jobs.py (above the composition root); their work is here
  (Deliveries.run_fan_out, run_delivery, redeliver_now).
- In a webhook worker (DISPATCHING) the jobs only hand (subscription, game) pairs to the
  process's dispatcher (dispatcher.py: sender threads, a queue per destination) and end;
  elsewhere (tests) a job sends itself, as described.
- `fan_out(game)`: after a subscribed game's append (api/webhooks/notify.py), one job per
  game delivers the news to each covering subscription itself for a short budget, and hands
  the rest to delivery jobs of their own. Its id is the game's
  (`whf-<game>`, unique): while one waits in the queue, later appends add nothing (it reads the
  stream when it runs); while one runs, one follow-up (`whf-<game>-next`) may wait behind it.
- `deliver(sub, game)`: under a per-(subscription, game) lease (leases.py), sends the subscription's
  pending messages of that game in order (api/webhooks/messages.py derives them from the
  stream), each until it is answered 2xx: at least once, in order per game. A failure records
  the attempt and waits (exponential back-off from WEBHOOK_RETRY_BASE_S up to
  WEBHOOK_RETRY_MAX_S; the next messages of that game wait behind it); a receiver failing for
  WEBHOOK_DISABLE_AFTER_S (a day) has its subscription disabled, and marked so.
- `sweep()`: run by the reconciler each pass: enqueues the retries that are due, and the
  deliveries of stopped games whose subscriptions are behind (a fan-out lost with a process,
  a delivery job lost with its worker). Delivery job ids are deterministic and enqueued with
  RQ's unique guard, so a (subscription, game) has at most one delivery job at a time however
  often asked. A finished game every subscription has heard all of is retired: its progress
  keys expire after WEBHOOK_PROGRESS_TTL_S (a week).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from rq import Queue

from api import metrics
from api.errors import UnknownGame
from api.games.repository import GameRepository
from api.webhooks.messages import ChangesOf, RatingLog, rating_stream
from api.webhooks.news import PlayerNews
from api.webhooks.subscriptions import Owner, SubscriptionStore

from .dispatcher import Dispatcher
from .fan_out import FanOut
from .leases import Leases
from .settings import DEFAULT_QUEUE as DEFAULT_QUEUE  # the default WEBHOOK_QUEUE (api/settings.py)
from .settings import Settings
from .sweep import Sweep

log = logging.getLogger(__name__)


class Deliveries(FanOut, Sweep):
    """The queue's side: enqueue fan-outs and deliveries (web processes, turn workers, the
    reconciler), and the jobs' work (webhook workers). Its parts: enqueueing.py, sending.py,
    fan_out.py, sweep.py."""

    def __init__(self, connection, prefix: str, queue_name: str, settings: Settings, games: GameRepository,
                 rating_changes: ChangesOf, queue_connection=None):
        # `connection`: the store's (maybe a cluster); `queue_connection`: RQ's (a plain Redis;
        # by default the same): events/connection.py. The games, their store and the ledger's
        # counts are the composition root's (wiring.py).
        self.connection = queue_connection or connection
        self.prefix = prefix
        self.queue = Queue(queue_name, connection=self.connection)
        self.subs = SubscriptionStore(connection, prefix)
        self.games = games
        self.events = games.store
        self.settings = settings
        self.seen: dict[str, int] = {}  # the sweep's: game -> version at the last pass
        self.judged: dict[str, int] = {}  # the sweep's: game -> version found caught up
        self.leases = Leases(self.subs)
        self.observer = None
        self.rating_changes = rating_changes  # read only: game.rated
        # (player, from place n) -> its re-ratings (the moderation's log): rating.changed; set by the root
        self.rating_log: RatingLog = lambda player, start: []
        # A player's news for its webhooks (tournaments, challenges, direct messages): written by
        # the services that make it (news.tell), read by the senders (news_log).
        self.news = PlayerNews(self.subs, self.ensure)
        self.news_log = self.news.log
        self._local = threading.local()
        self._dispatcher: Dispatcher | None = None

    def rating_changed(self, told: list[dict[str, Any]], event: dict[str, Any], places: dict[str, int]) -> int:
        """After a moderator's action re-rated players (`places`: each one's new place in its
        re-rating log): each of their "mine" subscriptions asking for `rating.changed` starts
        there (unless it is further on) and has its delivery queued. Returns how many."""
        queued = 0
        for player_id, place in sorted(places.items()):
            stream = rating_stream(player_id)
            for sub in self.subs.owned(Owner("player", player_id)):
                if sub.status == "active" and self.subs.covers(sub, stream):
                    self.subs.start(sub, stream, place)
                    queued += bool(self.ensure(sub.id, stream))
        return queued


    def dispatcher(self) -> Dispatcher:
        """This process's dispatcher (made at the first job of a webhook worker): the jobs
        hand it their pairs, its threads send (workers/deliveries/dispatcher.py)."""
        with _making:
            if self._dispatcher is None:
                self._dispatcher = Dispatcher(
                    lambda sub_id, game_id: self.deliver(sub_id, game_id, rounds=1, drain_s=DISPATCHED_DRAIN_S),
                    self._url_of, max_threads=self.settings.senders, per_destination=self.settings.per_destination)
                self.observer = self._dispatcher.attempted
                threading.Thread(target=self._gauges, args=(self._dispatcher,), name="webhook-gauges",
                                 daemon=True).start()
            return self._dispatcher

    @staticmethod
    def _gauges(dispatcher: Dispatcher) -> None:
        while True:
            seen = dispatcher.snapshot()
            for kind in DESTINATION_CLASSES:
                metrics.webhook_oldest_behind.labels(kind).set(seen["oldest_behind_s"].get(kind, 0.0))
            metrics.webhook_parked.set(seen["parked"])
            metrics.webhook_senders.set(seen["threads"])
            time.sleep(GAUGES_EVERY_S)

    def _url_of(self, sub_id: str) -> str | None:
        sub = self.subs.get(sub_id)
        return sub.url if sub is not None else None

    def dispatch_game(self, game_id: str) -> int:
        """A fan-out in a webhook worker: each covering subscription's pair to the dispatcher."""
        dispatcher = self.dispatcher()
        return sum(dispatcher.submit(sub_id, game_id) for sub_id in self.subs.covering(game_id))

    # ---- the jobs' work (their RQ entry points: jobs.py, above the composition root) ----------
    def run_fan_out(self, game_id: str) -> int:
        # Never fails, as run_delivery: a failed job would keep the game's fan-out id taken.
        try:
            return self.dispatch_game(game_id) if DISPATCHING else self.fan_out_now(game_id)
        except UnknownGame:
            self.subs.retire_game(game_id, self.settings.progress_ttl_s)
            return 0
        except Exception:
            log.exception("webhook fan-out of game %s failed; the reconciler will catch up", game_id)
            return 0

    def run_delivery(self, sub_id: str, game_id: str) -> str:
        # A delivery job never fails: a failed job would keep its id (and so the next delivery of
        # this subscription and game) taken for failure_ttl; what it did not send, the sweep sends.
        try:
            if DISPATCHING:
                return "dispatched" if self.dispatcher().submit(sub_id, game_id) else "inactive"
            return self.deliver(sub_id, game_id)
        except UnknownGame:
            # Gone (FINISHED_TTL): nothing more to tell; its webhook keys expire too.
            self.subs.retire_game(game_id, self.settings.progress_ttl_s)
            return "gone"
        except Exception:
            log.exception("webhook %s for game %s: delivery failed; the reconciler will try again", sub_id, game_id)
            return "error"


DESTINATION_CLASSES = ("new", "healthy", "failing", "parked")  # dispatcher.Destination.state
GAUGES_EVERY_S = 2.0
DISPATCHED_DRAIN_S = 5.0  # a pair's turn on a sender thread: then behind the others of its destination
_making = threading.Lock()
# True in a webhook worker (`python -m workers webhooks`): its jobs hand their pairs to the
# process's dispatcher. Elsewhere (tests driving the jobs' work themselves) a job sends itself.
DISPATCHING = False
