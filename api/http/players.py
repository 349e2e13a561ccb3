"""Players: make one, read and rename yourself, rotate your key, your games. Thin: the logic is
api/players/accounts.py's and api/seating/claims.py's."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from api.http.auth import bearer_token, current_player
from api.http.requests import json_body, query
from api.http.schemas import MyGamesQuerySchema, PlayerNameSchema

bp = Blueprint("players", __name__)

_name = PlayerNameSchema()
_my_games = MyGamesQuerySchema()


def players():
    return current_app.extensions["players"]


def lobby():
    return current_app.extensions["lobby"]


def parse_cursor(raw):
    if raw is None:
        return None
    score, _, member = raw.partition(".")
    return int(score), member


def next_link(path: str, cursor, args: dict):
    """The URL of the next page (None at the end): the same query with the new cursor."""
    if cursor is None:
        return None
    kept = {k: v for k, v in args.items() if k != "cursor"}
    kept["cursor"] = f"{cursor[0]}.{cursor[1]}"
    return path + "?" + "&".join(f"{k}={v}" for k, v in kept.items())


@bp.post("/players")
def create_player():
    body = _name.load(json_body())
    player, key = players().create(body["name"])
    return {"id": player.id, "name": player.name, "key": key}, 201, {"Location": "/players/me"}


@bp.get("/players/me")
def read_me():
    player = current_player(players())
    return {"id": player.id, "name": player.name}


@bp.patch("/players/me")
def rename_me():
    player = current_player(players())
    body = _name.load(json_body())
    player = players().rename(player, body["name"])
    return {"id": player.id, "name": player.name}


@bp.post("/players/me/keys")
def rotate_key():
    player = current_player(players())
    key = players().rotate(player, bearer_token())
    return {"id": player.id, "name": player.name, "key": key}, 201


@bp.get("/players/me/games")
def my_games():
    player = current_player(players())
    page = query(_my_games)
    games, cursor = lobby().my_games(player, page.get("status"), page.get("my_turn"),
                                     parse_cursor(page.get("cursor")), page["limit"])
    args = request.args.to_dict() if request.environ.get("QUERY_STRING") else {}
    return {"games": games, "next": next_link("/players/me/games", cursor, args) if len(games) == page["limit"]
            else None}
