"""The lobby: listing games, claiming and leaving seats, rematches. Thin: api/seating/claims.py decides."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from api.errors import ValidationFailed
from api.games import harvest
from api.http.auth import caller, current_player
from api.http.requests import cursor_link, games, json_body, lobby, next_link, parse_cursor, players, query, seat_number
from api.http.schemas import ClaimSchema, ListingQuerySchema
from api.seating.claims import Claimer

bp = Blueprint("lobby", __name__)

_listing = ListingQuerySchema()
_claim = ClaimSchema()


NDJSON = "application/x-ndjson"


@bp.get("/games")
def list_games():
    page = query(_listing)
    if "since" in page:
        return _harvest(page)
    if "format" in page:
        raise ValidationFailed("format is for the harvest of finished games (status=finished&since=...).",
                               details={"fields": {"format": ["Only with since."]}})
    found, cursor = lobby().listing(page["status"], page.get("type"), parse_cursor(page.get("cursor")),
                                    page["limit"])
    return {"games": found, "next": cursor_link("/games", cursor) if len(found) == page["limit"] else None}


def _harvest(page: dict):
    """Every ended game after the cursor `since`, in order: JSON pages (`next` always given, to
    come back to) or, asked for NDJSON, all of them up to now in one streamed answer."""
    if page["status"] != "finished" or "cursor" in page:
        raise ValidationFailed("since harvests the finished games: status=finished, and no cursor.",
                               details={"fields": {"since": ["Only with status=finished, without cursor."]}})
    store = games().store
    whole = page.get("format") == "ndjson" or (
        "format" not in page and request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON)
    if whole:
        response = Response(harvest.ndjson(store, page["since"], page.get("type")), mimetype=NDJSON)
    else:
        found, cursor = harvest.page(store, page["since"], page.get("type"), page["limit"])
        args = {"status": "finished", "since": cursor, "limit": page["limit"]}
        if page.get("type"):
            args["type"] = page["type"]
        response = current_app.make_response({"games": found, "next": next_link("/games", args)})
    response.vary.add("Accept")
    return response


@bp.post("/games/<game_id>/seats/<seat>/claim")
def claim_seat(game_id, seat):
    seat = seat_number(seat)
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
    seat = seat_number(seat)
    service = games()
    holder, _ = caller(service, game_id, required=True)
    service.resolve_seat(game_id, holder, seat, acting=True)  # the seat's own credentials, or 403
    return lobby().leave(game_id, seat)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id):
    caller(games(), game_id, required=True)  # anyone seated: a seat's token, a seated player's key, the table token
    answer, made = lobby().rematch(game_id)
    return answer, (201 if made else 200), {"Location": f"/games/{answer['id']}"}

