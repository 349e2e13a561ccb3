"""The headers that keep a browser from misreading an answer or framing a page.

Every answer: `X-Content-Type-Options: nosniff` (a JSON body is never run as a script or shown
as a page). The pages (text/html: the web client's and /docs) also: a Content-Security-Policy
that lets them load only this server's own scripts, styles, images and API (no inline script or
style: the pages have none, tests/web/test_security_headers.py loads each in Chromium and finds no
violation), may be framed by nobody (`frame-ancestors 'none'`, and `X-Frame-Options: DENY` for
browsers older than CSP 2), and send no path to other sites (`Referrer-Policy`).
"""
from __future__ import annotations

from flask import Response

# data: images are swagger-ui's (its stylesheet's icons); everything else is the server's own.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
PAGE_HEADERS = {"Content-Security-Policy": CSP, "X-Frame-Options": "DENY",
                "Referrer-Policy": "strict-origin-when-cross-origin"}


def secure(response: Response, names: set[str]) -> Response:
    """After the route: nosniff on every answer, the pages' headers on text/html (`names`: the
    headers the route answered with, lower case)."""
    headers = response.headers
    if "x-content-type-options" in names:
        headers["X-Content-Type-Options"] = "nosniff"
    else:  # appended, as setting it would, without looking for it again
        headers.add("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        for name, value in PAGE_HEADERS.items():
            headers.setdefault(name, value)
    return response
