"""Small helpers shared by the blueprints: the app's services, JSON bodies, query strings, path
parameters, and pages' cursors and `next` links. Route modules import these, never each other."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlencode

from flask import current_app, request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from api.errors import ApiError, Code, ValidationFailed
from api.http import current
from api.input_rules import MAX_DEPTH, depth_within, digits
from events import codec

if TYPE_CHECKING:
    from marshmallow import Schema

    from api.games.service import GameService
    from api.players.accounts import Players
    from api.seating.claims import Lobby

# Query parameters that are integers: ASCII digits by pattern before marshmallow's int().
INTEGER_ARGS = frozenset({"after", "limit", "offset", "version"})


class UnsupportedMediaType(ApiError):
    status, code = 415, Code.UNSUPPORTED_MEDIA_TYPE


# The collaborators app.py registers, typed for mypy by cast (not checked when run: Flask keeps
# them in an untyped dict, and the tests may register doubles).

def games() -> GameService:
    return cast("GameService", current.app().extensions["games"])


def players() -> Players:
    return cast("Players", current_app.extensions["players"])


def lobby() -> Lobby:
    return cast("Lobby", current_app.extensions["lobby"])


def json_body() -> Any:
    # Only JSON, declared as such: a browser may send text/plain or a form to any site without
    # asking first, so accepting those would let any web page create games and send moves as
    # its visitors (a CSRF shape); application/json needs a CORS preflight this server never grants.
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("Send the body as JSON with 'Content-Type: application/json'.")
    # get_data, not request.data: .data runs Werkzeug's form parser first, a third of the
    # cost of reading a move's body.
    data = request.get_data(cache=True)
    if not data:
        raise ValidationFailed("The request needs a JSON body.", code=Code.VALIDATION_ERROR)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.content_length is None and limit is not None and len(data) >= limit:
        raise RequestEntityTooLarge()  # a chunked body, which the server cut at the limit
    body, failed = _parsed(data)
    if failed:
        raise ValidationFailed("The request body is not valid JSON.", code=Code.MALFORMED_JSON) from None
    if not depth_within(body):
        raise ValidationFailed(f"The request body nests deeper than {MAX_DEPTH} levels.", code=Code.TOO_DEEPLY_NESTED)
    return body


_PARSED = "game_server.json_body"  # (the body's bytes, its value, whether it failed to parse) in the environ


def _parsed(data: bytes) -> tuple[Any, bool]:
    """(the value, whether the bytes are not JSON) of the request's body `data`, parsed once a
    request (peek_json's and json_body's one parse)."""
    environ = request.environ
    held = environ.get(_PARSED)
    if held is not None and held[0] is data:
        return held[1], held[2]
    try:
        value, failed = codec.loads(data), False
    except (codec.JSONDecodeError, RecursionError):
        value, failed = None, True
    environ[_PARSED] = (data, value, failed)
    return value, failed


def peek_json() -> Any:
    """What `request.get_json(silent=True)` answers (the body's JSON value when its media type
    is JSON's, else None), from the parse json_body() then uses again: a move's route reads
    its expected version before its checks of the body, and parsed the body twice (issue 57)."""
    if not request.is_json:
        return None
    value, failed = _parsed(request.get_data(cache=True))
    return None if failed else value


# Query strings parsed before (werkzeug's ImmutableMultiDict of them, which nothing can change, so
# one may serve every request sending the same string): a replayer or a poller sends the same few
# again and again, and `request.args` parsed them anew each time, a few µs of every request with a
# query (issue 57). Bounded as _loaded below: at most ARGS_KEPT strings of at most LOADED_LENGTH
# characters, cleared when full.
_args: dict[str, Any] = {}
ARGS_KEPT = 1024


def known_args() -> None:
    """Before the route (the first step reading the query): `request.args` taken from the
    strings parsed before, or parsed and kept (werkzeug's cached_property takes an assigned value
    as the request's own)."""
    this = current.req()
    query_string = this.environ.get("QUERY_STRING")
    if not query_string or len(query_string) > LOADED_LENGTH:
        return
    parsed = _args.get(query_string)
    if parsed is None:
        parsed = this.args
        if type(parsed) is not ImmutableMultiDict:  # a subclass's request storing a mutable one: never shared
            return
        if len(_args) >= ARGS_KEPT:
            _args.clear()
        _args[query_string] = parsed
    else:
        this.args = parsed


def one_value_per_parameter() -> None:
    """Before the route: every query parameter of this API holds one value. `?seat=1&seat=2` is
    refused, not read as its first value: a client (or a proxy that appends) must not have one of
    two values silently ignored, and a cache keyed on the first one would mix answers."""
    this = current.req()
    if this.environ.get("QUERY_STRING"):
        repeated = sorted(k for k, values in this.args.lists() if len(values) > 1)
        if repeated:
            raise ValidationFailed(
                f"`{repeated[0]}` is given more than once; each query parameter takes one value.",
                details={"fields": {k: ["Given more than once."] for k in repeated}})


_defaults: dict[int, tuple[Schema, dict[str, Any]]] = {}
# Short query strings loaded before (by schema and arguments), when every value loaded is a
# scalar: a replayer stepping through a game sends the same few again and again, and a
# marshmallow load was a tenth of a past read answered from kept bytes (issue 57). At most
# LOADED_KEPT of at most LOADED_LENGTH characters (~0.5 MB: no flood of queries grows it),
# cleared when full.
# Each under its string as sent (looked up first: no dict of it made or sorted) and its sorted arguments.
_loaded: dict[tuple[Schema, Any], dict[str, Any]] = {}  # the schema itself: no id reused
LOADED_KEPT = 1024
LOADED_LENGTH = 128
_SCALARS = (int, str, bool, float, type(None))


def query(schema: Schema) -> dict[str, Any]:
    """The query string loaded by `schema`; without one, the schema's defaults (computed once:
    most reads send no query string, and a marshmallow load is the read's largest edge cost)."""
    this = current.req()
    query_string = this.environ.get("QUERY_STRING", "")
    if query_string:  # kept by the string as sent: no dict of it made, sorted or looked up
        kept = _loaded.get((schema, query_string))
        if kept is not None:
            return dict(kept)
    args = this.args.to_dict() if query_string else {}  # .args parses
    args.pop("seat", None)  # whose view: the caller's (auth.py), not the route's
    args.pop("lang", None)  # the answer's language: api/http/languages.py
    if not args:
        cached = _defaults.get(id(schema))
        if cached is None:
            cached = _defaults[id(schema)] = (schema, schema.load({}))
        return dict(cached[1])
    key = (schema, tuple(sorted(args.items())))  # the same arguments in another order: the same load
    kept = _loaded.get(key)
    if kept is None:
        for name in INTEGER_ARGS.intersection(args):
            digits(args[name], name)
        loaded: dict[str, Any] = schema.load(args)
        if len(query_string) > LOADED_LENGTH or \
                not all(isinstance(v, _SCALARS) for v in loaded.values()):  # a copy handed out can change nothing kept
            return loaded
        kept = dict(loaded)
    if len(query_string) <= LOADED_LENGTH:  # a long one is never kept, by either key
        if len(_loaded) >= LOADED_KEPT - 1:
            _loaded.clear()
        _loaded[key] = _loaded[(schema, query_string)] = kept
    return dict(kept)


def seat_number(raw: str) -> int:
    """A seat named in the path (`/seats/<seat>/...`)."""
    if len(raw) > 3:
        raise ValidationFailed("A seat number has at most 3 digits.", details={"fields": {"seat": ["Too long."]}})
    return digits(raw, "seat")


def parse_cursor(raw: str | None) -> tuple[int, str] | None:
    """A listing's `cursor` (`<score>.<member>`, as cursor_link writes it), or None."""
    if raw is None:
        return None
    score, _, member = raw.partition(".")
    return int(score), member


def next_link(path: str, params: dict[str, Any]) -> str:
    """A page's `next` link: `path` and the query `params`, each value URL-encoded (an `&` or a
    space in one must not end it or start another)."""
    return f"{path}?{urlencode(params)}"


def cursor_link(path: str, cursor: tuple[int, str] | None) -> str | None:
    """The next page of a listing paged by cursor (None at the end): the same query, its cursor
    moved on."""
    if cursor is None:
        return None
    params = request.args.to_dict() if request.environ.get("QUERY_STRING") else {}
    params.pop("cursor", None)
    params["cursor"] = f"{cursor[0]}.{cursor[1]}"
    return next_link(path, params)
