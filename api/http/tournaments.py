"""Tournaments (issue 52): thin routes over api/tournaments/service.py, which decides."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, Response, current_app
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, fields, validate

from api.http import app_links
from api.http.auth import current_player
from api.http.requests import cursor_link, json_body, parse_cursor, players, query
from api.http.schemas import WholeNumber

if TYPE_CHECKING:
    from api.tournaments.service import Tournaments

bp = Blueprint("tournaments", __name__)
NDJSON = "application/x-ndjson"


def tournaments() -> Tournaments:
    return cast("Tournaments", current_app.extensions["tournaments"])


def _shown(service: Tournaments, state: Any) -> dict[str, Any]:
    """A tournament's answer, with its shareable URLs (its page, which the apps open)."""
    return {**service.shown(state), "links": app_links.tournament_links(state.id)}


class CreateSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    format = fields.String(required=True, validate=validate.OneOf(["swiss", "arena", "round_robin"]))
    seats = WholeNumber(strict=True)
    min_seats = WholeNumber(strict=True)
    rounds = WholeNumber(strict=True)
    duration_s = WholeNumber(strict=True)
    rated = fields.Boolean()
    clock = fields.Dict(keys=fields.String())
    options = fields.Dict(keys=fields.String())
    start = fields.Raw()
    entrants = fields.List(fields.Dict(keys=fields.String()), validate=validate.Length(max=64))
    points = fields.Dict(keys=fields.String(), values=fields.List(fields.Float()))
    bye_points = fields.Float()
    late_join_points = fields.Float()
    tiebreaks = fields.List(fields.String(), validate=validate.Length(max=4))
    late_join = fields.Boolean()
    min_rating = WholeNumber(strict=True, allow_none=True)
    max_rating = WholeNumber(strict=True, allow_none=True)
    invited = fields.List(fields.String(), allow_none=True, validate=validate.Length(max=1000))
    no_show_after = WholeNumber(strict=True)
    group = fields.String(allow_none=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"))


class ListQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf(["upcoming", "running", "finished"]))
    type = fields.String(validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    format = fields.String(validate=validate.OneOf(["swiss", "arena", "round_robin"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))
    group = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"))
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,15}\.[A-Za-z0-9_-]{1,64}$"))


class AdjustSchema(Schema):
    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(["void_game", "set_result"]))
    round = WholeNumber(required=True, strict=True, validate=validate.Range(min=1, max=1000))
    table = WholeNumber(required=True, strict=True, validate=validate.Range(min=1, max=1000))
    places = fields.Dict(keys=fields.String(),
                         values=WholeNumber(strict=True, validate=validate.Range(min=1, max=6)))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


_create, _list, _adjust = CreateSchema(), ListQuerySchema(), AdjustSchema()


@bp.post("/tournaments")
def create() -> ResponseReturnValue:
    player = current_player(players())
    body: dict[str, Any] = _create.load(json_body())
    service = tournaments()
    state = service.create(body, player)
    return _shown(service, state), 201, {"Location": f"/tournaments/{state.id}"}


@bp.get("/tournaments")
def listing() -> ResponseReturnValue:
    page = query(_list)
    found, cursor = tournaments().listing(page.get("status"), page.get("type"), page.get("format"),
                                          page["limit"], page.get("group"), parse_cursor(page.get("cursor")))
    return {"tournaments": found, "next": cursor_link("/tournaments", cursor)}


@bp.get("/tournaments/<id>")
def read(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    service = tournaments()
    return _shown(service, service.state(id))


@bp.post("/tournaments/<id>/join")
def join(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    service = tournaments()
    return _shown(service, service.join(id, current_player(players())))


@bp.post("/tournaments/<id>/withdraw")
def withdraw(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    service = tournaments()
    return _shown(service, service.withdraw(id, current_player(players())))


@bp.get("/tournaments/<id>/events")
def history(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    service = tournaments()
    lines = list(service.lines(id))
    return Response(b"".join(lines), mimetype=NDJSON)


@bp.post("/tournaments/<id>/adjustments")
def adjust(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    player = current_player(players())
    body: dict[str, Any] = _adjust.load(json_body())
    moderation = current_app.extensions["moderation"]
    service = tournaments()
    return _shown(service, service.adjust(id, player, body, moderation.is_moderator(player.id)))
