"""What people read of the ratings: leaderboards and public profiles (Flask-free).

An identity is shown as the player it is (`{"player": {"id", "name"}}`) or the bot level
(`{"bot": level}`); ranks on a leaderboard count from 1.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code
from api.ratings.ledger import Ledger

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
        found = self.ledger.board(type_, offset, limit, provisional)
        ratings = self.ledger.ratings(type_, [who for who, _ in found])
        people = self.players.find_many([who.partition(":")[2] for who, _ in found if who.startswith("player:")])
        return [{"rank": offset + i + 1, **_shown_as(who, people), **ratings[who].shown()}
                for i, (who, _) in enumerate(found) if who in ratings]

    def around(self, type_: str, player_id: str, limit: int, provisional: bool) -> tuple[int, list[dict[str, Any]]]:
        """(the offset, the page) of the leaderboard with the player near its middle (from the
        top when the player is not on it)."""
        rank = self.ledger.board_rank(type_, f"player:{player_id}", provisional)
        offset = max(0, (rank or 0) - limit // 2)
        return offset, self.leaderboard(type_, offset, limit, provisional)

    def check_player(self, player_id: str) -> None:
        if self.players.find(player_id) is None:
            raise UnknownPlayerId("No player has this id.")

    def profile(self, player_id: str) -> dict[str, Any]:
        player = self.players.find(player_id)
        if player is None:
            raise UnknownPlayerId("No player has this id.")
        who = f"player:{player_id}"
        ratings = self.ledger.types_of(who, self.game_types())
        return {"id": player.id, "name": player.name,
                "ratings": {type_: {**r.shown(), "history": self.ledger.history(type_, who)}
                            for type_, r in ratings.items()}}


def _shown_as(who: str, people: dict[str, Any]) -> dict[str, Any]:
    """An identity as a leaderboard shows it: the bot level, or the player and its name."""
    kind, _, name = who.partition(":")
    if kind == "bot":
        return {"bot": name}
    player = people.get(name)
    return {"player": {"id": name, "name": player.name if player is not None else None}}
