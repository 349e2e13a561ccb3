"""What the server hosts, whether it is healthy, and its contract."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app
from flask.typing import ResponseReturnValue

from api import metrics
from api.errors import Code, UnknownGameType
from api.http import docs, languages
from api.http.client_address import request_origin
from api.http.problems import problem
from api.http.requests import games
from api.openapi.extra import served
from api.words import rules
from api.words.game_types import localized
from domain import registry

if TYPE_CHECKING:
    from domain.contract import GameDef

bp = Blueprint("meta", __name__)
bp.register_blueprint(docs.bp)

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
SERVER_LINE = "servers:\n  - url: http://localhost:8000\n"  # the file's, for a local run


def describe_type(game: GameDef) -> dict[str, Any]:
    return {
        "type": game.name,
        "title": game.title,
        "min_seats": game.min_seats,
        "max_seats": game.max_seats,
        "rules_version": game.rules_version,
        "bots": list(game.bots),
        "options": [
            {k: v for k, v in {"name": o.name, "type": o.type, "default": o.default, "description": o.description,
                               "choices": list(o.choices) if o.choices is not None else None,
                               "minimum": o.minimum, "maximum": o.maximum}.items() if v is not None}
            for o in game.options
        ],
        "move_types": dict(game.move_types),
        "notes": game.notes,
        "pieces": dict(game.words.names) if game.words is not None else {},
        "rated_after": {"decisions_per_seat": game.rated_decisions},
    }


@bp.get("/game-types")
def game_types() -> ResponseReturnValue:
    lang = languages.use()
    return {"game_types": [localized(describe_type(g), lang) for g in registry.all_games()]}


@bp.get("/game-types/<game_type>/rules")
def game_rules(game_type: str) -> ResponseReturnValue:
    """A game's rules summary and its pieces' effects, in the caller's language (or English)."""
    game = registry.get(game_type)
    if game is None:
        raise UnknownGameType(f"This server hosts no game of type '{game_type}'.", status=404)
    answer = rules.summary(game, languages.current())
    languages.spoken(answer["language"])  # its Content-Language: English where the language has none
    return answer


@bp.get("/health")
def health() -> ResponseReturnValue:
    try:
        games().store.ping()
    except Exception:
        return problem(503, Code.STORE_UNAVAILABLE, "Redis cannot be reached.", headers={"Retry-After": "2"})
    return {"status": "ok", "redis": "ok"}


@bp.get("/health/live")
def live() -> ResponseReturnValue:
    """The process answers: nothing else is checked (a restart is the cure for a failure here)."""
    return {"status": "ok"}


@bp.get("/health/ready")
def ready() -> ResponseReturnValue:
    """Redis answers, a turn worker heartbeats, the reconciler passes: the server can take games."""
    checks = current_app.extensions["readiness"]()
    # With REPLICAS_ACK: the primaries taking appends with fewer replicas than it asks. Degraded
    # is still ready (refusing the probe would take the whole server out, not the one shard).
    replication = current_app.extensions["replication"]() if checks["redis"] == "ok" else None
    extra = {"replication": replication} if replication is not None else {}
    failing = sorted(part for part, state in checks.items() if state != "ok"
                     and not state.startswith("degraded"))  # named, still ready
    if failing:
        return problem(503, Code.NOT_READY, f"Not ready: {', '.join(failing)}.",
                       details={"checks": checks, **extra}, headers={"Retry-After": "2"})
    return {"status": "ok", "checks": checks, **extra}


@bp.get("/metrics")
def prometheus_metrics() -> ResponseReturnValue:
    return Response(metrics.exposition(current_app.extensions.get("scrape_gauges")),
                    content_type=metrics.CONTENT_TYPE)


@cache
def _spec_around_server(hosted: tuple[str, ...]) -> tuple[str, str]:
    """The served spec cut around its server line: true of this server's games (with
    EXTRA_GAME_MODULES, its unions hold the extra games' variants: api/openapi/extra.py)."""
    head, found, tail = served(SPEC.read_text(), list(hosted)).partition(SERVER_LINE)
    assert found, f"openapi.yaml's servers are not {SERVER_LINE!r}"
    return head, tail


@bp.get("/openapi.yaml")
def openapi() -> ResponseReturnValue:
    """The spec, its server the origin the request came to (so /docs' "Try it out" and a client
    generated from the served spec call this server, on its port, behind its proxy); a Host that
    is no host name gets the relative `/`, which OpenAPI reads as the spec's own origin."""
    head, tail = _spec_around_server(tuple(g.name for g in registry.all_games()))
    server = request_origin() or "/"
    response = Response(f"{head}servers:\n  - url: {server}\n{tail}", mimetype="application/yaml")
    response.vary.update(("Host", "X-Forwarded-Host", "X-Forwarded-Proto"))
    return response
