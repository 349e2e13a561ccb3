"""A finished game's analysis (issue 34). Thin: api/analysis/analyses.py decides and keeps it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from api.analysis.analyses import NONE, PENDING, RETRY_AFTER_S, in_language
from api.http import languages
from api.http.auth import current_player
from api.http.requests import players

if TYPE_CHECKING:
    from api.analysis.analyses import Analyses

bp = Blueprint("analysis", __name__)


def analyses() -> Analyses:
    return cast("Analyses", current_app.extensions["analyses"])


def _answer(found: dict[str, Any]) -> ResponseReturnValue:
    if found["status"] == PENDING:
        return found, 202, {"Retry-After": str(RETRY_AFTER_S)}
    return in_language(found, languages.use()), 200


@bp.get("/games/<game_id>/analysis")
def read_analysis(game_id: str) -> ResponseReturnValue:
    """Anyone's read, as the finished game's history is: 200 done (or `none`: nobody asked yet;
    a page asks first, and a 404 would be an error in every replay's console), 202 being computed."""
    found = analyses().read(game_id)
    return _answer(found if found is not None else {"id": game_id, "status": NONE})


@bp.post("/games/<game_id>/analysis")
def request_analysis(game_id: str) -> ResponseReturnValue:
    """A player of the finished game asks for it (its key): queued once, then computed."""
    player = current_player(players())
    return _answer(analyses().request(game_id, player.id))
