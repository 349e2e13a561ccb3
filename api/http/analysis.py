"""A finished game's analysis (issue 34). Thin: api/analysis/analyses.py decides and keeps it."""
from __future__ import annotations

from flask import Blueprint, current_app

from api.analysis.analyses import DONE, RETRY_AFTER_S, in_language
from api.errors import ApiError, Code
from api.http import languages
from api.http.auth import current_player
from api.http.requests import players

bp = Blueprint("analysis", __name__)


def analyses():
    return current_app.extensions["analyses"]


def _answer(found: dict):
    if found["status"] == DONE:
        return in_language(found, languages.use()), 200
    return found, 202, {"Retry-After": str(RETRY_AFTER_S)}


@bp.get("/games/<game_id>/analysis")
def read_analysis(game_id):
    """Anyone's read, as the finished game's history is: 200 done, 202 still computed."""
    found = analyses().read(game_id)
    if found is None:
        raise ApiError("Nobody has asked for this game's analysis yet: a player of the game can "
                       "(POST /games/{id}/analysis).", code=Code.ANALYSIS_NOT_REQUESTED, status=404)
    return _answer(found)


@bp.post("/games/<game_id>/analysis")
def request_analysis(game_id):
    """A player of the finished game asks for it (its key): queued once, then computed."""
    player = current_player(players())
    return _answer(analyses().request(game_id, player.id))
