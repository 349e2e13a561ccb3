"""Interactive API documentation at /docs: Swagger UI over /openapi.yaml, served from the
flask-swagger-ui package's copy of the swagger-ui dist (no CDN: the page loads nothing from
elsewhere, and the online validator badge is off). The page has no inline script (its CSP,
api/http/security_headers.py, allows none): web/docs.js starts Swagger UI."""
from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Response, abort, send_from_directory
from flask.typing import ResponseReturnValue

bp = Blueprint("docs", __name__)

DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
ASSETS = frozenset({"swagger-ui.css", "index.css", "swagger-ui-bundle.js", "favicon-32x32.png",
                    "favicon-16x16.png"})

# Relative URLs: the page works under any prefix a proxy puts the server behind.
PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Game server API</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="web/docs.js"></script>
</body>
</html>
"""


@bp.get("/docs")
def page() -> ResponseReturnValue:
    return Response(PAGE, mimetype="text/html")


@bp.get("/docs/<asset>")
def asset(asset: str) -> ResponseReturnValue:
    if asset not in ASSETS:
        abort(404)
    return send_from_directory(DIST, asset, max_age=86400)
