"""The after-append step of webhooks: a game some subscription covers has its news handed to
the webhook queue (one fan-out job per append, whatever the number of subscribers), so the
turn path pays one Redis command for a game nobody subscribed to and one enqueue for one that
is. Lost (a process dying after the append), it is repaired by the reconciler's sweep, which
compares each subscribed game's stream with its subscriptions' progress."""
from __future__ import annotations

from typing import Callable


class Notifier:
    def __init__(self, subscriptions, fan_out: Callable[[str], None]):
        self.subscriptions = subscriptions
        self.fan_out = fan_out

    def __call__(self, game, events=()) -> None:
        if self.subscriptions.subscribed(game.id):
            self.fan_out(game.id)
