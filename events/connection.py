"""The one place configuration becomes Redis clients.

- `REDIS_URL=redis://...` or `unix://...`: one Redis holds everything (the default layout).
- `REDIS_URL=redis+cluster://host:port,host:port,...` (or `REDIS_CLUSTER_NODES=host:port,...`):
  the event store and the application's keys live on a Redis Cluster (or Valkey's), through
  redis-py's `RedisCluster`. RQ cannot use a cluster (its jobs and queues are many keys touched
  together), so its queues then live on a plain Redis named by `QUEUE_REDIS_URL`, which is
  required: a clustered server without it refuses to start with a sentence saying so.
- `QUEUE_REDIS_URL` unset and no cluster: the queues share the one Redis (as before).

Global keys (the sets of games a pass walks) are sharded into KEY_BUCKETS hash-tag buckets
(`games:owing:{b7}`) on a cluster, default 16; on one Redis the default is 1, which keeps the
unsharded names of the first layout. Every process of one deployment must use the same
KEY_BUCKETS (a game is looked for in the bucket its id hashes to).

`REPLICAS_ACK=N` (default 0): after each append the writer waits (`WAIT N REPLICAS_ACK_TIMEOUT_MS`)
until N replicas have the append, and answers 503 when they do not in time (docs/scaling.md).
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import ClusterDownError, MasterDownError, SlotNotCoveredError, TryAgainError
from redis.retry import Retry

from .store import StoreUnavailable

CLUSTER_SCHEME = "redis+cluster"
DEFAULT_CLUSTER_BUCKETS = 16

# What a client raises while a node, a slot or the whole cluster cannot answer (a failover in
# progress): every one of them is a 503 (StoreUnavailable), never a 500.
UNAVAILABLE = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, ClusterDownError,
               TryAgainError, MasterDownError, SlotNotCoveredError)

Client = redis.Redis | RedisCluster

P = ParamSpec("P")
R = TypeVar("R")


def unavailable(method: Callable[P, R]) -> Callable[P, R]:
    """Any of the failures above becomes StoreUnavailable: callers answer 503. The wrapper keeps
    the method's name, docstring and (for the type checker) signature."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    return wrapper


class ConfigurationError(RuntimeError):
    """A configuration the server cannot run with (said at startup, not at the first request)."""


def cluster_nodes(url: str | None, nodes: str | None = None) -> list[tuple[str, int]] | None:
    """The cluster's startup nodes, from `redis+cluster://h:p,h:p` or REDIS_CLUSTER_NODES;
    None for a single Redis."""
    spec = nodes or ""
    if url and url.startswith(CLUSTER_SCHEME + "://"):
        spec = spec or url[len(CLUSTER_SCHEME) + 3:].split("/", 1)[0]
    if not spec.strip():
        return None
    found = []
    for item in spec.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ConfigurationError(f"a cluster node is host:port, not {item!r}")
        found.append((host.strip("[]"), int(port)))
    return found


def dedicated(client: redis.Redis, role: str, default_name: str, **overrides: Any) -> redis.Redis:
    """A client of its own on one connection made like `client`'s (a blocked XREAD holds its
    connection: it must never be one a request waits for), named `<name>-<role>`. No silent
    retry: a reconnected connection has a new client id, which CLIENT UNBLOCK needs."""
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "retry": Retry(NoBackoff(), 0), **overrides}
    kwargs.pop("maint_notifications_pool_handler", None)
    kwargs["client_name"] = (kwargs.get("client_name") or default_name) + "-" + role
    return redis.Redis(connection_pool=redis.ConnectionPool(
        connection_class=pool.connection_class, max_connections=1, **kwargs))


def is_cluster(client: object) -> bool:
    return isinstance(client, RedisCluster)


def store_client(url: str | None, nodes: str | None = None, **kwargs: Any) -> Client:
    """The client for the event store and the application's keys."""
    found = cluster_nodes(url, nodes)
    if found is None:
        if not url:
            raise ConfigurationError("REDIS_URL is not set: run `python app.py`, which starts a Redis for you.")
        return redis.Redis.from_url(url, **kwargs)
    kwargs.pop("client_name", None)  # per node connection, set by RedisCluster itself
    return RedisCluster(startup_nodes=[ClusterNode(h, p) for h, p in found], require_full_coverage=False,
                        **kwargs)


def queue_url(url: str | None, queue: str | None, nodes: str | None = None) -> str:
    """Where RQ's queues live: QUEUE_REDIS_URL, else the one Redis; required with a cluster."""
    if queue:
        if cluster_nodes(queue):
            raise ConfigurationError("QUEUE_REDIS_URL must name a plain Redis: RQ cannot use a cluster.")
        return queue
    if cluster_nodes(url, nodes) is not None:
        raise ConfigurationError("REDIS_URL names a Redis Cluster, and RQ cannot use one: set QUEUE_REDIS_URL "
                                 "to a plain Redis (or a primary outside the cluster) for the job queues.")
    if not url:
        raise ConfigurationError("REDIS_URL is not set: run `python app.py`, which starts a Redis for you.")
    return url


def key_buckets(client: object = None, env: Mapping[str, str] = os.environ) -> int:
    raw = (env.get("KEY_BUCKETS") or "").strip()
    if raw:
        n = int(raw)
        if not 1 <= n <= 1024:
            raise ConfigurationError(f"KEY_BUCKETS is between 1 and 1024, not {n}")
        return n
    return DEFAULT_CLUSTER_BUCKETS if is_cluster(client) else 1


def replicas_ack(env: Mapping[str, str] = os.environ) -> tuple[int, int]:
    """(replicas that must have an append before it is answered, how long to wait for them in ms)."""
    return int(env.get("REPLICAS_ACK") or 0), int(env.get("REPLICAS_ACK_TIMEOUT_MS") or 1000)


class Connections:
    """A process's clients: `store` (events and app keys) and `queue` (RQ), the same client
    when they are the same plain Redis."""

    def __init__(self, url: str | None, nodes: str | None = None, queue: str | None = None,
                 **kwargs: Any) -> None:
        self.url, self.nodes = url, nodes
        self.queue_url = queue_url(url, queue, nodes)
        self.store = store_client(url, nodes, **kwargs)
        self.clustered = is_cluster(self.store)
        if not self.clustered and self.queue_url == url:
            self.queue = self.store
        else:
            self.queue = redis.Redis.from_url(self.queue_url, **kwargs)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **kwargs: Any) -> Connections:
        return cls(env.get("REDIS_URL"), env.get("REDIS_CLUSTER_NODES"), env.get("QUEUE_REDIS_URL"), **kwargs)


_for_jobs: dict[tuple[str | None, str | None], Client] = {}


def store_for_jobs(job_connection: redis.Redis, env: Mapping[str, str] = os.environ) -> Client:
    """The store client an RQ job uses. With the queues on the one Redis it is the job's own
    connection; with a cluster or a separate queue Redis, the store named by the environment
    (one client per process)."""
    url, nodes, queue = env.get("REDIS_URL"), env.get("REDIS_CLUSTER_NODES"), env.get("QUEUE_REDIS_URL")
    if cluster_nodes(url, nodes) is None and (not queue or queue == url):
        return job_connection
    key = (url, nodes)
    if key not in _for_jobs:
        _for_jobs[key] = store_client(url, nodes)
    return _for_jobs[key]

