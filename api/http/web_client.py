"""The reference web client: its pages and static files, and `/` for browsers and API clients.

The pages are plain files in web/ (HTML, CSS, JavaScript modules, no build step); they use only
the public API, like any other client. Each page (web/*.html) holds only its own parts: its
title, scripts, header words and main; the <head> and header bar every page shares are
web/_page.html's, filled here (Jinja, escaping on). `/` answers JSON to API clients (their
`Accept` names JSON, `*/*` or nothing) and the lobby page to browsers (their `Accept` prefers
`text/html`)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, current_app, jsonify, make_response, request, send_from_directory
from flask.typing import ResponseReturnValue
from jinja2 import Environment, FileSystemLoader, TemplateNotFound, select_autoescape

from api.errors import Code
from api.http.problems import problem
from api.input_rules import is_game_id

bp = Blueprint("web", __name__)

WEB = Path(__file__).resolve().parents[2] / "web"
# Pages and files change with the server: a browser revalidates them (cheap 304s) instead of
# running yesterday's script against today's API.
CACHE = "no-cache"
# The pages' one shell (web/_page.html) and the pages filling it; a page's file changed on disk
# is read again (auto_reload), as a static file would be.
PAGES = Environment(loader=FileSystemLoader(WEB), autoescape=select_autoescape(["html"]),
                    trim_blocks=True, lstrip_blocks=True, auto_reload=True)


def _page(name: str) -> Response:
    """A page of web/, its shared head and header filled in; its ETag answers a revalidation
    with a 304, as a static file's does. The shell itself (`_page.html`) is no page."""
    if name.startswith("_"):
        abort(404)
    try:
        html = PAGES.get_template(name).render()
    except TemplateNotFound:
        abort(404)
    response = make_response(html)
    response.mimetype = "text/html"
    response.headers["Cache-Control"] = CACHE
    response.add_etag()
    response.make_conditional(request)  # a 304 (and no body) when the browser's copy is this one
    return response


def wants_html() -> bool:
    """A browser's navigation prefers text/html; API clients send JSON, */* or no Accept."""
    best = request.accept_mimetypes.best_match(["application/json", "text/html"], default="application/json")
    return best == "text/html"


@bp.get("/")
def index() -> ResponseReturnValue:
    if wants_html():
        response = _page("index.html")
    else:
        response = jsonify({
            "name": current_app.config.get("SERVER_NAME_TEXT", "game server"),
            "docs": "/docs", "openapi": "/openapi.yaml", "game_types": "/game-types", "web": "/"})
    response.headers["Vary"] = "Accept"
    return response


@bp.get("/play/<game_id>")
def play(game_id: str) -> ResponseReturnValue:
    return _page("play.html") if is_game_id(game_id) else _no_game()


@bp.get("/replay/<game_id>")
def replay(game_id: str) -> ResponseReturnValue:
    return _page("replay.html") if is_game_id(game_id) else _no_game()


@bp.get("/leaderboard/<type>")
def leaderboard(type: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return _page("leaderboard.html")


@bp.get("/messages")
def messages() -> ResponseReturnValue:
    return _page("messages.html")


@bp.get("/tournament/<id>")
def tournament(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    """A tournament's page (its API resource is /tournaments/{id}, as a game's page is /play/{id})."""
    return _page("tournament.html")


@bp.get("/profile/<id>")
def profile(id: str) -> ResponseReturnValue:  # the path's own name (openapi.yaml)
    return _page("profile.html")


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """The client's service worker, at the root so that its scope is every page (a worker's
    scope is at most its own folder unless Service-Worker-Allowed says more: said anyway, for a
    proxy that serves it from elsewhere); always revalidated, as browsers do for workers."""
    response = send_from_directory(WEB, "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = CACHE
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """The web app manifest (installable client): its own media type."""
    response = send_from_directory(WEB, "manifest.webmanifest", mimetype="application/manifest+json", max_age=0)
    response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/web/<path:file>")
def static_file(file: str) -> ResponseReturnValue:
    if file.endswith(".html") and "/" not in file:
        return _page(file)  # a page (/web/friends.html...): filled as the others are
    response = send_from_directory(WEB, file, max_age=0)  # 404 outside web/ or missing
    response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/sw-push.js")
def service_worker_push() -> ResponseReturnValue:
    """The push handlers the service worker loads (`importScripts('/sw-push.js')`); at the root,
    where a service worker's scripts are looked for. JavaScript, whatever the platform's types
    table says: a service worker's imported script of another type is refused."""
    response = send_from_directory(WEB, "sw-push.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = CACHE
    return response


def _no_game() -> Response:
    """An id no game can have is a 404, like the API's (for a well-formed id the page itself asks
    for the game, and says so when it does not exist)."""
    return problem(404, Code.UNKNOWN_GAME, "No game has this id.")
