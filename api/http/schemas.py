"""marshmallow schemas for request bodies: the API's edge. Nothing on the replay path uses them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.input_rules import name_problem, normal_name

NAME = validate.Length(min=1, max=40)


class WholeNumber(fields.Integer):
    """An integer as JSON has it: 5 or 5.0, not "5" nor true (JSON Schema's `integer`)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not an integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class NameField(fields.String):
    """A person's name: NFC-normalised; no control, line-break or bidi-override characters."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        name = normal_name(super()._deserialize(value, attr, data, **kwargs))
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name


class JsonBool(fields.Field[Any]):
    """A JSON boolean, exactly (not 1, not "true"); `only`: the one value accepted."""

    def __init__(self, only: bool | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.only = only

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if not isinstance(value, bool) or (self.only is not None and value is not self.only):
            raise ValidationError("Not true." if self.only is True else "Not a boolean (true or false).")
        return value


class SeatSchema(Schema):
    class Meta:
        unknown = RAISE

    name = NameField(validate=NAME)
    bot = fields.String(validate=validate.Length(min=1, max=40))
    open = JsonBool(only=True)
    invite = JsonBool(only=True)
    me = JsonBool(only=True)

    @validates_schema
    def _one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        if len(data) != 1:
            raise ValidationError("A seat is a person ({'name': ...}), a bot ({'bot': level}), a seat for anyone "
                                  "to claim ({'open': true}), one for those with the invite code "
                                  "({'invite': true}), or the creating player's own ({'me': true}).")


class SeedField(fields.Field[Any]):
    """An integer or a short string."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON's integer 7.0
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValidationError("The seed is an integer or a string.")
        if isinstance(value, str) and not 1 <= len(value) <= 64:
            raise ValidationError("A string seed has 1 to 64 characters.")
        if isinstance(value, int) and abs(value) >= 2 ** 63:
            raise ValidationError("An integer seed fits in 64 bits.")
        return value


class CreateGameSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = fields.List(fields.Nested(SeatSchema), required=True, validate=validate.Length(min=1, max=12))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = SeedField(load_default=None, allow_none=True)
    private = JsonBool(load_default=False)
    rated = JsonBool(load_default=True)  # false: a casual game (never rated)
    clock = fields.Raw(load_default=None, allow_none=True)  # checked by api/platform/clocks.py (400 invalid_clock)


class PlayerNameSchema(Schema):
    class Meta:
        unknown = RAISE

    name = NameField(required=True, validate=NAME)


class NewAccessTokenSchema(PlayerNameSchema):
    """A personal access token asked for (issue 51): its name, scopes (each checked against
    openapi.yaml's list by api/players/tokens.py) and seconds to live (none: until revoked)."""
    scopes = fields.List(fields.String(validate=validate.Length(min=1, max=32)), required=True,
                         validate=validate.Length(min=1, max=16))
    expires_in = WholeNumber(load_default=None, allow_none=True, strict=True,
                                validate=validate.Range(min=60, max=366 * 86400))


class NewPlayerSchema(PlayerNameSchema):
    """`bot: true`: an outside program plays as this player (shown as a bot account)."""

    bot = JsonBool(load_default=False)


class RecoverSchema(Schema):
    """A recovery code, and the name of the key it makes (the device asking)."""

    class Meta:
        unknown = RAISE

    code = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = NameField(load_default="recovered key", validate=NAME)


class IdentityTokenSchema(Schema):
    """An identity token (a JWT) to link to the player."""

    class Meta:
        unknown = RAISE

    token = fields.String(required=True, validate=validate.Length(min=1, max=8000))


class PasskeyAnswerSchema(Schema):
    """An authenticator's answer (the browser's PublicKeyCredential as JSON) and a name: the
    passkey's (registering), or the device key's it makes (signing in)."""

    class Meta:
        unknown = RAISE

    credential = fields.Dict(required=True)
    name = NameField(load_default=None, validate=NAME)


class StepUpSchema(Schema):
    """One proof that the caller is the player's owner (api/players/step_up.py)."""

    class Meta:
        unknown = RAISE

    recovery_code = fields.String(validate=validate.Length(min=1, max=100))
    passkey = fields.Dict()
    identity_token = fields.String(validate=validate.Length(min=1, max=8000))

    @validates_schema
    def _one_proof(self, data: dict[str, Any], **kwargs: Any) -> None:
        if len(data) != 1:
            raise ValidationError("Send exactly one proof: `recovery_code`, `passkey` or `identity_token`.")


class ClaimSchema(Schema):
    """An anonymous claimer names itself; a player's name is its own."""

    class Meta:
        unknown = RAISE

    name = NameField(validate=NAME)


class ListingQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(load_default="waiting", validate=validate.OneOf(["waiting", "active", "finished"]))
    type = fields.String(validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,15}\.[A-Za-z0-9_-]{1,64}$"))
    # The harvest (status=finished only): every ended game in the order it ended, after this one.
    since = fields.String(validate=validate.Regexp(r"^[0-9]{1,15}(-[0-9]{1,15})?$"))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    format = fields.String(validate=validate.OneOf(["json", "ndjson"]))


class HarvestQuerySchema(Schema):
    """GET /games/ended: every ended game in the order it ended, after the cursor `since`."""
    class Meta:
        unknown = RAISE

    since = fields.String(load_default="0", validate=validate.Regexp(r"^[0-9]{1,15}(-[0-9]{1,15})?$"))
    type = fields.String(validate=validate.Regexp(r"^[a-z0-9-]{1,64}$"))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    format = fields.String(validate=validate.OneOf(["json", "ndjson"]))


class MyGamesQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished", "abandoned", "aborted"]))
    my_turn = fields.Boolean(truthy={"true", "1"}, falsy={"false", "0"})
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,15}\.[A-Za-z0-9_-]{1,64}$"))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class SyncQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    since = fields.String(validate=validate.Regexp(r"^([0-9]{1,15}-[0-9]{1,10}|0)$"))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


class MoveRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    expected_version = WholeNumber(required=True, strict=True, validate=validate.Range(min=0, max=2 ** 31))
    move = fields.Dict(required=True)


_move_schema = MoveRequestSchema()
_MOST_VERSION = 2 ** 31


def load_move(body: Any) -> dict[str, Any]:
    """A move's body as MoveRequestSchema loads it. A well-formed one (exactly its two fields:
    an int within the range, a JSON object) is taken as is, without marshmallow (a third of the
    move's edge cost); anything else goes through the schema, so every refusal is the schema's
    own, word for word (tests/api/test_move_body_fast_path.py holds the two equal)."""
    if type(body) is dict and len(body) == 2:
        version, move = body.get("expected_version"), body.get("move")
        if type(version) is int and 0 <= version <= _MOST_VERSION and type(move) is dict:
            return {"expected_version": version, "move": dict(move)}
    loaded: dict[str, Any] = _move_schema.load(body)
    return loaded


class HistoryQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2 ** 31))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    format = fields.String(validate=validate.OneOf(["json", "ndjson"]))


class MovesQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2 ** 31))
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=5000))
    # The moves' words: true (the default, deprecated: false from 2.0.0) or false (the moves only).
    labels = fields.Boolean(load_default=True, truthy={"true", "1"}, falsy={"false", "0"})


class StateQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    version = fields.Integer(required=True, validate=validate.Range(min=0, max=2 ** 31))


class VacationSchema(Schema):
    """A vacation planned in advance: its first and last days (YYYY-MM-DD, UTC), checked by
    api/players/vacations.py (400 invalid_vacation)."""
    class Meta:
        unknown = RAISE

    start = fields.Raw(required=True)
    end = fields.Raw(required=True)


class VacationSettingsSchema(Schema):
    class Meta:
        unknown = RAISE

    auto = JsonBool(required=True)
