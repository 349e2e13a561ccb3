"""marshmallow schemas for request bodies: the API's edge. Nothing on the replay path uses them."""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from .input_rules import name_problem, normal_name

NAME = validate.Length(min=1, max=40)


class NameField(fields.String):
    """A person's name: NFC-normalised; no control, line-break or bidi-override characters."""

    def _deserialize(self, value, attr, data, **kwargs):
        name = normal_name(super()._deserialize(value, attr, data, **kwargs))
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name


class SeatSchema(Schema):
    class Meta:
        unknown = RAISE

    name = NameField(validate=NAME)
    bot = fields.String(validate=validate.Length(min=1, max=40))

    @validates_schema
    def _one_of(self, data, **kwargs):
        if ("name" in data) == ("bot" in data):
            raise ValidationError("A seat is either a person ({'name': ...}) or a bot ({'bot': level}).")


class SeedField(fields.Field):
    """An integer or a short string."""

    def _deserialize(self, value, attr, data, **kwargs):
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


class WholeNumber(fields.Integer):
    """An integer as JSON has it: 5 or 5.0, not "5" nor true (JSON Schema's `integer`)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not an integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class MoveRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    expected_version = WholeNumber(required=True, strict=True, validate=validate.Range(min=0, max=2 ** 31))
    move = fields.Dict(required=True)


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


class StateQuerySchema(Schema):
    class Meta:
        unknown = RAISE

    version = fields.Integer(required=True, validate=validate.Range(min=0, max=2 ** 31))
