"""The leases a webhook worker holds on (subscription, game) pairs, kept alive by one
heartbeat thread: a holder sends only while its lease is surely its own, so two processes
never deliver one pair at once (order per game and subscription), and a holder that died
frees its pair within LEASE_MS (subscriptions.py) for another to catch up."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from api.webhooks.subscriptions import LEASE_MS, SubscriptionStore

log = logging.getLogger(__name__)

MARGIN_S = 1.0  # a lease is trusted until this long before it could have expired
BEAT_S = LEASE_MS / 1000 / 3


@dataclass(eq=False)
class Lease:
    game_id: str
    sub_id: str
    token: str
    renewed_at: float = field(default_factory=time.monotonic)  # when the last renewal was sent
    lost: bool = False

    def held(self) -> bool:
        """Surely still this holder's: not lost, and renewed recently enough that Redis cannot
        have expired it (the renewal's send time is counted, not its answer's)."""
        return not self.lost and time.monotonic() - self.renewed_at < LEASE_MS / 1000 - MARGIN_S

    def renewed(self, at: float) -> None:
        self.renewed_at = max(self.renewed_at, at)


class Leases:
    def __init__(self, subs: SubscriptionStore):
        self.subs = subs
        self._held: set[Lease] = set()
        self._lock = threading.Lock()
        self._beating = False

    def take(self, game_id: str, sub_id: str) -> Lease | None:
        started = time.monotonic()
        token = self.subs.lock(game_id, sub_id)
        if token is None:
            return None
        lease = Lease(game_id, sub_id, token, started)
        with self._lock:
            self._held.add(lease)
            if not self._beating:
                self._beating = True
                threading.Thread(target=self._beat, name="webhook-leases", daemon=True).start()
        return lease

    def release(self, lease: Lease) -> None:
        with self._lock:
            self._held.discard(lease)
        if not lease.lost:
            try:
                self.subs.unlock(lease.game_id, lease.sub_id, lease.token)
            except Exception:  # Redis away: the lease expires by itself
                log.warning("webhook lease of %s in %s not released; it expires", lease.sub_id, lease.game_id)

    def _beat(self) -> None:
        while True:
            time.sleep(BEAT_S)
            with self._lock:
                held = list(self._held)
            if not held:
                continue
            sent = time.monotonic()
            try:
                still = self.subs.renew([(x.game_id, x.sub_id, x.token) for x in held])
            except Exception:  # Redis away: the holders stop sending once their leases may have expired
                log.warning("webhook leases not renewed (Redis unreachable)")
                continue
            for lease, ok in zip(held, still):
                if ok:
                    lease.renewed(sent)
                else:
                    lease.lost = True
