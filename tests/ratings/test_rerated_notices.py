"""A re-rating after a moderator's void (issue 50): each affected player hears of its own rating
on its stream, in a push message, and nothing about who was voided. In memory (fakeredis, a
finished log of the test's own)."""
from __future__ import annotations

import json

import pytest

from api.moderation.service import Moderation
from api.push import messages as push_messages
from api.ratings.ledger import Ledger
from tests import fakes
from tests.api.spec import validate_named
from tests.ratings.test_seasons import DEC, FinishedLog, game

pytestmark = pytest.mark.unit


class NoAddresses:
    pass


def test_a_void_pushes_each_rerated_player_its_own_change_and_never_who_was_voided():
    services = fakes.services()
    players = services.players
    (ann, _), (bob, _), (cheat, _) = (players.create(n) for n in ("Ann", "Bob", "Cheat"))
    entries = [game(DEC, ann.id, bob.id), game(DEC + 1, cheat.id, ann.id), game(DEC + 2, cheat.id, bob.id)]
    queued: list[list[str]] = []
    webhooks: list[tuple[list, dict]] = []
    ledger = Ledger(players.redis, "m:")
    moderation = Moderation(players.redis, "m:", ledger, players, FinishedLog(entries), NoAddresses(),
                            lambda: ["splendor"], ("mod",), pushed=queued.append,
                            rating_changed=lambda told, event, places: webhooks.append((told, event)))
    ledger.catch_up(FinishedLog(entries), tell=False)
    done = moderation.act("void", cheat.id, "mod", "farming")
    assert {c["identity"] for c in done["rerated"]} == {f"player:{p.id}" for p in (ann, bob, cheat)}
    assert queued == [sorted([ann.id, bob.id, cheat.id])]  # one push job each (the voided one hears too)
    told = {t["player"]: t for t in webhooks[0][0]}
    assert webhooks[0][1]["type"] == "player_voided" and set(told) == {ann.id, bob.id, cheat.id}
    for who in (ann, bob):
        notices = [e for _, e in players.inbox_after(who.id, "0-0") if e["type"] == "rerated"]
        assert len(notices) == 1 and push_messages.pushed(notices[0])
        for lang, words in (("en", "moderator"), ("ko", "모더레이터")):
            body = json.loads(push_messages.payload(notices[0], lang))
            assert words in body["body"] and body["url"] == "/leaderboard/splendor" and body["title"]
            validate_named("PushMessage", body)
            assert str(notices[0]["after"]) in body["body"]
            shown = json.dumps(body, ensure_ascii=False)
            assert cheat.id not in shown and "Cheat" not in shown  # who was voided is the moderators' to know
        headers = push_messages.headers(notices[0], 60)
        assert headers["Urgency"] == "normal"
        assert headers["Topic"] == push_messages.topic({"type": "rerated", "game_type": "splendor", "at": 1})
    # the undo tells them again
    moderation.act("unvoid", cheat.id, "mod", "appeal upheld")
    assert len(queued) == 2 and webhooks[1][1]["type"] == "player_unvoided"

