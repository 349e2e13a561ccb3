"""20 bot games at once through the real turn workers, with an analysis being computed beside
them (issue 34): no game waits behind the others or behind the analysis.

Counted, not timed (2 loaded cores make any time bound flaky): from the games' histories (each
bot or system append is a turn, stamped `at` in ms)
- every game advances to its end;
- no game hogs a worker: a game's run of turns with no other game's turn in between (a tie in
  the ms counted as one in between) is at most one job's chain (workers/jobs.py: its first turn
  and CHAIN_TURNS kept), while at least 3 games are being played;
- no game starves: between two turns of one game, the other games play at most one chain each
  (the turn queue is first in, first out, and a game has one turn queued at a time);
- two analyses, on their own queue and worker, were still started (and waiting) when the last
  game ended: no turn waited for them (were they on the turn queue, both turn workers would be
  busy with them for minutes and no game would end). Once the first has started, its worker is
  paused (SIGSTOP): it holds the job and its worker as a long search does, without burning a
  core the games' workers need for the whole test.
Measured here (2 loaded cores): runs of at most 7 turns against the bound of 21, and at most
66 other turns between two of one game's against the bound of 399.
"""
from __future__ import annotations

import signal
import uuid
from itertools import groupby

import pytest
from rq.job import Job, JobStatus

from tests.analysis.helpers import person_game
from tests.api.helpers import auth, read
from tests.api.spec import SpecCheckingClient
from tests.conftest import running_workers, wait_for
from workers.jobs import CHAIN_TURNS

# The tier (tests/tiers.py): its `server` fixture starts RQ workers.
pytestmark = pytest.mark.process

GAMES = 20
CHAIN = CHAIN_TURNS + 1  # a job's turns at most
BUSY = 3  # the hogging bound holds while at least this many games are played


@pytest.fixture(scope="module")
def server(redis_url):
    """An app and workers of a prefix of their own: 2 turn workers, the reconciler, and an
    analysis worker with a budget that keeps it busy for minutes."""
    from app import create_app

    prefix = f"conc{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "ANALYSIS_QUEUE": f"{prefix}analysis", "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "ALLOW_CLIENT_SEEDS": True})
    with running_workers(redis_url, prefix, modes=("worker", "worker", "reconciler", "analysis"),
                         env={"ANALYSIS_ITERATIONS": "1000000"}) as workers:
        analysis_worker = workers.procs[-1]
        try:
            yield app, analysis_worker
        finally:
            analysis_worker.kill()  # paused mid-job: SIGKILL ends it where SIGTERM would wait
            analysis_worker.wait(timeout=10)


def _turns(store, gid) -> list[int]:
    """The `at` of each bot or system append of the game (setup events have no actor)."""
    return [at for (actor, at), _ in groupby(store.read(gid), key=lambda e: (e.actor, e.at)) if actor is not None]


def test_twenty_bot_games_interleave_and_an_analysis_delays_none(server):
    server, analysis_worker = server
    client = SpecCheckingClient(server, server.response_class)
    services = server.extensions["services"]
    # Two analyses asked for first, each minutes of search: were they on the turn queue, the
    # two turn workers would take one each and no game would move until they ended.
    jobs = []
    for seed in (1, 2):
        analysed, ann, _ = person_game(client, "splendor", seed=seed)
        assert client.post(f"/games/{analysed}/analysis", headers=auth(ann["key"])).status_code == 202
        jobs.append(Job.fetch(services.analysis_queue.job_id(analysed), connection=services.connections.queue))
    assert {job.origin for job in jobs} == {services.analysis_queue.queue.name} != {services.scheduler.queue.name}
    wait_for(lambda: jobs[0].get_status(refresh=True) == JobStatus.STARTED, timeout=60)
    analysis_worker.send_signal(signal.SIGSTOP)  # the job started and held, its search paused

    seats = [{"bot": "expert"}, {"bot": "expert"}]
    ids = [client.post("/games", json={"type": "splendor", "seats": seats, "seed": 100 + i}).get_json()["id"]
           for i in range(GAMES)]
    wait_for(lambda: all(read(client, gid)["status"] == "finished" for gid in ids), timeout=900, interval=0.5)
    assert [job.get_status(refresh=True) for job in jobs] == [JobStatus.STARTED, JobStatus.QUEUED], \
        "the analyses ended before the games: nothing shown"
    assert client.get(f"/games/{analysed}/analysis").status_code == 202

    turns = {gid: _turns(services.store, gid) for gid in ids}
    assert all(len(t) >= 10 for t in turns.values()), "a game that hardly played"
    # the bounds hold while at least BUSY games are being played: from the BUSY-th game's first
    # turn (the games are created one by one: on a loaded host the first plays alone meanwhile)
    # to the BUSY-th last game's end
    busy_from = sorted(t[0] for t in turns.values())[BUSY - 1]
    busy_until = sorted(t[-1] for t in turns.values())[-BUSY]
    every = sorted((at, gid) for gid, ts in turns.items() for at in ts)
    for gid, own in turns.items():
        others = [at for at, g in every if g != gid]
        runs, longest, most_between = 1, 1, 0
        for a, b in zip(own, own[1:]):
            between = _count_within(others, a, b)
            most_between = max(most_between, _count_strictly_within(others, a, b))
            if b > busy_until:
                break
            if a < busy_from:
                continue
            runs = 1 if between else runs + 1
            longest = max(longest, runs)
        assert longest <= CHAIN, f"game {gid} played {longest} turns in a row while others waited"
        assert most_between <= (GAMES - 1) * CHAIN, f"game {gid} waited {most_between} other turns"


def _count_within(sorted_ats, low, high) -> int:
    from bisect import bisect_left, bisect_right

    return bisect_right(sorted_ats, high) - bisect_left(sorted_ats, low)


def _count_strictly_within(sorted_ats, low, high) -> int:
    from bisect import bisect_left, bisect_right

    return max(0, bisect_left(sorted_ats, high) - bisect_right(sorted_ats, low))
