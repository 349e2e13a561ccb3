"""After an append (through the players' feed, api/players/feed.py) and after the matchmaker's
`matched`: each player the append told something who has a push subscription has its push job
queued (one per player at a time: the job reads the player's inbox from each subscription's
cursor, so however many appends queue it, each entry is pushed once).

The turn path pays no round trip of its own: for a game with players seated, which of them have
subscriptions is asked in the feed's own pipeline (`ask`, then `answered` with its replies); none
for a game of table tokens and bots. Lost (a process dying after the answer), the entry is pushed
with the player's next notice: the cursor is behind it."""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from api.push.subscriptions import PushSubscriptions

log = logging.getLogger(__name__)


class PushNotify:
    def __init__(self, subs: PushSubscriptions, enqueue: Callable[[str], object]):
        self.subs = subs
        self.enqueue = enqueue

    def ask(self, pipe: Any, player_ids: list[str]) -> None:
        """Adds to `pipe` (a pipeline of the subscriptions' Redis) whether each player has a push
        subscription: one EXISTS each, in `player_ids`' order; `answered` takes their replies."""
        for player_id in player_ids:
            pipe.exists(self.subs.subs_key(player_id))

    def answered(self, player_ids: list[str], replies: list[Any]) -> None:
        """Queues the push job of each player whose EXISTS (asked by `ask`) found a subscription."""
        try:
            for player_id, found in zip(player_ids, replies):
                if found:
                    self.enqueue(player_id)
        except Exception:  # a notice lost, never the move: the next one catches up
            log.exception("push jobs not queued")

    def players(self, player_ids: Iterable[str]) -> None:
        try:
            for player_id in self.subs.subscribed(sorted(set(player_ids))):
                self.enqueue(player_id)
        except Exception:  # a notice lost, never the move: the next one catches up
            log.exception("push jobs not queued")
