"""People meet: open seats, claims, leaving, the lobby's listing, a player's games, rematches.

Every change of seats is a platform event appended to the game's history at the version it was
judged on (api/platform/events.py), so the store's version check decides races: of many
claimers of one seat exactly one appends, the others are judged again on the game as it now is
and told `409 seat_taken`. The claim that fills the last seat appends, in the same append,
`seat_claimed`, `seats_filled` and the game's setup events, drawn from the seed committed at
creation (service.setup): nobody sees a deal before the table is complete.
Flask-free: the routes (routes_lobby.py, routes_players.py) parse and shape.
"""
from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Optional

from events.store import Conflict, NewEvent

from api.platform import clocks, events as pe
from api import metrics
from api.errors import ApiError, Code, SeatNotYours, UnknownGame
from api.lobby.index import LobbyIndex
from api.players.accounts import Player
from api.games.presenting import public_seat
from api.games.repository import Game
from api.games.callers import TABLE, hash_token, people_to_act
from api.games.service import GameService, setup

REMATCH_RESERVED_S = 600
ATTEMPTS = 50  # re-judgements after losing a race before answering 409


class SeatTaken(ApiError):
    status, code = 409, Code.SEAT_TAKEN


class SeatConflict(ApiError):
    status, code = 409, Code.SEAT_UNAVAILABLE


class UnknownSeat(ApiError):
    status, code = 404, Code.UNKNOWN_SEAT


class InvalidInvite(ApiError):
    status, code = 403, Code.INVALID_INVITE


@dataclass(frozen=True)
class Claimer:
    """Who claims a seat: a player, or somebody anonymous with a name."""

    name: str
    player: Optional[Player] = None


def now_ms() -> int:
    return int(time.time() * 1000)


class Lobby:
    def __init__(self, service: GameService, index: Optional[LobbyIndex]):
        self.service = service
        self.index = index

    # ---- claims ---------------------------------------------------------------------------

    def claim(self, game_id: str, seat: int, claimer: Claimer, invite: Optional[str] = None) -> dict:
        """Seats the claimer; answers the seat's token (to the claimer only)."""
        service = self.service
        token = None
        for _ in range(ATTEMPTS):
            game = service.load(game_id)
            self._check_claim(game, seat, claimer, invite)
            token = token or f"{game_id}.{seat}.{secrets.token_urlsafe(24)}"
            claimed = {"type": pe.SEAT_CLAIMED, "seat": seat, "name": claimer.name,
                       "player": claimer.player.id if claimer.player else None, "token_sha256": hash_token(token)}
            events = [NewEvent(pe.SEAT_CLAIMED, claimed, seat)]
            if sum(1 for s in game.seats if pe.is_free(s)) == 1:
                events += self._start_events(game, len(events))
            try:
                updated = service.append_platform(game, events)
            except Conflict:
                metrics.seat_changes.labels("lost").inc()
                continue  # someone appended since we read: judge the claim again
            metrics.seat_changes.labels("claimed").inc()
            if updated.started:
                metrics.seat_changes.labels("started").inc()
            return {"id": game_id, "seat": seat, "token": token, "version": updated.version,
                    "status": updated.status}
        raise SeatConflict("The game's seats are changing too fast; read it again and retry.")

    def _check_claim(self, game: Game, seat: int, claimer: Claimer, invite: Optional[str]) -> None:
        if not 0 <= seat < len(game.seats):
            raise UnknownSeat(f"Game {game.id} has seats 0 to {len(game.seats) - 1}.", version=game.version)
        state = game.seats[seat]
        if game.finished:
            raise SeatConflict(f"Game {game.id} is over.", code=Code.GAME_OVER, version=game.version)
        if game.started:
            raise SeatTaken(f"Game {game.id} has started: its seats are all taken.", code=Code.GAME_STARTED,
                            version=game.version)
        if state["bot"] is not None:
            raise SeatConflict(f"Seat {seat} is a bot's.", code=Code.SEAT_IS_BOT, version=game.version)
        if not pe.is_free(state):
            raise SeatTaken(f"Seat {seat} is taken.", version=game.version)
        if claimer.player is not None and game.seat_of_player(claimer.player.id) is not None:
            raise SeatConflict(f"You already sit in seat {game.seat_of_player(claimer.player.id)} of this game.",
                               code=Code.ALREADY_SEATED, version=game.version)
        reserved = state["reserved_for"]
        if reserved and (claimer.player is None or claimer.player.id != reserved) and \
                now_ms() < (state["reserved_until"] or 0):
            raise SeatConflict(f"Seat {seat} is kept for another player until "
                               f"{time.strftime('%H:%M:%S', time.gmtime(state['reserved_until'] / 1000))} UTC.",
                               code=Code.SEAT_RESERVED, version=game.version)
        if state["invite"]:
            expected = game.meta.get("invite_sha256")
            if invite is None or expected is None or not hmac.compare_digest(hash_token(invite), expected):
                raise InvalidInvite(f"Seat {seat} is by invitation: send the game's invite code as ?invite=CODE.",
                                    version=game.version)

    def _start_events(self, game: Game, before: int) -> list:
        """`seats_filled` and the setup events, as the version after them will be."""
        options = game.platform.options or {}
        dealt = setup(game.definition, options, len(game.seats), game.seed)
        setup_version = game.version + before + 1 + len(dealt)
        return [NewEvent(pe.STARTED, {"type": pe.STARTED, "setup_version": setup_version}, None)] + \
            [NewEvent(e["type"], e, None) for e in dealt]

    def leave(self, game_id: str, seat: int) -> dict:
        """Frees a claimed seat of a waiting game (the caller was authenticated as the seat)."""
        service = self.service
        for _ in range(ATTEMPTS):
            game = service.load(game_id)
            if not 0 <= seat < len(game.seats):
                raise UnknownSeat(f"Game {game.id} has seats 0 to {len(game.seats) - 1}.", version=game.version)
            if game.started or game.finished:
                raise SeatConflict("The game has started: its seats can no longer be left.",
                                   code=Code.GAME_STARTED, version=game.version)
            state = game.seats[seat]
            if state["creator"] or state["token_sha256"] is None:
                raise SeatConflict(f"Seat {seat} was not claimed: only a claimed seat can be left.",
                                   code=Code.SEAT_NOT_CLAIMED, version=game.version)
            left = {"type": pe.SEAT_LEFT, "seat": seat, "player": state["player"]}
            try:
                updated = service.append_platform(game, [NewEvent(pe.SEAT_LEFT, left, seat)])
            except Conflict:
                continue
            metrics.seat_changes.labels("left").inc()
            return {"id": game_id, "seat": seat, "version": updated.version, "status": updated.status}
        raise SeatConflict("The game's seats are changing too fast; read it again and retry.")

    # ---- rematch ----------------------------------------------------------------------------

    def rematch(self, game_id: str) -> tuple[dict, bool]:
        """A new waiting game like this finished one: same type, options and bots, each player's
        seat kept for them REMATCH_RESERVED_S; (its summary, whether it was made now)."""
        service = self.service
        game = service.load(game_id)
        if not game.finished:
            raise SeatConflict("A rematch is offered once the game is over.", code=Code.GAME_NOT_OVER,
                               version=game.version)
        if game.platform.rematch:
            return {"id": game.platform.rematch}, False
        until = now_ms() + REMATCH_RESERVED_S * 1000
        seats = []
        for s in game.seats:
            if s["bot"] is not None:
                seats.append({"bot": s["bot"]})
            elif s["player"] is not None:
                seats.append({"open": True, "reserved_for": s["player"], "reserved_until": until})
            else:
                seats.append({"open": True})
        created = service.create(game.definition.name, seats, dict(game.platform.options or {}), None,
                                 game.platform.private, game.platform.clock)
        for _ in range(ATTEMPTS):
            if game.platform.rematch:
                break
            try:
                service.append_platform(game, [NewEvent(pe.REMATCH, {"type": pe.REMATCH, "game_id": created["id"]},
                                                        None)])
                return created, True
            except Conflict:
                game = service.load(game_id)
        # Another rematch won: ours is withdrawn (ended, out of the lobby) and theirs answered.
        new = service.load(created["id"])
        service.append_platform(new, [NewEvent(pe.ABANDONED, {"type": pe.ABANDONED, "reason": "a duplicate rematch",
                                                               "idle_seconds": 0}, None)])
        if self.index is not None:
            self.index.place(new.id, new.definition.name, None, now_ms())
        return {"id": game.platform.rematch}, False

    # ---- reading ----------------------------------------------------------------------------

    def listing(self, status: str, type_: Optional[str], cursor: Optional[tuple[int, str]], limit: int) -> tuple:
        """(games, next cursor) of the lobby: newest first; entries whose game changed status
        are moved to where they belong as they are met."""
        shown, scanned = [], 0
        while len(shown) < limit and scanned < limit * 4:
            batch = self.index.page(status, type_, cursor, limit)
            if not batch:
                return shown, None
            for game_id, score in batch:
                scanned += 1
                cursor = (score, game_id)
                game = self._game_or_none(game_id)
                if game is None or game.platform.private or game.status != status or \
                        (type_ and game.definition.name != type_):
                    if game is None or game.platform.private:
                        self.index.place(game_id, type_ or "-", None, score)
                    elif game.status != status:
                        self.index.place(game_id, game.definition.name, game.status, game.last_at or score)
                    else:
                        self.index.drop(game_id, status, type_)
                    continue
                shown.append(summary(game, score))
                if len(shown) == limit:
                    break
        return shown, cursor

    def my_games(self, player: Player, status: Optional[str], my_turn: Optional[bool],
                 cursor: Optional[tuple[int, str]], limit: int) -> tuple:
        players = self.service.players
        shown, scanned = [], 0
        while len(shown) < limit and scanned < limit * 10:
            batch = players.games_page(player.id, cursor, limit)
            if not batch:
                return shown, None
            for game_id, score in batch:
                scanned += 1
                cursor = (score, game_id)
                game = self._game_or_none(game_id)
                seat = None if game is None else game.seat_of_player(player.id)
                if seat is None:
                    players.forget_game(player.id, game_id)
                    continue
                item = summary(game, score)
                item["you"] = seat
                item["my_turn"] = seat in people_to_act(game) and not game.finished
                if (status and game.status != status) or (my_turn is not None and item["my_turn"] != my_turn):
                    continue
                shown.append(item)
                if len(shown) == limit:
                    break
        return shown, cursor

    def _game_or_none(self, game_id: str) -> Optional[Game]:
        try:
            return self.service.load(game_id)
        except UnknownGame:
            return None


def summary(game: Game, at: int) -> dict:
    shown = {"id": game.id, "type": game.definition.name, "status": game.status, "version": game.version,
             "seats": [public_seat(i, s) for i, s in enumerate(game.seats)], "to_act": game.actors(),
             "last_move_at": game.last_at or at, "rematch": game.platform.rematch}
    if game.platform.clock is not None:
        shown["clock"] = clocks.shown(game.platform, now_ms())  # a player's games: whose time runs out when
    return shown


def check_seated(game: Game, holder, seat: Optional[int] = None) -> None:
    """Refuses a caller who holds no seat (or not `seat`) of the game."""
    if holder is None:
        raise SeatNotYours("This needs the key of a player seated in the game, or a seat's token.")
    if seat is not None and holder != seat and not (holder == TABLE and seat in game.table_seats()):
        raise SeatNotYours(f"You do not hold seat {seat}.")

