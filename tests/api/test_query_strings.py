"""A query string loaded before is taken from a bounded table (api/http/requests.py's query,
issue 57): the same values, no schema load the second time, each caller its own copy; a long
query string is never kept; found again by the string as sent. Its parsed arguments are kept too
(requests.known_args): the same immutable object for the same string. Unit: a bare Flask app's
request contexts, in memory."""
from __future__ import annotations

import pytest
from flask import Flask
from marshmallow import Schema, fields

from api.errors import ValidationFailed
from api.http import requests as http_requests


class _Page(Schema):
    after = fields.Integer(load_default=0)
    limit = fields.Integer(load_default=20)
    q = fields.String()


@pytest.fixture
def counted(monkeypatch):
    schema, loads = _Page(), []
    real = schema.load

    def load(data, *args, **kwargs):
        loads.append(dict(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(schema, "load", load)
    monkeypatch.setattr(http_requests, "_loaded", {})
    return schema, loads


def _query(schema: Schema, query: str) -> dict:
    with Flask(__name__).test_request_context(f"/x?{query}"):
        return http_requests.query(schema)


def test_a_query_string_loaded_before_is_not_loaded_again(counted):
    schema, loads = counted
    first = _query(schema, "after=30&limit=20")
    first["after"] = 99  # a route's own copy: changes nothing kept
    assert _query(schema, "limit=20&after=30") == {"after": 30, "limit": 20}
    assert len(loads) == 1
    assert _query(schema, "after=31&limit=20") == {"after": 31, "limit": 20} and len(loads) == 2


def test_a_long_query_string_is_never_kept(counted):
    schema, loads = counted
    long = "q=" + "a" * http_requests.LOADED_LENGTH
    for _ in range(2):
        assert _query(schema, long)["q"] == "a" * http_requests.LOADED_LENGTH
    assert len(loads) == 2 and not http_requests._loaded


def test_a_query_string_sent_again_is_found_by_the_string_itself(counted):
    schema, loads = counted
    _query(schema, "after=30&limit=20")
    assert http_requests._loaded[(schema, "after=30&limit=20")] == {"after": 30, "limit": 20}
    with Flask(__name__).test_request_context("/x?after=30&limit=20") as ctx:
        ctx.request.args = None  # the string's entry answers: its arguments are not read again
        assert http_requests.query(schema) == {"after": 30, "limit": 20}
    assert len(loads) == 1


def _args(query: str):
    with Flask(__name__).test_request_context(f"/x?{query}") as ctx:
        http_requests.known_args()
        http_requests.one_value_per_parameter()
        return ctx.request.args


def test_a_query_string_parsed_before_is_the_same_immutable_arguments(monkeypatch):
    monkeypatch.setattr(http_requests, "_args", {})
    first = _args("version=3&lang=ko")
    assert _args("version=3&lang=ko") is first and first.to_dict() == {"version": "3", "lang": "ko"}
    with pytest.raises(TypeError):
        first["version"] = "4"  # shared by the requests sending it: nothing may change it
    assert _args("version=4") is not first
    for _ in range(2):  # a repeated parameter is refused from the kept arguments too
        with pytest.raises(ValidationFailed):
            _args("seat=1&seat=2")
