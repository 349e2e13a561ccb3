"""Races: 32 clients send moves to one game at once, each with the version it saw.

Each round every client reads the seat to act and its legal moves, waits at a barrier, and
sends a (randomly chosen, so different) move with that version. Exactly one wins the version;
every other gets `409 version_conflict` naming the version the game is now at. Over the
rounds (each a retry of the last one's losers) the history has no gap and no duplicate, and
holds exactly the events of the 201 answers plus the server's own (setup, the bot's moves).

Once against one API process, once with the clients spread over five API processes (three
gunicorn masters) sharing one Redis: each has its own cache of rebuilt states.
"""
from __future__ import annotations

import random
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import wait_for
from tests.robustness.helpers import (
    auth,
    check_history_accounts_for_every_answer,
    create,
    history,
    is_problem,
    post_move,
    read,
    session,
    tokens,
)
from tests.robustness.servers import ApiServer

CLIENTS = 32
ROUNDS = 10


@pytest.fixture(scope="module")
def apis(redis_url, tmp_path_factory):
    prefix = f"race{uuid.uuid4().hex[:6]}:"
    logs = tmp_path_factory.mktemp("race-logs")
    # no webhook or analysis worker: nothing here delivers or analyses (issue 48: two processes less)
    servers = [ApiServer(redis_url, prefix, logs, web_workers=1, turn_workers=1, WEBHOOK_WORKERS=0,
                         ANALYSIS_WORKERS=0)]
    servers += [ApiServer(redis_url, prefix, logs, api_only=True, web_workers=2) for _ in range(2)]
    try:
        for s in servers:
            s.start()
        yield [s.base for s in servers]
    finally:
        for s in servers:
            s.stop()


def _race(bases: list[str], seed: int):
    base = bases[0]
    people = {0, 1}
    created = create(base, "splendor", [{"name": "Ann"}, {"name": "Bob"}, {"bot": "greedy"}], seed=seed)
    gid, seat_tokens = created["id"], tokens(created)
    barrier = threading.Barrier(CLIENTS, timeout=30)
    answers, rounds = [], []

    def client(i, version, seat, moves, rng):
        chosen = rng.choice(moves)
        barrier.wait()
        r = post_move(bases[i % len(bases)], gid, seat_tokens[seat], chosen, version)
        return r.status_code, r.json(), is_problem(r)

    rngs = [random.Random(seed * 1000 + i) for i in range(CLIENTS)]
    with ThreadPoolExecutor(CLIENTS) as pool:
        for _ in range(ROUNDS):
            # The bot (through the real workers) may have to move first.
            game = wait_for(lambda: (g := read(base, gid))["to_act"] and g["to_act"][0] in people and g,
                            timeout=30, interval=0.01)
            seat, version = game["to_act"][0], game["version"]
            listed = session().get(f"{base}/games/{gid}/moves?limit=5000", headers=auth(seat_tokens[seat])).json()
            assert listed["version"] == version
            futures = [pool.submit(client, i, version, seat, listed["moves"], rngs[i]) for i in range(CLIENTS)]
            results = [f.result(timeout=60) for f in futures]
            rounds.append((version, results))
            wins = [body for status, body, _ in results if status == 201]
            assert len(wins) == 1, f"version {version}: {len(wins)} winners: {[s for s, _, _ in results]}"
            answers.append((seat, wins[0]))
            won = wins[0]["version"]
            now = read(base, gid)["version"]
            for status, body, problem in results:
                if status == 201:
                    continue
                assert status == 409 and problem, (status, body)
                assert body["code"] == "version_conflict"
                # the version the game was at when the loser was judged: after the winner's
                assert won <= body["version"] <= now, (won, body["version"], now)
    histories = {s: history(base, gid, seat_tokens[s]) for s in people}
    check_history_accounts_for_every_answer(histories, answers, people)
    assert read(base, gid)["status"] == "active"
    return histories, rounds


def test_32_clients_one_winner_per_version_on_one_api_process(apis):
    started = time.monotonic()
    histories, rounds = _race(apis[:1], seed=21)
    assert len(rounds) == ROUNDS
    assert time.monotonic() - started < 120


def test_32_clients_over_five_api_processes_sharing_one_redis(apis):
    histories, rounds = _race(apis, seed=22)
    # The bot's moves (the server's own) are in the history too, between the people's.
    events = histories[0]
    assert any(e["actor"] == 2 for e in events)


def test_32_clients_retrying_freely_leave_a_history_that_accounts_for_every_answer(apis):
    """No barrier: each client reads, sends, and on 409 reads again and retries, until it has
    had a move accepted (at most 60 tries), over all five API processes."""
    base = apis[0]
    created = create(base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=23)
    gid, seat_tokens = created["id"], tokens(created)
    answers, conflicts, lock = [], [], threading.Lock()

    def client(i):
        rng = random.Random(i)
        own = apis[i % len(apis)]
        other = apis[(i + 1) % len(apis)]  # read from one process, write through another
        for _ in range(60):
            game = session().get(f"{own}/games/{gid}", timeout=15).json()
            seat = game["to_act"][0]
            listed = session().get(f"{own}/games/{gid}/moves", headers=auth(seat_tokens[seat]), timeout=15).json()
            if not listed["moves"]:
                continue  # the turn passed between the two reads
            r = post_move(other, gid, seat_tokens[seat], rng.choice(listed["moves"]), listed["version"])
            if r.status_code == 201:
                with lock:
                    answers.append((seat, r.json()))
                return True
            assert r.status_code == 409 and is_problem(r), r.text
            assert r.json()["version"] > listed["version"]
            with lock:
                conflicts.append(r.json()["version"])
        return False

    with ThreadPoolExecutor(CLIENTS) as pool:
        won = list(pool.map(client, range(CLIENTS)))
    assert all(won), f"{won.count(False)} clients never got a move in"
    assert conflicts, "the clients never collided"
    histories = {s: history(base, gid, seat_tokens[s]) for s in seat_tokens}
    check_history_accounts_for_every_answer(histories, answers, set(seat_tokens))
    assert len(histories[0]) == created["version"] + CLIENTS
