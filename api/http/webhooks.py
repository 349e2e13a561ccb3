"""Webhooks: subscriptions that push a game's events to an integration (api/webhooks/), made
with a player's key (games the player sits in, or "mine") or a game's table token (that game)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, ValidationError, fields, validate

from api.errors import TokenRequired
from api.http import languages as http_languages
from api.http.auth import bearer_token
from api.http.requests import json_body
from api.http.schemas import WholeNumber
from api.http.scopes import insufficient
from api.players.tokens import is_token
from api.webhooks.messages import SUBSCRIBABLE
from api.webhooks.subscriptions import SOCIAL_KINDS
from api.words import languages

if TYPE_CHECKING:
    from api.webhooks.manage import Webhooks
    from api.webhooks.subscriptions import Owner

bp = Blueprint("webhooks", __name__)


class GamesField(fields.Field[Any]):
    """"mine" (a player's games) or a list of game ids."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if value == "mine":
            return value
        if not isinstance(value, list) or not 1 <= len(value) <= 50 or not all(
                isinstance(g, str) and 1 <= len(g) <= 64 for g in value):
            raise ValidationError('"mine" or a list of 1 to 50 game ids.')
        return value


class CreateWebhookSchema(Schema):
    class Meta:
        unknown = RAISE

    url = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    events = fields.List(fields.String(validate=validate.OneOf(SUBSCRIBABLE)), required=True,
                         validate=validate.Length(min=1, max=len(SUBSCRIBABLE)))
    games = GamesField(load_default=None)
    secret = fields.String(load_default=None, validate=validate.Length(max=200))
    seat = WholeNumber(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=99))
    lang = fields.String(load_default=None, validate=validate.OneOf(languages()))


_create = CreateWebhookSchema()


def _webhooks() -> Webhooks:
    return cast("Webhooks", current_app.extensions["webhooks"])


def _owner() -> Owner:
    token = bearer_token()
    if token is None:
        raise TokenRequired("Webhooks need a player's key or a game's table token: 'Authorization: Bearer <key>'.")
    return _webhooks().owner_of_token(token)


@bp.post("/webhooks")
def create_webhook() -> ResponseReturnValue:
    owner = _owner()
    body = _create.load(json_body())
    _social_scope(body["events"])
    body["lang"] = body["lang"] or http_languages.current()  # else the creating request's language
    created = _webhooks().create(owner, body, bearer_token())
    return created, 201, {"Location": f"/webhooks/{created['id']}"}


def _social_scope(events: list[str]) -> None:
    """A player's social news (challenges, direct messages) goes only to a webhook made with a
    credential that may act socially for it: a personal access token without `social` is refused."""
    if not set(events) & set(SOCIAL_KINDS):
        return
    token = bearer_token()
    if token is None or not is_token(token):
        return  # a device key or an identity token holds every scope; a table token is refused later
    held = current_app.extensions["players"].authenticate(token).scopes
    if held is not None and "social" not in held:
        raise insufficient(["social"], ["webhooks", "game:read", "social"])


@bp.get("/webhooks")
def list_webhooks() -> ResponseReturnValue:
    return {"webhooks": _webhooks().list(_owner())}


@bp.delete("/webhooks/<webhook>")
def delete_webhook(webhook: str) -> ResponseReturnValue:
    _webhooks().delete(_owner(), webhook)
    return "", 204


@bp.get("/webhooks/<webhook>/deliveries")
def deliveries(webhook: str) -> ResponseReturnValue:
    return {"deliveries": _webhooks().deliveries(_owner(), webhook)}


@bp.post("/webhooks/<webhook>/deliveries/<delivery>/retry")
def retry(webhook: str, delivery: str) -> ResponseReturnValue:
    return _webhooks().retry(_owner(), webhook, delivery), 202
