"""Chat (issue 53): a game's table and spectators' chat, direct messages, group chat, mutes,
reports, and the moderators' queue and actions. Thin: api/chat/ decides. Chat needs the `social`
scope (a new scope would ask every integrator's token anew for what `social` already covers:
docs/scopes.md); reading a game's chat `game:read`, as the game; the moderators' part
`moderation`."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.chat.decider import OUTCOMES, SCOPES
from api.chat.service import MAX_PAGE, PAGE, dm_channel
from api.errors import ApiError
from api.games.callers import TABLE, is_player_credential
from api.http import current
from api.http.auth import bearer_token, caller, current_player
from api.http.requests import games, json_body, players, query

if TYPE_CHECKING:
    from api.chat.service import Chat
    from api.moderation.service import Moderation

bp = Blueprint("chat", __name__)
ID = r"^[A-Za-z0-9_-]{1,64}$"
CURSOR = r"^[0-9]{1,19}-[0-9]{1,19}$"  # a stream id Redis can hold (19 digits < 2**64)
_ID = "[A-Za-z0-9_-]{1,64}"
CHANNEL = rf"^(game:{_ID}:(table|spectators)|dm:{_ID}:{_ID}|group:{_ID})$"


# The operations that seat a player or seek a seat: a suspension from play refuses them.
PLAYING = frozenset({"games.create_game", "lobby.claim_seat", "lobby.rematch", "ratings.seek", "social.challenge",
                     "social.make_group_game"})


@bp.before_app_request
def suspended_from_play() -> None:
    """A player a moderator suspended from play is refused (403 play_suspended) every operation
    that would seat it, while the suspension lasts; one check here for them all."""
    if current.req().endpoint not in PLAYING or not is_player_credential(bearer_token()):
        return
    try:
        player = current_player(players())
    except ApiError:
        return  # the operation itself answers a bad credential
    chat().require_can_play(player.id)


def chat() -> Chat:
    return cast("Chat", current_app.extensions["chat"])


def moderation() -> Moderation:
    return cast("Moderation", current_app.extensions["moderation"])


class MessageSchema(Schema):
    class Meta:
        unknown = RAISE

    text = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class PageSchema(Schema):
    class Meta:
        unknown = RAISE

    since = fields.String(validate=validate.Regexp(CURSOR))
    before = fields.String(validate=validate.Regexp(CURSOR))
    limit = fields.Integer(load_default=PAGE, validate=validate.Range(min=1, max=MAX_PAGE))


class GamePageSchema(PageSchema):
    channel = fields.String(validate=validate.OneOf(("table", "spectators")))


class GameMessageSchema(MessageSchema):
    channel = fields.String(validate=validate.OneOf(("table", "spectators")))


class ReportSchema(Schema):
    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(("message", "player", "game")))
    channel = fields.String(validate=validate.Regexp(CHANNEL))
    message = fields.String(validate=validate.Regexp(CURSOR))
    player = fields.String(validate=validate.Regexp(ID))
    game = fields.String(validate=validate.Regexp(ID))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))

    @validates_schema
    def _named(self, data: dict[str, Any], **_: Any) -> None:
        needs = {"message": ("channel", "message"), "player": ("player",), "game": ("game",)}[data["kind"]]
        missing = [n for n in needs if n not in data]
        if missing:
            raise ValidationError({n: ["Missing data for required field."] for n in missing})


class QueueSchema(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(load_default="open", validate=validate.OneOf(("open", "resolved", "all")))


class HideSchema(Schema):
    class Meta:
        unknown = RAISE

    channel = fields.String(required=True, validate=validate.Regexp(CHANNEL))
    message = fields.String(required=True, validate=validate.Regexp(CURSOR))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class SuspendSchema(Schema):
    class Meta:
        unknown = RAISE

    scope = fields.String(required=True, validate=validate.OneOf(SCOPES))
    seconds = fields.Integer(required=True, validate=validate.Range(min=1, max=366 * 86400))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class ReasonSchema(Schema):
    class Meta:
        unknown = RAISE

    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class ResolveSchema(Schema):
    class Meta:
        unknown = RAISE

    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    actions = fields.List(fields.String(validate=validate.Regexp(ID)), load_default=list,
                          validate=validate.Length(max=20))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000))


_message, _game_message, _page, _game_page = MessageSchema(), GameMessageSchema(), PageSchema(), GamePageSchema()
_report, _queue, _hide, _suspend, _reason, _resolve = (ReportSchema(), QueueSchema(), HideSchema(), SuspendSchema(),
                                                       ReasonSchema(), ResolveSchema())


def _page_of(channel: str, viewer: str | None, q: dict[str, Any]) -> dict[str, Any]:
    return chat().history(channel, viewer, q.get("since"), q.get("before"), q["limit"])


# ---- a game's chat ---------------------------------------------------------------------------

@bp.get("/games/<game_id>/chat")
def read_game_chat(game_id: str) -> ResponseReturnValue:
    q = query(_game_page)
    holder, seat = caller(games(), game_id)
    seated = seat is not None or holder == TABLE  # a seat's token, the table's, a seated player's key
    viewer = current_player(players()).id if is_player_credential(bearer_token()) else None
    channel = chat().game_channel(game_id, seated, q.get("channel"))
    return _page_of(channel, viewer, q)


@bp.post("/games/<game_id>/chat")
def post_game_chat(game_id: str) -> ResponseReturnValue:
    me = current_player(players())
    body = _game_message.load(json_body())
    return chat().post_game(me, game_id, body["text"], body.get("channel")), 201


# ---- direct messages ---------------------------------------------------------------------------

@bp.get("/players/me/messages")
def conversations() -> ResponseReturnValue:
    me = current_player(players())
    return {"conversations": chat().conversations(me.id)}


@bp.get("/players/me/messages/<id>")
def read_messages(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    return _page_of(dm_channel(me.id, id), me.id, query(_page))


@bp.post("/players/me/messages/<id>")
def send_message(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    body = _message.load(json_body())
    return chat().post_direct(me, id, body["text"]), 201


# ---- group chat --------------------------------------------------------------------------------

@bp.get("/groups/<id>/chat")
def read_group_chat(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    q = query(_page)
    chat().require_member(id, me.id)
    return _page_of(f"group:{id}", me.id, q)


@bp.post("/groups/<id>/chat")
def post_group_chat(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    body = _message.load(json_body())
    return chat().post_group(me, id, body["text"]), 201


# ---- mutes -------------------------------------------------------------------------------------

@bp.post("/players/<id>/mute")
def mute(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    chat().mute(me, id, True)
    return {"player": id, "muted": True}


@bp.delete("/players/<id>/mute")
def unmute(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    me = current_player(players())
    chat().mute(me, id, False)
    return "", 204


@bp.get("/players/me/mutes")
def mutes() -> ResponseReturnValue:
    return {"mutes": chat().muted(current_player(players()).id)}


# ---- reports and the moderators' queue --------------------------------------------------------

@bp.post("/reports")
def report() -> ResponseReturnValue:
    me = current_player(players())
    body = _report.load(json_body())
    subject = {k: body[k] for k in ("kind", "channel", "player", "game") if k in body}
    if "message" in body:
        subject["id"] = body["message"]
    made = chat().report(me, subject, body["reason"])
    return {k: made[k] for k in ("id", "status", "subject", "at")}, 201


def _moderator() -> str:
    me = current_player(players())
    moderation().require_moderator(me)
    return me.id


@bp.get("/moderation/reports")
def report_queue() -> ResponseReturnValue:
    _moderator()
    return {"reports": chat().queue(query(_queue)["status"])}


@bp.post("/moderation/reports/<id>/resolve")
def resolve_report(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    by = _moderator()
    body = _resolve.load(json_body())
    return chat().resolve(by, id, body["outcome"], body["actions"], body["reason"])


@bp.post("/moderation/chat/hide")
def hide_message() -> ResponseReturnValue:
    by = _moderator()
    body = _hide.load(json_body())
    return chat().moderate(by, "hide", body["reason"], message=f"{body['channel']}/{body['message']}"), 201


@bp.post("/moderation/players/<id>/suspend")
def suspend(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    by = _moderator()
    body = _suspend.load(json_body())
    until = int(time.time() * 1000) + body["seconds"] * 1000
    return chat().moderate(by, "suspend", body["reason"], player=id, scope=body["scope"], until=until), 201


@bp.post("/moderation/actions/<id>/undo")
def undo(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    by = _moderator()
    body = _reason.load(json_body())
    return chat().moderate(by, "undo", body["reason"], id=id), 201
