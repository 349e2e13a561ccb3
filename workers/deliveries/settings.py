"""The webhook deliveries' settings (WEBHOOK_* in the environment) and their queue's name."""
from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field

from api.webhooks.addresses import Policy
from api.webhooks.sender import DEADLINE_S
from api.webhooks.subscriptions import PROGRESS_TTL_S

DEFAULT_QUEUE = "webhooks"


@dataclass(frozen=True)
class Settings:
    timeout_s: float = 5.0  # the longest wait within an attempt (connect, or for the next bytes)
    retry_base_s: float = 10.0
    retry_max_s: float = 3600.0
    disable_after_s: float = 86400.0
    policy: Policy = field(default_factory=Policy)
    progress_ttl_s: int = PROGRESS_TTL_S
    deadline_s: float = DEADLINE_S  # an attempt's whole time, whatever the receiver does
    senders: int = 256  # a webhook worker's sender threads at most (made as needed)
    per_destination: int = 4  # pairs in flight to one receiver (host and port) at most
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)  # the back-off's jitter

    @classmethod
    def from_env(cls, env=None) -> Settings:
        env = os.environ if env is None else env
        return cls(float(env.get("WEBHOOK_TIMEOUT_S", 5)), float(env.get("WEBHOOK_RETRY_BASE_S", 10)),
                   float(env.get("WEBHOOK_RETRY_MAX_S", 3600)), float(env.get("WEBHOOK_DISABLE_AFTER_S", 86400)),
                   Policy.from_env(env), int(env.get("WEBHOOK_PROGRESS_TTL_S", PROGRESS_TTL_S)),
                   float(env.get("WEBHOOK_DEADLINE_S", DEADLINE_S)), int(env.get("WEBHOOK_SENDERS", 256)),
                   int(env.get("WEBHOOK_PER_DESTINATION", 4)))

    def backoff_s(self, attempts: int) -> float:
        """The wait after the n-th failed attempt, with full jitter: anywhere below a ceiling
        of base, 2 base, 4 base, ... up to the maximum (10 s doubling to an hour: about 55
        attempts in the first day). Receivers that failed together (an outage) are retried
        spread out, not all at once at every step."""
        return self.rng.uniform(0, min(self.retry_max_s, self.retry_base_s * 2 ** min(attempts - 1, 30)))

    def asked_wait_s(self, retry_after_s: float) -> float:
        """The wait a receiver asked for (a 429's or 503's Retry-After), honoured within bounds:
        at least a second (no receiver sets the pace of a busy loop), at most the maximum
        back-off (an HTTP date a year away does not park the subscription for a year)."""
        return min(self.retry_max_s, max(1.0, retry_after_s))


def now_ms() -> int:
    return int(time.time() * 1000)
