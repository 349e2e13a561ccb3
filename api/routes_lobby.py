"""The lobby: listing games, claiming and leaving seats, rematches. Thin: api/lobby.py decides."""
from __future__ import annotations

from flask import Blueprint, request

from .auth import caller, current_player
from .errors import ValidationFailed
from .http import games, json_body, query
from .input_rules import digits
from .lobby import Claimer, check_seated
from .routes_players import lobby, next_link, parse_cursor, players
from .schemas import ClaimSchema, ListingQuerySchema

bp = Blueprint("lobby", __name__)

_listing = ListingQuerySchema()
_claim = ClaimSchema()


@bp.get("/games")
def list_games():
    page = query(_listing)
    found, cursor = lobby().listing(page["status"], page.get("type"), parse_cursor(page.get("cursor")),
                                    page["limit"])
    args = request.args.to_dict() if request.environ.get("QUERY_STRING") else {}
    return {"games": found, "next": next_link("/games", cursor, args) if len(found) == page["limit"] else None}


def _seat_number(raw: str) -> int:
    if len(raw) > 3:
        raise ValidationFailed("A seat number has at most 3 digits.", details={"fields": {"seat": ["Too long."]}})
    return digits(raw, "seat")


@bp.post("/games/<game_id>/seats/<seat>/claim")
def claim_seat(game_id, seat):
    seat = _seat_number(seat)
    games().load(game_id)  # an unknown game is 404 before anything else is judged
    player = current_player(players(), required=False)
    body = _claim.load(json_body()) if request.get_data(cache=True) else {}
    if player is None and "name" not in body:
        raise ValidationFailed("Claim as a player (Authorization: Bearer <player key>) or name yourself: "
                               "{\"name\": ...}.", details={"fields": {"name": ["Missing."]}})
    name = player.name if player is not None else body["name"]
    invite = request.args.get("invite") if request.environ.get("QUERY_STRING") else None
    if invite is not None and not 1 <= len(invite) <= 100:
        raise ValidationFailed("An invite code has 1 to 100 characters.")
    claimed = lobby().claim(game_id, seat, Claimer(name, player), invite)
    return claimed, 201


@bp.post("/games/<game_id>/seats/<seat>/leave")
def leave_seat(game_id, seat):
    seat = _seat_number(seat)
    service = games()
    holder, _ = caller(service, game_id, required=True)
    check_seated(service.load(game_id), holder, seat)
    return lobby().leave(game_id, seat)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id):
    service = games()
    holder, _ = caller(service, game_id, required=True)
    check_seated(service.load(game_id), holder)
    answer, made = lobby().rematch(game_id)
    return answer, (201 if made else 200), {"Location": f"/games/{answer['id']}"}

