"""An all-bot tournament runs to its end through the real workers (issue 52): the web process
pairs its first round and makes the games, the RQ workers play the bots' turns, each game's end
(appended by a worker) reports its table's result through the listeners, and the next round is
paired and made there, until the tournament is finished. Its history recomputes and agrees with
the oracle."""
from __future__ import annotations

import orjson

from api.tournaments.verify import verify
from tests.api.helpers import auth
from tests.conftest import wait_for
from tests.lobby.helpers import player
from tests.tournaments import oracle


def test_an_all_bot_swiss_runs_to_its_end_through_the_workers(workers, client):
    ann = player(client, "Organiser")
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2, "rated": False,
                                          "entrants": [{"bot": "random"}] * 3 + [{"bot": "greedy"}]},
                    headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    wait_for(lambda: client.get(f"/tournaments/{tid}").get_json()["status"] == "finished", timeout=180)
    shown = client.get(f"/tournaments/{tid}").get_json()
    assert len(shown["rounds"]) == 2 and all(t.get("places") for r in shown["rounds"] for t in r["tables"])
    for table in shown["rounds"][1]["tables"]:
        assert client.get(f"/games/{table['game_id']}").get_json()["status"] == "finished"
    events = [orjson.loads(line) for line in client.get(f"/tournaments/{tid}/events").data.splitlines()]
    assert events[-1]["type"] == "tournament_finished" and events[-1]["standings"] == shown["standings"]
    assert oracle.check(events) == [] and all(v["inputs"] and v["tables"] for v in verify(events))
