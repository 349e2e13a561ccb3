"""A player's own caps (issue 49, item 7): before, one player key made 300 waiting games in 14 s
and filled the lobby's first page, and 100 addresses with a key each made 452 with no 429. Now a
player (whatever its keys and addresses, bot accounts too) creates at most PLAYER_CREATE_LIMIT
games a window (`429 rate_limited`, key `player_create`), keeps at most
MAX_WAITING_GAMES_PER_PLAYER games waiting for seats (`409 too_many_waiting_games`, racing
creations included), and a page of the lobby shows at most LOBBY_GAMES_PER_PLAYER of one
player's waiting games."""
from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest

from tests.api.helpers import auth
from tests.lobby.helpers import claim

WAITING_CAP = 3
CREATE_LIMIT = 12
PER_PAGE = 2
WAITING = [{"me": True}, {"open": True}]
FULL = [{"me": True}, {"bot": "random"}]


@pytest.fixture(scope="module")
def capped(redis_url):
    from app import create_app

    prefix = f"caps{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000, "DEFER_AFTER_APPEND": False,
                       "MAX_WAITING_GAMES_PER_PLAYER": WAITING_CAP, "PLAYER_CREATE_LIMIT": CREATE_LIMIT,
                       "PLAYER_CREATE_WINDOW_S": 600, "LOBBY_GAMES_PER_PLAYER": PER_PAGE})


@pytest.fixture
def client(capped):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(capped, capped.response_class, use_cookies=True)


def _player(client, name, bot=False):
    r = client.post("/players", json={"name": name, "bot": bot})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _create(client, key, seats=WAITING, address="127.0.0.1", **headers):
    return client.post("/games", json={"type": "splendor", "seats": seats}, headers={**auth(key), **headers},
                       environ_base={"REMOTE_ADDR": address})


@pytest.mark.parametrize("bot", [False, True], ids=["person", "bot account"])
def test_a_player_keeps_at_most_its_cap_of_waiting_games_whatever_its_keys(client, bot):
    ann, bob = _player(client, "Ann", bot), _player(client, "Bob")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()["key"]
    made = [_create(client, key) for key in (ann["key"], phone, ann["key"])]
    assert [r.status_code for r in made] == [201] * WAITING_CAP
    for key in (ann["key"], phone):  # another key of the player is the same player
        refused = _create(client, key)
        body = refused.get_json()
        assert refused.status_code == 409 and body["code"] == "too_many_waiting_games", body
        assert body["details"] == {"limit": WAITING_CAP}
    said = _create(client, phone, **{"Accept-Language": "ko"}).get_json()
    assert said["code"] == "too_many_waiting_games" and "기다리는 게임" in said["detail"]
    # A game that does not wait is no waiting game; another player has its own cap.
    assert _create(client, ann["key"], FULL).status_code == 201
    assert _create(client, bob["key"]).status_code == 201
    # One that starts, or ends unjoined, no longer counts.
    first, second = (r.get_json() for r in made[:2])
    assert claim(client, first["id"], 1, bob["key"]).status_code == 201
    assert _create(client, ann["key"]).status_code == 201
    assert _create(client, ann["key"]).status_code == 409
    games = client.application.extensions["games"]
    _end_unjoined(games, second["id"])
    assert _create(client, phone).status_code == 201
    assert _create(client, phone).status_code == 409


def _end_unjoined(games, game_id):
    """What the workers do to a game still waiting WAITING_TTL after its creation."""
    from api.platform.events import ABANDONED, abandoned_event
    from domain.contract import SYSTEM
    from events.store import NewEvent

    games.append_platform(games.load(game_id), [NewEvent(ABANDONED, abandoned_event(86400, "nobody came"), SYSTEM)])
    assert games.load(game_id).status != "waiting"


def test_racing_creations_never_pass_the_waiting_cap(capped):
    from tests.api.spec import SpecCheckingClient

    ann = _player(SpecCheckingClient(capped, capped.response_class), "Ann")
    codes: Counter = Counter()
    start = threading.Barrier(8)

    def create():
        client = SpecCheckingClient(capped, capped.response_class)
        start.wait()
        codes[_create(client, ann["key"]).status_code] += 1

    threads = [threading.Thread(target=create) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == Counter({201: WAITING_CAP, 409: 8 - WAITING_CAP})


def test_a_player_creates_at_most_its_budget_a_window_from_any_address_or_key(client):
    pat, other = _player(client, "Pat", bot=True), _player(client, "Quinn")
    tablet = client.post("/players/me/keys", json={"name": "tablet"}, headers=auth(pat["key"])).get_json()["key"]
    codes = [_create(client, (pat["key"], tablet)[i % 2], FULL, address=f"10.{i}.0.1").status_code
             for i in range(CREATE_LIMIT + 2)]
    assert codes == [201] * CREATE_LIMIT + [429] * 2
    refused = _create(client, pat["key"], FULL, address="10.99.0.1")
    body = refused.get_json()
    assert body["code"] == "rate_limited" and body["details"]["ratelimit"]["key"] == "player_create"
    assert refused.headers["RateLimit-Policy"] == f'"player_create";q={CREATE_LIMIT};w=600'
    assert 1 <= int(refused.headers["Retry-After"]) <= 600
    assert _create(client, other["key"], FULL, address="10.99.0.1").status_code == 201  # its own budget


def test_one_players_games_cannot_fill_a_page_of_the_lobby(client):
    flooder, ann = _player(client, "Flood"), _player(client, "Ann")
    mine = [_create(client, flooder["key"]).get_json()["id"] for _ in range(WAITING_CAP)]
    theirs = _create(client, ann["key"]).get_json()["id"]
    page = client.get("/games?status=waiting&limit=100").get_json()
    listed = [g["id"] for g in page["games"]]
    assert theirs in listed
    assert [g for g in listed if g in mine] == mine[::-1][:PER_PAGE]  # the flooder's newest two only
    per_player = Counter(s["player"]["id"] if isinstance(s.get("player"), dict) else s.get("player")
                         for g in page["games"] for s in g["seats"] if s.get("player"))
    assert max(per_player.values()) <= PER_PAGE, per_player
