"""Abandoned games end (issue 14): under `python app.py` with ABANDON_AFTER=3, a game nobody
moves in is ended by the system (`game_abandoned`, status and result `abandoned`), leaves the
sets of unfinished games, reveals its seed, and refuses moves; a game being played is kept.
Before: abandoned games stayed in `games:active` for ever and the reconciler read them all."""
from __future__ import annotations

import time
import uuid

import pytest
import requests

from tests.api.spec import check_response
from tests.conftest import wait_for
from tests.robustness.helpers import auth, create, post_move, read, tokens
from tests.robustness.servers import ApiServer

# The tier (tests/tiers.py): `short_lived` starts `python app.py`.
pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def short_lived(redis_url, tmp_path_factory):
    api = ApiServer(redis_url, f"aband{uuid.uuid4().hex[:6]}:", tmp_path_factory.mktemp("abandon"),
                    ABANDON_AFTER=3, RECONCILE_INTERVAL=0.3,
                    WEBHOOK_WORKERS=0, ANALYSIS_WORKERS=0).start()  # neither is looked at here (issue 48)
    yield api
    api.stop()


def test_a_game_nobody_moves_in_is_abandoned_and_a_played_one_is_not(short_lived, redis_client):
    base = short_lived.base
    idle = create(base, "high-card", [{"name": "A"}, {"name": "B"}])
    played = create(base, "high-card", [{"name": "A"}, {"name": "B"}])
    prefix = short_lived.env["KEY_PREFIX"]
    deadline, played_then = time.monotonic() + 20, None
    while time.monotonic() < deadline:  # keep one game moving: a bid from each seat, round after round
        read(base, played["id"])
        for seat, token in tokens(played).items():
            moves = requests.get(f"{base}/games/{played['id']}/moves", headers=auth(token), timeout=10).json()
            if moves["moves"]:
                post_move(base, played["id"], token, moves["moves"][0], moves["version"])
        if read(base, idle["id"])["status"] == "abandoned":
            # the played game as it is when the idle one is found abandoned, just after its last
            # move: read later, with nobody moving in it, it would be abandoned in its turn (a
            # loaded host's checks below take longer than ABANDON_AFTER)
            played_then = read(base, played["id"])["status"]
            break
        time.sleep(0.3)
    assert played_then in ("active", "finished")
    over = wait_for(lambda: (g := read(base, idle["id"]))["status"] == "abandoned" and g, timeout=10)
    check_response("GET", f"/games/{idle['id']}", 200, "application/json", over)
    assert over["result"]["outcome"] == "abandoned" and over["to_act"] == []
    assert over["fairness"]["seed"] is not None  # over: the seed is revealed
    history = requests.get(f"{base}/games/{idle['id']}/events", timeout=10).json()
    check_response("GET", f"/games/{idle['id']}/events", 200, "application/json", history)
    assert (history["events"][-1]["type"], history["events"][-1]["actor"]) == ("game_abandoned", "system")
    refused = post_move(base, idle["id"], tokens(idle)[0], {"type": "bid", "chips": 1}, over["version"])
    assert refused.status_code == 422 and refused.json()["code"] == "game_over"
    idle_set = {g.decode() for g in redis_client.zrange(f"{prefix}games:idle", 0, -1)}
    assert idle["id"] not in idle_set
