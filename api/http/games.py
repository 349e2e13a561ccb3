"""The games: create, read, legal moves, moves, history and replay. Routes stay thin: parse,
call the service, shape the answer."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue

from api.errors import Code, ValidationFailed
from api.games import words
from api.games.callers import is_player_credential
from api.history import export
from api.http import app_links, conditional, current, languages
from api.http import request_limits as limits
from api.http.auth import acting_caller, bearer_token, current_player, requested_seat, seat_of
from api.http.requests import games, json_body, next_link, peek_json, query
from api.http.schemas import CreateGameSchema, HistoryQuerySchema, MovesQuerySchema, StateQuerySchema, load_move
from api.platform.fairness import check_client_seed
from api.players.accounts import UnknownPlayer
from api.players.identity_tokens import TokenRefused
from api.ratings.standings import game_unrated_reason
from events import codec

if TYPE_CHECKING:
    from api.games.repository import Game
    from api.games.service import GameService
    from api.players.accounts import Player, Players

bp = Blueprint("games", __name__)

_create = CreateGameSchema()
_history = HistoryQuerySchema()
_moves_page = MovesQuerySchema()
_state_at = StateQuerySchema()


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    body = _create.load(json_body())
    check_client_seed(body["seed"], body["seats"], current_app.config.get("ALLOW_CLIENT_SEEDS", False))
    player = creator(body["seats"])
    if player is None:
        limits.charge_anonymous_creation()
    else:
        limits.charge_player_creation(player.id)  # whatever its keys and addresses, bot accounts too
    me = {"name": player.name, "player": player.id, **({"bot_account": True} if player.bot else {})} \
        if player is not None else None
    seats = [me if "me" in s else s for s in body["seats"]]
    created = games().create(body["type"], seats, body["options"], body["seed"], body["private"], body["clock"],
                             anonymous=player is None, rated=body["rated"],
                             creator=player.id if player is not None else None)
    created["links"] = app_links.game_links(created["id"])
    return created, 201, {"Location": f"/games/{created['id']}"}


def creator(seats: list[dict[str, Any]]) -> Player | None:
    """The player creating the game: its key is required with a `{"me": true}` seat (which
    becomes the player's), and otherwise only read. None: the game is created without a player's
    key (an unknown or rotated one is ignored, as it always was here), and counts against the
    server's budgets for those (api/http/request_limits.py, MAX_ANONYMOUS_GAMES)."""
    players: Players | None = current_app.extensions["players"]
    if not any("me" in s for s in seats):
        token = bearer_token()
        if token is None or not is_player_credential(token) or players is None:
            return None
        try:
            return players.authenticate(token)
        except (UnknownPlayer, TokenRefused):
            return None
    if sum(1 for s in seats if "me" in s) > 1:
        raise ValidationFailed("A player sits in one seat of a game: one {'me': true} at most.",
                               code=Code.INVALID_SEATS)
    return current_player(players)


NDJSON = "application/x-ndjson"


def _next_page(game_id: str, path: str, **params: Any) -> str:
    """A page's `next` link: the same read, its cursor moved on (and the seat kept)."""
    seat = requested_seat()
    if seat is not None:
        params["seat"] = seat
    return next_link(f"/games/{game_id}{path}", params)


RATED = ".r"  # the ETag variant of a finished game's view with its ratings' changes


@bp.get("/games/<game_id>")
def read_game(game_id: str) -> ResponseReturnValue:
    """The game as the caller sees it. A rated game shows beside its result, once it is counted
    (seconds after its end, by no append of the game's), each seat's rating before and after: its view
    then has an ETag of its own (RATED), so a client holding the view from before is answered
    anew, and one holding the rated view gets its 304 as before. An ended game that is not rated
    says why (`unrated_reason`: api/ratings/standings.py)."""
    service = games()
    seat = seat_of(service, game_id)
    held = conditional.matched(service.store, game_id, seat, (RATED, ""))
    if held is not None and held[1] == RATED:
        return conditional.unmodified(held[0], seat, RATED)  # counted once: it does not change again
    cached = service.games.cached(game_id)
    if held is not None and cached is not None and cached.version == held[0] and not cached.finished:
        return conditional.unmodified(held[0], seat)  # being played: no ratings yet
    game = service.load(game_id)
    shown = service.describe(game, seat)
    if game.finished:
        shown["result_words"] = words.result(game, languages.use())
        unrated = game_unrated_reason(game)
        if unrated is not None:
            shown["unrated_reason"] = unrated
    ledger = current_app.extensions["ratings"].ledger
    changes = ledger.game_changes(game_id, game.definition.name) if game.finished else None
    if changes is not None:
        shown["ratings"] = changes
    variant = RATED if changes is not None else ""
    if held is not None and held == (game.version, variant):
        return conditional.unmodified(game.version, seat, variant)
    shown["links"] = app_links.game_links(game_id)
    return conditional.tagged(shown, game.version, seat, variant)


@bp.get("/games/<game_id>/moves")
def legal_moves(game_id: str) -> ResponseReturnValue:
    service = games()
    page = query(_moves_page)  # the query string by pattern first: no Redis call for a bad one
    seat = seat_of(service, game_id, acting=True)
    variant = "" if page["labels"] else ".bare"  # an answer with labels and one without: two ETags
    unchanged = conditional.not_modified(service.store, game_id, seat, variant)
    if unchanged is not None:
        return unchanged
    game = service.load(game_id)
    end = page["offset"] + page["limit"]
    moves, total = service.legal_page(game, seat, end)
    shown = moves[page["offset"]:end]
    answer = {"version": game.version, "seat": seat, "total": total,
              "offset": page["offset"], "moves": shown,
              "next": _next_page(game_id, "/moves", offset=end, limit=page["limit"]) if end < total else None}
    said = words.labels(game, languages.use(), seat, shown) if seat is not None and page["labels"] else None
    if said is not None:
        answer["labels"] = said
    summary = service.moves_summary(game, seat)
    if summary is not None:
        answer["summary"] = summary
    return conditional.tagged(answer, game.version, seat, variant)


@bp.post("/games/<game_id>/moves")
def send_move(game_id: str) -> ResponseReturnValue:
    service = games()
    # Headers and query string by pattern first: no Redis call for a malformed request.
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise ValidationFailed("An Idempotency-Key has 1 to 200 characters.", code=Code.VALIDATION_ERROR)
    dry_run = request.args.get("dry_run")
    if dry_run not in (None, "1", "true", "0", "false"):
        raise ValidationFailed("dry_run is one of true, false, 1, 0.", code=Code.VALIDATION_ERROR)
    include = request.args.get("include")
    if include not in (None, "next_moves"):
        raise ValidationFailed("include is next_moves (the caller's next legal moves in the answer).",
                               code=Code.VALIDATION_ERROR)
    sent = peek_json()
    named = sent.get("expected_version") if isinstance(sent, dict) else None
    labels = request.args.get("labels", "true")
    if labels not in ("true", "false", "1", "0"):
        raise ValidationFailed("labels is one of true, false, 1, 0 (next_moves' words, or the moves only).",
                               code=Code.VALIDATION_ERROR)
    holder, seat = acting_caller(service, game_id, named if type(named) is int else None)
    body = load_move(json_body())
    if dry_run in ("1", "true"):
        return service.check_move(game_id, seat, body["move"], body["expected_version"]), 200
    answer = service.move(game_id, seat, body["move"], body["expected_version"], key)
    game = service.games.cached(game_id)  # the one the move was decided on, or newer: its seats
    if game is not None:
        words.say_events(game, languages.use(), answer["events"])
    if include:
        answer["next_moves"] = service.next_moves(game_id, holder, answer["version"], languages.use(),
                                                  labels=labels in ("true", "1"))
    return answer, 201


@bp.get("/games/<game_id>/events")
def history(game_id: str) -> ResponseReturnValue:
    service = games()
    page = query(_history)
    seat = seat_of(service, game_id)
    this = current.req()
    whole = page.pop("format", None) == "ndjson" or (
        "format" not in this.args and "HTTP_ACCEPT" in this.environ  # no Accept: JSON, nothing to parse
        and this.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON)
    # The events carry words when the request names a language (people reading them); an
    # archive's pull that names none gets the events as they are (the export's fastest path).
    worded = languages.asked()
    variant = (".ndjson" if whole else "") + (".w" if worded else "")
    unchanged = conditional.not_modified(service.store, game_id, seat, variant)
    if unchanged is not None:
        unchanged.vary.add("Accept")
        return unchanged
    game: Game | export.Ended
    if whole:  # the whole history after `after`, no page limit, streamed a chunk at a time
        # A finished game no process holds is exported from its meta, without replaying it;
        # not with words, which name its seats.
        game = (not worded and service.games.cached(game_id) is None and export.ended(service, game_id)) \
            or service.load(game_id)
        response = Response(export.ndjson(service.store, game, service.viewer_for(game, seat), page["after"],
                                          current_app.config.get("EXPORT_CACHE_TTL", 0),
                                          current_app.extensions.get("export_memory"),
                                          languages.use() if worded else None), mimetype=NDJSON)
    else:
        game = loaded = service.load(game_id)  # a page is read from the game itself
        response = _events_page(service, loaded, seat, page["after"], page["limit"], worded)
    response.vary.add("Accept")
    return conditional.tagged(response, game.version, seat, variant)


def _events_page(service: GameService, game: Game, seat: int | None, after: int, limit: int,
                 worded: bool) -> Response:
    """A history page: the events after `after` (at most `limit`) as the seat's viewer sees them,
    with the game's version and the next page's link. The events of versions the game has
    reached never change: their encoded bytes are kept per viewer (and per language and seat
    names when worded) and answered again."""
    viewer = service.viewer_for(game, seat)
    end = min(after + limit, game.version)
    page: tuple[Any, ...] | None = None  # what the page's bytes are a function of, beside the game and viewer
    if after < end:
        lang = languages.use() if worded else None
        page = ("events", after, end, lang, tuple(words.seat_names(game, lang)) if lang is not None else None)
    encoded = service.games.past_answer(game.id, viewer, *page) if page is not None else None
    if encoded is not None:
        last, count = end, end - after
    else:
        events = service.history(game, viewer, after, limit)
        if worded:
            words.say_events(game, languages.use(), events)
        last = events[-1]["version"] if events else after
        count = len(events)
        encoded = codec.dumps_bytes(events)
        if page is not None and last == end and count == end - after:  # none appended since the load
            service.games.keep_past_answer(encoded, game.id, viewer, *page)
    more = count == limit and last < game.version
    link = _next_page(game.id, "/events", after=last, limit=limit) if more else None
    return _json(b'{"version":' + codec.dumps_bytes(game.version) + b',"events":' + encoded
                 + b',"next":' + codec.dumps_bytes(link) + b"}\n")


@bp.get("/games/<game_id>/state")
def state_at(game_id: str) -> ResponseReturnValue:
    service = games()
    version = query(_state_at)["version"]
    seat = seat_of(service, game_id)
    unchanged = conditional.not_modified(service.store, game_id, seat)
    if unchanged is not None:
        return unchanged
    current = service.load(game_id)
    service.games.check_version(current, version)
    # The answer is a function of the version, the seat (`you`) and the viewer, judged by the
    # game now (over: everyone): its bytes are kept and answered again (the ETag is the game's now).
    viewer = service.viewer_for(current, seat)
    body = service.games.past_answer(game_id, viewer, "state", version, seat)
    if body is None:
        past = service.at_version(game_id, version, current)
        # The viewer is judged by the game now: a finished game is open at every version (but a
        # version before the deal, a game waiting for its seats or inside its setup, has none).
        shown = service.describe(past, seat)
        if current.finished and not past.finished and past.dealt:
            shown["view"] = past.definition.view(past.state, viewer)
        body = codec.dumps_bytes(shown) + b"\n"
        if past.platform.clock is None:  # a clocked game's state says its clock as of now: never kept
            service.games.keep_past_answer(body, game_id, viewer, "state", version, seat)
    return conditional.tagged(_json(body), current.version, seat)


def _json(body: bytes) -> Response:
    """An answer of JSON bytes, as Flask answers the dict they encode (api/http/json_provider.py)."""
    return current.app().response_class(body, mimetype="application/json")  # the JSON provider's
