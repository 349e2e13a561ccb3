"""What the server counts, for Prometheus (`GET /metrics`). No Flask here: the web processes,
the RQ workers and the reconciler all count into the same metrics.

gunicorn and RQ run several processes, so the supervisor gives them one directory
(`PROMETHEUS_MULTIPROC_DIR`, emptied at start-up) where each process keeps its values in
memory-mapped files; a scrape adds them up (prometheus_client's multiprocess mode). Without that
directory (the app inside a test, a single process) the values live in the process's registry.
Figures that are a property of Redis (the queue's depth, the games in play) are read when
scraped, not counted.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

requests = Counter("http_requests_total", "HTTP requests answered, by route template, method and status.",
                   ["route", "method", "status"])
request_seconds = Histogram("http_request_duration_seconds", "Time to answer an HTTP request (until the "
                            "body starts: a live stream counts its opening only).", ["route", "method"],
                            buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
moves = Counter("game_moves_appended_total", "Moves appended, by game type and who moved.",
                ["game_type", "actor"])
seat_changes = Counter("game_seat_changes_total", "Seats claimed and left, games started by a claim, and claims "
                       "that lost a race (`lost`: re-judged after another append won).", ["kind"])
conflicts = Counter("game_version_conflicts_total", "Moves refused or retried for a version conflict: "
                    "'stale' (the client's version was old), 'race' (another append won in between).", ["kind"])
turn_delay = Histogram("game_turn_delay_seconds", "From the append of the move that hands the turn to a "
                       "worker (a bot or the system) to the append of that worker's reply.", ["game_type", "actor"],
                       buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
streams = Gauge("live_streams_open", "Live streams (SSE) open now.",
                multiprocess_mode="livesum" if MULTIPROCESS else "all")  # "all": prometheus_client's default
webhook_deliveries = Counter("webhook_deliveries_total", "Webhook delivery attempts, by outcome: 'delivered' "
                             "(2xx), 'http_error', 'timeout', 'network_error', 'refused' (the address).",
                             ["outcome"])
webhook_delay = Histogram("webhook_delivery_delay_seconds", "From an event's append to its webhook's delivery "
                          "(2xx), retries included.",
                          buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86400))
webhook_oldest_behind = Gauge("webhook_oldest_undelivered_seconds", "Per class of destination ('new': not yet "
                              "answered, 'healthy', 'failing', 'parked': its circuit open), the age of the oldest "
                              "(subscription, game) a webhook worker holds with messages not yet delivered.",
                              ["destination"], multiprocess_mode="livemax" if MULTIPROCESS else "all")
webhook_parked = Gauge("webhook_parked_destinations", "Webhook receivers (host and port) parked after failing "
                       "in a row: their deliveries wait out a back-off instead of taking sender threads.",
                       multiprocess_mode="livesum" if MULTIPROCESS else "all")
webhook_senders = Gauge("webhook_sender_threads", "Webhook sender threads running (made as needed, up to "
                        "WEBHOOK_SENDERS per webhook worker).", multiprocess_mode="livesum" if MULTIPROCESS else "all")
redis_errors = Counter("redis_errors_total", "Operations that failed because Redis could not be reached.",
                       ["where"])


_children: dict[tuple[int, tuple[str, ...]], Any] = {}  # (the metric's id, its labels) -> the labelled child


def child(metric: Any, *labels: str) -> Any:
    """`metric.labels(*labels)`, looked up once a process: prometheus_client's `.labels()` (its
    lock, its checks) costs more than the increment, and a move counted two (issue 57). For
    the module's own metrics only (their ids stay theirs); their labels are few."""
    key = (id(metric), labels)
    found = _children.get(key)
    if found is None:
        found = _children[key] = metric.labels(*labels)
    return found


def actor_kind(actor: object, bot_level: Callable[[int], object]) -> str:
    if actor == "system":
        return "system"
    return "bot" if isinstance(actor, int) and bot_level(actor) else "person"


class ScrapeTimeGauges:
    """Gauges read from Redis at scrape time: `(name, help, read)` each."""

    def __init__(self, gauges: Iterable[tuple[str, str, Callable[[], float]]]):
        self.gauges = list(gauges)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, help_text, read in self.gauges:
            family = GaugeMetricFamily(name, help_text)
            try:
                family.add_metric([], float(read()))
            except Exception:
                redis_errors.labels("metrics").inc()
                continue
            yield family


def exposition(extra: ScrapeTimeGauges | None = None) -> bytes:
    """The text a scrape receives."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry
    text = generate_latest(registry)
    if extra is not None:
        side = CollectorRegistry()
        side.register(extra)
        text += generate_latest(side)
    return text


def process_exited(pid: int) -> None:
    """A web worker that exited no longer counts its open streams (gunicorn's child_exit hook)."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
