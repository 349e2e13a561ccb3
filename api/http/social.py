"""People around the table (issue 53): follows, friends, followers, blocks, privacy, challenges, groups.
Thin: api/social/ decides (the relations as events; blocks.py the one check point)."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, fields, validate

from api.errors import ValidationFailed
from api.http.auth import current_player
from api.http.requests import json_body, players
from api.http.schemas import JsonBool, WholeNumber
from api.social.decider import LEVELS, SETTINGS
from api.social.groups_decider import ROLES, VISIBILITIES

if TYPE_CHECKING:
    from api.social.challenges import Challenges
    from api.social.groups import Groups
    from api.social.relations import Social

bp = Blueprint("social", __name__)


def social() -> Social:
    return cast("Social", current_app.extensions["social"])


def challenges() -> Challenges:
    return cast("Challenges", current_app.extensions["challenges"])


class PrivacySchema(Schema):
    class Meta:
        unknown = RAISE

    follow = fields.String(validate=validate.OneOf(LEVELS))
    challenge = fields.String(validate=validate.OneOf(LEVELS))
    message = fields.String(validate=validate.OneOf(LEVELS))


class ChallengeSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    seats = WholeNumber(load_default=None, allow_none=True, validate=validate.Range(min=2, max=12))
    rated = JsonBool(load_default=True)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    clock = fields.Raw(load_default=None, allow_none=True)  # checked by api/platform/clocks.py


_privacy = PrivacySchema()
_challenge = ChallengeSchema()


def _relation(me: str, other: str) -> dict[str, object]:
    state = social().state(me, other)
    return {"player": other, "following": (me, other) in state.follows, "followed_by": (other, me) in state.follows,
            "blocked": (me, other) in state.blocks}


@bp.post("/players/<id>/follow")
def follow(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    social().command("follow", me, id)
    return _relation(me.id, id)


@bp.delete("/players/<id>/follow")
def unfollow(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    social().command("unfollow", me, id)
    return "", 204


@bp.post("/players/<id>/block")
def block(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    social().command("block", me, id)
    return _relation(me.id, id)


@bp.delete("/players/<id>/block")
def unblock(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    social().command("unblock", me, id)
    return "", 204


@bp.post("/players/<id>/challenge")
def challenge(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    body = _challenge.load(json_body())
    made = challenges().challenge(me, id, body["type"], body["seats"], body["options"], body["clock"], body["rated"])
    return made, 201, {"Location": f"/games/{made['id']}"}


@bp.post("/games/<id>/decline")
def decline(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    challenges().decline(current_player(players()), id)
    return "", 204


@bp.get("/players/me/friends")
def friends() -> ResponseReturnValue:
    me = current_player(players())
    live = current_app.extensions["live"]
    return {"friends": social().friends(me.id, live.limits.players_present)}


@bp.get("/players/me/followers")
def followers() -> ResponseReturnValue:
    me = current_player(players())
    return {"followers": social().followers(me.id)}


@bp.get("/players/me/following")
def following() -> ResponseReturnValue:
    me = current_player(players())
    return {"following": social().following(me.id)}


@bp.get("/players/me/blocks")
def blocks() -> ResponseReturnValue:
    me = current_player(players())
    return {"blocks": social().blocked(me.id)}


@bp.get("/players/me/privacy")
def read_privacy() -> ResponseReturnValue:
    return social().privacy(current_player(players()).id)


@bp.patch("/players/me/privacy")
def set_privacy() -> ResponseReturnValue:
    me = current_player(players())
    body = _privacy.load(json_body())
    if not body:
        raise ValidationFailed(f"Name at least one of {', '.join(SETTINGS)}.")
    social().command("privacy", me, settings=body)
    return social().privacy(me.id)


# ---- groups ------------------------------------------------------------------------------------

def groups() -> Groups:
    return cast("Groups", current_app.extensions["groups"])


class NewGroupSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=60))
    description = fields.String(load_default="", validate=validate.Length(max=1000))
    visibility = fields.String(load_default="public", validate=validate.OneOf(VISIBILITIES))


class InvitationSchema(Schema):
    class Meta:
        unknown = RAISE

    player = fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"))


class RoleSchema(Schema):
    class Meta:
        unknown = RAISE

    role = fields.String(required=True, validate=validate.OneOf(ROLES))


_new_group = NewGroupSchema()
_invitation = InvitationSchema()
_role = RoleSchema()


@bp.post("/groups")
def create_group() -> ResponseReturnValue:
    me = current_player(players())
    body = _new_group.load(json_body())
    made = groups().create(me, body["name"].strip() or body["name"], body["description"], body["visibility"])
    return made, 201, {"Location": f"/groups/{made['id']}"}


@bp.get("/groups/<id>")
def read_group(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    current_player(players())
    return groups().read(id)


@bp.get("/groups/<id>/members")
def group_members(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return {"members": groups().members(current_player(players()), id)}


@bp.post("/groups/<id>/invitations")
def invite_to_group(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    body = _invitation.load(json_body())
    return groups().invite(me, id, body["player"]), 201


@bp.post("/groups/<id>/join")
def join_group(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return groups().join(current_player(players()), id)


@bp.post("/groups/<id>/leave")
def leave_group(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    groups().leave(current_player(players()), id)
    return "", 204


@bp.put("/groups/<id>/members/<player>/role")
def set_group_role(id: str, player: str) -> ResponseReturnValue:  # the path's own names (openapi.yaml)
    me = current_player(players())
    body = _role.load(json_body())
    return {"members": groups().set_role(me, id, player, body["role"])}


@bp.post("/groups/<id>/games")
def make_group_game(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    body = _challenge.load(json_body())
    made = groups().make_game(me, id, body["type"], body["seats"], body["options"], body["clock"], body["rated"])
    return made, 201, {"Location": f"/games/{made['id']}"}


@bp.get("/groups/<id>/games")
def group_games(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return {"games": groups().games(current_player(players()), id)}


@bp.get("/players/me/groups")
def my_groups() -> ResponseReturnValue:
    return {"groups": groups().of_player(current_player(players()))}
