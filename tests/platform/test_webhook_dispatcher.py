"""The webhook worker's dispatcher (workers/deliveries/dispatcher.py) on real threads, with
`run` functions standing in for deliveries: bounds per destination, turns across them,
parking, the threads kept for destinations that answer, resubmission."""
from __future__ import annotations

import threading
import time
from collections import Counter

from tests.conftest import wait_for
from workers.deliveries.dispatcher import Dispatcher, destination_of


def _urls(sub_id):
    return f"http://{sub_id.split('/')[0]}/hook"  # "host:port/n" subscriptions: their destination first


class Blocking:
    """A run that records each pair and blocks while its destination is held."""

    def __init__(self):
        self.held: dict[str, threading.Event] = {}
        self.started: list = []
        self.now: Counter = Counter()
        self.peak: Counter = Counter()
        self.lock = threading.Lock()
        self.dispatcher: Dispatcher | None = None
        self.ok = True

    def __call__(self, sub_id, game_id):
        dest = sub_id.split("/")[0]
        with self.lock:
            self.started.append((sub_id, game_id))
            self.now[dest] += 1
            self.peak[dest] = max(self.peak[dest], self.now[dest])
        self.held.setdefault(dest, threading.Event()).wait(30) if dest in self.held else None
        with self.lock:
            self.now[dest] -= 1
        self.dispatcher.attempted(_urls(sub_id), self.ok)
        return "caught_up" if self.ok else "waiting"


def _dispatcher(run, **kw) -> Dispatcher:
    d = Dispatcher(run, _urls, **kw)
    run.dispatcher = d
    return d


def test_destination_is_the_host_and_port():
    assert destination_of("https://Example.com/a") == "example.com:443"
    assert destination_of("http://127.0.0.1:8080/x?y") == "127.0.0.1:8080"


def test_a_trusted_destination_takes_a_few_in_flight_an_untrusted_one_only_one():
    run = Blocking()
    d = _dispatcher(run, per_destination=4)
    run.held["new:1"] = threading.Event()
    run.held["known:1"] = threading.Event()
    d.attempted("http://known:1/hook", True)
    for g in range(10):
        d.submit("new:1/a", f"g{g}")
        d.submit("known:1/a", f"g{g}")
    wait_for(lambda: run.now["known:1"] == 4 and run.now["new:1"] == 1)
    time.sleep(0.3)
    assert run.peak["known:1"] == 4 and run.peak["new:1"] == 1
    run.held["new:1"].set()
    run.held["known:1"].set()
    wait_for(lambda: len(run.started) == 20)
    d.close()


def test_destinations_take_turns_whatever_their_backlog():
    run = Blocking()
    d = _dispatcher(run, max_threads=1, min_threads=1, reserve=0)
    for dest in ("a:1", "b:1"):
        d.attempted(f"http://{dest}/hook", True)
    run.held["a:1"] = threading.Event()  # the first of a's holds the one thread while all is queued
    for g in range(20):
        d.submit("a:1/s", f"g{g}")
    d.submit("b:1/s", "g0")
    d.submit("b:1/s", "g1")
    run.held.pop("a:1").set()
    wait_for(lambda: len(run.started) == 22)
    order = [s.split("/")[0] for s, _ in run.started]
    assert order[:5] == ["a:1", "b:1", "a:1", "b:1", "a:1"], order
    d.close()


def test_hundreds_of_hanging_receivers_leave_threads_for_one_that_answers():
    run = Blocking()
    d = _dispatcher(run, max_threads=64, reserve=16)
    d.attempted("http://good:1/hook", True)
    for i in range(300):
        run.held[f"hang{i}:1"] = threading.Event()
        d.submit(f"hang{i}:1/s", "g")
    wait_for(lambda: sum(run.now.values()) == 48)  # the untrusted share: 64 - 16
    started = time.monotonic()
    for g in range(20):
        d.submit("good:1/s", f"g{g}")
    wait_for(lambda: sum(1 for s, _ in run.started if s.startswith("good")) == 20)
    assert time.monotonic() - started < 2
    assert d.snapshot()["threads"] <= 64
    for event in run.held.values():
        event.set()
    d.close()


def test_a_destination_failing_in_a_row_is_parked_and_probed_when_its_time_is_up():
    run = Blocking()
    run.ok = False
    d = _dispatcher(run, park_after=3, park_base_s=1.0)
    for g in range(6):
        d.submit("bad:1/s", f"g{g}")
    wait_for(lambda: d.snapshot()["parked"] == 1)
    assert len(run.started) == 3  # one at a time (untrusted), then parked
    time.sleep(0.3)
    assert len(run.started) == 3 and d.snapshot()["oldest_behind_s"].get("parked", 0) > 0
    run.ok = True
    wait_for(lambda: len(run.started) == 6)  # the probe answered: the rest follow
    assert d.snapshot()["parked"] == 0
    d.close()


def test_a_pair_submitted_while_it_runs_runs_once_more_and_queued_twice_runs_once():
    run = Blocking()
    d = _dispatcher(run)
    run.held["x:1"] = threading.Event()
    d.submit("x:1/s", "g")
    wait_for(lambda: run.now["x:1"] == 1)
    for _ in range(5):
        d.submit("x:1/s", "g")
    run.held.pop("x:1").set()
    wait_for(lambda: len(run.started) == 2)
    time.sleep(0.3)
    assert run.started == [("x:1/s", "g")] * 2
    d.close()


def test_a_run_that_raises_is_tried_again():
    calls = []

    def run(sub_id, game_id):
        calls.append(time.monotonic())
        if len(calls) < 3:
            raise ConnectionError("Redis away")
        return "caught_up"

    d = Dispatcher(run, _urls, retry_s=0.1)
    d.submit("r:1/s", "g")
    wait_for(lambda: len(calls) == 3)
    assert d.snapshot()["oldest_behind_s"] == {}
    d.close()


def test_a_gone_subscription_is_not_queued():
    d = Dispatcher(lambda s, g: "caught_up", lambda sub_id: None)
    assert d.submit("gone", "g") is False and d.snapshot()["queued"] == 0
