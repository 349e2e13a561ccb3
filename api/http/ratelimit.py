"""Fixed-window request budgets counted in Redis, so every API process shares them.

A budget never admits fewer requests than its limit, however many arrive at once:
- Far from the limit a process admits locally and adds its count to Redis in batches (after a
  tenth of what is left of the budget, at most SYNC_EVERY requests): a subject far from its
  limit costs one round trip per batch, not one per request (each is a durable write: under
  `appendfsync always` it waits for the disk, and a sync per request showed in the move's p99).
  A batch's requests move to "in flight" before the round trip, so concurrent requests of one
  process (gevent) never send the same requests twice (they did: 40 concurrent requests were
  counted 112-366 times and the token then got 36 of its 100).
- Near the limit every request is its own atomic INCRBY (with the batch not yet sent), and it
  is admitted exactly when the shared count it gets back is within the limit: a request is
  refused only once `limit` requests before it were counted, so no interleaving of requests or
  processes admits fewer than the limit. With several processes, those still admitting from
  their local batch may let a little more than the limit through (less than a tenth of the
  remaining budget each).

Keys are `rate:<subject>:<window>`, single-key commands only (legal on Redis Cluster), expiring
after two windows.
"""
from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

SYNC_EVERY = 1000


class Decision(NamedTuple):  # made by every request: a frozen dataclass's __init__ cost ~1 µs more
    allowed: bool
    limit: int
    remaining: int  # what is left of the budget, as this process knows it
    reset: int  # seconds until the window ends
    window_s: int


class _Entry:
    __slots__ = ("window", "shared", "pending", "in_flight")

    def __init__(self, window: int):
        self.window = window
        self.shared = 0  # the largest shared total Redis has answered this window
        self.pending = 0  # admitted here, not yet sent to Redis
        self.in_flight = 0  # sent to Redis, answer not yet back

    def estimate(self) -> int:
        return self.shared + self.pending + self.in_flight


class RateLimiter:
    def __init__(self, connection: Any, prefix: str, limit: int, window_s: int) -> None:
        self.redis = connection
        self.prefix = prefix
        self.limit = limit
        self.window_s = window_s
        self._local: dict[str, _Entry] = {}
        self._spent_in = -1  # the last window in which some subject's budget was spent

    def take(self, subject: str) -> Decision:
        """Counts one request of `subject` and says whether it is admitted."""
        now = time.time()
        window = int(now // self.window_s)
        reset = max(1, math.ceil((window + 1) * self.window_s - now))
        entry = self._local.get(subject)
        if entry is None or entry.window != window:
            entry = self._entry(subject, window)
        limit = self.limit
        if entry.shared >= limit:
            return Decision(False, limit, 0, reset, self.window_s)
        tenth = max(1, (limit - entry.shared) // 10)  # a tenth of what is left of the shared budget
        if limit - entry.estimate() > tenth:  # far from the limit: admit, batch
            entry.pending += 1
            if entry.pending >= min(SYNC_EVERY, tenth):
                self._send(subject, entry, entry.pending)
            return Decision(True, limit, max(0, limit - entry.estimate()), reset, self.window_s)
        total = self._send(subject, entry, entry.pending + 1, this_one=True)
        allowed = total <= self.limit
        return Decision(allowed, self.limit, max(0, self.limit - total), reset, self.window_s)

    def retry_after(self, subject: str) -> int:
        """Counts one request; 0 when admitted, else the seconds until the next window."""
        decision = self.take(subject)
        return 0 if decision.allowed else decision.reset

    def count(self, subject: str) -> int:
        """Adds one event (a failed authentication) to the shared count; returns the total."""
        entry = self._entry(subject, int(time.time() // self.window_s))
        return self._send(subject, entry, entry.pending + 1, this_one=True)

    def any_exhausted(self) -> bool:
        """Whether any subject's budget is known spent this window (one comparison)."""
        return self._spent_in == int(time.time() // self.window_s)

    def exhausted(self, subject: str) -> bool:
        """Whether this process knows the subject's budget is spent this window (no round trip)."""
        entry = self._local.get(subject)
        return entry is not None and entry.window == int(time.time() // self.window_s) and entry.shared >= self.limit

    def _entry(self, subject: str, window: int) -> _Entry:
        entry = self._local.get(subject)
        if entry is None or entry.window != window:
            if len(self._local) > 10_000:
                self._local = {k: v for k, v in self._local.items() if v.window == window}
            entry = self._local[subject] = _Entry(window)
        return entry

    def _send(self, subject: str, entry: _Entry, n: int, this_one: bool = False) -> int:
        """INCRBY n (the pending batch, plus this request when `this_one`); returns the total."""
        batch = n - 1 if this_one else n
        entry.pending -= batch
        entry.in_flight += n
        key = f"{self.prefix}rate:{subject}:{entry.window}"
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.incrby(key, n)
            pipe.expire(key, self.window_s * 2)
            total: int = pipe.execute()[0]
        except Exception:
            entry.in_flight -= n
            entry.pending += batch  # not counted: sent again with the next batch
            raise
        entry.in_flight -= n
        entry.shared = max(entry.shared, total)
        if total >= self.limit:
            self._spent_in = entry.window
        return total
