"""The after-append step of webhooks: a game some subscription covers has its news handed to
the webhook queue (one fan-out job per game at a time, whatever the number of subscribers), so
the turn path pays one Redis command for a game nobody subscribed to and one enqueue for one
that is. Lost (a process dying after the append), it is repaired by the reconciler's sweep,
which compares each subscribed game's stream with its subscriptions' progress.

An append that seats a player (the game's creation, a claim) first extends that player's
"mine" subscriptions to the game, from its setup on: a few commands, on those appends only.
(Lost with its process, the game stays unknown to those subscriptions; the player's stream and
`GET /players/me/games` still show it.)"""
from __future__ import annotations

from typing import Callable

from .. import platform_events as pe
from .subscriptions import Owner

SEATING = frozenset({pe.CREATED, pe.SEAT_CLAIMED})


class Notifier:
    def __init__(self, subscriptions, fan_out: Callable[[str], None]):
        self.subscriptions = subscriptions
        self.fan_out = fan_out

    def __call__(self, game, events=()) -> None:
        if any(type_ in SEATING for type_, _ in events):
            self.cover_players(game)
        if self.subscriptions.subscribed(game.id):
            self.fan_out(game.id)

    def cover_players(self, game) -> None:
        players = {s["player"] for s in game.seats if s.get("player")}
        for player_id in sorted(players):
            for sub in self.subscriptions.owned(Owner("player", player_id)):
                # A disabled subscription takes no new games (it would keep their keys while it
                # hears nothing); enabled again, it looks for the player's games anew (manage.py).
                if sub.mine and sub.status == "active":
                    # 0: from the setup on (a game waiting for people has its setup to come;
                    # one that started in this append owes its `game.started`).
                    self.subscriptions.cover(sub, game.id, 0)
