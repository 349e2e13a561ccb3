"""Groups (issue 53): create one (public, or by invitation), invite, accept or join, leave,
owners and admins, the members. Flask-free.

Each group's events (api/social/groups_decider.py) are a stream of their own,
`group:{<id>}:events`; its state is their fold (a group is small: read whole, under WATCH, for
each command, which appends at once or decides again). A player's groups are a set beside the
social relations (`social:{social}:groups:<player>`), written after each join or leave: a cache
of what the streams say, healed when read (a group the player is no longer in is dropped).
An invitation across a block is refused by the one check point (api/social/blocks.py), and the
player invited is told (`group_invited` in its stream).
"""
from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

import redis

from api.errors import Code, UnknownGameType
from api.games.presenting import public_seat
from api.ratings.profiles import UnknownPlayerId
from api.social import groups_decider as gd
from api.social.blocks import TAG, Blocks
from domain import registry
from events import codec
from events.connection import UNAVAILABLE
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.games.service import GameService
    from api.players.accounts import Player, Players


class Groups:
    def __init__(self, connection: Any, prefix: str, blocks: Blocks, players: Players,
                 service: GameService | None = None) -> None:
        self.redis: Any = connection
        self.prefix = prefix
        self.blocks = blocks
        self.players = players
        self.service = service  # the games a group's members make for it

    def games_key(self, group_id: str) -> str:
        return f"{self.prefix}group:{{{group_id}}}:games"

    def key(self, group_id: str) -> str:
        return f"{self.prefix}group:{{{group_id}}}:events"

    def mine_key(self, player_id: str) -> str:
        return f"{self.prefix}social:{TAG}:groups:{player_id}"

    def state(self, group_id: str, reader: Any = None) -> gd.State:
        if len(group_id) > 64:
            return gd.State()
        found = (reader or self.redis).xrange(self.key(group_id), "-", "+")
        return gd.fold(codec.loads(fields[b"e"]) for _, fields in found)

    def read(self, group_id: str) -> dict[str, Any]:
        state = self._existing(group_id)
        return gd.shown(group_id, state)

    def _existing(self, group_id: str) -> gd.State:
        try:
            state = self.state(group_id)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        if not state.exists:
            raise gd.UnknownGroup("No group has this id.")
        return state

    # ---- commands ----------------------------------------------------------------------------
    def act(self, group_id: str, command: gd.Command) -> tuple[gd.State, list[dict[str, Any]]]:
        """Decides on the group's fold and appends the events at once (again if another command
        appended meanwhile); returns (the group after them, the events)."""
        try:
            with self.redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        pipe.watch(self.key(group_id))
                        state = self.state(group_id, pipe)
                        events = gd.decide(state, command)
                        if events:
                            pipe.multi()
                            for event in events:
                                pipe.xadd(self.key(group_id), {"e": codec.dumps_bytes(event)})
                            pipe.execute()
                        else:
                            pipe.unwatch()
                        break
                    except redis.WatchError:
                        continue
            after = gd.fold(events, state)
            self._index(group_id, after, events)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return after, events

    def _index(self, group_id: str, state: gd.State, events: list[dict[str, Any]]) -> None:
        for event in events:
            who = str(event["player"])
            if event["type"] in (gd.CREATED, gd.JOINED):
                self.redis.sadd(self.mine_key(who), group_id)
            elif event["type"] == gd.LEFT:
                self.redis.srem(self.mine_key(who), group_id)

    def create(self, player: Player, name: str, description: str, visibility: str) -> dict[str, Any]:
        group_id = secrets.token_urlsafe(9)
        state, _ = self.act(group_id, gd.Command("create", player.id, _now(), name=name, description=description,
                                                 visibility=visibility))
        return gd.shown(group_id, state)

    def invite(self, player: Player, group_id: str, target: str) -> dict[str, Any]:
        self._existing(group_id)
        invited = self.players.find(target)
        if invited is None:
            raise UnknownPlayerId("No player has this id.")
        self.blocks.check(player.id, [target])  # the check point: no invitation across a block
        state, events = self.act(group_id, gd.Command("invite", player.id, _now(), target=target))
        if events:
            at = _now()
            self.players.write_inbox(self.players.redis, target, {
                "type": "group_invited", "group_id": group_id, "group_name": state.name, "by": player.id,
                "name": player.name, "at": at}, at)
        return {"group": group_id, "player": target, "invited": target in state.invited,
                "member": target in state.members}

    def join(self, player: Player, group_id: str) -> dict[str, Any]:
        state, _ = self.act(group_id, gd.Command("join", player.id, _now()))
        return gd.shown(group_id, state)

    def leave(self, player: Player, group_id: str) -> None:
        self.act(group_id, gd.Command("leave", player.id, _now()))

    def set_role(self, player: Player, group_id: str, target: str, role: str) -> list[dict[str, Any]]:
        state, _ = self.act(group_id, gd.Command("role", player.id, _now(), target=target, role=role))
        return self._members(state)

    # ---- a group's games ---------------------------------------------------------------------
    def is_member(self, group_id: str, player_id: str) -> bool:
        """Whether the player is a member of the group: what a seat of a group's game asks
        (api/seating/claims.py)."""
        try:
            return player_id in self.state(group_id).members
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def member_ids(self, group_id: str) -> list[str]:
        """The group's members' ids (none for an unknown group): the group chat's recipients."""
        try:
            return sorted(self.state(group_id).members)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def make_game(self, player: Player, group_id: str, type_: str, seats: int | None, options: dict[str, Any],
                  clock: Any, rated: bool) -> dict[str, Any]:
        """A waiting game for the group's members only (private: listed in the group's lobby,
        not the server's), the maker seated, the other seats open to members."""
        state = self._existing(group_id)
        if player.id not in state.members:
            raise gd.GroupRefused("You are not a member of this group.", code=Code.NOT_GROUP_MEMBER)
        if self.service is None:
            raise RuntimeError("a group's games are made by the game service: these Groups were made without one")
        definition = registry.get(type_)
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{type_}'.")
        n = seats or max(2, definition.min_seats)
        me = {"name": player.name, "player": player.id, **({"bot_account": True} if player.bot else {})}
        created = self.service.create(type_, [me] + [{"open": True} for _ in range(n - 1)], options, None, True,
                                      clock, rated=rated, creator=player.id, group=group_id)
        self.redis.zadd(self.games_key(group_id), {created["id"]: _now()})
        return {**created, "group": group_id}

    def games(self, player: Player, group_id: str) -> list[dict[str, Any]]:
        """The group's lobby: its waiting games, newest first (those no longer waiting dropped)."""
        state = self._existing(group_id)
        if state.visibility == "invitation" and player.id not in state.members:
            raise gd.GroupRefused("This group is by invitation: only its members see its games.",
                                  code=Code.NOT_GROUP_MEMBER)
        if self.service is None:
            return []
        shown, gone = [], []
        for game_id in self.redis.zrevrange(self.games_key(group_id), 0, 99):
            game_id = game_id.decode()
            try:
                game = self.service.load(game_id)
            except Exception:  # gone (expired, archived and damaged): no longer waiting anyway
                gone.append(game_id)
                continue
            if game.status != "waiting":
                gone.append(game_id)
                continue
            shown.append({"id": game.id, "type": game.definition.name, "status": game.status,
                          "version": game.version, "seats": [public_seat(i, s) for i, s in enumerate(game.seats)],
                          "to_act": game.actors(), "last_move_at": game.last_at or 0, "group": group_id})
        if gone:
            self.redis.zrem(self.games_key(group_id), *gone)
        return shown

    # ---- reading -----------------------------------------------------------------------------
    def members(self, player: Player, group_id: str) -> list[dict[str, Any]]:
        """The members (a group by invitation shows them to its members only)."""
        state = self._existing(group_id)
        if state.visibility == "invitation" and player.id not in state.members:
            raise gd.GroupRefused("This group is by invitation: only its members see who is in it.",
                                  code=Code.NOT_GROUP_MEMBER)
        return self._members(state)

    def _members(self, state: gd.State) -> list[dict[str, Any]]:
        ids = sorted(state.members, key=lambda p: (gd.ROLES.index(state.members[p]), p))
        found = self.players.find_many(ids)
        return [{"id": p, "name": found[p].name if found[p] is not None else None,  # type: ignore[union-attr]
                 "role": state.members[p]} for p in ids]

    def of_player(self, player: Player) -> list[dict[str, Any]]:
        try:
            ids = sorted(m.decode() for m in self.redis.smembers(self.mine_key(player.id)))
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        shown = []
        for group_id in ids:
            state = self.state(group_id)
            if not state.exists or player.id not in state.members:
                self.redis.srem(self.mine_key(player.id), group_id)  # healed
                continue
            shown.append({**gd.shown(group_id, state), "role": state.members[player.id]})
        return shown


def _now() -> int:
    return int(time.time() * 1000)
