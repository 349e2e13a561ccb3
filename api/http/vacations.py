"""A player's vacations: plan one, see the allowance left, allow a day to be taken when a
deadline comes, cancel one still to come. Thin: api/players/vacations.py keeps the plans and
the allowance; the reconciler stops and starts the clocks (workers/vacations.py)."""
from __future__ import annotations

import time
from typing import cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from api.http.auth import current_player
from api.http.requests import json_body, players
from api.http.schemas import VacationSchema, VacationSettingsSchema
from api.players.vacations import Vacations, shown

bp = Blueprint("vacations", __name__)

_vacation = VacationSchema()
_settings = VacationSettingsSchema()


def vacations() -> Vacations:
    # built once, with VACATION_DAYS_PER_YEAR (wiring.py)
    return cast(Vacations, current_app.extensions["vacations"])


def _now() -> int:
    return int(time.time() * 1000)


@bp.get("/players/me/vacations")
def read_vacations() -> ResponseReturnValue:
    return vacations().summary(current_player(players()).id, _now())


@bp.post("/players/me/vacations")
def plan_vacation() -> ResponseReturnValue:
    player = current_player(players())
    body = _vacation.load(json_body())
    now = _now()
    vacation = vacations().plan(player.id, body["start"], body["end"], now)
    return ({**shown(vacation, now), "left": vacations().summary(player.id, now)}, 201,
            {"Location": "/players/me/vacations"})


@bp.patch("/players/me/vacations")
def change_vacation_settings() -> ResponseReturnValue:
    player = current_player(players())
    body = _settings.load(json_body())
    vacations().set_auto(player.id, body["auto"])
    return vacations().summary(player.id, _now())


@bp.delete("/players/me/vacations/<vacation_id>")
def cancel_vacation(vacation_id: str) -> ResponseReturnValue:
    player = current_player(players())
    vacations().cancel(player.id, vacation_id, _now())
    return "", 204
