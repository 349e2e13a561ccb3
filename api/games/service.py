"""The application service: the one place where games are created and moved.

HTTP routes and RQ jobs both call it; it holds no Flask. Commands go through the game's
`decide`, their events are appended with the version they were decided on (the store's Lua
script refuses a stale one; appending.py judges a lost race again, for every command), and
whoever must act next without a person (bots, the system) is handed to the scheduler. Loading
and caching games is the repository's (repository.py); what each viewer sees is presenting.py's;
who is asking, callers.py's.
"""
from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from api import logs, metrics
from api.errors import (
    AnonymousGamesFull,
    Code,
    IdempotencyKeyReused,
    IllegalMove,
    TooManyWaitingGames,
    UnknownGame,
    UnknownGameType,
    ValidationFailed,
    VersionConflict,
)
from api.games import harvest, presenting, words
from api.games.appending import decide_and_append
from api.games.callers import TABLE, Holder, Seats, hash_token, people_to_act
from api.games.deferred import immediately
from api.games.options import merged_options
from api.games.repository import CREATED, Game, GameRepository, advanced, snapshot_code
from api.platform import clocks, fairness
from api.platform import events as platform_events
from api.platform.decisions import setup
from api.words import DEFAULT as DEFAULT_LANGUAGE
from api.words import Wording
from domain import registry
from domain.contract import SYSTEM, Actor, GameDef, MoveRejected, Viewer, is_seat
from domain.play import rng_on_use
from events import codec
from events.store import DuplicateRequest, EventStore, NewEvent

Scheduler = Callable[[str, int, list[Any]], None]
log = logging.getLogger(__name__)

NEXT_MOVES_LIMIT = 500  # as GET /moves pages them
BARE_NEXT_MOVES_LIMIT = 64  # without labels (`labels=false`): a compact answer; `total` says how many more
FULL_RETRY_AFTER_S = 60  # a full server's answer: bot games end within it, waiting ones expire (WAITING_TTL)


def canonical(value: Any) -> str:
    return codec.canonical(value)  # json.dumps(value, sort_keys=True, separators=(",", ":")), through orjson


def automatic_actors(game: Game) -> list[Any]:
    """The actors a worker must play now: the system, and bot seats."""
    return [a for a in game.actors() if a == SYSTEM or (is_seat(a) and game.bot_level(a))]


# Told of each append once it is durable: the game after it, and its events as (type, data).
Listener = Callable[[Game, list[tuple[str, dict[str, Any]]]], None]


class GameService:
    def __init__(self, store: EventStore, scheduler: Scheduler | None = None, defer: Callable[..., Any] = immediately,
                 players: Any = None, listeners: list[Listener] | None = None, max_anonymous: int = 0,
                 snapshot_every: int | None = None, retention_s: float | None = None, waiting: Any = None) -> None:
        self.store = store
        self.max_anonymous = max_anonymous  # unfinished games created without a player's key (0: no cap)
        self.waiting = waiting  # api/lobby/waiting.WaitingGames: each player's waiting games, capped (None: no cap)
        self.games = GameRepository(store, snapshot_every, retention_s)
        self.players = players  # api/players.Players (None: a store without players)
        self.seats = Seats(self.games, players)
        # Told of every append after it is durable: (game after it, [(type, data)...]): the
        # players' feed (api/players/feed.py) and the webhooks (api/webhooks/notify.py).
        self.listeners = list(listeners or [])
        self.scheduler = scheduler or (lambda game_id, version, actors: None)
        self.defer = defer  # how the after-append writes run: now, or after the answer (deferred.py)

    # ---- creation -------------------------------------------------------------------------

    def create(self, type_name: str, seats: list[Any], options: dict[str, Any], seed: Any = None, private: bool = False,
               clock: Any = None, anonymous: bool = False, rated: bool = True,
               creator: str | None = None, group: str | None = None) -> dict[str, Any]:
        """Seats: `{"name"}` (with `"player"` for a player sitting itself), `{"bot"}`, or free
        seats for others to claim (`{"open": true}`, `{"invite": true}`, a rematch's reserved
        ones). With a free seat the game is `waiting`: its setup (the deal) waits for the claim
        that fills the last seat (api/seating/claims.py), drawn then from the same seed.
        `anonymous`: created without a player's key, counted against max_anonymous.
        `rated` False: a casual game, never rated (api/ratings/). `creator`: the id of the
        player creating it, whose waiting games are capped (TooManyWaitingGames). `group`: a
        group's game, its seats claimed by the group's members only."""
        definition = registry.get(type_name)
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{type_name}'.")
        _check_seats(definition, seats)
        merged = merged_options(definition, options, len(seats))
        clock = clocks.checked(definition, clock)  # 400 invalid_clock before anything is written
        if anonymous:
            self._check_room()
        if seed is None:
            seed = fairness.server_seed()
        setup_events = setup(definition, merged, len(seats), seed)  # checked now even when the deal waits
        waiting = any(platform_events.free_given(s) for s in seats)
        game_id = secrets.token_urlsafe(9)
        tokens = {i: f"{game_id}.{i}.{secrets.token_urlsafe(24)}" for i, s in enumerate(seats) if "name" in s}
        credentials = {str(i): hash_token(token) for i, token in tokens.items()}
        table_token = f"{game_id}.{TABLE}.{secrets.token_urlsafe(24)}" if tokens else None
        if table_token:
            credentials[TABLE] = hash_token(table_token)
        created = {"type": CREATED, "game_type": type_name, "rules_version": definition.rules_version,
                   "seats": seats, "options": merged, "seed": seed}
        if private:
            created["private"] = True
        if not rated:
            created["rated"] = False
        if clock is not None:
            created["clock"] = clock
        events = [NewEvent(CREATED, created, None)]
        if not waiting:
            events += [NewEvent(e["type"], e, None) for e in setup_events]
        meta = {"type": type_name, "seats": canonical(seats), "seed": canonical(seed)}
        if creator is not None:
            meta["creator"] = creator  # a block keeps the players it blocks from its table (api/social/blocks.py)
        if group is not None:
            meta["group"] = group  # its seats are the group's members' (api/social/groups.py)
        if not waiting:
            meta["setup_version"] = str(len(events))
        invite_code = None
        if any(s.get("invite") for s in seats):
            invite_code = secrets.token_urlsafe(12)
            meta["invite_sha256"] = hash_token(invite_code)
        at = int(time.time() * 1000)
        if waiting and creator is not None:
            self._reserve_waiting(creator, game_id, at)
        game = self.games.created(game_id, meta, credentials, events, at)
        version = self.store.create(game_id, meta, credentials, events, owing=bool(automatic_actors(game)), at=at,
                                    due=clocks.next_deadline(game.platform), clocked=clock is not None,
                                    waiting=waiting, anonymous=anonymous)
        self._outbox(game, self.scheduler, events)  # before the answer: see append_platform
        answer = {"id": game_id, "version": version, "status": game.status,
                  "seats": [{"seat": i, "name": s.get("name", s.get("bot")), "bot": s.get("bot"),
                             "token": tokens.get(i)} for i, s in enumerate(seats)],
                  "table_token": table_token, "seed_sha256": fairness.commitment(seed)}
        if invite_code:
            answer["invite_code"] = invite_code
        return answer

    def _check_room(self) -> None:
        """Refuses a game created without a player's key while max_anonymous are unfinished
        (a server-wide cap: storage that no number of client addresses multiplies)."""
        if self.max_anonymous and self.store.anonymous_count() >= self.max_anonymous:
            raise AnonymousGamesFull(
                f"This server holds its most unfinished games created without a player's key "
                f"({self.max_anonymous}). Retry later, or create the game with a player's key.",
                headers={"Retry-After": str(FULL_RETRY_AFTER_S)})

    def _reserve_waiting(self, player_id: str, game_id: str, at: int) -> None:
        """Counts the new waiting game against its creator's cap, or refuses it: the games the
        player's set holds that no longer wait (started, ended, gone) leave it first."""
        quota = self.waiting
        if quota is None or not quota.limit:
            return
        done = []
        for held, created_at in quota.held(player_id):
            try:
                counts = self.load(held).status == "waiting"
            except UnknownGame:
                counts = at - created_at < quota.grace_ms  # a creation under way is not written yet
            if not counts:
                done.append(held)
        quota.release(player_id, done)
        if not quota.reserve(player_id, game_id, at):
            raise TooManyWaitingGames(
                f"You have {quota.limit} games waiting for players already, the most one player may have: "
                "create another once one of them starts, or ends unjoined (WAITING_TTL).",
                details={"limit": quota.limit})

    # ---- who is asking --------------------------------------------------------------------

    def seat_for_token(self, game_id: str, token: str | None) -> Holder:
        """The seat a bearer token belongs to, TABLE for the table token; None for no token."""
        return self.seats.holder(game_id, token)

    def resolve_seat(self, game_id: str, holder: Holder, asked: int | None, acting: bool = False,
                     expected: int | None = None) -> int | None:
        return self.seats.resolve(game_id, holder, asked, acting, expected)

    def next_moves(self, game_id: str, holder: Holder, version: int,
                   lang: str = DEFAULT_LANGUAGE, labels: bool = True) -> dict[str, Any] | None:
        """After a move: the legal moves of the seat the caller acts as next (its own seat, or
        for a table token the first person seat to act), so a client need not ask for them;
        with their words (`labels`) in `lang` unless `labels` is False (none is scored)."""
        game = self.games.cached(game_id)
        if game is None or game.version < version:
            game = self.games.load(game_id)
        people = [] if game.finished else people_to_act(game)
        held = game.table_seats() if holder == TABLE else [holder]
        seats = [s for s in people if s in held]
        if not seats:
            return None
        moves, total = presenting.legal_page(game, seats[0], NEXT_MOVES_LIMIT if labels else BARE_NEXT_MOVES_LIMIT)
        answer = {"seat": seats[0], "version": game.version, "total": total, "moves": moves}
        said = words.labels(game, lang, seats[0], moves) if labels else None
        if said is not None:
            answer["labels"] = said
        return answer

    # ---- moves ----------------------------------------------------------------------------

    def move(self, game_id: str, actor: Actor, move: Any, expected_version: int,
             idempotency_key: str | None = None, scheduler: Scheduler | None = None,
             automatic: bool = False) -> dict[str, Any]:
        """Decides and appends one move. Returns {"version", "to_act", "events"}, the events as
        the actor sees them.

        A retry with the same idempotency key answers what the first request did: the append
        script finds the key before writing anything, and a retry that the first request's own
        events make look stale or illegal looks the key up before refusing."""
        fingerprint = hashlib.sha256(canonical([actor, move, expected_version]).encode()).hexdigest()
        try:
            return self._decide_and_append(game_id, actor, move, expected_version, idempotency_key, fingerprint,
                                           scheduler or self.scheduler, automatic)
        except (VersionConflict, IllegalMove):
            prior = self.store.recall(game_id, idempotency_key) if idempotency_key else None
            if prior is None or idempotency_key is None:
                raise
            return self._replayed(game_id, actor, prior, fingerprint, idempotency_key)

    def _decide_and_append(self, game_id: str, actor: Actor, move: Any, expected_version: int,
                           idempotency_key: str | None, fingerprint: str,
                           scheduler: Scheduler, automatic: bool = False) -> dict[str, Any]:
        def decide(game: Game, at: int) -> list[Any]:
            self._check_version(game, actor, expected_version)
            # A worker plays bots' turns (automatic); a person's seat a bot plays is taken back
            # first (seat_control.return_seat); past its deadline, the seat's timeout wins.
            if not game.finished:
                clocks.check_actor(game, actor, at, automatic)
            return [NewEvent(e["type"], e, actor) for e in self._decide(game, actor, move)]

        def append(game: Game, events: list[Any], at: int) -> tuple[Any, ...]:
            updated = advanced(game, events, at)  # the platform's fold too: a person moved, the clocks
            try:
                result = self.store.append(
                    game_id, game.version, events, idempotency_key, fingerprint,
                    f"{game.version + 1}:{game.version + len(events)}", at=at, owing=bool(automatic_actors(updated)),
                    due=clocks.next_deadline(updated.platform), clocked=game.platform.clock is not None,
                    held=game.version)
            except DuplicateRequest:
                raise IdempotencyKeyReused("This Idempotency-Key was already used for a different request.") from None
            return updated, result, at

        # The state this process already holds is decided on when it is the version the client
        # saw; were it stale, the append's version check sends us to reload.
        cached = self.games.cached(game_id)
        decided = decide_and_append(self, game_id, decide, append, metrics.child(metrics.conflicts, "race"),
                                    cached if cached is not None and cached.version == expected_version else None)
        game, (updated, result, at) = decided.game, decided.appended
        if result.duplicate:
            return self._replayed(game_id, actor, (fingerprint, result.response), fingerprint, idempotency_key)
        first, last = game.version + 1, updated.version
        metrics.child(metrics.moves, game.definition.name, metrics.actor_kind(actor, game.bot_level)).inc()
        logs.bind(game_id=game_id, version=last)  # the request's (or job's) later log lines
        self._after_append(updated, scheduler, decided.events)
        return {"version": last, "to_act": updated.actors(),
                "events": [presenting.present(game, actor, e.type, e.data, first + i, actor, at)
                           for i, e in enumerate(decided.events)]}

    def _replayed(self, game_id: str, actor: Actor, prior: tuple[str, str], fingerprint: str,
                  key: str | None) -> dict[str, Any]:
        """The answer the first request with this key got, rebuilt from the events it appended
        (the store keeps only their versions: a fraction of the whole answer's bytes)."""
        if prior[0] != fingerprint:
            raise IdempotencyKeyReused(f"Idempotency-Key '{key}' was already used for a different request.")
        if prior[1].startswith("{"):
            answer: dict[str, Any] = json.loads(prior[1])  # a record of the first format kept the whole answer
            return answer
        first, last = (int(v) for v in prior[1].split(":"))
        after = self.games.at_version(game_id, last)
        return {"version": last, "to_act": after.actors(),
                "events": [presenting.present(after, actor, e.type, e.data, e.version, e.actor, e.at)
                           for e in self.store.read_range(game_id, first, last)]}

    def check_move(self, game_id: str, actor: Actor, move: Any, expected_version: int) -> dict[str, Any]:
        """Judges a move without appending it. Answers only whether it is legal: the events it
        would cause may hold chance (a drawn card) that the actor must not see before choosing."""
        game = self.games.load(game_id)
        self._check_version(game, actor, expected_version)
        self._decide(game, actor, move)
        answer: dict[str, Any] = {"valid": True, "version": game.version}
        if game.definition.preview is not None:
            answer["preview"] = game.definition.preview(game.state, actor, move)
        return answer

    def _check_version(self, game: Game, actor: Actor, expected: int) -> None:
        if expected == game.version:
            return
        setup_version = game.setup_version  # known once the game has a state: it has started
        if 0 < expected < game.version and game.state is not None and setup_version is not None:
            then = self.games.at_version(game.id, max(expected, setup_version), game)
            if game.definition.stale_ok(then.state, game.state, actor):
                return
        metrics.conflicts.labels("stale").inc()
        raise VersionConflict(
            f"The game is at version {game.version}, not {expected}: read it again and retry.",
            version=game.version)

    @staticmethod
    def _decide(game: Game, actor: Actor, move: Any) -> list[Any]:
        if game.finished:
            raise IllegalMove("The game is over.", code=Code.GAME_OVER, version=game.version)
        if game.state is None:
            raise IllegalMove("The game has not started: it waits for people to take its open seats.",
                              code=Code.GAME_NOT_STARTED, status=409, version=game.version)
        try:
            return game.definition.decide(game.state, actor, move, rng_on_use(game.seed, game.version, str(actor)))
        except MoveRejected as e:
            raise IllegalMove(e.message, code=e.code, version=game.version, details=e.details,
                              wording=Wording.of(e, game.definition.name)) from e

    def _after_append(self, updated: Game, scheduler: Scheduler, events: Sequence[Any] = ()) -> None:
        self.games.remember(updated, snapshot=False)
        self.defer(self._outbox, updated, scheduler, events)

    def _outbox(self, game: Game, scheduler: Scheduler, events: Sequence[Any] = ()) -> None:
        """The writes that follow a durable append. A failure here (Redis gone while saving a
        snapshot or enqueueing the next turn) must not answer "nothing was changed": it is
        logged, and the reconciler enqueues a missed turn and marks finished games. Then the
        listeners (api/players/feed.py: players' games, their streams, the lobby) hear of it."""
        context = logs.bind(game_id=game.id, version=game.version)  # on the deferred thread too
        try:
            self.games.snapshot_if_due(game)
            if game.finished:
                self.finish(game)
            scheduler(game.id, game.version, automatic_actors(game))
        except Exception:
            log.warning("game %s at version %s: after-append step failed; the reconciler will repair it",
                        game.id, game.version, exc_info=True)
        try:
            self.notify(game, events)
        finally:
            logs.unbind(context)

    def finish(self, game: Game) -> None:
        """An ended game: logged for harvesting (api/games/harvest.py), then out of the sets of games
        that may owe work (whose repair passes call this again if it fails on the way)."""
        harvest.log(self.store, game)
        self.store.mark_finished(game.id)

    def notify(self, game: Game, events: Sequence[Any]) -> None:
        """Tells the listeners of events appended to `game` (NewEvent or event dicts)."""
        for listener in self.listeners:
            try:
                listener(game, [(e.type, e.data) if isinstance(e, NewEvent) else (e["type"], e) for e in events])
            except Exception:
                log.warning("game %s at version %s: a listener failed", game.id, game.version, exc_info=True)

    def append_platform(self, game: Game, events: list[Any], at: int | None = None) -> Game:
        """Appends platform events (and what follows them: a start's setup events) at the game's
        version (at `at`, ms: now unless given); Conflict if anyone appended since. Returns the
        game after them."""
        at = at if at is not None else int(time.time() * 1000)
        updated = advanced(game, events, at)
        self.store.append(game.id, game.version, events, at=at,
                          owing=bool(automatic_actors(updated)), due=clocks.next_deadline(updated.platform),
                          clocked=game.platform.clock is not None, held=game.version)
        # Before the answer, unlike a move's: a new game, a claim or a leave is in its players'
        # games and the lobby when the answer arrives (a client that lists them right after, as
        # examples/outside_bot.py did, finds it), and these appends are few.
        self.games.remember(updated, snapshot=False)
        self._outbox(updated, self.scheduler, events)
        return updated

    # ---- reading (the repository's and presenting's, for routes and workers) -------------

    def load(self, game_id: str) -> Game:
        return self.games.load(game_id)

    def at_version(self, game_id: str, version: int, current: Game | None = None) -> Game:
        return self.games.at_version(game_id, version, current)

    def forget(self, game_id: str) -> None:
        self.games.forget(game_id)

    def snapshot(self, game: Game) -> None:
        self.games.snapshot(game)

    @staticmethod
    def _snapshot_code(definition: GameDef) -> str:
        return snapshot_code(definition)

    automatic_actors = staticmethod(automatic_actors)
    viewer_for = staticmethod(presenting.viewer_for)
    present = staticmethod(presenting.present)
    describe = staticmethod(presenting.describe)
    legal_moves = staticmethod(presenting.legal_moves)
    legal_page = staticmethod(presenting.legal_page)
    moves_summary = staticmethod(presenting.moves_summary)

    def history(self, game: Game, viewer: Viewer, after: int, limit: int) -> list[dict[str, Any]]:
        return [presenting.present(game, viewer, e.type, e.data, e.version, e.actor, e.at)
                for e in self.store.read(game.id, after=after, limit=limit)]


def _check_seats(definition: GameDef, seats: list[Any]) -> None:
    n = len(seats)
    if not definition.min_seats <= n <= definition.max_seats:
        raise ValidationFailed(
            f"{definition.title} is played by {definition.min_seats} to {definition.max_seats} seats; "
            f"{n} were given.", code=Code.INVALID_SEATS)
    for i, seat in enumerate(seats):
        if "bot" in seat and seat["bot"] not in definition.bots:
            raise ValidationFailed(
                f"Seat {i}: {definition.title} has no bot '{seat['bot']}' "
                f"(available: {', '.join(definition.bots)}).", code=Code.UNKNOWN_BOT)
