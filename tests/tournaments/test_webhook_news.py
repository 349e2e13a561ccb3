"""A player's news for its webhooks (issues 52 and 53; api/webhooks/news.py): its tournaments'
`tournament.*`, its challenges' `challenge.received` / `challenge.answered`, the direct messages
sent to it (`chat.direct_message`, only with the `social` scope): written only for a player whose
"mine" subscriptions ask for them, delivered in order under `~news.<player>`, each body as the
spec's webhooks say, and never a token, a spectators' or a game's chat."""

from __future__ import annotations

import json
import uuid

import pytest

from api.tournaments import news
from api.tournaments.decider import Command, decide, rules_from
from api.tournaments.state import fold
from tests.api.helpers import auth
from tests.api.spec import validate_named
from tests.apps import redis_app, spec_client
from tests.conftest import settled, wait_for
from tests.lobby.helpers import claim, player

SCHEMAS = {"tournament": "WebhookTournament", "challenge": "WebhookChallenge", "chat": "WebhookDirectMessage"}


def test_a_tournaments_history_tells_started_round_paired_once_linked_withdrawn_and_finished():
    rules = rules_from({"type": "splendor", "format": "swiss", "rounds": 1}, 2, 4, 0)
    state = fold(decide(fold([]), Command("create", 1, by="org", id="t1", rules=rules)))
    for who in ("player:ann", "player:bob", "bot:greedy"):
        state = fold(decide(state, Command("enter", 2, entrant=who, name=who)), state)
    before = state
    events = decide(state, Command("pair", 3, seed="s"))
    state = fold(events, state)
    told = news.news(before, events, state)
    assert [k for _, k, _ in told] == ["tournament.started"]  # round_paired waits for the games
    assert told[0][0] == ["ann", "bob", "org"]  # the player entrants and the creator, never a bot
    tables = state.rounds[0].tables
    for k, _ in enumerate(tables, 1):
        before = state
        events = decide(state, Command("link", 4, round=1, table=k, game_id=f"g{k}"))
        state = fold(events, state)
        told = news.news(before, events, state)
        if k < len(tables):
            assert told == []
    assert [k for _, k, _ in told] == ["tournament.round_paired"]
    data = told[0][2]
    assert data["tables"][0]["game_id"] == "g1" and data["round"] == 1 and "token" not in json.dumps(data)
    left = "player:ann"
    before = state
    events = decide(state, Command("withdraw", 5, entrant=left, reason="player"))
    state = fold(events, state)
    assert [(k, d["entrant"], d["reason"]) for _, k, d in news.news(before, events, state)] == [
        ("tournament.player_withdrawn", left, "player")
    ]
    before = state
    events = decide(state, Command("finish", 6))
    state = fold(events, state)
    ((_, kind, data),) = news.news(before, events, state)
    assert kind == "tournament.finished" and data["standings"] == events[0]["standings"]
    validate_named("WebhookTournament", {"type": kind, "timestamp": "2026-12-06T00:00:00Z", "data": data})


# ---- through the API, the session's Redis ---------------------------------------------------------
@pytest.fixture(scope="module")
def app(redis_url):
    prefix = f"twn{uuid.uuid4().hex[:6]}:"
    return redis_app(redis_url, prefix, WEBHOOK_QUEUE=f"{prefix}webhooks", WEBHOOK_ALLOW_LOOPBACK="1")


@pytest.fixture
def client(app):
    return spec_client(app)


class Receiver:
    """The webhook worker's connections, answering 2xx and keeping what was posted."""

    def __init__(self):
        self.posted = []

    def post(self, url, body, headers):
        from api.webhooks.sender import Outcome

        self.posted.append((json.loads(body), headers))
        return Outcome(True, 204, 3)

    def close(self):
        pass


def _hook(client, key, events, games="mine"):
    return client.post(
        "/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": events, "games": games}, headers=auth(key)
    )


def _token(client, key, scopes):
    r = client.post("/players/me/tokens", json={"name": "hook", "scopes": scopes}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


def _delivered(app, sub_id, player_id):
    news_of = app.extensions["tournaments"].told.__self__
    deliveries = news_of.ensure.__self__
    receiver = Receiver()
    deliveries.connections = lambda: receiver
    assert deliveries.deliver(sub_id, f"~news.{player_id}") == "caught_up"
    for body, headers in receiver.posted:
        validate_named(SCHEMAS[body["type"].split(".")[0]], body)
        assert headers["webhook-id"].startswith(f"~news.{player_id}.")
    return [body for body, _ in receiver.posted]


def test_the_social_kinds_need_the_social_scope_and_news_needs_mine(client):
    ann = player(client, "Ann")
    bare = _token(client, ann["key"], ["webhooks", "game:read"])
    r = _hook(client, bare, ["chat.direct_message"])
    assert r.status_code == 403 and r.get_json()["code"] == "insufficient_scope"
    assert r.get_json()["details"]["missing"] == ["social"]
    assert _hook(client, bare, ["tournament.finished"]).status_code == 201  # no social news: no social scope
    social = _token(client, ann["key"], ["webhooks", "game:read", "social"])
    assert _hook(client, social, ["challenge.received", "chat.direct_message"]).status_code == 201
    made = client.post(
        "/games", json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]}, headers=auth(ann["key"])
    )
    assert made.status_code == 201, made.get_json()
    r = _hook(client, ann["key"], ["game.move", "tournament.started"], games=[made.get_json()["id"]])
    assert r.status_code == 422 and r.get_json()["code"] == "player_required"


def test_a_tournament_tells_its_creators_webhooks_with_game_ids_and_no_token(app, client):
    ann = player(client, "Ann")
    r = _hook(
        client,
        ann["key"],
        ["tournament.started", "tournament.round_paired", "tournament.finished", "tournament.player_withdrawn"],
    )
    assert r.status_code == 201, r.get_json()
    sub = r.get_json()["id"]
    r = client.post(
        "/tournaments",
        json={"type": "splendor", "format": "swiss", "rounds": 2, "entrants": [{"bot": "random"}] * 4},
        headers=auth(ann["key"]),
    )
    assert r.status_code == 201
    made = r.get_json()
    bodies = _delivered(app, sub, ann["id"])
    assert [b["type"] for b in bodies] == ["tournament.started", "tournament.round_paired"]
    paired = bodies[1]["data"]
    assert paired["tournament_id"] == made["id"] and paired["round"] == 1
    assert [t["game_id"] for t in paired["tables"]] == [t["game_id"] for t in made["rounds"][0]["tables"]]
    assert all(t["game_id"] for t in paired["tables"]) and "token" not in json.dumps(bodies)
    assert _delivered(app, sub, ann["id"]) == []  # sent once


def test_challenges_and_direct_messages_reach_only_the_players_own_social_webhooks(app, client):
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    for one in (ann, bob):
        for other in (ann, bob):
            if one is not other:
                client.post(f"/players/{other['id']}/follow", headers=auth(one["key"]))
    kinds = ["challenge.received", "challenge.answered", "chat.direct_message"]
    ann_sub = _hook(client, ann["key"], kinds).get_json()["id"]
    bob_sub = _hook(client, bob["key"], kinds).get_json()["id"]
    cat_sub = _hook(client, cat["key"], kinds).get_json()["id"]
    r = client.post(f"/players/{ann['id']}/challenge", json={"type": "splendor"}, headers=auth(bob["key"]))
    assert r.status_code == 201, r.get_json()
    game_id = r.get_json()["id"]
    r = client.post(f"/players/me/messages/{ann['id']}", json={"text": "good luck"}, headers=auth(bob["key"]))
    assert r.status_code == 201, r.get_json()
    got = _delivered(app, ann_sub, ann["id"])
    assert [b["type"] for b in got] == ["challenge.received", "chat.direct_message"]
    assert got[0]["data"]["game_id"] == game_id and got[0]["data"]["by"] == {"id": bob["id"], "name": "Bob"}
    assert got[1]["data"]["message"]["text"] == "good luck" and got[1]["data"]["from"]["id"] == bob["id"]
    assert claim(client, game_id, 1, ann["key"]).status_code == 201
    wait_for(
        lambda: app.extensions["tournaments"].told.__self__.log(bob["id"], 1)
    )  # the listeners run after the answer
    answered = _delivered(app, bob_sub, bob["id"])
    assert [(b["type"], b["data"]["answer"]) for b in answered] == [("challenge.answered", "accepted")]
    assert _delivered(app, bob_sub, bob["id"]) == []  # answered once
    # A game's chat is never news: the table's, Ann's, reaches Bob's stream but no webhook.
    assert client.post(f"/games/{game_id}/chat", json={"text": "gl hf"}, headers=auth(ann["key"])).status_code == 201
    assert _delivered(app, bob_sub, bob["id"]) == []
    assert app.extensions["tournaments"].told.__self__.log(cat["id"], 1) == []  # nothing for anyone else
    assert cat_sub


def test_a_declined_challenge_is_answered_declined_once(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    sub = _hook(client, bob["key"], ["challenge.answered"]).get_json()["id"]
    game_id = client.post(f"/players/{ann['id']}/challenge", json={"type": "splendor"}, headers=auth(bob["key"])).get_json()["id"]
    assert client.post(f"/games/{game_id}/decline", headers=auth(ann["key"])).status_code == 204
    answered = _delivered(app, sub, bob["id"])
    assert [(b["type"], b["data"]["answer"], b["data"]["player"]) for b in answered] == [("challenge.answered", "declined", ann["id"])]
    wait_for(lambda: client.get(f"/games/{game_id}").get_json()["status"] == "aborted")
    settled(app)  # the abort's listeners have run (after the answer): what they would tell is told by now
    assert _delivered(app, sub, bob["id"]) == []  # the aborted game answers nothing more


class Failing(Receiver):
    def post(self, url, body, headers):
        from api.webhooks.sender import Outcome

        self.posted.append((json.loads(body), headers))
        return Outcome(False, 500, 3, error="http 500")


def test_a_failed_news_delivery_is_retried_as_a_games_is(app, client, monkeypatch):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    for one, other in ((ann, bob), (bob, ann)):
        client.post(f"/players/{other['id']}/follow", headers=auth(one["key"]))
    sub = _hook(client, ann["key"], ["chat.direct_message"]).get_json()["id"]
    r = client.post(f"/players/me/messages/{ann['id']}", json={"text": "again?"}, headers=auth(bob["key"]))
    assert r.status_code == 201, r.get_json()
    deliveries = app.extensions["tournaments"].told.__self__.ensure.__self__
    stream, down = f"~news.{ann['id']}", Failing()
    monkeypatch.setattr(deliveries, "connections", lambda: down)
    assert deliveries.deliver(sub, stream) == "waiting"  # backing off now
    delivery = f"{stream}.1.chat.direct_message"
    attempts = client.get(f"/webhooks/{sub}/deliveries", headers=auth(ann["key"])).get_json()["deliveries"]
    assert [(a["delivery"], a["status"]) for a in attempts] == [(delivery, "failed")]
    r = client.post(f"/webhooks/{sub}/deliveries/{delivery}/retry", headers=auth(ann["key"]))
    assert r.status_code == 202 and r.get_json() == {"delivery": delivery, "status": "queued"}
    (sent,) = _delivered(app, sub, ann["id"])  # tried now, not after its back-off
    assert sent["data"]["message"]["text"] == "again?" and sent == down.posted[0][0]
    # Delivered already: sent once more, under the same id, on request.
    r = client.post(f"/webhooks/{sub}/deliveries/{delivery}/retry", headers=auth(ann["key"]))
    assert r.status_code == 202
    up = Receiver()
    monkeypatch.setattr(deliveries, "_new_connections", lambda **_: up)
    assert deliveries.redeliver_now(sub, delivery) == "delivered"
    assert [(b, h["webhook-id"]) for b, h in up.posted] == [(sent, delivery)]
    shown = client.get(f"/webhooks/{sub}/deliveries", headers=auth(ann["key"])).get_json()["deliveries"]
    assert sorted(a["status"] for a in shown) == ["delivered", "delivered", "failed"]
    # What is no delivery of this webhook's answers 404, as a game's.
    for other in (f"{stream}.2.chat.direct_message", f"{stream}.1.challenge.received",
                  f"~news.{bob['id']}.1.chat.direct_message", f"{stream}.0.chat.direct_message"):
        r = client.post(f"/webhooks/{sub}/deliveries/{other}/retry", headers=auth(ann["key"]))
        assert r.status_code == 404 and r.get_json()["code"] == "unknown_delivery", other
