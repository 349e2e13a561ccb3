"""Leaderboards, public profiles and quick matchmaking. Thin: api/ratings/ and api/matchmaking/ decide."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, fields, validate

from api.http import app_links
from api.http.auth import current_player
from api.http.moderation import seen_at_address
from api.http.requests import cursor_link, games, json_body, lobby, next_link, parse_cursor, players, query
from api.http.schemas import JsonBool
from api.ratings.standings import game_unrated_reason

if TYPE_CHECKING:
    from api.matchmaking.pairing import Matchmaker
    from api.ratings.profiles import Ratings

bp = Blueprint("ratings", __name__)


class LeaderboardQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    provisional = fields.String(load_default="exclude", validate=validate.OneOf(["exclude", "include"]))
    around = fields.String(validate=validate.OneOf(["me"]))


_board_query = LeaderboardQuerySchema()


def ratings() -> Ratings:
    return cast("Ratings", current_app.extensions["ratings"])


@bp.get("/leaderboards/<type>")
def leaderboard(type: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml: /leaderboards/{type})
    type_ = type
    ratings().check_type(type_)
    page = query(_board_query)
    include = page["provisional"] == "include"
    if page.get("around") == "me":
        player = current_player(players())
        offset, found = ratings().around(type_, player.id, page["limit"], include)
    else:
        offset, found = page["offset"], ratings().leaderboard(type_, page["offset"], page["limit"], include)
    more = len(found) == page["limit"]
    args = {"offset": offset + page["limit"], "limit": page["limit"], "provisional": page["provisional"]}
    return {"type": type_, "players": found, "next": next_link(f"/leaderboards/{type_}", args) if more else None}


class SeasonBoardQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    provisional = fields.String(load_default="include", validate=validate.OneOf(["exclude", "include"]))


_season_query = SeasonBoardQuerySchema()


@bp.get("/seasons/<type>")
def seasons(type: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml: /seasons/{type})
    return ratings().seasons(type)


@bp.get("/seasons/<type>/<season>/leaderboard")
def season_leaderboard(type: str, season: str) -> ResponseReturnValue:  # openapi.yaml's names
    shown = ratings().season(type, season)  # 404: no such type, no such month, not started yet
    page = query(_season_query)
    name = shown["season"]
    found = ratings().season_leaderboard(type, name, page["offset"], page["limit"], page["provisional"] == "include")
    more = len(found) == page["limit"]
    args = {"offset": page["offset"] + page["limit"], "limit": page["limit"], "provisional": page["provisional"]}
    return {"type": type, **shown, "players": found,
            "next": next_link(f"/seasons/{type}/{name}/leaderboard", args) if more else None}


@bp.get("/players/<id>")
def profile(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml: /players/{id})
    return {**ratings().profile(id), "links": app_links.player_links(id)}


class PlayerGamesQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,15}\.[A-Za-z0-9_-]{1,64}$"))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


_player_games = PlayerGamesQuerySchema()


@bp.get("/players/<id>/games")
def player_games(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml: /players/{id}/games)
    page = query(_player_games)
    ratings().check_player(id)
    skipped: list[dict[str, Any]] = []  # games passed over, their archived records damaged
    found, cursor = lobby().public_games(id, parse_cursor(page.get("cursor")), page["limit"], skipped)
    more = len(found) == page["limit"]
    return {"games": found, "next": cursor_link(f"/players/{id}/games", cursor) if more else None,
            **({"skipped": skipped} if skipped else {})}


class SeekSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    seats = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=12))
    max_seats = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=12))
    rated = JsonBool(load_default=True)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    clock = fields.Raw(load_default=None, allow_none=True)  # checked by api/platform/clocks.py


_seek = SeekSchema()


def matchmaker() -> Matchmaker:
    return cast("Matchmaker", current_app.extensions["matchmaker"])


@bp.post("/matchmaking")
def seek() -> ResponseReturnValue:
    player = current_player(players())
    body = _seek.load(json_body())
    seen_at_address(player.id)
    return matchmaker().seek(player, body["type"], body["seats"], body["rated"], body["options"], body["clock"],
                             body["max_seats"]), 201


@bp.get("/matchmaking")
def seek_status() -> ResponseReturnValue:
    return matchmaker().status(current_player(players()))


@bp.delete("/matchmaking")
def leave_queue() -> ResponseReturnValue:
    matchmaker().leave(current_player(players()))
    return "", 204


@bp.get("/games/<game_id>/ratings")
def game_ratings(game_id: str) -> ResponseReturnValue:
    """Each seat's rating before and after the game, once the game is counted (seconds after its
    end); `seats` null before that, and for a game that is not rated, which `unrated_reason`
    names once the game is over (api/ratings/standings.py)."""
    game = games().load(game_id)  # 404 for an unknown game
    return {"id": game_id, "seats": ratings().ledger.game_changes(game_id, game.definition.name),
            "unrated_reason": game_unrated_reason(game)}
