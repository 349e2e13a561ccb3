"""Leaderboards and public profiles. Thin: api/ratings/profiles.py decides."""
from __future__ import annotations

from flask import Blueprint, current_app
from marshmallow import RAISE, Schema, fields, validate

from api.http.auth import current_player
from api.http.requests import next_link, players, query

bp = Blueprint("ratings", __name__)


class LeaderboardQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    provisional = fields.String(load_default="exclude", validate=validate.OneOf(["exclude", "include"]))
    around = fields.String(validate=validate.OneOf(["me"]))


_board_query = LeaderboardQuerySchema()


def ratings():
    return current_app.extensions["ratings"]


@bp.get("/leaderboards/<type_>")
def leaderboard(type_):
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


@bp.get("/players/<player_id>")
def profile(player_id):
    return ratings().profile(player_id)
