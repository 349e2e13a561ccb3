"""Who a request acts or looks as: a seat's token, the game's table token (every person seat,
naming one with `?seat=N`), or nobody (a spectator). Tokens are kept only as SHA-256 hashes
and compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
from typing import Optional

from domain.contract import is_seat

from .errors import InvalidToken, SeatNotYours, SeatRequired, TokenRequired
from .repository import Game, GameRepository

TABLE = "table"  # the holder of a game's table token, and its key among the credentials


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def people_to_act(game: Game) -> list[int]:
    """The person (not bot) seats the game waits for."""
    return [a for a in game.actors() if is_seat(a) and not game.bot_level(a)]


class Seats:
    def __init__(self, games: GameRepository):
        self.games = games

    def holder(self, game_id: str, token: Optional[str]):
        """The seat a bearer token belongs to, TABLE for the table token; None for no token."""
        if token is None:
            return None
        digest = hash_token(token)
        found = None
        for key, stored in self.games.credentials(game_id).items():
            # Constant time per comparison, and every seat is compared: no early exit to time.
            if hmac.compare_digest(stored, digest):
                found = TABLE if key == TABLE else int(key)
        if found is None:
            raise InvalidToken("This token does not belong to a seat of this game.")
        return found

    def resolve(self, game_id: str, holder, asked: Optional[int], acting: bool = False) -> Optional[int]:
        """The seat a request is answered as, from its token's holder and `?seat=` (asked).
        A table token without `?seat=` acts as the one person seat to act (acting) and looks
        as a spectator (otherwise)."""
        if holder is None:
            if asked is not None:
                raise TokenRequired(f"Seat {asked}'s view needs its token (or the game's table token).")
            return None
        if holder != TABLE:
            if asked is not None and asked != holder:
                raise SeatNotYours(f"This token is seat {holder}'s, not seat {asked}'s.")
            return holder
        if asked is not None:
            _, _, seats, _ = self.games.meta(game_id)
            if asked >= len(seats) or "bot" in seats[asked]:
                raise SeatNotYours(f"Seat {asked} is not a person's seat of this game: the table token holds "
                                   f"seats {', '.join(str(i) for i, s in enumerate(seats) if 'bot' not in s)}.")
            return asked
        if not acting:
            return None
        people = people_to_act(self.games.load(game_id))
        if len(people) != 1:
            raise SeatRequired("Name the seat to act as with ?seat=N: " + (
                f"seats {', '.join(map(str, people))} are all to act." if people else "no person's seat is to act."),
                details={"to_act": people})
        return people[0]
