"""A move's body is loaded without marshmallow when it is well formed (api/http/schemas.py
load_move): every body, well formed or not, gets the schema's own answer: the same value, or the
same refusal word for word."""
from __future__ import annotations

import itertools

import pytest
from marshmallow import ValidationError

from api.http.schemas import MoveRequestSchema, load_move

VERSIONS = [0, 1, 7, 2 ** 31, 2 ** 31 + 1, -1, True, False, 5.0, 5.5, "5", None, [], {}, 2 ** 63 - 1]
MOVES = [{}, {"type": "take_gems", "colors": ["red", "blue", "green"]}, [], None, "x", 3, {"a": {"b": [1]}}]


def _outcome(load, body):
    try:
        return "ok", load(body)
    except ValidationError as e:
        return "refused", e.normalized_messages()


def bodies():
    for version, move in itertools.product(VERSIONS, MOVES):
        yield {"expected_version": version, "move": move}
        yield {"move": move, "expected_version": version}
        yield {"expected_version": version, "move": move, "extra": 1}
    for version in VERSIONS:
        yield {"expected_version": version}
    for move in MOVES:
        yield {"move": move}
        yield {"version": 1, "move": move}
    yield from ({}, [], None, "body", 3, [{"expected_version": 1, "move": {}}])


@pytest.mark.parametrize("body", list(bodies()), ids=repr)
def test_every_body_gets_the_schemas_own_answer(body):
    assert _outcome(load_move, body) == _outcome(MoveRequestSchema().load, body)


def test_the_loaded_move_is_a_copy_as_the_schemas_is():
    move = {"type": "x"}
    loaded = load_move({"expected_version": 1, "move": move})
    assert loaded == {"expected_version": 1, "move": move} and loaded["move"] is not move
    assert list(loaded) == ["expected_version", "move"]
