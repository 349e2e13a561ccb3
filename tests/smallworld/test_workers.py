"""4- and 5-seat Small World games of bots, team and free-for-all, play to the end through
real RQ worker processes."""
import pytest

from tests.api.helpers import create, read
from tests.conftest import wait_for


@pytest.mark.parametrize("n,options", [(4, {}), (5, {}), (4, {"team": True}), (5, {"team": True, "team_score": "highest"})])
def test_bot_games_play_to_the_end_through_the_workers(client, workers, n, options):
    seats = [{"bot": "greedy" if s % 2 else "random"} for s in range(n)]
    created = create(client, "smallworld-of-warcraft", seats=seats, options=options)
    game = wait_for(lambda: (g := read(client, created["id"]))["status"] == "finished" and g, timeout=120)
    result = game["result"]
    assert result["reason"] == "last_round_scored" and result["winners"]
    assert ("teams" in result) == bool(options.get("team"))
    events = client.get(f"/games/{created['id']}/events?limit=1000").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
