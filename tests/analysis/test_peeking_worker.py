"""The peeking detector fed by the real analysis workers (issue 50): a finished game a player sat
in queues `jobs.peek` on the analysis queue at its end (no request needed), an analysis worker
process runs it, and the player's decisions' evidence is kept as moderation events, never in the
game's history. A search of a few iterations (PEEKING_ITERATIONS=3)."""

from __future__ import annotations

import pytest

from tests.analysis.helpers import person_game
from tests.conftest import running_workers, wait_for

ITERATIONS = 3


@pytest.fixture(scope="module")
def analysts(redis_url, session_prefix, workers):
    """One analysis worker on the session's analysis queue, beside the session's turn workers."""
    with running_workers(
        redis_url, session_prefix, modes=("analysis",), env={"PEEKING_ITERATIONS": str(ITERATIONS)}
    ) as w:
        yield w


def test_a_finished_game_s_evidence_is_computed_by_an_analysis_worker(client, app, analysts):
    gid, ann, decided = person_game(client, "splendor", seed=23)
    assert decided, "the person made no decision"
    history = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    peeking = app.extensions["moderation"].peeking

    def recorded():
        found = [d for d in peeking.decisions() if d.game == gid]
        return found or None

    found = wait_for(recorded, timeout=120, interval=0.2)
    assert {d.identity for d in found} == {f"player:{ann['id']}"}  # the bots' seats are not judged
    assert {d.version for d in found} <= set(decided) and all(d.moves >= 2 for d in found)
    assert peeking.record(gid) == "already"  # written once
    assert client.get(f"/games/{gid}/events?limit=1000").get_json()["events"] == history  # not in its history
