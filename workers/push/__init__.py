"""Web Push deliveries: RQ jobs on the webhooks' queue, worked by the webhook workers (`python
-m workers webhooks`), so a slow push service never delays a turn, and no request waits for one.

- `jobs.push_job(prefix, player)` (its work: `Pushes.run`): queued after the player's inbox was
  written (api/push/notify.py), one waiting per player at a time (`push-<player>`; while one
  runs, one follow-up may wait), through workers/queueing's enqueue_unique as the turns and the
  webhook deliveries are: a job that only seems to wait or run (popped by a worker killed before
  it started it, left in RQ's intermediate queue; started by a worker that died) is replaced,
  not waited for.
- `sweep()` (the reconciler's, each pass): each player due in the `push-due` schedule (set by
  every enqueue a few seconds ahead, and by a failed push at its retry's time) whose
  subscriptions are behind their inbox has its push job queued again (a job lost with its worker
  or with Redis: pushed within one pass), unless each one behind waits for its back-off; a
  player caught up leaves the schedule.
  In a webhook worker it hands each of the player's subscriptions to the process's push
  dispatcher and ends; elsewhere (tests driving the jobs) it sends itself.
- The dispatcher is the webhooks' (workers/deliveries/dispatcher.py), its destinations the push
  services (host and port): a queue per push service, turns between them, at most a few
  subscriptions in flight to one that answers and one to a new or failing one, a service
  failing three times in a row parked, threads made as needed. A hanging push service holds its
  own subscriptions' threads until their attempts' deadline, never another service's.
- What a subscription is sent, and how: sending.py."""
from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Mapping

from rq import Queue

from api.players.accounts import Players
from api.push import vapid as vapid_keys
from api.push.notify import PushNotify
from api.push.subscriptions import PushSubscriptions
from workers.deliveries.dispatcher import Dispatcher
from workers.queueing import FOLLOW_UP, enqueue_with_follow_up, lost_job

from .sending import PushSettings, Sender
from .transport import Transport
from .webpush import WebPush

log = logging.getLogger(__name__)

SEP = ":"  # a dispatcher pair's first half: "<player>:<subscription>" (neither holds a colon)
PAIR_GAME = "push"  # its second half (the dispatcher's pairs are (subscription, game))
JOB_TIMEOUT_S = 120
LOST_AFTER_S = JOB_TIMEOUT_S + 10  # a push job started this long ago died with its worker
LOOK_AFTER_MS = 3000  # the sweep looks at a player this long after its newest push job was queued
LOOK_AGAIN_MS = 5000  # and again this long after it queued one itself (or a sender held it)


def push_job_id(prefix: str, player_id: str, follow_up: bool = False) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', prefix)}push-{player_id}" + (FOLLOW_UP if follow_up else "")


class Pushes:
    """The queue's side (enqueue a player's push job: web processes, turn workers) and the
    jobs' work (webhook workers). The VAPID key is read (or made) at its first use."""

    def __init__(self, subs: PushSubscriptions, players: Players, queue: Queue, settings: PushSettings,
                 private_key: str = "", key_file: str = "", natives: Mapping[str, Transport] | None = None):
        self.subs, self.players, self.queue, self.settings = subs, players, queue, settings
        self.natives = dict(natives or {})  # the native apps' transports configured: "fcm", "apns"
        self.prefix = players.prefix
        self._private_key, self._key_file = private_key, key_file
        self._vapid = None
        self._sender: Sender | None = None
        self._dispatcher: Dispatcher | None = None
        self._lock = threading.Lock()

    # ---- the keys ----------------------------------------------------------------------------
    def vapid(self):
        with self._lock:
            return self._vapid_held()

    def _vapid_held(self):  # under self._lock
        if self._vapid is None:
            self._vapid = vapid_keys.load(self._private_key, self._key_file)
        return self._vapid

    def public_key(self) -> str:
        return vapid_keys.public_key(self.vapid())

    # ---- the queue's side ----------------------------------------------------------------------
    def notifier(self) -> PushNotify:
        return PushNotify(self.subs, self.enqueue)

    def enqueue(self, player_id: str) -> bool:
        """Queues the player's push job unless one waits already (it will read the newest
        inbox); behind one that runs, one follow-up. A lost one is replaced (lost_job); the
        sweep looks at the player shortly after, in case this one is lost too."""
        self.subs.look_at(player_id, int(time.time() * 1000) + LOOK_AFTER_MS)
        return enqueue_with_follow_up(self.queue, push_job_id(self.prefix, player_id), "jobs.push_job",
                                      (self.prefix, player_id), JOB_TIMEOUT_S, f"push notices of {player_id}",
                                      lost=lambda jid: lost_job(self.queue, jid, LOST_AFTER_S,
                                                                   self.settings.queued_grace_s))

    def sweep(self) -> int:
        """The reconciler's pass (see the module): how many push jobs were queued again."""
        now = int(time.time() * 1000)
        queued = 0
        for player_id, was_due in self.subs.due_players(now):
            subs, cursors, failures, last, locked = self.subs.standing(player_id)
            behind = [s.id for s in subs if entry_key(cursors.get(s.id) or "0-0") < entry_key(last)]
            if not behind:
                self.subs.looked_at(player_id, was_due)  # caught up (unless a notice came since)
                continue
            retries = [failures[s]["next_at"] for s in behind if failures.get(s, {}).get("next_at", 0) > now]
            due = len(retries) < len(behind)
            if due and not set(behind) <= locked:
                queued += bool(self.enqueue(player_id))
            self.subs.look_at(player_id, now + LOOK_AGAIN_MS if due else min(retries))
        if queued:
            log.info("push sweep: %d push job(s) queued again", queued)
        return queued

    # ---- the jobs' work ----------------------------------------------------------------------
    def sender(self) -> Sender:
        with self._lock:
            if self._sender is None:
                attempted = self._dispatcher.attempted if self._dispatcher is not None else None
                self._sender = Sender(self.subs, self.players, self.transports(), self.settings, attempted)
            return self._sender

    def transports(self) -> dict[str, Transport]:  # under self._lock (the VAPID key read or made)
        return {"webpush": WebPush.of(self._vapid_held(), self.settings), **self.natives}

    def send_now(self, player_id: str) -> dict:
        """Each of the player's subscriptions caught up in this thread: {sub id: outcome}."""
        sender = self.sender()
        return {sub.id: sender.send_pending(player_id, sub.id) for sub in self.subs.of_player(player_id)}

    def dispatcher(self) -> Dispatcher:
        with self._lock:
            if self._dispatcher is None:
                self._dispatcher = Dispatcher(self._run_pair, self._endpoint_of, retry_s=1.0)
                self._sender = None  # made again, reporting its attempts to the dispatcher
            return self._dispatcher

    def dispatch(self, player_id: str) -> int:
        dispatcher = self.dispatcher()
        return sum(dispatcher.submit(f"{player_id}{SEP}{sub.id}", PAIR_GAME) for sub in self.subs.of_player(player_id))

    def _endpoint_of(self, pair_sub: str) -> str | None:
        player_id, _, sub_id = pair_sub.partition(SEP)
        sub = self.subs.get(player_id, sub_id)
        if sub is None:
            return None
        native = self.natives.get(sub.kind)
        return native.destination(sub) if native is not None else sub.endpoint

    def run(self, player_id: str) -> str:
        """The push job's work (its RQ entry point: jobs.push_job). Never fails: a failed job
        would keep the player's job id taken for failure_ttl."""
        try:
            if _dispatching():
                return f"dispatched {self.dispatch(player_id)}"
            return str(self.send_now(player_id))
        except Exception:
            log.exception("push notices of %s failed; the next notice catches up", player_id)
            return "error"

    def _run_pair(self, pair_sub: str, _game: str) -> str:
        player_id, _, sub_id = pair_sub.partition(SEP)
        outcome = self.sender().send_pending(player_id, sub_id)
        # The dispatcher tries "error" again after its retry_s (behind the service's parking):
        # later (entries left), busy (another sender holds it, and may have read the inbox before
        # the newest entry). A failed push waits for its back-off: the sweep queues its retry.
        if outcome in ("failed", "waiting"):
            return "waiting"
        return "error" if outcome in ("later", "busy") else outcome


def entry_key(entry_id: str) -> tuple[int, int]:
    """A Redis stream entry id ("1733000000000-3") in the order Redis gives them."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


# True in a webhook worker (set with workers.deliveries.DISPATCHING by workers/__main__.py).
def _dispatching() -> bool:
    import workers.deliveries

    return workers.deliveries.DISPATCHING
