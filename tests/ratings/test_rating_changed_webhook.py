"""A void's `rating.changed` webhook (issue 50): each re-rated player's own "mine" subscriptions
that ask for it get one message per moderator's action, in order, signed and sent as a game's
messages are (the webhook worker's drain, its leases and progress in Redis), never saying who
was voided. Against the session's Redis; the receiver is the test's."""
from __future__ import annotations

import json
import uuid

import redis

from api.moderation.service import Moderation
from api.ratings.ledger import Ledger
from tests import fakes
from tests.api.spec import validate_named
from tests.ratings.test_rerated_notices import NoAddresses
from tests.ratings.test_seasons import DEC, FinishedLog, game


class Receiver:
    """The webhook worker's connections, answering 2xx and keeping what was posted."""

    def __init__(self):
        self.posted = []

    def post(self, url, body, headers):
        from api.webhooks.sender import Outcome

        self.posted.append((url, json.loads(body), headers))
        return Outcome(True, 204, 3)


def test_a_void_sends_rating_changed_to_the_rerated_players_own_subscriptions_in_order(redis_url):
    import time

    from api.webhooks.messages import rating_stream
    from api.webhooks.subscriptions import MINE, Subscription

    prefix = f"rc{uuid.uuid4().hex[:6]}:"
    services = fakes.services(redis=redis.Redis.from_url(redis_url), key_prefix=prefix,
                              webhook_queue=f"{prefix}webhooks")
    players, deliveries = services.players, services.deliveries
    (ann, _), (bob, _), (cheat, _) = (players.create(n) for n in ("Ann", "Bob", "Cheat"))
    entries = [game(DEC, ann.id, bob.id), game(DEC + 1, cheat.id, ann.id), game(DEC + 2, cheat.id, bob.id)]
    ledger = Ledger(players.redis, prefix)
    moderation = Moderation(players.redis, prefix, ledger, players, FinishedLog(entries), NoAddresses(),
                            lambda: ["splendor"], ("mod",), rating_changed=deliveries.rating_changed)
    deliveries.rating_log = moderation.rating_log  # as wiring.py does
    queued = []
    deliveries.ensure = lambda sub_id, stream, repair=False: queued.append((sub_id, stream)) or True
    receiver = Receiver()
    deliveries.connections = lambda: receiver
    now = int(time.time() * 1000)

    def subscribe(owner, events, games=MINE):
        sub = Subscription(deliveries.subs.new_id(), owner, "https://hooks.example/x", events, games, None,
                           "whsec_" + "A" * 32, now)
        assert deliveries.subs.add(sub, {}, 10)
        return sub

    asked = subscribe(f"player:{ann.id}", ["game.rated", "rating.changed"])
    subscribe(f"player:{ann.id}", ["game.rated"])  # does not ask for it
    subscribe(f"player:{bob.id}", ["rating.changed"], games=["g-some"])  # not "mine": its games only
    ledger.catch_up(FinishedLog(entries), tell=False)
    moderation.act("void", cheat.id, "mod", "farming")
    assert queued == [(asked.id, rating_stream(ann.id))]  # Ann's one subscription that asked; nobody else's
    assert deliveries.deliver(asked.id, rating_stream(ann.id)) == "caught_up"
    moderation.act("unvoid", cheat.id, "mod", "appeal upheld")
    assert deliveries.deliver(asked.id, rating_stream(ann.id)) == "caught_up"
    assert deliveries.deliver(asked.id, rating_stream(ann.id)) == "caught_up"  # nothing more: sent once
    bodies = [body for _, body, _ in receiver.posted]
    assert [b["data"]["reason"] for b in bodies] == ["player_voided", "player_unvoided"]
    assert [h["webhook-id"] for _, _, h in receiver.posted] == \
        [f"~rating.{ann.id}.1.rating.changed", f"~rating.{ann.id}.2.rating.changed"]
    first = bodies[0]["data"]
    assert first["player"] == ann.id and [c["game_type"] for c in first["changes"]] == ["splendor"]
    assert first["changes"][0]["after"] == ledger.game_changes(entries[0]["id"])[0]["after"]  # only Ann's game left
    for body in bodies:
        validate_named("WebhookRatingChanged", body)
        assert cheat.id not in json.dumps(body) and "Cheat" not in json.dumps(body)  # never who was voided
