"""A player's inbox is bounded in time as well as in count (issue 49, item 16): every writer
(the feed, the ratings' notices, matchmaking, clock warnings) goes through Players.write_inbox,
which trims notices older than INBOX_KEPT_S and has the whole inbox expire that long after its
last notice (an inactive player's inbox no longer stays in Redis for good)."""
from __future__ import annotations

import time
import uuid

from api.players.accounts import INBOX_KEPT_S, Players
from events import codec
from tests.conftest import wait_for
from tests.lobby.helpers import claim, open_game, player


def test_notices_older_than_a_week_are_trimmed_and_the_inbox_expires(redis_client):
    players = Players(redis_client, f"ib{uuid.uuid4().hex[:6]}:")
    key = players.inbox_key("p1")
    now = int(time.time() * 1000)
    old = now - INBOX_KEPT_S * 1000 - 60_000
    for i in range(5):  # a week and a minute ago: as left by a player who stopped playing
        redis_client.xadd(key, {"e": codec.dumps_bytes({"type": "your_turn", "n": i})}, id=f"{old + i}-0")
    redis_client.xadd(key, {"e": codec.dumps_bytes({"type": "your_turn", "n": 5})}, id=f"{now - 1000}-0")
    players.write_inbox(redis_client, "p1", {"type": "game_finished", "n": 6})
    assert [e["n"] for _, e in players.inbox_after("p1", "0-0")] == [5, 6]
    assert 0 < redis_client.ttl(key) <= INBOX_KEPT_S


def test_every_notice_is_written_with_its_time(redis_client):
    """Issue 54's nullable audit: a notice's `at` (Notice.at, PushMessage.at) is never null; a
    writer that gives none gets the time it was written, one that gives its own keeps it."""
    players = Players(redis_client, f"ib{uuid.uuid4().hex[:6]}:")
    players.write_inbox(redis_client, "p1", {"type": "game_finished", "at": None}, now_ms=1_000)
    players.write_inbox(redis_client, "p1", {"type": "game_started", "at": 7})
    assert [e["at"] for _, e in players.inbox_after("p1", "0-0")] == [1_000, 7]


def test_the_feed_writes_inboxes_that_expire(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    claim(client, gid, 1, bob["key"])
    players = app.extensions["players"]
    for who in (ann, bob):
        wait_for(lambda who=who: players.inbox_after(who["id"], "0-0"))  # written after the answer
        assert 0 < players.redis.ttl(players.inbox_key(who["id"])) <= INBOX_KEPT_S
