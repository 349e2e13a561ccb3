"""What each durable append tells the people of a game (GameService.listeners).

After an append (a creation, a claim, a move by a person, a bot or the system) the service calls
PlayerFeed with the game as it is now and the events appended. For every player sitting in the
game it records the game's last activity in the player's games (`GET /players/me/games`) and
writes to the player's inbox, which the player's stream reads (api/http/streams/player.py):
`seat_claimed`, `seat_left`, `game_started`, `your_turn` (the game waits for the player's seat),
`game_finished`, `rematch`. It also moves the game between the lobby's indexes.

This runs after the answer leaves (the service's outbox): a crash in between loses a
notification, never a move; the lobby's listing repairs its own indexes, and `my_turn` in the
player's games is always read from the game itself.

Two appends' feeds may run at once (a fast next move's before a slow one's): each first raises
every seated player's mark of the game to the append's version (ZADD GT, whether or not it tells
the player anything), then writes its entries, in one pipeline. A reader that finds a
`your_turn` older than its game's mark drops it (Players.stale_turns: the player's stream, Web
Push), so an older `your_turn` is never sent after a newer entry of its game, nor once the game
stopped waiting for that seat.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from api.games.callers import people_to_act
from api.lobby.index import LobbyIndex
from api.platform import events as pe
from api.players.accounts import GAMES_KEPT, TURN_MARK_TTL_MS, Players

if TYPE_CHECKING:
    from api.games.repository import Game


class PlayerFeed:
    """`push`: what queues the players' Web Push jobs (api/push/notify.py's PushNotify, or None):
    whether the seated players have push subscriptions is asked in the feed's own pipeline, so
    an append costs no round trip more for it."""

    def __init__(self, players: Players, lobby: LobbyIndex, push: Any = None) -> None:  # push: api/push's PushNotify
        self.players = players
        self.lobby = lobby
        self.push = push

    def __call__(self, game: Game, events: list[tuple[str, dict[str, Any]]]) -> None:
        types = [t for t, _ in events]
        at = game.last_at or int(time.time() * 1000)
        if pe.CREATED in types or pe.STARTED in types or (game.finished and pe.finishing(types)):
            if not game.platform.private:
                self.lobby.place(game.id, game.definition.name, game.status, at)
        seated = {s["player"]: i for i, s in enumerate(game.seats) if s["player"]}
        notices = []
        for type_, data in events:
            if type_ == pe.SEAT_CLAIMED:
                notices.append(("seat_claimed", {"seat": data["seat"], "name": data.get("name"),
                                                 "player": data.get("player")}))
            elif type_ == pe.SEAT_LEFT:
                notices.append(("seat_left", {"seat": data["seat"]}))
            elif type_ == pe.STARTED:
                notices.append(("game_started", {}))
            elif type_ == pe.REMATCH:
                notices.append(("rematch", {"rematch": data["game_id"]}))
        if game.finished and pe.finishing(types):
            notices.append(("game_finished", {"status": game.status, "result": game.result}))
        left = [data["player"] for t, data in events if t == pe.SEAT_LEFT and data.get("player")]
        to_act = set(people_to_act(game)) if not game.finished else set()
        pipe = self.players.redis.pipeline(transaction=False)
        for player_id, seat in list(seated.items()) + [(p, None) for p in left if p not in seated]:
            mine = notices + ([("your_turn", {"seat": seat})] if seat in to_act else [])
            mark = self.players.turn_mark_key(player_id, game.id)
            pipe.zadd(mark, {"v": game.version}, gt=True)  # before its entries: see the module's note
            pipe.pexpire(mark, TURN_MARK_TTL_MS)
            games_key = self.players.games_key(player_id)
            if seat is None:
                pipe.zrem(games_key, game.id)
            else:
                pipe.zadd(games_key, {game.id: at})
                pipe.zremrangebyrank(games_key, 0, -GAMES_KEPT - 1)
            for kind, detail in mine:
                entry = {"type": kind, "game_id": game.id, "game_type": game.definition.name,
                         "version": game.version, "at": at, **detail}
                self.players.write_inbox(pipe, player_id, entry)
        pushed = sorted(seated) if self.push is not None else []
        if pushed:
            self.push.ask(pipe, pushed)
        replies = pipe.execute()
        if pushed:
            self.push.answered(pushed, replies[-len(pushed):])



class RatedNotices:
    """Tells each player of a rated game its rating before and after it (`rated` in the player's
    stream), once the ratings' ledger has counted the game (api/ratings/ledger.py)."""

    def __init__(self, players: Players):
        self.players = players

    def __call__(self, entry: dict[str, Any], changes: list[dict[str, Any]]) -> None:
        pipe = self.players.redis.pipeline(transaction=False)
        for change in changes:
            kind, _, player_id = change["identity"].partition(":")
            if kind != "player":
                continue
            notice = {"type": "rated", "game_id": entry["id"], "game_type": entry["type"], "version": entry["version"],
                      "at": int(time.time() * 1000), "seat": change["seat"], "before": change["before"],
                      "after": change["after"], "rank": change["rank"]}
            self.players.write_inbox(pipe, player_id, notice)
        pipe.execute()
