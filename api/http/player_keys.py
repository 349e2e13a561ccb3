"""A player's keys, one per device, and its recovery code (issue 36); its personal access tokens
(issue 51). Thin: the logic is api/players/keys.py's, api/players/tokens.py's and
api/players/recovery.py's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, current_player
from api.http.passkeys import relying_party
from api.http.requests import json_body, players
from api.http.schemas import NewAccessTokenSchema, PlayerNameSchema, RecoverSchema, StepUpSchema
from api.http.scopes import insufficient, spec_table

if TYPE_CHECKING:
    from api.players.accounts import Player

bp = Blueprint("player_keys", __name__)

_name = PlayerNameSchema()
_recover = RecoverSchema()
_new_token = NewAccessTokenSchema()
_step_up = StepUpSchema()


def _player_shown(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "bot": player.bot}


def _key_shown(entry: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    shown = {"id": entry["id"], "name": entry["name"], "created": entry["created"],
             "last_used": entry.get("last_used"), "current": entry.get("current", False)}
    return {**shown, "key": key} if key else shown


@bp.post("/players/me/keys")
def add_or_rotate_key() -> ResponseReturnValue:
    """With `{"name"}`: a new key for another device (the one sent goes on working). Without a
    body: the key sent is replaced by a new one (its streams and tickets end)."""
    player = current_player(players())
    if not request.get_data(cache=True):
        sent = bearer_token()
        assert sent is not None  # current_player found the player by it
        key = players().rotate(player, sent)
        return {**_player_shown(player), "key": key}, 201
    body = _name.load(json_body())
    every = spec_table().every
    if player.scopes is not None and not every <= player.scopes:  # a device key holds every scope
        raise insufficient(every - player.scopes, every)
    entry, key = players().add_key(player, body["name"], bearer_token())
    return _key_shown(entry, key), 201, {"Location": f"/players/me/keys/{entry['id']}"}


@bp.get("/players/me/keys")
def list_keys() -> ResponseReturnValue:
    player = current_player(players())
    return {"keys": [_key_shown(e) for e in players().list_keys(player, bearer_token())]}


@bp.delete("/players/me/keys/<key_id>")
def revoke_key(key_id: str) -> ResponseReturnValue:
    player = current_player(players())
    players().revoke_key(player, key_id, bearer_token())  # another key than the one sent: with a step-up
    return "", 204


def _token_shown(entry: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    shown = {"id": entry["id"], "name": entry["name"], "scopes": entry["scopes"], "created": entry["created"],
             "expires": entry.get("expires"), "last_used": entry.get("last_used"),
             "current": entry.get("current", False)}
    return {**shown, "token": token} if token else shown


@bp.post("/players/me/tokens")
def create_token() -> ResponseReturnValue:
    """A personal access token: the scopes asked, none the credential sent lacks; shown once."""
    player = current_player(players())
    body = _new_token.load(json_body())
    entry, token = players().make_token(player, body["name"], body["scopes"], body["expires_in"], spec_table().every,
                                         bearer_token())
    return _token_shown(entry, token), 201, {"Location": f"/players/me/tokens/{entry['id']}"}


@bp.get("/players/me/tokens")
def list_tokens() -> ResponseReturnValue:
    player = current_player(players())
    return {"tokens": [_token_shown(e) for e in players().list_tokens(player, bearer_token())]}


@bp.delete("/players/me/tokens/<token_id>")
def revoke_token(token_id: str) -> ResponseReturnValue:
    player = current_player(players())
    players().revoke_token(player, token_id)
    return "", 204


@bp.post("/players/me/recovery-code")
def new_recovery_code() -> ResponseReturnValue:
    player = current_player(players())
    return {"recovery_code": players().replace_recovery_code(player, bearer_token())}, 201


@bp.post("/players/me/step-up")
def step_up() -> ResponseReturnValue:
    """A step-up grant for the key sent (api/players/step_up.py), for one proof."""
    player = current_player(players())
    body = _step_up.load(json_body())
    sent = bearer_token()
    assert sent is not None  # current_player found the player by it
    rp_id, origin = relying_party() if "passkey" in body else ("", "")
    return players().step_up(player, sent, body, rp_id, origin), 201


@bp.post("/players/me/step-up/passkey-options")
def step_up_passkey_options() -> ResponseReturnValue:
    """The options for `navigator.credentials.get` to step up with one of the player's passkeys."""
    player = current_player(players())
    return players().step_up_passkey_options(player, relying_party()[0])


@bp.post("/recover")
def recover() -> ResponseReturnValue:
    body = _recover.load(json_body())
    player, entry, key, code = players().recover(body["code"], body["name"])
    return {**_player_shown(player), "key": key, "key_id": entry["id"], "recovery_code": code}, 201
