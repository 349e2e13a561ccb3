"""Small helpers shared by the blueprints: the service, JSON bodies and query strings."""
from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from events import codec

from .errors import ValidationFailed


def games():
    return current_app.extensions["games"]


def json_body():
    # get_data, not request.data: .data runs Werkzeug's form parser first, a third of the
    # cost of reading a move's body.
    data = request.get_data(cache=True)
    if not data:
        raise ValidationFailed("The request needs a JSON body.", code="validation_error")
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.content_length is None and limit is not None and len(data) >= limit:
        raise RequestEntityTooLarge()  # a chunked body, which the server cut at the limit
    try:
        return codec.loads(data)
    except (codec.JSONDecodeError, RecursionError):
        raise ValidationFailed("The request body is not valid JSON.", code="malformed_json") from None


_defaults: dict = {}


def query(schema):
    """The query string loaded by `schema`; without one, the schema's defaults (computed once:
    most reads send no query string, and a marshmallow load is the read's largest edge cost)."""
    args = request.args.to_dict() if request.environ.get("QUERY_STRING") else {}  # .args parses
    args.pop("seat", None)  # whose view: the caller's (auth.py), not the route's
    if not args:
        cached = _defaults.get(id(schema))
        if cached is None:
            cached = _defaults[id(schema)] = (schema, schema.load({}))
        return dict(cached[1])
    return schema.load(args)
