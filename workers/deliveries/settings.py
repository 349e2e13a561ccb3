"""The webhook deliveries' settings (WEBHOOK_* in the environment) and their queue's name."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from api.webhooks.addresses import Policy
from api.webhooks.subscriptions import PROGRESS_TTL_S

DEFAULT_QUEUE = "webhooks"


@dataclass(frozen=True)
class Settings:
    timeout_s: float = 5.0
    retry_base_s: float = 10.0
    retry_max_s: float = 3600.0
    disable_after_s: float = 86400.0
    policy: Policy = field(default_factory=Policy)
    progress_ttl_s: int = PROGRESS_TTL_S

    @classmethod
    def from_env(cls, env=None) -> Settings:
        env = os.environ if env is None else env
        return cls(float(env.get("WEBHOOK_TIMEOUT_S", 5)), float(env.get("WEBHOOK_RETRY_BASE_S", 10)),
                   float(env.get("WEBHOOK_RETRY_MAX_S", 3600)), float(env.get("WEBHOOK_DISABLE_AFTER_S", 86400)),
                   Policy.from_env(env), int(env.get("WEBHOOK_PROGRESS_TTL_S", PROGRESS_TTL_S)))

    def backoff_s(self, attempts: int) -> float:
        """The wait after the n-th failed attempt: base, 2 base, 4 base, ... up to the maximum
        (10 s doubling to an hour: 30 attempts in the first day)."""
        return min(self.retry_max_s, self.retry_base_s * 2 ** min(attempts - 1, 30))


def now_ms() -> int:
    return int(time.time() * 1000)
