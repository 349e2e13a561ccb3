"""Every request's own steps, wired in one place as one before/after pair of Flask hooks.

Each concern keeps its steps in its module (observe: request id, metrics, log line; languages:
the answer's language; request_limits: budgets and their headers; requests: one value per query
parameter; security_headers: nosniff and the pages' headers). They ran as a Flask hook each
(four before, four after): Flask calls every hook through its own dispatch (`ensure_sync`, a
coroutine check per call), so one pair running the same steps in the same order costs less and
answers the same (a step that raises stops the steps after it, as Flask stops its hooks).

Before the route, in order: observe.start, requests.known_args (the query string parsed once
per process), languages.negotiate, request_limits' charge,
requests.one_value_per_parameter, scopes' check (a personal access token without the
operation's scopes). After it (Flask ran after-hooks in reverse order of
registration; this is that order): request_limits' tell, languages.say_it, deprecation's mark
(only when openapi.yaml retires an operation), security_headers.secure, observe's finish; each
is handed the answer and the names of the headers the route answered with. At teardown:
observe.forget.
"""
from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from api.http import deprecation, languages, observe, request_limits, requests, scopes, security_headers


def install(app: Flask, budgets: request_limits.Budgets) -> None:
    before = (observe.start, requests.known_args, languages.negotiate, request_limits.charger(app, budgets),
              requests.one_value_per_parameter, scopes.checker(scopes.spec_table()))
    mark_deprecated = deprecation.marker(deprecation.spec_notices())
    after: tuple[Callable[[Response, set[str]], Response], ...] = (
        request_limits.teller(app), languages.say_it,
        *([lambda response, _: mark_deprecated(response)] if mark_deprecated else ()),
        security_headers.secure, observe.finisher(app))

    @app.before_request
    def _before() -> None:
        for step in before:
            step()

    @app.after_request
    def _after(response: Response) -> Response:
        # The names (lower case) of the headers the route answered with, found once: each step
        # asks whether a header it writes is there, and werkzeug's `in` and `headers[name] = v`
        # each scanned them all again (six scans an answer). No step asks for a header an
        # earlier step writes, so the set stays true for what they ask.
        names = {name.lower() for name, _ in response.headers}
        for step in after:
            response = step(response, names)
        return response

    app.teardown_request(observe.forget)
