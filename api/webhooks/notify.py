"""The after-append step of webhooks: a game some subscription covers has its news handed to
the webhook queue (one fan-out job per game at a time, whatever the number of subscribers), so
the turn path pays nothing for a game nobody subscribed to (the append's own script said so:
the store's watched_hint; one command where that is not known) and one enqueue for one that
is. Lost (a process dying after the append), it is repaired by the reconciler's sweep, which
compares each subscribed game's stream with its subscriptions' progress.

An append that seats a player (the game's creation, a claim) first extends that player's
"mine" subscriptions to the game, from its setup on: a few commands. Lost with its process (the
step runs after the answer), it is done again by the next append of the game in any process
whose notifier has not checked the game with those players seated (each process remembers, for
its CHECKED most recent games, the players it covered): a game that goes on moving is covered
from its next move, and told from its setup on."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from api.platform import events as pe
from api.webhooks.subscriptions import Owner

if TYPE_CHECKING:
    from api.games.repository import Game
    from api.webhooks.subscriptions import SubscriptionStore

SEATING = frozenset({pe.CREATED, pe.SEAT_CLAIMED})
CHECKED = 10_000  # games whose seated players this process remembers having covered


class Notifier:
    # fan_out: queues the game's fan-out; what it answers (whether a job was queued) is not
    # needed here (a missed one is repaired by the sweep).
    def __init__(self, subscriptions: SubscriptionStore, fan_out: Callable[[str], object],
                 hint: Callable[[str, int], bool | None] | None = None) -> None:
        self.subscriptions = subscriptions
        self.fan_out = fan_out
        # What the append itself learnt of the game's subscriptions (the store's watched_hint):
        # asked first, so the after-append step costs no round trip of its own.
        self.hint = hint
        self._checked: OrderedDict[str, frozenset[Any]] = OrderedDict()  # game -> players covered
        self._lock = threading.Lock()

    def __call__(self, game: Game, events: Sequence[tuple[str, dict[str, Any]]] = ()) -> None:
        players = frozenset(s["player"] for s in game.seats if s.get("player"))
        seating = any(type_ in SEATING for type_, _ in events)
        if seating or (not game.finished and self._unchecked(game.id, players)):
            self.cover_players(game.id, players)
            self._check(game.id, players)
        known = self.hint(game.id, game.version) if self.hint is not None else None
        if known if known is not None else self.subscriptions.subscribed(game.id):
            self.fan_out(game.id)

    def _unchecked(self, game_id: str, players: frozenset[Any]) -> bool:
        with self._lock:
            return self._checked.get(game_id) != players

    def _check(self, game_id: str, players: frozenset[Any]) -> None:
        with self._lock:
            self._checked[game_id] = players
            self._checked.move_to_end(game_id)
            while len(self._checked) > CHECKED:
                self._checked.popitem(last=False)

    def cover_players(self, game_id: str, players: frozenset[Any]) -> None:
        for player_id in sorted(players):
            for sub in self.subscriptions.owned(Owner("player", player_id)):
                # A disabled subscription takes no new games (it would keep their keys while it
                # hears nothing); enabled again, it looks for the player's games anew (manage.py).
                if sub.mine and sub.status == "active":
                    # 0: from the setup on (a game waiting for people has its setup to come;
                    # one that started in this append owes its `game.started`).
                    self.subscriptions.cover(sub, game_id, 0)
