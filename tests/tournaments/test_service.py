"""Tournaments through the composition root's graph (in memory): an all-bot tournament's games
are made by the server, played by the turn jobs' code, and their ends come back as results until
the tournament is over; its history verifies and agrees with the oracle."""
from __future__ import annotations

import time

import pytest

from api.errors import ApiError
from api.tournaments.verify import verify
from tests import fakes
from tests.tournaments import oracle
from workers.jobs import play_turn


def _graph():
    queued: list[tuple] = []
    services = fakes.services(scheduler=lambda game_id, version, actors: queued.extend(
        (game_id, version, a) for a in actors))
    return services, queued


def _play_out(services, queued, budget_s=60.0):
    end = time.monotonic() + budget_s
    while queued and time.monotonic() < end:
        play_turn(services.service, *queued.pop(0))


@pytest.mark.parametrize("fmt, seats, bots", [("swiss", 2, 5), ("round_robin", 2, 4), ("swiss", 3, 4)])
def test_an_all_bot_tournament_runs_to_its_end(fmt, seats, bots):
    services, queued = _graph()
    creator, _ = services.players.create("organiser")
    game_type = "splendor" if seats == 2 else "witches"
    body = {"type": game_type, "format": fmt, "seats": seats, "min_seats": min(seats, 3) if seats > 2 else 2,
            "entrants": [{"bot": "random"}] * bots}
    if fmt == "swiss":
        body["rounds"] = 2
    state = services.tournaments.create(body, creator)
    assert state.rounds and all(t.game_id for t in state.rounds[0].tables)
    _play_out(services, queued)
    state = services.tournaments.state(state.id)
    assert state.status == "finished", services.tournaments.shown(state)
    events = services.tournaments.events(state.id)
    assert oracle.check(events) == []
    assert all(r["inputs"] and r["tables"] for r in verify(events))
    shown = services.tournaments.shown(state)
    assert shown["standings"][0]["points"] > 0 and all(
        t.get("places") for r in shown["rounds"] for t in r["tables"])
    assert services.tournaments.listing(status="finished")[0][0]["id"] == state.id


def test_join_withdraw_and_refusals():
    services, queued = _graph()
    creator, _ = services.players.create("organiser")
    other, _ = services.players.create("other")
    start = int(time.time() * 1000) + 3_600_000
    state = services.tournaments.create({"type": "splendor", "format": "swiss", "rounds": 3, "start": start,
                                         "entrants": [{"bot": "greedy"}, {"bot": "greedy"}]}, creator)
    assert set(state.entrants) == {"bot:greedy", "bot:greedy#2"} and state.status == "upcoming"
    state = services.tournaments.join(state.id, other)
    assert "player:" + other.id in state.entrants
    with pytest.raises(ApiError) as again:
        services.tournaments.join(state.id, other)
    assert again.value.code == "already_entered"
    state = services.tournaments.withdraw(state.id, other)
    assert not state.entrants["player:" + other.id].active
    with pytest.raises(ApiError) as unknown:
        services.tournaments.state("nope")
    assert unknown.value.code == "unknown_tournament"
    with pytest.raises(ApiError) as bad:
        services.tournaments.create({"type": "splendor", "format": "swiss", "rounds": 2,
                                     "entrants": [{"bot": "nobody"}]}, creator)
    assert bad.value.code == "validation_error"
    assert not queued


def test_the_sweep_reports_a_result_the_listener_lost_and_the_tournament_goes_on():
    """A process that died between a game's end and its report (here: the listener removed) leaves
    the round unfinished; the reconciler's sweep reports it, pairs the next round and makes it."""
    services, queued = _graph()
    creator, _ = services.players.create("organiser")
    heard = [x for x in services.service.listeners if type(x).__name__ == "TournamentResults"]
    services.service.listeners.remove(heard[0])
    state = services.tournaments.create({"type": "splendor", "format": "swiss", "rounds": 2,
                                         "entrants": [{"bot": "random"}] * 4}, creator)
    _play_out(services, queued)
    assert len(services.tournaments.state(state.id).rounds) == 1
    assert services.advance_tournaments() == 1
    assert len(services.tournaments.state(state.id).rounds) == 2  # the first round's results, then the second
    _play_out(services, queued)
    assert services.tournaments.state(state.id).status == "running"
    services.advance_tournaments()
    state = services.tournaments.state(state.id)
    assert state.status == "finished" and len(state.rounds) == 2
    assert services.advance_tournaments() == 0


def test_a_moderators_void_moves_every_standing_of_the_players_tournaments(monkeypatch):
    """The cheat won its game; voided by a moderator, it scores nothing and its table-mate moves
    up; the void undone, the standings are as they were."""
    from api.tournaments import decider
    from api.tournaments import service as tournaments_service

    services, _ = _graph()
    creator, _ = services.players.create("organiser")
    cheat, _ = services.players.create("cheat")
    start = int(time.time() * 1000) + 3_600_000
    state = services.tournaments.create({"type": "splendor", "format": "swiss", "rounds": 1, "start": start,
                                         "entrants": [{"bot": "random"}]}, creator)
    services.tournaments.join(state.id, cheat)
    monkeypatch.setattr(tournaments_service, "_now", lambda: start + 1000)
    state = services.tournaments.advance(state.id)
    assert state.rounds[0].tables[0].game_id
    won = {f"player:{cheat.id}": 1, "bot:random": 2}
    services.tournaments.act(state.id, lambda s: decider.Command("result", start + 2000, round=1, table=1,
                                                                 places=won))
    state = services.tournaments.advance(state.id)
    assert state.status == "finished"
    before = {r["entrant"]: r["points"] for r in services.tournaments.shown(state)["standings"]}
    assert before == {f"player:{cheat.id}": 2.0, "bot:random": 0.0}
    services.moderation.act("void", cheat.id, "a-moderator", "engine")
    rows = services.tournaments.shown(services.tournaments.state(state.id))["standings"]
    assert {r["entrant"]: r["points"] for r in rows} == {"bot:random": 2.0, f"player:{cheat.id}": 0.0}
    assert rows[-1]["voided"] and rows[0]["entrant"] == "bot:random"
    services.moderation.act("unvoid", cheat.id, "a-moderator", "appeal")
    after = services.tournaments.shown(services.tournaments.state(state.id))["standings"]
    assert {r["entrant"]: r["points"] for r in after} == before


def test_an_all_bot_arena_pairs_whoever_is_idle_until_its_time_is_up(monkeypatch):
    """An arena of 5 bots for 60 s (the clock moved by hand): each game's end pairs the idle bots
    again, never straight back against the one just played while others wait; after the time,
    the games under way end and the arena finishes."""
    from api.tournaments import service as tournaments_service

    services, queued = _graph()
    creator, _ = services.players.create("organiser")
    now = [int(time.time() * 1000)]
    monkeypatch.setattr(tournaments_service, "_now", lambda: now[0])
    state = services.tournaments.create({"type": "splendor", "format": "arena", "duration_s": 60,
                                         "entrants": [{"bot": "random"}] * 4 + [{"bot": "greedy"}]}, creator)
    for _ in range(5):  # ten seconds at a time, 300 bot turns in each
        now[0] += 10_000
        for _ in range(300):
            if queued:
                play_turn(services.service, *queued.pop(0))
    assert services.tournaments.state(state.id).status == "running"
    now[0] += 20_000  # the time is up: the games under way end, nothing more is paired
    _play_out(services, queued)
    services.advance_tournaments()
    state = services.tournaments.state(state.id)
    assert state.status == "finished" and len(state.rounds) >= 4
    events = services.tournaments.events(state.id)
    assert oracle.check(events) == [] and all(r["inputs"] and r["tables"] for r in verify(events))
