"""A challenge (issue 53): a player asks another to a game in one call. Flask-free.

The game is made as a rematch's is (api/seating/claims.py): a waiting, private game with the
challenger seated and the other player's seat kept for them (`reserved_for`, until
`CHALLENGE_RESERVED_S` or the waiting game's end), any further seats open; the challenged player
takes it with `POST /games/{id}/seats/{seat}/claim` and its key, which judges the block check
point again. Allowed by the challenged player's `challenge` setting (api/social/decider.py) and
no block between the two (api/social/blocks.py), asked before the game is made and again after
(a block written meanwhile withdraws the game). The challenged player is told by `challenged`
in its stream (and pushed, as `matched` is), and its webhooks by `challenge.received`; the
challenger's webhooks hear `challenge.answered` when the challenged player takes the seat
(`accepted`), declines it (`declined`: `decline`, the game aborted, the challenger's stream told
by `challenge_declined`) or the game ends without them (`expired`: the reservation ran out, the
challenger left, a block withdrew it). A challenge's game is noted (`social:{social}:challenge:<game>`, as
long as the reservation) so that the game service's listener (`heard`) knows it for one.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code, UnknownGameType, ValidationFailed
from api.games.appending import decide_and_append
from api.platform import events as pe
from api.ratings.profiles import UnknownPlayerId
from api.social.blocks import Blocks, cannot_meet
from api.social.decider import NotAllowedByPlayer, SelfRelation
from api.social.relations import Social
from domain import registry
from events.store import NewEvent

if TYPE_CHECKING:
    from api.games.service import GameService
    from api.players.accounts import Player

CHALLENGE_RESERVED_S = 86_400
DECLINED = "the challenged player declined"


class UnknownChallenge(ApiError):
    status, code = 404, Code.UNKNOWN_CHALLENGE
News = Callable[[list[str], str, dict[str, Any], int], object]  # (players, kind, data, at): their webhooks


class Challenges:
    def __init__(self, social: Social, blocks: Blocks, service: GameService,
                 told: Callable[[list[str]], object] | None = None, news: News | None = None) -> None:
        self.social = social
        self.blocks = blocks
        self.service = service
        self.told = told  # after the notice is written: the player's push (api/push/notify.py)
        self.news = news  # the players' webhooks (api/webhooks/news.py)

    def key(self, game_id: str) -> str:
        return f"{self.social.prefix}social:{{social}}:challenge:{game_id}"

    def challenge(self, challenger: Player, target_id: str, type_: str, seats: int | None, options: dict[str, Any],
                  clock: Any, rated: bool) -> dict[str, Any]:
        if target_id == challenger.id:
            raise SelfRelation("You cannot challenge yourself.")
        target = self.social.players.find(target_id)
        if target is None:
            raise UnknownPlayerId("No player has this id.")
        definition = registry.get(type_)
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{type_}'.")
        self.blocks.check(challenger.id, [target_id])  # the check point
        if not self.social.allows(target_id, "challenge", challenger.id):
            raise NotAllowedByPlayer("This player's settings do not let you challenge them.")
        n = seats or max(2, definition.min_seats)
        if not max(2, definition.min_seats) <= n <= definition.max_seats:
            raise ValidationFailed(f"{definition.title} is played by {definition.min_seats} to "
                                   f"{definition.max_seats} seats; a challenge needs two at least, {n} were asked "
                                   "for.", code=Code.INVALID_SEATS)
        until = int(time.time() * 1000) + CHALLENGE_RESERVED_S * 1000
        me = {"name": challenger.name, "player": challenger.id, **({"bot_account": True} if challenger.bot else {})}
        given = [me, {"open": True, "reserved_for": target_id, "reserved_until": until}] + \
            [{"open": True} for _ in range(max(0, n - 2))]
        created = self.service.create(type_, given, options, None, True, clock, rated=rated, creator=challenger.id)
        self.blocks.meeting(created["id"], [challenger.id, target_id])
        if self.blocks.between(challenger.id, target_id):  # a block written while the game was made
            self._withdraw(created["id"])
            raise cannot_meet()
        at = int(time.time() * 1000)
        entry = {"type": "challenged", "game_id": created["id"], "game_type": type_, "version": created["version"],
                 "at": at, "seat": 0, "name": challenger.name, "by": challenger.id, "your_seat": 1}
        self.social.players.write_inbox(self.social.players.redis, target_id, entry, at)
        if self.told is not None:
            self.told([target_id])
        self.social.redis.set(self.key(created["id"]), json.dumps({"by": challenger.id, "to": target_id}),
                              ex=CHALLENGE_RESERVED_S + 3600)
        if self.news is not None:
            self.news([target_id], "challenge.received",
                      {"game_id": created["id"], "game_type": type_,
                       "by": {"id": challenger.id, "name": challenger.name}, "reserved_seat": 1,
                       "reserved_until": until, "at": at}, at)
        return {**created, "challenged": target_id, "reserved_seat": 1, "reserved_until": until}

    def heard(self, game: Any, events: list[tuple[str, dict[str, Any]]]) -> None:
        """The game service's listener: a challenge's game taken by the challenged player, or
        ended without them, answers the challenge (told once: the note is taken by one process)."""
        answer = None
        for type_, data in events:
            if type_ == pe.SEAT_CLAIMED or type_ in pe.ENDING:
                answer = answer or self._answer(game.id, type_, data)
        if answer is None:
            return
        record, said = answer
        if self.news is not None:
            at = int(time.time() * 1000)
            self.news([record["by"]], "challenge.answered",
                      {"game_id": game.id, "game_type": game.definition.name, "player": record["to"],
                       "answer": said, "at": at}, at)

    def _answer(self, game_id: str, type_: str, data: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        key = self.key(game_id)
        raw = self.social.redis.get(key)
        if raw is None:
            return None
        record = json.loads(raw)
        said = "accepted" if type_ == pe.SEAT_CLAIMED and data.get("player") == record["to"] else \
            "expired" if type_ != pe.SEAT_CLAIMED else None
        if said is None or not self.social.redis.delete(key):
            return None
        return record, said

    def decline(self, player: Player, game_id: str) -> None:
        """The challenged player says no: the challenge answered `declined` (its note taken, so
        the game's end that follows answers nothing more), the waiting game aborted, the
        challenger told (its stream's `challenge_declined`, its webhooks' `challenge.answered`).
        A game that is no challenge to this player, or one answered already, is refused
        (`404 unknown_challenge`) with nothing written."""
        key = self.key(game_id)
        raw = self.social.redis.get(key)
        record = json.loads(raw) if raw is not None else None
        if record is None or record.get("to") != player.id or not self.social.redis.delete(key):
            raise UnknownChallenge("No challenge to you waits in this game: it was never made, or it is "
                                   "answered or over.")
        self._withdraw(game_id, DECLINED)
        game = self.service.load(game_id)
        at = int(time.time() * 1000)
        entry = {"type": "challenge_declined", "game_id": game_id, "game_type": game.definition.name,
                 "version": game.version, "at": at, "seat": 1, "name": player.name, "by": player.id}
        self.social.players.write_inbox(self.social.players.redis, record["by"], entry, at)
        if self.news is not None:
            self.news([record["by"]], "challenge.answered",
                      {"game_id": game_id, "game_type": game.definition.name, "player": player.id,
                       "answer": "declined", "at": at}, at)

    def _withdraw(self, game_id: str, reason: str = "a block between its players") -> None:
        ended = {"type": pe.ABORTED, "seat": None, "reason": reason}
        decide_and_append(self.service, game_id,
                          lambda game, at: [] if game.finished else [NewEvent(pe.ABORTED, ended, None)])


class ChallengeAnswers:
    """The game service's listener: a challenge's game taken or ended answers the challenge
    (`Challenges.heard`). Made before the challenges (the game service is built first), it is
    given them by the composition root."""

    def __init__(self) -> None:
        self.challenges: Challenges | None = None

    def __call__(self, game: Any, events: list[tuple[str, dict[str, Any]]]) -> None:
        if self.challenges is not None:
            self.challenges.heard(game, events)
