"""Follows, friends, blocks and privacy (issue 53), kept as events. Flask-free.

The social stream `social:{social}:events` (a Redis stream of its own, never a game's history)
keeps the decider's events (api/social/decider.py). Beside it, in the same transaction, the
projection the reads and the block check point (api/social/blocks.py) use: per player the sets
`following`, `followers`, `blocking`, `blocked-by` and the hash `privacy` (changed fields only).
A command reads the relations of its two players under WATCH, decides on them (a partial state:
all the decider reads), and appends its events and their projection at once; a concurrent
change of those keys makes it decide again. `rebuilt()` folds the whole stream (what the
projection must equal: a test holds them to it).

A block, once written, parts the two at every table in the making or not yet played
(`parted`: api/seating/claims.py `Lobby.part`), and ends their follows (`unfollowed` events
with `reason: block`).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis

from api.ratings.profiles import UnknownPlayerId
from api.social import decider
from api.social.blocks import TAG, Blocks
from events import codec
from events.connection import UNAVAILABLE
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.players.accounts import Player, Players

LIST_LIMIT = 1000  # the most of one list answered (follows are not capped; lists are by name)
PRESENCE_GAMES = 5  # a friend's newest games read for its presence


class Social:
    def __init__(self, connection: Any, prefix: str, blocks: Blocks, players: Players,
                 load: Callable[[str], Any] | None = None,
                 parted: Callable[[str, str], object] | None = None) -> None:
        self.redis: Any = connection
        self.prefix = prefix
        self.blocks = blocks
        self.players = players
        self.load = load  # a game by its id (the service's): a friend's presence
        self.parted = parted  # after a block: the two parted at their tables (api/seating/claims.py)
        self.key = f"{prefix}social:{TAG}:events"

    def _set(self, kind: str, player_id: str) -> str:
        return f"{self.prefix}social:{TAG}:{kind}:{player_id}"

    def following_key(self, player_id: str) -> str:
        return self._set("following", player_id)

    def followers_key(self, player_id: str) -> str:
        return self._set("followers", player_id)

    def privacy_key(self, player_id: str) -> str:
        return self._set("privacy", player_id)

    def _watched(self, a: str, b: str | None) -> list[str]:
        keys = []
        for p in (a, b) if b is not None else (a,):
            keys += [self.following_key(p), self.followers_key(p), self.blocks.blocking_key(p),
                     self.blocks.blocked_by_key(p), self.privacy_key(p)]
        return keys

    # ---- the state of two players ------------------------------------------------------------
    def state(self, a: str, b: str | None = None, reader: Any = None) -> decider.State:
        """The relations between `a` and `b` and their privacy settings: what decide reads."""
        reader = reader or self.redis
        follows, blocks, privacy = set(), set(), {}
        pairs = [(a, b), (b, a)] if b is not None else []
        for x, y in pairs:
            if reader.sismember(self.following_key(x), y):
                follows.add((x, y))
            if reader.sismember(self.blocks.blocking_key(x), y):
                blocks.add((x, y))
        for p in (a, b) if b is not None else (a,):
            raw = reader.hgetall(self.privacy_key(p))
            if raw:
                privacy[p] = {k.decode(): v.decode() for k, v in raw.items()}
        return decider.State(frozenset(follows), frozenset(blocks), privacy)

    # ---- acting ------------------------------------------------------------------------------
    def act(self, command: decider.Command) -> list[dict[str, Any]]:
        """Decides the command on the two players' relations and appends its events with their
        projection in one transaction; returns the events ([]: nothing changed)."""
        if command.target is not None and command.target != command.player and \
                self.players.find(command.target) is None:
            raise UnknownPlayerId("No player has this id.")
        try:
            events = self._act(command)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        if self.parted is not None and command.kind == "block":  # again on a repeated block: a retry after a
            self.parted(command.player, command.target or "")    # parting that failed parts them still
        return events

    def _act(self, command: decider.Command) -> list[dict[str, Any]]:
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(*self._watched(command.player, command.target))
                    events = decider.decide(self.state(command.player, command.target, pipe), command)
                    if not events:
                        pipe.unwatch()
                        return []
                    pipe.multi()
                    for event in events:
                        pipe.xadd(self.key, {"e": codec.dumps_bytes(event)})
                        self._project(pipe, event)
                    pipe.execute()
                    return events
                except redis.WatchError:
                    continue

    def _project(self, pipe: Any, event: dict[str, Any]) -> None:
        """The projection's change by one event (evolve, on the sets)."""
        kind, a, b = event["type"], event["player"], event.get("target", "")
        if kind in (decider.FOLLOWED, decider.UNFOLLOWED):
            op = pipe.sadd if kind == decider.FOLLOWED else pipe.srem
            op(self.following_key(a), b)
            op(self.followers_key(b), a)
        elif kind in (decider.BLOCKED, decider.UNBLOCKED):
            op = pipe.sadd if kind == decider.BLOCKED else pipe.srem
            op(self.blocks.blocking_key(a), b)
            op(self.blocks.blocked_by_key(b), a)
        elif kind == decider.PRIVACY_SET:
            pipe.hset(self.privacy_key(a), mapping=dict(event["settings"]))

    def command(self, kind: str, player: Player, target: str | None = None,
                settings: dict[str, str] | None = None) -> list[dict[str, Any]]:
        return self.act(decider.Command(kind, player.id, int(time.time() * 1000), target, settings))

    # ---- reading -----------------------------------------------------------------------------
    def events(self) -> list[dict[str, Any]]:
        found = self.redis.xrange(self.key, "-", "+")
        return [{**codec.loads(fields[b"e"]), "id": entry_id.decode()} for entry_id, fields in found]

    def rebuilt(self) -> decider.State:
        """The fold of the whole stream (what the projection says, read another way)."""
        return decider.fold(self.events())

    def privacy(self, player_id: str) -> dict[str, str]:
        return decider.privacy(self.state(player_id), player_id)

    def allows(self, owner: str, setting: str, other: str) -> bool:
        """Whether `owner`'s privacy lets `other` do `setting` (no block between them)."""
        return decider.allows(self.state(owner, other), owner, setting, other)

    def _members(self, key: str) -> list[str]:
        try:
            return sorted(m.decode() for m in self.redis.smembers(key))[:LIST_LIMIT]
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def _people(self, ids: list[str]) -> list[dict[str, Any]]:
        found = self.players.find_many(ids)
        return [{"id": p, "name": found[p].name if found[p] is not None else None,  # type: ignore[union-attr]
                 "bot": bool(found[p] and found[p].bot)} for p in ids]  # type: ignore[union-attr]

    def followers(self, player_id: str) -> list[dict[str, Any]]:
        return self._people(self._members(self.followers_key(player_id)))

    def following(self, player_id: str) -> list[dict[str, Any]]:
        return self._people(self._members(self.following_key(player_id)))

    def blocked(self, player_id: str) -> list[dict[str, Any]]:
        return self._people(self._members(self.blocks.blocking_key(player_id)))

    def friend_ids(self, player_id: str) -> list[str]:
        try:
            found = self.redis.sinter(self.following_key(player_id), self.followers_key(player_id))
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return sorted(m.decode() for m in found)[:LIST_LIMIT]

    def friends(self, player_id: str, online: Callable[[list[str]], list[bool]]) -> list[dict[str, Any]]:
        """The player's friends (mutual follows), each with its presence: `online` (a live
        stream of the player open: `online(ids)`, the HTTP edge's leases), `playing` (one of its
        newest games started and not over) and `game` (that game's id, when it is public)."""
        ids = self.friend_ids(player_id)
        here = online(ids) if ids else []
        shown = []
        for person, is_online in zip(self._people(ids), here):
            playing, game = self._playing(person["id"])
            shown.append({**person, "online": bool(is_online), "playing": playing, "game": game})
        return shown

    def _playing(self, player_id: str) -> tuple[bool, str | None]:
        if self.load is None:
            return False, None
        playing, public = False, None
        for game_id, _ in self.players.games_page(player_id, None, PRESENCE_GAMES):
            try:
                game = self.load(game_id)
            except Exception:  # gone, archived and damaged: not played now anyway
                continue
            if game.started and not game.finished and game.seat_of_player(player_id) is not None:
                playing = True
                if not game.platform.private:
                    return True, game.id
        return playing, public
