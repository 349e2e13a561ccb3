"""Seat commands: resign, abort, return to a seat a bot took over, pause and resume. Thin: api/seating/control.py
decides; the caller is authenticated as in the lobby (a seat's token, a player's key seated in
the game, or the table token: api/games/callers.py's one rule of who a caller acts as)."""
from __future__ import annotations

from typing import cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from api.http.auth import caller, requested_seat
from api.http.requests import games, seat_number
from api.seating.control import SeatControl
from api.seating.pauses import Pauses

bp = Blueprint("seat_control", __name__)


def control() -> SeatControl:
    # built once, with ABORT_AFTER_S (wiring.py)
    return cast(SeatControl, current_app.extensions["seat_control"])


def _acting_seat(game_id: str, path_seat: int | None = None) -> int:
    """The seat the command acts as: the one in the path, or `?seat=`, or the caller's own."""
    service = games()
    holder, _ = caller(service, game_id, required=True)
    asked = requested_seat() if path_seat is None else path_seat
    seat = service.resolve_seat(game_id, holder, asked, acting=True)
    assert seat is not None  # a holder is required above, and one acting always acts as a seat
    return seat


@bp.post("/games/<game_id>/resign")
def resign(game_id: str) -> ResponseReturnValue:
    return control().resign(game_id, _acting_seat(game_id))


@bp.post("/games/<game_id>/abort")
def abort(game_id: str) -> ResponseReturnValue:
    return control().abort(game_id, _acting_seat(game_id))


@bp.post("/games/<game_id>/seats/<seat>/return")
def return_seat(game_id: str, seat: str) -> ResponseReturnValue:
    number = seat_number(seat)
    games().load(game_id)  # an unknown game is 404 first
    return control().return_seat(game_id, _acting_seat(game_id, number))


def pauses() -> Pauses:
    return cast(Pauses, current_app.extensions["pauses"])  # built once (wiring.py)


@bp.post("/games/<game_id>/pause")
def pause(game_id: str) -> ResponseReturnValue:
    """Agrees to pause the game (the first agreement proposes it); every seated person's
    agreement stops the clocks."""
    return pauses().agree(game_id, _acting_seat(game_id))


@bp.post("/games/<game_id>/resume")
def resume(game_id: str) -> ResponseReturnValue:
    """Ends the agreed pause (any seated person), or withdraws the proposal."""
    return pauses().resume(game_id, _acting_seat(game_id))
