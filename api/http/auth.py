"""Who is asking: a seat's bearer token, the game's table token, or nobody (a spectator).

A table token (pass-and-play on one device, an integration that runs a whole table) holds
every person seat its creator named: the creator receives it beside the seats' tokens, so it
grants nothing the creator does not already hold. Which seat a caller acts or looks as is one
rule for every route (api/games/callers.py, `seat_as`): a table token names its seat with
`?seat=N`; without one it acts as the only seat it holds or, holding several, the one of them
a person must act in now, and looks as a spectator.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, overload

from api.errors import Code, InvalidToken, SeatNotYours, TokenRequired, ValidationFailed
from api.games.callers import Holder, is_identity_token, is_player_credential
from api.http import current
from api.input_rules import DIGITS

if TYPE_CHECKING:
    from api.players.accounts import Player, Players


class Seating(Protocol):
    """Who a token is and which seat it acts or looks as: the game service, or the live path's
    cache of it (api/http/streams/game.py)."""

    def seat_for_token(self, game_id: str, token: str | None) -> Holder: ...

    def resolve_seat(self, game_id: str, holder: Holder, asked: int | None, acting: bool = False,
                     expected: int | None = None) -> int | None: ...

MAX_IDENTITY_TOKEN = 8000  # a JWT's length (an identity provider's run to 1 or 2 KB); a header line holds 8190


def parse_bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when it is not one."""
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def bearer_token() -> str | None:
    header = current.req().environ.get("HTTP_AUTHORIZATION")  # as request.headers would read it
    if header is None:
        return None
    token = parse_bearer(header)
    longest = MAX_IDENTITY_TOKEN if is_identity_token(token) else 200
    if token is None or len(header.partition(" ")[2]) > longest:
        raise InvalidToken("Send the token as 'Authorization: Bearer <token>' (at most 200 characters; "
                           f"an identity token {MAX_IDENTITY_TOKEN}).", code=Code.TOKEN_MALFORMED)
    return token


def requested_seat() -> int | None:
    """The seat named by `?seat=N`, if any."""
    this = current.req()
    if not this.environ.get("QUERY_STRING"):
        return None
    raw = this.args.get("seat")
    if raw is None:
        return None
    if DIGITS.fullmatch(raw) is None or len(raw) > 3:  # ASCII: "²".isdigit() is True
        raise ValidationFailed("`seat` is a seat number: 0, 1, ...", code=Code.VALIDATION_ERROR,
                               details={"fields": {"seat": ["Not a seat number."]}})
    return int(raw)


def caller(service: Seating, game_id: str, required: bool = False,
           acting: bool = False, expected: int | None = None) -> tuple[Holder, int | None]:
    """(holder, seat): the token's holder (a seat, TABLE or None) and the seat the request is
    answered as (None: a spectator), by the one rule (api/games/callers.py): `acting` for a
    command (a table token without `?seat=` acts as a seat), looking otherwise; `expected`: the
    version the command names (a table token acting without `?seat=` is judged on the state at
    it when the process holds that one: no read)."""
    asked = requested_seat()  # by pattern, before any Redis call
    token = bearer_token()
    if token is None and required:
        raise TokenRequired("This needs a seat's token: 'Authorization: Bearer <token>'.")
    holder = service.seat_for_token(game_id, token)
    if holder is None and token is not None and required:
        raise SeatNotYours("You sit in no seat of this game.")
    return holder, service.resolve_seat(game_id, holder, asked, acting=acting, expected=expected)


def acting_caller(service: Seating, game_id: str, expected: int | None = None) -> tuple[Holder, int]:
    """(holder, seat) of a command: a caller with a token, acting as a seat (the rule answers
    a seat for every holder acting, or refuses)."""
    holder, seat = caller(service, game_id, required=True, acting=True, expected=expected)
    assert seat is not None  # required: a holder; acting: the holder's seat
    return holder, seat


@overload
def current_player(players: Players | None, required: Literal[True] = True) -> Player: ...


@overload
def current_player(players: Players | None, required: bool) -> Player | None: ...


def current_player(players: Players | None, required: bool = True) -> Player | None:
    """The player whose key (or identity token) the request carries (api/players/accounts.py); None without one when not
    required."""
    token = bearer_token()
    if token is None:
        if required:
            raise TokenRequired("This needs a player's key: 'Authorization: Bearer pk.…' (POST /players makes one), "
                                "or an identity token (a JWT) from a provider this server trusts.")
        return None
    if not is_player_credential(token):
        raise InvalidToken("This bearer token is neither a player's key ('pk.…', from POST /players) nor an "
                           "identity token (a JWT).", code=Code.TOKEN_MALFORMED)
    if players is None:
        raise InvalidToken("This server has no players.")
    return players.authenticate(token)


def seat_of(service: Seating, game_id: str, required: bool = False, acting: bool = False) -> int | None:
    return caller(service, game_id, required, acting)[1]
