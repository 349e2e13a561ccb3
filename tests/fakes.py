"""The tests' object graph, built as the processes build theirs: through the composition root
(wiring.bootstrap), over in-memory fakes where a test gives no real ones.

- `services(...)`: every service of the graph; `service(...)`: its GameService.
- The event store: the test's (an InMemoryEventStore, a RedisEventStore, one failing on purpose),
  else an in-memory one, else (given `redis`) the server's own (Redis, the archive behind it).
- The Redis clients (players, subscriptions, queues...): the test's `redis`, else fakeredis's
  in-memory server (one per graph, unless the test shares one).
- The settings: api/settings.py's defaults (but the session's ARCHIVE_URL, and no peeking evidence
  gathered: fakeredis runs no RQ job, tests/ratings/test_peeking_feed.py asks for it), with the
  test's overrides by name (`key_prefix="p:"`, `snapshot_every=3`, `webhook_allow_loopback=True`).
- A process whose after-append steps are lost (it died): its store is the test's Redis, its
  other clients the in-memory ones, thrown away with what its listeners wrote.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import fakeredis

import wiring
from api.games.deferred import immediately
from api.games.service import GameService, Scheduler
from api.settings import Settings
from events.memory_store import InMemoryEventStore
from events.store import EventStore


def clients(redis: Any = None) -> wiring.Clients:
    """One client as the store's and the queue's: the test's, or a new in-memory Redis."""
    client = redis if redis is not None else fakeredis.FakeRedis()
    return wiring.Clients(client, client)


def services(store: EventStore | None = None, scheduler: Scheduler | None = None, defer: Callable = immediately,
             redis: Any = None, **settings: Any) -> wiring.Services:
    if store is None and redis is None:
        store = InMemoryEventStore()
    settings.setdefault("archive_url", os.environ.get("ARCHIVE_URL", ""))  # the session's (tests/conftest.py)
    settings.setdefault("peeking_iterations", 0)  # no job queued on a fake queue (its own tests set it)
    return wiring.bootstrap(Settings(**settings), clients(redis), defer, store=store, scheduler=scheduler)


def service(store: EventStore | None = None, scheduler: Scheduler | None = None, defer: Callable = immediately,
            **settings: Any) -> GameService:
    return services(store, scheduler, defer, **settings).service


def deliveries(redis: Any, prefix: str, **settings: Any):
    """A process's webhook deliveries on the test's Redis (queue `<prefix>webhooks`); the
    settings by name (`webhook_allow_loopback=True`, `webhook_timeout_s=2`)."""
    return services(redis=redis, key_prefix=prefix, webhook_queue=f"{prefix}webhooks", **settings).deliveries
