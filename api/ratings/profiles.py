"""What people read of the ratings: leaderboards and public profiles (Flask-free).

An identity is shown as the player it is (`{"player": {"id", "name"}}`) or the bot level
(`{"bot": level}`); ranks on a leaderboard count from 1.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code
from api.ratings import seasons
from api.ratings.ledger import Ledger, season_board

if TYPE_CHECKING:
    from api.players.accounts import Players


class UnknownPlayerId(ApiError):
    status, code = 404, Code.UNKNOWN_PLAYER


class UnknownBoard(ApiError):
    status, code = 404, Code.UNKNOWN_GAME_TYPE


class Ratings:
    def __init__(self, ledger: Ledger, players: Players, game_types: Callable[[], list[str]]) -> None:
        self.ledger = ledger
        self.players = players  # api/players/accounts.Players
        self.game_types = game_types  # () -> the names of the hosted game types

    def check_type(self, type_: str) -> None:
        if type_ not in self.game_types():
            raise UnknownBoard(f"This server hosts no game {type_!r} (GET /game-types lists them).")

    def leaderboard(self, type_: str, offset: int, limit: int, provisional: bool) -> list[dict[str, Any]]:
        return self._board(type_, offset, limit, provisional)

    def _board(self, kept: str, offset: int, limit: int, provisional: bool) -> list[dict[str, Any]]:
        """A page of the table kept under `kept` (a type's, or a season's: ledger.season_board)."""
        found = self.ledger.board(kept, offset, limit, provisional)
        ratings = self.ledger.ratings(kept, [who for who, _ in found])
        people = self.players.find_many([who.partition(":")[2] for who, _ in found if who.startswith("player:")])
        return [{"rank": offset + i + 1, **_shown_as(who, people), **ratings[who].shown()}
                for i, (who, _) in enumerate(found) if who in ratings]

    def around(self, type_: str, player_id: str, limit: int, provisional: bool) -> tuple[int, list[dict[str, Any]]]:
        """(the offset, the page) of the leaderboard with the player near its middle (from the
        top when the player is not on it)."""
        rank = self.ledger.board_rank(type_, f"player:{player_id}", provisional)
        offset = max(0, (rank or 0) - limit // 2)
        return offset, self.leaderboard(type_, offset, limit, provisional)

    # ---- seasons (api/ratings/seasons.py) ------------------------------------------------------
    def season(self, type_: str, season: str, now_ms: int | None = None) -> dict[str, Any]:
        """The season a path names (`YYYY-MM` or `current`), shown; refused when it is no month or
        has not started (the type is checked first)."""
        self.check_type(type_)
        now_ms = _now(now_ms)
        return seasons.shown(seasons.resolve(season, now_ms), now_ms)

    def season_leaderboard(self, type_: str, season: str, offset: int, limit: int,
                           provisional: bool) -> list[dict[str, Any]]:
        """A page of a season's table (its rated games only, from an empty start)."""
        return self._board(season_board(type_, season), offset, limit, provisional)

    def seasons(self, type_: str, now_ms: int | None = None) -> dict[str, Any]:
        """The type's seasons, newest first: the running one (even before its first rated game)
        and every earlier one with a rated game, each with how many were rated in it."""
        self.check_type(type_)
        now_ms = _now(now_ms)
        running = seasons.current(now_ms)
        names = sorted(set(self.ledger.seasons(type_)) | {running}, reverse=True)
        names = [s for s in names if s <= running]  # a game whose clock ran ahead of this one's
        sizes = self.ledger.season_sizes(type_, names)
        return {"type": type_, "current": running,
                "seasons": [{**seasons.shown(s, now_ms), "rated": n} for s, n in zip(names, sizes)]}

    def check_player(self, player_id: str) -> None:
        if self.players.find(player_id) is None:
            raise UnknownPlayerId("No player has this id.")

    def profile(self, player_id: str) -> dict[str, Any]:
        player = self.players.find(player_id)
        if player is None:
            raise UnknownPlayerId("No player has this id.")
        who = f"player:{player_id}"
        types = self.game_types()
        ratings = self.ledger.types_of(who, types)
        now_ms = _now(None)
        return {"id": player.id, "name": player.name,
                "ratings": {type_: {**r.shown(), "history": self.ledger.history(type_, who)}
                            for type_, r in ratings.items()},
                "seasons": {type_: [{**seasons.shown(season, now_ms), "rank": rank + 1, **r.shown()}
                                    for season, r, rank in reversed(played)]
                            for type_, played in self.ledger.seasons_of(who, types).items()}}


def _now(now_ms: int | None) -> int:
    return now_ms if now_ms is not None else int(time.time() * 1000)


def _shown_as(who: str, people: dict[str, Any]) -> dict[str, Any]:
    """An identity as a leaderboard shows it: the bot level, or the player and its name."""
    kind, _, name = who.partition(":")
    if kind == "bot":
        return {"bot": name}
    player = people.get(name)
    return {"player": {"id": name, "name": player.name if player is not None else None}}
