"""Players: make one, read and rename yourself, your games, a device's sync after a gap (your keys:
player_keys.py). Thin: the logic is api/players/accounts.py's, api/players/sync.py's and
api/seating/claims.py's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint
from flask.typing import ResponseReturnValue

from api.http import app_links
from api.http import languages as http_languages
from api.http.auth import current_player
from api.http.moderation import made_by_caller, seen_at_address
from api.http.requests import cursor_link, json_body, lobby, parse_cursor, players, query
from api.http.schemas import MyGamesQuerySchema, NewPlayerSchema, PlayerNameSchema, SyncQuerySchema
from api.players.sync import notices_since

if TYPE_CHECKING:
    from api.players.accounts import Player

bp = Blueprint("players", __name__)

_name = PlayerNameSchema()
_new_player = NewPlayerSchema()
_my_games = MyGamesQuerySchema()
_sync = SyncQuerySchema()
SYNC_GAMES = 100  # games of each list a sync shows at most (the most recently active)


@bp.post("/players")
def create_player() -> ResponseReturnValue:
    body = _new_player.load(json_body())
    player, key = players().create(body["name"], body["bot"])
    code = players().new_recovery_code(player)  # shown once, as the key (api/http/player_keys.py)
    seen_at_address(player.id)
    made_by_caller(player.id)
    return {**_shown(player), "key": key, "recovery_code": code}, 201, {"Location": "/players/me"}


def _shown(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "bot": player.bot, "links": app_links.player_links(player.id)}


@bp.get("/players/me")
def read_me() -> ResponseReturnValue:
    player = current_player(players())
    return _shown(player)


@bp.patch("/players/me")
def rename_me() -> ResponseReturnValue:
    player = current_player(players())
    body = _name.load(json_body())
    player = players().rename(player, body["name"])
    return _shown(player)


@bp.get("/players/me/games")
def my_games() -> ResponseReturnValue:
    player = current_player(players())
    page = query(_my_games)
    skipped: list[dict[str, Any]] = []  # games passed over, their archived records damaged
    games, cursor = lobby().my_games(player, page.get("status"), page.get("my_turn"),
                                     parse_cursor(page.get("cursor")), page["limit"], skipped)
    return {"games": games, "next": cursor_link("/players/me/games", cursor) if len(games) == page["limit"] else None,
            **({"skipped": skipped} if skipped else {})}


@bp.get("/players/me/sync")
def sync() -> ResponseReturnValue:
    """What a device missed since its cursor (api/players/sync.py), and the games that wait on the
    player now: those where it is to act, and those still waiting for seats."""
    player = current_player(players())
    page = query(_sync)
    said = notices_since(players(), player.id, page.get("since"), http_languages.current(), page["limit"])
    my_turn, _ = lobby().my_games(player, "active", True, None, SYNC_GAMES)
    waiting, _ = lobby().my_games(player, "waiting", None, None, SYNC_GAMES)
    return {**said, "my_turn": my_turn, "waiting": waiting}
