"""Who a request acts or looks as: a seat's token, the game's table token (the seats its holder
named at creation, naming one with `?seat=N`), a player's key (the seat that player sits in,
if any), or nobody (a spectator); one rule (`seat_as`) for every route that asks. Tokens are
kept only as SHA-256 hashes and compared in constant time: the creator's in the game's
credentials, a claimed seat's in its `seat_claimed` event (so in the game's platform state)."""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any, TypeGuard

from api.errors import InvalidToken, SeatNotYours, SeatRequired, TokenRequired
from api.games.repository import Game, GameRepository
from domain.contract import is_seat

KEY_PREFIX = "pk."  # a player's key (api/players/accounts.py); a seat's token starts with its game's id


def is_player_key(token: str | None) -> TypeGuard[str]:
    return token is not None and token.startswith(KEY_PREFIX)


def is_identity_token(token: str | None) -> bool:
    """A JWT by its shape (api/players/identity_tokens.py): three dot-separated parts, the first
    a JSON object's base64url (`eyJ`, `{"`). A seat's token's first part is its 12-character
    game id, too short for a JWT's header."""
    if token is None or not token.startswith("eyJ"):
        return False
    parts = token.split(".")
    return len(parts) == 3 and len(parts[0]) > 12 and bool(parts[1])  # an unsigned one (`none`) is refused later


def is_player_credential(token: str | None) -> bool:
    """A player's key or an identity token: what names a player rather than a seat."""
    return is_player_key(token) or is_identity_token(token)

TABLE = "table"  # the holder of a game's table token, and its key among the credentials
Holder = int | str | None  # who a bearer token is: a seat, TABLE, or nobody


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def people_to_act(game: Game) -> list[int]:
    """The person (not bot) seats the game waits for."""
    return [a for a in game.actors() if is_seat(a) and not game.bot_level(a)]


def _match(pairs: Iterable[tuple[str, str | None]], digest: str) -> Holder:
    found: Holder = None
    for key, stored in pairs:
        # Constant time per comparison, and every seat is compared: no early exit to time.
        if stored is not None and hmac.compare_digest(stored, digest):
            found = TABLE if key == TABLE else int(key)
    return found


def claimed_hashes(game: Game) -> list[tuple[str, str | None]]:
    return [(str(i), s["token_sha256"]) for i, s in enumerate(game.seats) if s["token_sha256"]]


class Seats:
    def __init__(self, games: GameRepository, players: Any = None) -> None:
        self.games = games
        self.players = players  # api/players.Players, or None where there are no players

    def holder(self, game_id: str, token: str | None) -> Holder:
        """The seat a bearer token belongs to, TABLE for the table token; None for no token
        (and for a player's key when that player sits in no seat of the game)."""
        if token is None:
            return None
        if is_player_credential(token):
            if self.players is None:
                raise InvalidToken("This server has no players.")
            player = self.players.authenticate(token)
            return self.games.load(game_id).seat_of_player(player.id)
        digest = hash_token(token)
        found = _match(self.games.credentials(game_id).items(), digest)
        if found is None:
            # A claimed seat's token: in the game's state as of now (a load reads what was
            # appended since this process last looked: a claim, or a seat left).
            found = _match(claimed_hashes(self.games.load(game_id)), digest)
        if found is None:
            raise InvalidToken("This token does not belong to a seat of this game.")
        return found

    def resolve(self, game_id: str, holder: Holder, asked: int | None, acting: bool = False,
                expected: int | None = None) -> int | None:
        """The seat a request acts (acting) or looks as: `seat_as` on the game, loaded only for
        the table token (fresh where it acts without naming a seat: who is to act now, unless
        the process holds the game at `expected`, the version the command names: who acts
        there is whom the caller means, and a game moved on since refuses the append)."""
        game = None
        if holder == TABLE:
            cached = self.games.cached(game_id)
            if acting and asked is None and (cached is None or expected is None or cached.version != expected):
                cached = None
            game = cached or self.games.load(game_id)
        return seat_as(game, holder, asked, acting)


def seat_as(game: Game | None, holder: Holder, asked: int | None, acting: bool) -> int | None:
    """The one rule of who a caller acts or looks as (moves, legal moves, reads, streams,
    resign, abort, return, leave, webhooks), from its token's holder and the seat it names
    (`?seat=N`, or the seat in the path); None: a spectator.

    - nobody: a spectator; naming a seat needs that seat's credentials (401);
    - a seat's token or a player's key: its own seat, and no other (403);
    - the table token naming a seat: that seat, if it is one the creator named (403 otherwise);
    - the table token naming none: looks as a spectator; acts as the only seat it holds, or,
      holding several, as the one of them a person must act in now (400 seat_required when
      none or several are: it must name one).
    `game` is needed for the table token only."""
    if holder is None:
        if asked is not None:
            raise TokenRequired(f"Seat {asked}'s view needs its token (or the game's table token).")
        return None
    if isinstance(holder, int):  # a seat's token, or a player's key: the seat it holds
        if asked is not None and asked != holder:
            raise SeatNotYours(f"This token is seat {holder}'s, not seat {asked}'s.")
        return holder
    assert game is not None
    held = game.table_seats()
    if asked is not None:
        if asked not in held:
            raise SeatNotYours(f"Seat {asked} is not one the table token holds: it holds the seats its creator "
                               f"named, {', '.join(map(str, held))}.")
        return asked
    if not acting:
        return None
    if len(held) == 1:
        return held[0]
    people = [s for s in people_to_act(game) if s in held]
    if len(people) != 1:
        raise SeatRequired("Name the seat to act as with ?seat=N: " + (
            f"seats {', '.join(map(str, people))} are all to act." if people else "no person's seat is to act."),
            details={"to_act": people})
    return people[0]
