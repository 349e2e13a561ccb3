"""Which language an answer speaks (issue 32): `?lang=` if given (one of the catalogues'), else
the best of the request's `Accept-Language` (quality values weighed, `ko-KR` taken as `ko`),
else English. An answer says the language its words are in (`Content-Language`: the asked
one where the route has them in it, `en` where it has them in English only, so far the
errors' details and the games' events), and that it depends on the header (`Vary:
Accept-Language`), so a cache keeps one copy per language. The words themselves are
api/words/'s."""
from __future__ import annotations

from flask import Response, g

from api.errors import ValidationFailed
from api.http import current as context
from api.words import DEFAULT, languages


def current() -> str:
    """The request's language (negotiated before the route ran)."""
    return str(context.glob().get("lang", DEFAULT))


def use() -> str:
    """The request's language, for a route that answers in it (its Content-Language then)."""
    this = context.glob()
    spoken = this.spoken = str(this.get("lang", DEFAULT))
    return spoken


def asked() -> bool:
    """Whether the request names a language (`?lang=` or `Accept-Language`)."""
    this = context.req()
    return "lang" in this.args or "HTTP_ACCEPT_LANGUAGE" in this.environ


def spoken(lang: str) -> None:
    """The answer's words are in `lang` (a route that fell back from the asked language)."""
    g.spoken = lang


def _negotiated() -> str:
    this = context.req()
    environ = this.environ
    asked = this.args.get("lang") if environ.get("QUERY_STRING") else None
    if asked is None and "HTTP_ACCEPT_LANGUAGE" not in environ:
        return DEFAULT  # what best_match answers to no header, without parsing one
    served = languages()
    if asked is not None:
        if asked not in served:
            raise ValidationFailed(f"lang is one of {', '.join(served)}.",
                                   details={"fields": {"lang": [f"One of: {', '.join(served)}."]}})
        return asked
    return this.accept_languages.best_match(served, default=DEFAULT) or DEFAULT


def negotiate() -> None:
    """Before the route: the request's language."""
    context.glob().lang = _negotiated()  # a refused ?lang= leaves none: current() answers the default


def say_it(response: Response, names: set[str]) -> Response:
    """After the route: the language the answer's words are in, and that it depends on the header
    (`names`: the headers the route answered with, lower case)."""
    headers = response.headers
    spoken = str(context.glob().get("spoken", DEFAULT))
    if "content-language" in names:
        headers["Content-Language"] = spoken
    else:  # most answers: appended, as setting it would, without looking for it again
        headers.add("Content-Language", spoken)
    if "vary" in names:
        response.vary.add("Accept-Language")
    else:  # most answers: no Vary to parse and write again
        headers.add("Vary", "Accept-Language")
    return response
