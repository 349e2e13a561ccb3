"""Passkeys (WebAuthn, issue 36): register one to the signed-in player, sign in with it on
another browser (which gets a device key of its own), list and remove them. Thin: the logic is
api/players/passkeys.py's; here only the relying party, from the settings or the request."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, current_player
from api.http.requests import json_body, players
from api.http.schemas import PasskeyAnswerSchema

bp = Blueprint("passkeys", __name__)

_answer = PasskeyAnswerSchema()


def relying_party() -> tuple[str, str]:
    """(the RP id, the origin): WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN, else the request's host
    (its name) and scheme and host, as the browser sees them. Only on loopback: beyond it
    `python app.py` refuses to start without both (app.py, check_relying_party), since a
    request's Host is the client's to say."""
    settings = current_app.extensions["settings"]
    origin = settings.webauthn_origin or request.host_url.rstrip("/")
    return settings.webauthn_rp_id or (urlsplit(request.host_url).hostname or ""), origin


@bp.post("/players/me/passkey-options")
def registration_options() -> ResponseReturnValue:
    player = current_player(players())
    return players().passkey_registration_options(player, relying_party()[0])


@bp.post("/players/me/passkeys")
def register_passkey() -> ResponseReturnValue:
    player = current_player(players())
    body = _answer.load(json_body())
    rp_id, origin = relying_party()
    entry = players().register_passkey(player, body["credential"], body["name"] or "passkey", rp_id, origin,
                                        bearer_token())
    return entry, 201


@bp.get("/players/me/passkeys")
def list_passkeys() -> ResponseReturnValue:
    player = current_player(players())
    return {"passkeys": players().list_passkeys(player)}


@bp.delete("/players/me/passkeys/<passkey_id>")
def remove_passkey(passkey_id: str) -> ResponseReturnValue:
    player = current_player(players())
    players().remove_passkey(player, passkey_id, bearer_token())  # with a step-up
    return "", 204


@bp.post("/passkeys/sign-in/options")
def sign_in_options() -> ResponseReturnValue:
    return players().passkey_sign_in_options(relying_party()[0])


@bp.post("/passkeys/sign-in")
def sign_in() -> ResponseReturnValue:
    body = _answer.load(json_body())
    rp_id, origin = relying_party()
    player, entry, key = players().sign_in_with_passkey(body["credential"], body["name"] or "passkey sign-in",
                                                        rp_id, origin)
    return {"id": player.id, "name": player.name, "bot": player.bot, "key": key, "key_id": entry["id"]}, 201
