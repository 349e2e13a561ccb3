"""Labels on demand (issue 57): `?labels=false` answers the legal moves without their words,
compactly (a move's answer with `include=next_moves` under 8 KB in every game); asking for
them (`labels=true`, and for now the default) gives exactly the labels the answers carried."""
from __future__ import annotations

import json
import uuid

import pytest

from tests.api.helpers import auth

BUDGET = 8 * 1024
GAMES = ["splendor", "setup", "smallworld-of-warcraft", "witches", "fairy-tile"]


@pytest.fixture(scope="module")
def client(redis_url):
    from app import create_app

    prefix = f"lb{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "DEFER_AFTER_APPEND": False}).test_client()


def _game(client, game_type):
    from domain import registry

    seats = max(2, registry.get(game_type).min_seats)
    r = client.post("/games", json={"type": game_type, "seats": [{"name": f"P{i}"} for i in range(seats)], "seed": 7})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


@pytest.mark.parametrize("game_type", GAMES)
def test_asking_for_labels_gives_todays_labels_and_the_bare_answer_has_none(client, game_type):
    game = _game(client, game_type)
    gid, token = game["id"], auth(game["table_token"])
    seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
    for lang in ("en", "ko"):
        default = client.get(f"/games/{gid}/moves?seat={seat}&lang={lang}", headers=token)
        asked = client.get(f"/games/{gid}/moves?seat={seat}&lang={lang}&labels=true", headers=token)
        bare = client.get(f"/games/{gid}/moves?seat={seat}&lang={lang}&labels=false", headers=token)
        assert default.get_json() == asked.get_json() and asked.get_json()["labels"]
        assert "labels" not in bare.get_json()
        assert bare.get_json()["moves"] == asked.get_json()["moves"]
        assert bare.headers["ETag"] != asked.headers["ETag"]  # one 304 never answers the other


@pytest.mark.parametrize("game_type", GAMES)
def test_a_bare_moves_answer_stays_under_its_budget_and_labels_are_as_asked(client, game_type):
    """Moves played along each answer's first next move, each answer with `labels=false` under
    8 KB; the same move sent (at the same version, in a twin game of the same seed) with
    `labels=true` carries the labels GET /moves gives."""
    bare_game, worded_game = _game(client, game_type), _game(client, game_type)
    seat = client.get(f"/games/{bare_game['id']}").get_json()["to_act"][0]
    nxt = client.get(f"/games/{bare_game['id']}/moves?seat={seat}", headers=auth(bare_game["table_token"])).get_json()
    largest = played = 0
    for _ in range(12):
        if nxt is None or not nxt["moves"]:
            break
        sent = {"expected_version": nxt["version"], "move": nxt["moves"][0]}
        q = f"?seat={nxt['seat']}&include=next_moves"
        bare = client.post(f"/games/{bare_game['id']}/moves{q}&labels=false",
                           headers=auth(bare_game["table_token"]), json=sent)
        worded = client.post(f"/games/{worded_game['id']}/moves{q}&labels=true",
                             headers=auth(worded_game["table_token"]), json=sent)
        assert bare.status_code == worded.status_code == 201, (bare.get_json(), worded.get_json())
        largest, played = max(largest, len(bare.data)), played + 1
        nxt, said = bare.get_json()["next_moves"], worded.get_json()["next_moves"]
        if nxt is None:
            break
        assert "labels" not in nxt and said["labels"]
        assert said["moves"][:len(nxt["moves"])] == nxt["moves"] and nxt["total"] == said["total"]
        listed = client.get(f"/games/{worded_game['id']}/moves?seat={said['seat']}&labels=true",
                            headers=auth(worded_game["table_token"])).get_json()
        assert said["labels"] == listed["labels"][:len(said["labels"])]
    assert played >= 1
    print(game_type, "largest bare answer", largest, "bytes over", played, "moves")
    assert largest < BUDGET, f"{game_type}: {largest} bytes"


def test_labels_takes_true_or_false_only(client):
    game = _game(client, "splendor")
    r = client.get(f"/games/{game['id']}/moves?labels=maybe", headers=auth(game["table_token"]))
    assert r.status_code == 400 and r.get_json()["code"] == "validation_error"
    r = client.post(f"/games/{game['id']}/moves?include=next_moves&labels=maybe", headers=auth(game["table_token"]),
                    json={"expected_version": 1, "move": {}})
    assert r.status_code == 400 and r.get_json()["code"] == "validation_error"
    assert json.dumps(r.get_json())
