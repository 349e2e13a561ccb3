"""The webhook worker's dispatcher: the deliveries of many (subscription, game) pairs at once,
on threads, so that no receiver can stall another's.

A delivery job no longer sends: it hands its (subscription, game) to the dispatcher of its
process and ends (workers/deliveries/__init__.py). The dispatcher keeps a queue per
destination (the receiver's host and port) and runs the queued pairs on a pool of threads:

- **Bounded per destination**: at most `per_destination` pairs of one destination in flight
  (one per game and subscription: the pair's lease, subscriptions.py, keeps each in order),
  and only one while the destination is *untrusted* (it has not answered 2xx yet, or it failed
  last).
- **Fair**: destinations take turns (round robin), whatever their backlog.
- **Parked**: a destination whose attempts failed `park_after` times in a row is parked, its
  back-off doubling from `park_base_s` (with jitter) up to `park_max_s`; its pairs wait in its
  queue and do not take threads. When the time is up one pair probes it.
- **Isolated**: the pool grows on demand up to `max_threads`; untrusted destinations share at
  most `max_threads - reserve` of them, so a destination that answers always finds a thread,
  however many receivers hang (each attempt ends at its deadline: api/webhooks/sender.py).

Work lost with the process (a pair queued or in flight when it dies) is found again by the
reconciler's sweep (the pair is behind, its lease expired): at least once, in order.
"""
from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

Pair = tuple[str, str]  # (subscription id, game id)
IDLE_EXIT_S = 60.0  # a thread idle this long ends (down to min_threads)


@dataclass
class Destination:
    name: str  # "host:port"
    queue: deque = field(default_factory=deque)  # pairs waiting
    in_flight: int = 0
    trusted: bool = False  # answered 2xx, and has not failed since
    failures: int = 0  # attempts failed in a row
    parked_until: float = 0.0  # monotonic s

    def state(self, now: float) -> str:
        """Its class for the metrics (bounded cardinality): healthy, failing or parked."""
        if self.parked_until > now:
            return "parked"
        return "healthy" if self.trusted else "failing" if self.failures else "new"


def destination_of(url: str) -> str:
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        port = 0
    return f"{(parts.hostname or '').lower()}:{port}"


class Dispatcher:
    """Runs `run(sub_id, game_id)` for each submitted pair, on threads, by the rules above.
    `url_of(sub_id)` names a subscription's URL (None: gone). The delivery code reports each
    attempt with `attempted(url, ok)`; `run` may raise (the pair is then tried again after
    `retry_s`, as after a Redis outage)."""

    def __init__(self, run: Callable[[str, str], str], url_of: Callable[[str], str | None], *,
                 max_threads: int = 256, min_threads: int = 4, per_destination: int = 4, reserve: int = 16,
                 park_after: int = 3, park_base_s: float = 5.0, park_max_s: float = 300.0, retry_s: float = 1.0,
                 rng: random.Random | None = None):
        self.run, self.url_of = run, url_of
        self.max_threads, self.min_threads = max_threads, min(min_threads, max_threads)
        self.per_destination, self.reserve = per_destination, min(reserve, max_threads - 1)
        self.park_after, self.park_base_s, self.park_max_s = park_after, park_base_s, park_max_s
        self.retry_s = retry_s
        self.rng = rng or random.Random()
        self._cond = threading.Condition()
        self._destinations: OrderedDict[str, Destination] = OrderedDict()  # the round robin's order
        self._where: dict[Pair, str] = {}  # a pair queued or in flight -> its destination
        self._again: set[Pair] = set()  # in flight, and submitted again meanwhile
        self._running: set[Pair] = set()
        self._behind_since: dict[Pair, float] = {}  # submitted, not yet caught up (monotonic s)
        self._urls: dict[str, str] = {}  # sub id -> URL (a subscription's URL never changes)
        self._threads = 0
        self._idle = 0
        self._untrusted_in_flight = 0
        self._started_untrusted: set[Pair] = set()  # in flight on a then untrusted destination
        self._trusted: OrderedDict[str, None] = OrderedDict()  # destinations that answered (the newest 10,000)
        self._closed = False

    # ---- submitting ------------------------------------------------------------------------
    def submit(self, sub_id: str, game_id: str) -> bool:
        """Queues the pair unless it is queued already (then nothing changes) or in flight
        (then it runs once more after). False when its subscription is gone."""
        url = self._urls.get(sub_id) or self.url_of(sub_id)
        if url is None:
            return False
        self._urls[sub_id] = url
        pair = (sub_id, game_id)
        with self._cond:
            self._behind_since.setdefault(pair, time.monotonic())
            if pair in self._running:
                self._again.add(pair)
                return True
            if pair in self._where:
                return True
            self._enqueue(pair, destination_of(url))
            self._wake()
        return True

    def _enqueue(self, pair: Pair, name: str) -> None:
        self._destination(name).queue.append(pair)
        self._where[pair] = name

    def _destination(self, name: str) -> Destination:
        dest = self._destinations.get(name)
        if dest is None:
            dest = self._destinations[name] = Destination(name, trusted=name in self._trusted)
        return dest

    def _wake(self) -> None:
        """A thread for the work now eligible: an idle one, else a new one (up to the cap)."""
        if self._idle:
            self._cond.notify()
        elif self._threads < self.max_threads and self._pick(peek=True) is not None:
            self._threads += 1
            threading.Thread(target=self._serve, name=f"webhook-sender-{self._threads}", daemon=True).start()

    # ---- scheduling --------------------------------------------------------------------------
    def _eligible(self, dest: Destination, now: float) -> bool:
        if not dest.queue or dest.parked_until > now:
            return False
        if dest.trusted:
            return dest.in_flight < self.per_destination
        return dest.in_flight == 0 and self._untrusted_in_flight < self.max_threads - self.reserve

    def _pick(self, peek: bool = False) -> tuple[Destination, Pair] | None:
        """The next destination in turn with work it may start, and its first pair (taken,
        and the destination moved to the end of the turn, unless `peek`)."""
        now = time.monotonic()
        for dest in self._destinations.values():
            if self._eligible(dest, now):
                if peek:
                    return dest, dest.queue[0]
                pair = dest.queue.popleft()
                self._destinations.move_to_end(dest.name)
                return dest, pair
        return None

    def _next_wake_s(self) -> float:
        now = time.monotonic()
        parked = [d.parked_until - now for d in self._destinations.values() if d.queue and d.parked_until > now]
        return max(0.05, min(parked, default=1.0))

    def _serve(self) -> None:
        idle_since = time.monotonic()
        with self._cond:
            while not self._closed:
                picked = self._pick()
                if picked is None:
                    if self._threads > self.min_threads and time.monotonic() - idle_since > IDLE_EXIT_S:
                        break
                    self._idle += 1
                    self._cond.wait(self._next_wake_s())
                    self._idle -= 1
                    continue
                dest, pair = picked
                self._start(dest, pair)
                self._cond.release()
                try:
                    outcome = self._run(pair)
                finally:
                    self._cond.acquire()
                self._finish(dest, pair, outcome)
                idle_since = time.monotonic()
            self._threads -= 1

    def _start(self, dest: Destination, pair: Pair) -> None:
        dest.in_flight += 1
        if not dest.trusted:
            self._untrusted_in_flight += 1
        self._running.add(pair)
        if not dest.trusted:
            self._started_untrusted.add(pair)
        if self._pick(peek=True) is not None:
            self._wake()  # more eligible work: another thread for it

    def _run(self, pair: Pair) -> str:
        try:
            return self.run(*pair)
        except Exception:
            log.exception("webhook %s for game %s: delivery failed; tried again in %g s", *pair, self.retry_s)
            return "error"

    def _finish(self, dest: Destination, pair: Pair, outcome: str) -> None:
        dest.in_flight -= 1
        if pair in self._started_untrusted:
            self._started_untrusted.discard(pair)
            self._untrusted_in_flight -= 1
        self._running.discard(pair)
        del self._where[pair]
        if outcome in ("error", "lost"):  # Redis away, say: again soon (the lease keeps the order)
            threading.Timer(self.retry_s, self._resubmit, pair).start()
        elif pair in self._again:
            self._enqueue(pair, dest.name)
        elif outcome != "waiting":  # caught up, inactive, disabled, gone, or another process's
            self._behind_since.pop(pair, None)
        self._again.discard(pair)
        if not dest.queue and not dest.in_flight and not dest.failures:
            del self._destinations[dest.name]  # idle and well: only its trust is remembered
        self._cond.notify_all()

    def _resubmit(self, sub_id: str, game_id: str) -> None:
        if not self._closed:
            self.submit(sub_id, game_id)

    # ---- what the attempts say ---------------------------------------------------------------
    def attempted(self, url: str, ok: bool) -> None:
        """An attempt's outcome (from any thread): trust, failures in a row, parking."""
        name = destination_of(url)
        with self._cond:
            dest = self._destination(name)
            if ok:
                dest.trusted, dest.failures, dest.parked_until = True, 0, 0.0
                self._trusted[name] = None
                self._trusted.move_to_end(name)
                if len(self._trusted) > 10_000:
                    self._trusted.popitem(last=False)
                return
            dest.trusted = False
            self._trusted.pop(name, None)
            dest.failures += 1
            if dest.failures >= self.park_after:
                ceiling = min(self.park_max_s, self.park_base_s * 2 ** min(dest.failures - self.park_after, 20))
                dest.parked_until = time.monotonic() + self.rng.uniform(ceiling / 2, ceiling)

    # ---- for the metrics and the tests -------------------------------------------------------
    def snapshot(self) -> dict:
        """The oldest pair behind per destination class (seconds), the parked destinations,
        the threads and what is queued and in flight."""
        with self._cond:
            now = time.monotonic()
            oldest: dict[str, float] = {}
            for pair, since in list(self._behind_since.items()):
                if now - since > 86400:  # its subscription deleted or disabled meanwhile, say
                    del self._behind_since[pair]
                    continue
                name = self._where.get(pair) or destination_of(self._urls.get(pair[0], ""))
                dest = self._destinations.get(name)
                state = dest.state(now) if dest is not None else "healthy"
                oldest[state] = max(oldest.get(state, 0.0), now - since)
            return {"oldest_behind_s": oldest, "threads": self._threads,
                    "parked": sum(1 for d in self._destinations.values() if d.parked_until > now),
                    "queued": sum(len(d.queue) for d in self._destinations.values()),
                    "in_flight": len(self._running)}

    def forget(self, sub_id: str, game_id: str) -> None:
        """A pair no longer behind for good reason the dispatcher did not see (a retry given up)."""
        with self._cond:
            self._behind_since.pop((sub_id, game_id), None)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
