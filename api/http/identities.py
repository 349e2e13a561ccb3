"""A player's linked identities (issue 36): an identity provider's user signs in as the player
with its JWT (`Authorization: Bearer <JWT>`); these routes link another identity, list and
unlink them. Thin: the logic is api/players/identities.py's."""
from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, current_player
from api.http.requests import json_body, players
from api.http.schemas import IdentityTokenSchema

bp = Blueprint("identities", __name__)

_token = IdentityTokenSchema()


@bp.post("/players/me/identities")
def link_identity() -> ResponseReturnValue:
    player = current_player(players())
    body = _token.load(json_body())
    return players().link_identity(player, body["token"], bearer_token()), 201


@bp.get("/players/me/identities")
def list_identities() -> ResponseReturnValue:
    player = current_player(players())
    return {"identities": players().list_identities(player)}


@bp.delete("/players/me/identities/<identity_id>")
def unlink_identity(identity_id: str) -> ResponseReturnValue:
    player = current_player(players())
    players().unlink_identity(player, identity_id, bearer_token())  # with a step-up
    return "", 204
