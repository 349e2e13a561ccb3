"""Small helpers shared by the blueprints: the service, JSON bodies and query strings."""
from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from .errors import ValidationFailed


def games():
    return current_app.extensions["games"]


def json_body():
    if not request.data:
        raise ValidationFailed("The request needs a JSON body.", code="validation_error")
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.content_length is None and limit is not None and len(request.data) >= limit:
        raise RequestEntityTooLarge()  # a chunked body, which the server cut at the limit
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:  # nested deeper than the parser goes: not a body we accept
        body = None
    if body is None:
        raise ValidationFailed("The request body is not valid JSON.", code="malformed_json")
    return body


def query(schema):
    return schema.load(request.args.to_dict())
