"""A player's news for its webhooks: what is not a game's event but concerns the player (issues
52 and 53): its tournaments' (`tournament.started`, `tournament.round_paired`,
`tournament.finished`, `tournament.player_withdrawn`), the challenges it receives and the answers
to those it sent (`challenge.received`, `challenge.answered`), and the direct messages sent to it
(`chat.direct_message`).

Like a player's re-ratings (`rating.changed`), they are delivered under a stream of the player's
own, `~news.<player id>`, to its `"games": "mine"` subscriptions that ask for the kind, in order,
at least once; a message's `webhook-id` is `~news.<player>.<n>.<kind>`, n its place in the
player's news. The news is written only for a player with such a subscription (a player without
one costs one read of its subscriptions), to a log of its own, `webhook-news:{<player>}` (a list
of the newest KEPT, and `...:n`, how many were ever written: the places), so Redis keeps no news
nobody will be told. The social kinds are delivered only to subscriptions made with a credential
holding the `social` scope (api/http/webhooks.py refuses the others), and only to the player
itself: a spectators' chat, a game's table chat and a group's chat are never news.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

from api.webhooks.subscriptions import NEWS_KINDS, NEWS_STREAM, Owner, SubscriptionStore

log = logging.getLogger(__name__)

KEPT = 1000  # a player's newest news kept for its webhooks (a receiver down longer loses the oldest)
READ = 50  # entries read per batch


def news_stream(player_id: str) -> str:
    return f"{NEWS_STREAM}{player_id}"


def is_news_stream(stream_id: str) -> bool:
    return stream_id.startswith(NEWS_STREAM)


class PlayerNews:
    def __init__(self, subs: SubscriptionStore, ensure: Callable[[str, str], object]) -> None:
        self.subs = subs
        self.redis: Any = subs.redis
        self.prefix = subs.prefix
        self.ensure = ensure  # queues a (subscription, stream) delivery (workers/deliveries)

    def key(self, player_id: str) -> str:
        return f"{self.prefix}webhook-news:{{{player_id}}}"

    def tell(self, player_ids: Iterable[str], kind: str, data: dict[str, Any], at: int) -> int:
        """Writes the news for each player whose active "mine" subscriptions ask for `kind` and
        queues their deliveries; how many players were told. Never raises: the action that made
        the news is done, and a webhook's failure must not undo it (logged)."""
        assert kind in NEWS_KINDS, kind
        told = 0
        players = sorted(set(player_ids))
        try:  # who has any webhook at all: one round trip for the whole audience (a round of 1,000)
            pipe = self.redis.pipeline(transaction=False)
            for player_id in players:
                pipe.scard(self.subs.owned_key(Owner("player", player_id)))
            players = [p for p, n in zip(players, pipe.execute()) if n]
        except Exception:
            log.warning("webhook news %s: the subscriptions could not be read", kind, exc_info=True)
            return 0
        for player_id in players:
            try:
                told += self._tell_one(player_id, kind, data, at)
            except Exception:
                log.warning("webhook news %s for %s could not be written", kind, player_id, exc_info=True)
        return told

    def _tell_one(self, player_id: str, kind: str, data: dict[str, Any], at: int) -> int:
        stream = news_stream(player_id)
        subs = [
            s
            for s in self.subs.owned(Owner("player", player_id))
            if s.status == "active" and s.mine and kind in s.events
        ]
        if not subs:
            return 0
        key = self.key(player_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.incr(f"{key}:n")
        pipe.rpush(key, json.dumps({"kind": kind, "at": at, "data": data}))
        pipe.ltrim(key, -KEPT, -1)
        place = int(pipe.execute()[0])
        for sub in subs:
            self.subs.start(sub, stream, place)  # unless it is further on (or waits on an older one)
            self.ensure(sub.id, stream)
        return 1

    def log(self, player_id: str, start: int) -> list[tuple[int, dict[str, Any]]]:
        """The player's news from place `start` on (the oldest kept, if those are gone), at most
        READ: [(place, {"kind", "at", "data"})]."""
        key = self.key(player_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.get(f"{key}:n")
        pipe.llen(key)
        total, length = pipe.execute()
        total = int(total or 0)
        first = total - int(length) + 1  # the place of the list's first entry
        start = max(start, first, 1)
        if start > total:
            return []
        raw = self.redis.lrange(key, start - first, start - first + READ - 1)
        return [(start + i, json.loads(r)) for i, r in enumerate(raw)]
