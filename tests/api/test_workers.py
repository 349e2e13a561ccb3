"""Bots and the system play through real RQ worker processes; the reconciler repairs losses."""
from __future__ import annotations

from tests.api.helpers import create, move, read, tokens
from tests.conftest import wait_for


def test_an_all_bot_game_plays_itself_to_the_end(client, workers):
    created = create(client, seats=[{"bot": "random"}, {"bot": "bold"}, {"bot": "random"}])
    game = wait_for(lambda: (g := read(client, created["id"]))["status"] == "finished" and g)
    assert game["result"]["winners"]
    events = client.get(f"/games/{created['id']}/events?limit=1000").get_json()["events"]
    scored = [e for e in events if e["type"] == "scored"]
    assert len(scored) == 3 and all(e["actor"] == "system" for e in scored)
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(events) + 1))  # no gap, no duplicate


def test_a_person_moves_then_the_bot_and_the_system_follow(client, workers):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}], options={"rounds": 1})
    t = tokens(created)
    gid = created["id"]
    # The bot bids at once on its own; the person bids; then the system scores the round.
    wait_for(lambda: read(client, gid)["view"]["has_bid"][1])
    version = read(client, gid)["version"]
    assert move(client, gid, t[0], {"type": "bid", "chips": 1}, version).status_code == 201
    final = wait_for(lambda: (g := read(client, gid, t[0]))["status"] == "finished" and g)
    assert final["result"]["scores"]
    assert final["view"]["hands"] is not None  # a finished game is open to everyone


def test_the_reconciler_re_enqueues_a_lost_turn(client, workers, app):
    # Simulate the dual-write crash: a game whose bot turn was never enqueued.
    service = app.extensions["games"]
    original = service.scheduler
    service.scheduler = lambda *a: None
    try:
        created = create(client, seats=[{"bot": "random"}, {"bot": "random"}])
    finally:
        service.scheduler = original
    seen = []

    def finished():
        seen.append(read(client, created["id"]))
        return seen[-1]["status"] == "finished"

    try:
        wait_for(finished, timeout=60)
    except AssertionError as stalled:
        last = seen[-1]
        alive = [p.poll() is None for p in workers.procs]
        raise AssertionError(f"stalled at version {last['version']}, to act {last['to_act']}; "
                             f"workers and reconciler alive: {alive}") from stalled


def test_a_job_plays_on_while_the_next_turn_is_again_a_workers(app, redis_client, monkeypatch):
    """One RQ job plays a run of bot turns (up to the chain's budget) instead of one job a
    turn; the turns after the budget go back to the queue, and the game still ends."""
    import uuid

    from rq import Queue, SimpleWorker

    from events.redis_store import RedisEventStore
    from tests import fakes
    from workers import jobs

    monkeypatch.setattr(jobs, "CHAIN_SECONDS", 60)  # the turn budget, not the machine's speed, ends chains here
    chains = []
    real_chain = jobs.play_chain
    monkeypatch.setattr(jobs, "play_chain", lambda *a: chains.append(real_chain(*a)) or chains[-1])
    prefix = f"chain{uuid.uuid4().hex[:6]}:"
    service = fakes.services(RedisEventStore(redis_client, prefix), redis=redis_client, key_prefix=prefix,
                             turn_queue=f"{prefix}turns").service
    created = service.create("splendor", [{"bot": "random"}, {"bot": "greedy"}], {}, 8)
    worker = SimpleWorker([Queue(f"{prefix}turns", connection=redis_client)], connection=redis_client)
    worker.work(burst=True)
    game = service.load(created["id"])
    assert game.finished
    moves = game.version - created["version"]
    # Each job played its turn and up to CHAIN_TURNS more; the rest went back to the queue.
    played = [n for _, n in chains]
    assert len(played) >= 2 and all(n == jobs.CHAIN_TURNS + 1 for n in played[:-1]), played
    assert 1 <= played[-1] <= jobs.CHAIN_TURNS + 1 and sum(played) <= moves  # a turn appends 1 or more events


def test_a_failing_turn_in_a_chain_is_queued_as_a_job_of_its_own(monkeypatch):
    from tests import fakes
    from workers import jobs

    queued = []
    service = fakes.service(scheduler=lambda g, v, actors: queued.append((v, actors)))
    created = service.create("splendor", [{"bot": "random"}, {"bot": "random"}], {}, 8)
    real = jobs.choose_move
    calls = []

    def flaky(game, actor):
        calls.append(game.version)
        if len(calls) == 3:
            raise RuntimeError("the policy broke")
        return real(game, actor)

    monkeypatch.setattr(jobs, "choose_move", flaky)
    monkeypatch.setattr(jobs, "CHAIN_SECONDS", 60)  # the failure, not a loaded machine's clock, ends this chain
    queued.clear()
    try:
        jobs.play_chain(service, created["id"], created["version"], 0)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the failure was swallowed")
    assert service.load(created["id"]).version == created["version"] + 2  # two turns played
    assert queued == [(created["version"] + 2, [0])]  # the third is queued for its own job
