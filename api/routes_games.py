"""The games: create, read, legal moves, moves, history and replay. Routes stay thin: parse,
call the service, shape the answer."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from .auth import caller, seat_of
from .fairness import check_client_seed
from .errors import ValidationFailed
from .http import games, json_body, query
from .schemas import CreateGameSchema, HistoryQuerySchema, MoveRequestSchema, MovesQuerySchema, StateQuerySchema

bp = Blueprint("games", __name__)

_create = CreateGameSchema()
_move = MoveRequestSchema()
_history = HistoryQuerySchema()
_moves_page = MovesQuerySchema()
_state_at = StateQuerySchema()


@bp.post("/games")
def create_game():
    body = _create.load(json_body())
    check_client_seed(body["seed"], body["seats"], current_app.config.get("ALLOW_CLIENT_SEEDS", False))
    created = games().create(body["type"], body["seats"], body["options"], body["seed"])
    return created, 201, {"Location": f"/games/{created['id']}"}


@bp.get("/games/<game_id>")
def read_game(game_id):
    service = games()
    seat = seat_of(service, game_id)
    return service.describe(service.load(game_id), seat)


@bp.get("/games/<game_id>/moves")
def legal_moves(game_id):
    service = games()
    page = query(_moves_page)  # the query string by pattern first: no Redis call for a bad one
    seat = seat_of(service, game_id, acting=True)
    game = service.load(game_id)
    moves = service.legal_moves(game, seat)
    end = page["offset"] + page["limit"]
    answer = {"version": game.version, "seat": seat, "total": len(moves),
              "offset": page["offset"], "moves": moves[page["offset"]:end]}
    summary = service.moves_summary(game, seat)
    if summary is not None:
        answer["summary"] = summary
    return answer


@bp.post("/games/<game_id>/moves")
def send_move(game_id):
    service = games()
    # Headers and query string by pattern first: no Redis call for a malformed request.
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise ValidationFailed("An Idempotency-Key has 1 to 200 characters.", code="validation_error")
    dry_run = request.args.get("dry_run")
    if dry_run not in (None, "1", "true", "0", "false"):
        raise ValidationFailed("dry_run is one of true, false, 1, 0.", code="validation_error")
    include = request.args.get("include")
    if include not in (None, "next_moves"):
        raise ValidationFailed("include is next_moves (the caller's next legal moves in the answer).",
                               code="validation_error")
    holder, seat = caller(service, game_id, required=True, acting=True)
    body = _move.load(json_body())
    if dry_run in ("1", "true"):
        return service.check_move(game_id, seat, body["move"], body["expected_version"]), 200
    answer = service.move(game_id, seat, body["move"], body["expected_version"], key)
    if include:
        answer["next_moves"] = service.next_moves(game_id, holder, answer["version"])
    return answer, 201


@bp.get("/games/<game_id>/events")
def history(game_id):
    service = games()
    page = query(_history)
    seat = seat_of(service, game_id)
    game = service.load(game_id)
    viewer = service.viewer_for(game, seat)
    events = service.history(game, viewer, page["after"], page["limit"])
    return {"version": game.version, "events": events}


@bp.get("/games/<game_id>/state")
def state_at(game_id):
    service = games()
    version = query(_state_at)["version"]
    seat = seat_of(service, game_id)
    current = service.load(game_id)
    past = service.at_version(game_id, version, current)
    # The viewer is judged by the game now: a finished game is open at every version.
    shown = service.describe(past, seat)
    if current.finished and not past.finished:
        shown["view"] = past.definition.view(past.state, service.viewer_for(current, seat))
    return shown
