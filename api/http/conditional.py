"""Conditional reads of a game: ETags and `If-None-Match`.

A per-game read is a function of the game's version, the seat it is answered as (its viewer,
and `you`), its URL and its language (the words in it: moves' labels, events' sentences), so
its ETag is the version, the seat and the language (none said for English). A client holding one asks with
`If-None-Match`: one XLEN of the game's stream (the store's version) tells whether anything
changed, and `304 Not Modified` answers before the game is loaded or anything is built.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response, current_app, request

from api.http import current as context
from api.http import languages
from api.words import DEFAULT
from events.store import EventStore

if TYPE_CHECKING:
    from flask.typing import ResponseReturnValue


def tag(version: int, seat: int | None, variant: str = "") -> str:
    lang = languages.current()
    return f"v{version}.{'s' if seat is None else seat}{variant}{'' if lang == DEFAULT else '.' + lang}"


def not_modified(store: EventStore, game_id: str, seat: int | None, variant: str = "") -> Response | None:
    """304 when the caller's ETag is the game's current one; None otherwise (build the answer)."""
    this = context.req()
    if "HTTP_IF_NONE_MATCH" not in this.environ:
        return None  # most reads: no header to parse
    asked = this.if_none_match
    if not asked:
        return None
    version = store.version(game_id)
    if version == 0:  # no such game (or expired): the read answers 404
        return None
    current = tag(version, seat, variant)
    if not (asked.star_tag or asked.contains_weak(current)):
        return None
    response = Response(status=304)
    response.set_etag(current)
    return response


def matched(store: EventStore, game_id: str, seat: int | None, variants: tuple[str, ...]) -> tuple[int, str] | None:
    """(version, variant) of the caller's ETag when it is the game's current version's in one of
    `variants` (one XLEN, as not_modified); None otherwise."""
    asked = request.if_none_match
    if not asked:
        return None
    version = store.version(game_id)
    if version == 0:
        return None
    for variant in variants:
        if asked.star_tag or asked.contains_weak(tag(version, seat, variant)):
            return version, variant
    return None


def unmodified(version: int, seat: int | None, variant: str = "") -> Response:
    response = Response(status=304)
    response.set_etag(tag(version, seat, variant))
    return response


def tagged(body: ResponseReturnValue, version: int, seat: int | None, variant: str = "") -> Response:
    """The answer with its ETag."""
    response = body if isinstance(body, Response) else current_app.make_response(body)
    response.set_etag(tag(version, seat, variant))
    return response
