"""Crash- and race-safety (issue 52): many processes advancing one tournament at once (the web
process after an answer, the workers after a game's end, the reconciler's sweep) pair each round
once and make each table's game once; a table claimed by a maker that died gets its game from the
sweep once the claim expires."""
from __future__ import annotations

import threading
import time
import uuid

from api.tournaments import decider
from tests import fakes


def _services(redis_client):
    prefix = f"race{uuid.uuid4().hex[:6]}:"
    from events.redis_store import RedisEventStore

    return fakes.services(RedisEventStore(redis_client, prefix), redis=redis_client, key_prefix=prefix,
                          turn_queue=f"{prefix}turns")


def test_eight_threads_advancing_at_once_pair_each_round_once(redis_client, monkeypatch):
    from api.tournaments import service as tournaments_service

    services = _services(redis_client)
    creator, _ = services.players.create("organiser")
    start = int(time.time() * 1000) + 3_600_000
    tournaments = services.tournaments
    state = tournaments.create({"type": "witches", "format": "swiss", "seats": 3, "rounds": 2, "start": start,
                                "entrants": [{"bot": "random"}] * 7}, creator)
    monkeypatch.setattr(tournaments_service, "_now", lambda: start + 1000)
    barrier = threading.Barrier(8)
    failures = []

    def advance():
        try:
            barrier.wait()
            tournaments.advance(state.id)
        except Exception as e:
            failures.append(e)

    threads = [threading.Thread(target=advance) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    events = tournaments.events(state.id)
    assert [e["type"] for e in events].count("round_paired") == 1
    linked = [e for e in events if e["type"] == "game_linked"]
    assert len(linked) == len(events[[e["type"] for e in events].index("round_paired")]["tables"])
    made = redis_client.hgetall(tournaments.games_key)
    assert len(made) == len(linked)  # no game made twice for a table
    assert decider.next_step(tournaments.state(state.id), start + 1000) is None  # its games are played now


def test_a_table_whose_maker_died_gets_its_game_once_the_claim_expires(redis_client, monkeypatch):
    from api.tournaments import service as tournaments_service

    services = _services(redis_client)
    creator, _ = services.players.create("organiser")
    tournaments = services.tournaments
    start = int(time.time() * 1000) + 3_600_000
    state = tournaments.create({"type": "splendor", "format": "swiss", "rounds": 1, "start": start,
                                "entrants": [{"bot": "random"}] * 2}, creator)
    monkeypatch.setattr(tournaments_service, "_now", lambda: start + 1000)
    games, tournaments.games = tournaments.games, None  # the pairing's process dies before making the game
    tournaments.advance(state.id)
    claim = f"{tournaments.key(state.id)}:making:1:1"
    redis_client.set(claim, "1", px=60_000)  # ...after claiming the table
    tournaments.games = games
    tournaments.sweep()
    assert tournaments.state(state.id).rounds[0].tables[0].game_id is None
    redis_client.delete(claim)  # the claim expired
    tournaments.sweep()
    assert tournaments.state(state.id).rounds[0].tables[0].game_id is not None
