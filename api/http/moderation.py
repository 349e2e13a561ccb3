"""Moderation (issue 50): the flags, voids and their undo, for moderators only. Thin:
api/moderation/ decides. The moderator role is the operator's to grant (MODERATORS,
`python -m tools.moderators grant`), never this API's."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, fields, validate

from api.errors import ApiError
from api.games.callers import is_identity_token
from api.http.auth import current_player, parse_bearer
from api.http.client_address import client_address
from api.http.requests import json_body, players

if TYPE_CHECKING:
    from api.moderation.service import Moderation

bp = Blueprint("moderation", __name__)


def moderation() -> Moderation:
    return cast("Moderation", current_app.extensions["moderation"])


def seen_at_address(player_id: str) -> None:
    """Notes (as a keyed hash) that the player acted from the request's address: the shared
    addresses' signal (api/moderation/addresses.py). Called where a player is made, claims a
    seat or seeks a game, not on every request."""
    moderation().addresses.seen(player_id, client_address())


def made_by_caller(player_id: str) -> None:
    """A player just made by a request carrying another player's key (a key only, never refused
    nor an identity token: the making needs none) is linked to that player (its lineage)."""
    token = parse_bearer(request.headers.get("Authorization"))
    if token is None or is_identity_token(token) or len(token) > 200:
        return
    try:
        maker = players().authenticate(token)
    except ApiError:
        return  # an unknown or revoked key: the making goes on, unlinked
    moderation().addresses.made_by(player_id, maker.id)


class ReasonSchema(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


_reason = ReasonSchema()


@bp.get("/moderation/flags")
def flags() -> ResponseReturnValue:
    moderation().require_moderator(current_player(players()))
    return {"flags": moderation().flags()}


@bp.get("/moderation/events")
def events() -> ResponseReturnValue:
    moderation().require_moderator(current_player(players()))
    return {"events": moderation().events()}


def _act(kind: str, id: str) -> ResponseReturnValue:
    moderator = current_player(players())
    moderation().require_moderator(moderator)
    body = _reason.load(json_body())
    done = moderation().act(kind, id, moderator.id, body["reason"])
    return {"player": id, "voided": kind == "void", "events": done["events"], "rerated": done["rerated"]}


@bp.post("/moderation/players/<id>/void")
def void(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return _act("void", id)


@bp.post("/moderation/players/<id>/unvoid")
def unvoid(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return _act("unvoid", id)
