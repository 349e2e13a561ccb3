"""A game's fan-out: one job delivers the game's news to each subscription covering it itself,
for a short budget, and queues a delivery job for each one left."""
from __future__ import annotations

import logging
import time

import redis

from api.errors import UnknownGame
from events.store import StoreUnavailable

from .sending import Sending

log = logging.getLogger(__name__)

FAN_OUT_INLINE_S = 2.0  # a fan-out job delivers itself for this long, then queues the rest


class FanOut(Sending):
    """The fan-out job's work."""

    def fan_out_now(self, game_id: str) -> int:
        """Delivers the game's news to its subscriptions in this job, one after the other, for
        FAN_OUT_INLINE_S; those left then get delivery jobs of their own. Inline, because a
        job's own bookkeeping in RQ cost twice the delivery it carried (measured: bench/README.md);
        a subscription waiting out a back-off costs a look at its progress, and a slow receiver
        delays the game's other subscriptions by at most the budget and one timeout. Returns
        how many were delivered here or queued."""
        deadline = time.monotonic() + FAN_OUT_INLINE_S
        done = 0
        for sub_id in self.subs.covering(game_id):
            left = deadline - time.monotonic()
            if left > 0:
                try:
                    self.deliver(sub_id, game_id, rounds=1, drain_s=left)
                    done += 1
                except UnknownGame:
                    raise  # gone: nothing more to tell anyone (fan_out_job retires it)
                except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable):
                    raise
                except Exception:
                    log.exception("webhook %s for game %s: inline delivery failed", sub_id, game_id)
                    done += self.ensure(sub_id, game_id)
            else:
                done += self.ensure(sub_id, game_id)
        return done
