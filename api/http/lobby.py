"""The lobby: listing games, claiming and leaving seats, rematches. Thin: api/seating/claims.py decides."""
from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue

from api.errors import ValidationFailed
from api.games import harvest
from api.http.auth import caller, current_player
from api.http.deprecation import deprecation_value
from api.http.moderation import seen_at_address
from api.http.requests import cursor_link, games, json_body, lobby, next_link, parse_cursor, players, query, seat_number
from api.http.schemas import ClaimSchema, HarvestQuerySchema, ListingQuerySchema
from api.seating.claims import Claimer

bp = Blueprint("lobby", __name__)

_listing = ListingQuerySchema()
_harvest_query = HarvestQuerySchema()
_claim = ClaimSchema()


NDJSON = "application/x-ndjson"
HARVEST_MOVED = date(2026, 12, 1)  # GET /games?status=finished&since= became GET /games/ended (issue 28)


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    page = query(_listing)
    if "since" in page:
        return _legacy_harvest(page)
    if "format" in page:
        raise ValidationFailed("format is for the harvest of ended games: GET /games/ended?since=...",
                               details={"fields": {"format": ["Only with since."]}})
    skipped: list[dict[str, Any]] = []  # games passed over, their archived records damaged
    found, cursor = lobby().listing(page["status"], page.get("type"), parse_cursor(page.get("cursor")),
                                    page["limit"], skipped)
    # A page may be short with more behind it (entries passed over: moved, damaged, or one
    # player's past LOBBY_GAMES_PER_PLAYER): `next` is null only once the index has no more.
    return {"games": found, "next": cursor_link("/games", cursor) if cursor is not None else None,
            **({"skipped": skipped} if skipped else {})}


@bp.get("/games/ended")
def list_ended_games() -> ResponseReturnValue:
    """The harvest: every ended game after the cursor `since`, in order: JSON pages (`next`
    always given, to come back to) or, asked for NDJSON, all of them up to now in one answer."""
    return _harvest(query(_harvest_query))


def _legacy_harvest(page: dict[str, Any]) -> Response:
    """`GET /games?status=finished&since=` (before /games/ended had its own operation, where every
    parameter goes with every other): still answered, marked deprecated, pointing at its successor."""
    if page["status"] != "finished" or "cursor" in page:
        raise ValidationFailed("since harvests the finished games: GET /games/ended?since=...",
                               details={"fields": {"since": ["Only with status=finished, without cursor."]}})
    response = _harvest(page)
    response.headers["Deprecation"] = deprecation_value(HARVEST_MOVED)
    response.headers["Link"] = '</games/ended>; rel="successor-version"'
    return response


def _harvest(page: dict[str, Any]) -> Response:
    store, retention_s = games().store, games().games.retention_s
    whole = page.get("format") == "ndjson" or (
        "format" not in page and request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON)
    if whole:
        response = Response(harvest.ndjson(store, page["since"], page.get("type"), retention_s), mimetype=NDJSON)
    else:
        skipped: list[dict[str, Any]] = []  # games passed over, their archived records damaged
        found, cursor = harvest.page(store, page["since"], page.get("type"), page["limit"],
                                     retention_s=retention_s, skipped=skipped)
        args = {"since": cursor, "limit": page["limit"]}
        if page.get("type"):
            args["type"] = page["type"]
        response = current_app.make_response({"games": found, "next": next_link("/games/ended", args),
                                              **({"skipped": skipped} if skipped else {})})
    response.vary.add("Accept")
    return response


@bp.post("/games/<game_id>/seats/<seat>/claim")
def claim_seat(game_id: str, seat: str) -> ResponseReturnValue:
    number = seat_number(seat)
    games().load(game_id)  # an unknown game is 404 before anything else is judged
    player = current_player(players(), required=False)
    body = _claim.load(json_body()) if request.get_data(cache=True) else {}
    # Without a key or a name the claimer is named after the seat, as people count seats (from 1).
    name = player.name if player is not None else body.get("name") or f"Player {number + 1}"
    invite = request.args.get("invite") if request.environ.get("QUERY_STRING") else None
    if invite is not None and not 1 <= len(invite) <= 100:
        raise ValidationFailed("An invite code has 1 to 100 characters.")
    if player is not None:
        seen_at_address(player.id)  # before the claim: a rated game's links read it (api/seating/claims.py)
    claimed = lobby().claim(game_id, number, Claimer(name, player), invite)
    return claimed, 201


@bp.post("/games/<game_id>/seats/<seat>/leave")
def leave_seat(game_id: str, seat: str) -> ResponseReturnValue:
    number = seat_number(seat)
    service = games()
    holder, _ = caller(service, game_id, required=True)
    service.resolve_seat(game_id, holder, number, acting=True)  # the seat's own credentials, or 403
    return lobby().leave(game_id, number)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> ResponseReturnValue:
    caller(games(), game_id, required=True)  # anyone seated: a seat's token, a seated player's key, the table token
    answer, made = lobby().rematch(game_id)
    return answer, (201 if made else 200), {"Location": f"/games/{answer['id']}"}

