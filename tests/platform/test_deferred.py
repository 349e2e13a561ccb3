"""After-append steps run after the answer, in order, and a failing one stops nothing."""
from __future__ import annotations

import threading
import time

from api.games.deferred import Deferred
from tests import fakes
from tests.platform.high_card import GAME  # noqa: F401 - registers high-card


def test_tasks_run_in_order_and_a_failure_stops_nothing():
    deferred, ran = Deferred(), []

    def fail():
        raise RuntimeError("Redis went away")

    for i in range(5):
        deferred(ran.append, i)
        if i == 2:
            deferred(fail)
    assert deferred.drain()
    assert ran == [0, 1, 2, 3, 4]


def test_a_move_is_answered_before_its_next_turn_is_enqueued():
    release, enqueued = threading.Event(), []

    def slow_scheduler(game_id, version, actors):
        release.wait(5)  # an RQ enqueue waiting on a slow disk
        enqueued.append((version, actors))

    deferred = Deferred()
    service = fakes.service(scheduler=slow_scheduler, defer=deferred)
    created = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 1)
    started = time.monotonic()
    answer = service.move(created["id"], 0, {"type": "bid", "chips": 1}, created["version"])
    service.move(created["id"], 1, {"type": "bid", "chips": 0}, answer["version"])
    assert time.monotonic() - started < 1  # neither answer waited for the enqueue
    assert service.load(created["id"]).version == created["version"] + 2
    release.set()
    assert deferred.drain()
    # In order: the creation's (nobody automatic), then each move's; the second hands to the system.
    assert [v for v, _ in enqueued] == [created["version"], created["version"] + 1, created["version"] + 2]
    assert enqueued[-1][1] == ["system"]
