"""Web Push (issue 36): the server's VAPID public key for a page's `pushManager.subscribe`, and
a player's push subscriptions (the browser's PushSubscription JSON, or a native app's
`{"kind": "fcm" | "apns", "token"}`: issue 54). Thin: the rules are
api/push/subscriptions.py's, the sending workers/push/'s."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

from api.games.callers import is_player_key
from api.http import languages as http_languages
from api.http.auth import bearer_token, current_player
from api.http.requests import json_body, players
from api.push.subscriptions import MAX_ENDPOINT, MAX_TOKEN
from api.words import languages

bp = Blueprint("push", __name__)


class KeysSchema(Schema):
    class Meta:
        unknown = RAISE

    p256dh = fields.String(required=True, validate=validate.Length(min=1, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=1, max=100))


class PushSubscriptionSchema(Schema):
    """PushSubscription.toJSON(): endpoint, expirationTime, keys; `lang` ours."""

    class Meta:
        unknown = EXCLUDE  # what a browser adds to its JSON one day must not break subscribing

    endpoint = fields.String(required=True, validate=validate.Length(min=1, max=MAX_ENDPOINT))
    keys = fields.Nested(KeysSchema, required=True)
    expirationTime = fields.Integer(load_default=None, allow_none=True)  # the browser's name
    lang = fields.String(load_default=None, validate=validate.OneOf(languages()))


class NativeRegistrationSchema(Schema):
    """A native app's registration (issue 54): FCM's registration token or APNs' device token."""

    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(["fcm", "apns"]))
    token = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TOKEN))
    lang = fields.String(load_default=None, validate=validate.OneOf(languages()))


_subscription = PushSubscriptionSchema()
_native = NativeRegistrationSchema()


def _pushes() -> Any:  # workers/push.Pushes: the HTTP edge imports nothing of workers/
    return current_app.extensions["services"].pushes


@bp.get("/push/vapid-public-key")
def vapid_public_key() -> ResponseReturnValue:
    # The same for every caller and for the key's life: cacheable, though the key may be replaced.
    return {"public_key": _pushes().public_key()}, 200, {"Cache-Control": "public, max-age=300"}


@bp.post("/players/me/push-subscriptions")
def subscribe() -> ResponseReturnValue:
    player = current_player(players())
    raw = json_body()
    native = isinstance(raw, dict) and raw.get("kind") not in (None, "webpush")
    body = _native.load(raw) if native else _subscription.load(raw)
    lang = body["lang"] or http_languages.current()  # else the subscribing request's language
    token = bearer_token()
    key_hash = players().maker_digest(player.id, token) if token and is_player_key(token) else None  # it ends with it
    if native:
        sub, new = _pushes().subs.add_native(player.id, body["kind"], body["token"], lang, key_hash)
    else:
        sub, new = _pushes().subs.add(player.id, body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"],
                                      lang, key_hash)
    return sub.public(), 201 if new else 200, {"Location": f"/players/me/push-subscriptions/{sub.id}"}


@bp.get("/players/me/push-subscriptions")
def list_subscriptions() -> ResponseReturnValue:
    player = current_player(players())
    subs = _pushes().subs
    return {"subscriptions": [s.public() for s in subs.of_player(player.id)], "removed": subs.removed(player.id)}


@bp.delete("/players/me/push-subscriptions/<subscription>")
def unsubscribe(subscription: str) -> ResponseReturnValue:
    player = current_player(players())
    _pushes().subs.delete(player.id, subscription)
    return "", 204
