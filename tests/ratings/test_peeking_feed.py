"""The peeking detector fed (issue 50): a finished hidden-information game's end queues its job on
the analysis queue (never the turns'), the job writes each player's decisions' evidence as
moderation events (never into the game's history), once however often it runs, and
GET /moderation/flags' source judges the evidence accumulated over the lookback. All in memory,
with a search of a few iterations (PEEKING_ITERATIONS=3)."""

from __future__ import annotations

import uuid

import pytest
from rq import Queue

from api.moderation import signals
from api.moderation.peeking import PeekingJobs
from tests import fakes
from workers.queueing import AnalysisQueue

ITERATIONS = 3


def _queued(graph) -> list[str]:
    """The games the service's listener queued the job of (fakeredis runs no RQ: a list here)."""
    listener = next(x for x in graph.service.listeners if isinstance(x, PeekingJobs))
    if not hasattr(graph, "_queued"):
        queued: list[str] = []
        listener.enqueue = queued.append
        object.__setattr__(graph, "_queued", queued)
    return graph._queued


@pytest.fixture
def graph():
    graph = fakes.services(peeking_iterations=ITERATIONS)
    _queued(graph)
    return graph


def _played_then_resigned(graph, a, b, moves=3):
    """A Splendor game (decks hidden) between players a and b: `moves` first legal moves each,
    then b resigns."""
    gid = graph.service.create("splendor", [{"name": a, "player": a}, {"name": b, "player": b}], {})["id"]
    for _ in range(2 * moves):
        game = graph.service.load(gid)
        seat = game.actors()[0]
        graph.service.move(gid, seat, graph.service.legal_moves(game, seat)[-1], game.version)
    graph.seat_control.resign(gid, 1)
    return gid


def _people(graph, *names):
    return [graph.players.create(n)[0].id for n in names]


def test_a_finished_game_of_players_queues_its_evidence_job_once(graph):
    a, b = _people(graph, "Ann", "Bo")
    gid = _played_then_resigned(graph, a, b)
    assert _queued(graph) == [gid]  # at its end, not at its moves
    bots = graph.service.create("splendor", [{"bot": "random"}, {"name": a, "player": a}], {})["id"]
    graph.seat_control.resign(bots, 1)  # a player sat there: judged (its decisions, if any)
    anonymous = graph.service.create("splendor", [{"name": "x"}, {"bot": "random"}], {})["id"]
    graph.seat_control.resign(anonymous, 0)  # nobody to flag: no job
    assert _queued(graph) == [gid, bots]


def test_no_evidence_is_gathered_with_peeking_iterations_0():
    graph = fakes.services(peeking_iterations=0)
    queued = _queued(graph)
    a, b = _people(graph, "Ann", "Bo")
    _played_then_resigned(graph, a, b, moves=1)
    assert queued == []


@pytest.mark.redis
def test_the_job_goes_on_the_analysis_queue_never_the_turns(redis_client):
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    queue = AnalysisQueue(redis_client, prefix, f"{prefix}analysis")
    assert queue.peek("g1") is True and queue.peek("g1") is False  # one job per game
    job = queue.queue.fetch_job(f"{prefix[:-1]}_peeking-g1")
    assert job.func_name == "jobs.peek" and job.args == (prefix, "g1")
    assert Queue(f"{prefix}turns", connection=redis_client).get_job_ids() == []
    queue.queue.delete(delete_jobs=True)


def test_the_job_records_each_players_decisions_once_as_moderation_events(graph):
    a, b = _people(graph, "Ann", "Bo")
    gid = _played_then_resigned(graph, a, b)
    history = [e.data for e in graph.store.read(gid)]
    assert graph.peeking.record(gid) == "recorded 6"
    assert graph.peeking.record(gid) == "already"  # a job run twice writes once
    assert [e.data for e in graph.store.read(gid)] == history  # never in the game's history
    found = graph.peeking.decisions()
    assert sorted({d.identity for d in found}) == sorted([f"player:{a}", f"player:{b}"])
    assert len(found) == 6 and {d.game for d in found} == {gid} and {d.type for d in found} == {"splendor"}
    for d in found:
        assert d.moves >= 2 and d.played.startswith("{")
        assert abs(sum(d.honest.values()) - 1) < 1e-9 and abs(sum(d.peeking.values()) - 1) < 1e-9


def test_a_flag_appears_once_the_accumulated_ratio_crosses_the_threshold_with_its_evidence(graph, monkeypatch):
    a, b, c = _people(graph, "Ann", "Bo", "Cy")
    first = _played_then_resigned(graph, a, b)
    second = _played_then_resigned(graph, a, c)
    for gid in (first, second):
        graph.peeking.record(gid)
    assert [f for f in graph.moderation.flags() if f["signal"] == "peeking"] == []  # 6 decisions: too few
    ratios = signals.peeking(graph.peeking.decisions())
    mine = ratios[f"player:{a}"]
    assert mine["decisions"] == 6 and mine["games"] == {first, second}
    monkeypatch.setattr(signals, "PEEK_MIN_DECISIONS", 6)  # a's six decisions are judged, the others' three not
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE", {})  # the thresholds exactly as set here
    monkeypatch.setattr(signals, "PEEK_ALLOWANCE_UNMEASURED", 0.0)
    monkeypatch.setattr(signals, "PEEK_WARN_LLR", mine["log_ratio"] - 1)
    monkeypatch.setattr(signals, "PEEK_FLAG_LLR", mine["log_ratio"])  # crossed exactly by a's sum
    flags = [f for f in graph.moderation.flags() if f["signal"] == "peeking"]
    assert [(f["level"], [p["id"] for p in f["players"]]) for f in flags] == [("flag", [a])]
    evidence = flags[0]
    assert evidence["games"] == sorted([first, second])
    assert evidence["figures"]["decisions"] == 6
    assert evidence["figures"]["log_likelihood_ratio"] == round(mine["log_ratio"], 3)
    assert evidence["figures"]["flag_at"] == round(mine["log_ratio"], 3)
    monkeypatch.setattr(signals, "PEEK_FLAG_LLR", mine["log_ratio"] + 1)  # not crossed: a warning only
    assert [f["level"] for f in graph.moderation.flags() if f["signal"] == "peeking"] == ["warning"]


def test_evidence_older_than_the_lookback_is_not_judged(graph):
    a, b = _people(graph, "Ann", "Bo")
    gid = _played_then_resigned(graph, a, b, moves=1)
    graph.peeking.record(gid)
    assert len(graph.peeking.decisions()) == 2
    later = 10**13  # far past the lookback
    assert graph.peeking.decisions(now_ms=later) == []


def test_a_move_and_a_resignation_in_one_millisecond_are_two_appends(graph):
    """A seat's move and its resignation right after, appended within one millisecond (as an
    in-memory store often does): the move is still the seat's decision, the resignation none.
    Before, the two were read as one append holding a platform event, and the move was lost."""
    from dataclasses import replace

    from api.analysis.decisions import people_decisions

    a, b = _people(graph, "Ann", "Bo")
    gid = _played_then_resigned(graph, a, b, moves=1)
    events = graph.store.read(gid)
    same_ms = [replace(e, at=events[-1].at) if e.version >= events[-2].version else e for e in events]
    decisions = [d for _, d in people_decisions(graph.service.load(gid), same_ms)]
    assert [(d.seat, [e["type"] for e in d.events]) for d in decisions] == [(0, ["card_reserved"]), (1, ["card_reserved"])]
