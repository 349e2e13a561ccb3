"""The application service: the one place where games are created, loaded and moved.

HTTP routes and RQ jobs both call it; it holds no Flask and no global state beyond a
per-process cache of rebuilt states (a cache: the events are the truth). Commands go
through the game's `decide`, their events are appended with the version they were decided
on, and whoever must act next without a person (bots, the system) is handed to the scheduler.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import pickle
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Optional

from domain import registry
from domain.contract import EVERYONE, SYSTEM, GameDef, MoveRejected, is_seat
from domain.play import fold, rng_for, upcast
from events.store import Conflict, DuplicateRequest, NewEvent, StoredEvent

from .errors import (
    ApiError,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidToken,
    UnknownGame,
    UnknownGameType,
    ValidationFailed,
    VersionConflict,
)

CREATED = "game_created"  # the server's own first event: type, seats, options, seed
SNAPSHOT_EVERY = 100
CACHE_SIZE = 2000
# Bump when the shape of pickled states changes for reasons the games' rules_version misses.
SNAPSHOT_FORMAT = "1"

Scheduler = Callable[[str, int, list], None]
log = logging.getLogger(__name__)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass
class Game:
    """A game as rebuilt at one version."""

    id: str
    definition: GameDef
    meta: dict
    seats: list  # [{"name": str} | {"bot": level}]
    seed: Any
    version: int
    state: Any  # None until the setup events
    snapshot_version: int = 0  # the version of the newest snapshot saved of this game

    @property
    def finished(self) -> bool:
        return self.state is not None and self.definition.result(self.state) is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "active"

    def actors(self) -> list:
        return [] if self.state is None else self.definition.actors(self.state)

    def bot_level(self, seat: int) -> Optional[str]:
        return self.seats[seat].get("bot")


def _game_events(stored: list[StoredEvent]) -> list[dict]:
    return [e.data for e in stored if e.type != CREATED]


class GameService:
    def __init__(self, store, scheduler: Optional[Scheduler] = None):
        self.store = store
        self.scheduler = scheduler or (lambda game_id, version, actors: None)
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._meta: dict[str, tuple] = {}

    # ---- creation -------------------------------------------------------------------------

    def create(self, type_name: str, seats: list, options: dict, seed: Any = None) -> dict:
        definition = registry.get(type_name)
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{type_name}'.")
        n = len(seats)
        if not definition.min_seats <= n <= definition.max_seats:
            raise ValidationFailed(
                f"{definition.title} is played by {definition.min_seats} to {definition.max_seats} seats; "
                f"{n} were given.", code="invalid_seats")
        for i, seat in enumerate(seats):
            if "bot" in seat and seat["bot"] not in definition.bots:
                raise ValidationFailed(
                    f"Seat {i}: {definition.title} has no bot '{seat['bot']}' "
                    f"(available: {', '.join(definition.bots)}).", code="unknown_bot")
        merged = self._options(definition, options, n)
        if seed is None:
            seed = secrets.randbits(63)
        try:
            setup_events = definition.setup(merged, n, rng_for(seed, 0, "setup"))
        except MoveRejected as e:
            raise ValidationFailed(e.message, code=e.code, details=e.details) from e
        game_id = secrets.token_urlsafe(9)
        tokens, credentials = {}, {}
        for i, seat in enumerate(seats):
            if "bot" not in seat:
                tokens[i] = f"{game_id}.{i}.{secrets.token_urlsafe(24)}"
                credentials[str(i)] = hash_token(tokens[i])
        created = {"type": CREATED, "game_type": type_name, "rules_version": definition.rules_version,
                   "seats": seats, "options": merged, "seed": seed}
        events = [NewEvent(CREATED, created, None)] + [NewEvent(e["type"], e, None) for e in setup_events]
        meta = {"type": type_name, "seats": canonical(seats), "seed": canonical(seed),
                "setup_version": str(len(events))}
        version = self.store.create(game_id, meta, credentials, events)
        game = self.load(game_id)
        self.scheduler(game_id, version, self._automatic_actors(game))
        return {"id": game_id, "version": version,
                "seats": [{"seat": i, "name": s.get("name", s.get("bot")), "bot": s.get("bot"),
                           "token": tokens.get(i)} for i, s in enumerate(seats)]}

    @staticmethod
    def _options(definition: GameDef, options: dict, n: int) -> dict:
        declared = {o.name: o for o in definition.options}
        unknown = sorted(set(options) - set(declared))
        if unknown:
            raise ValidationFailed(f"{definition.title} has no option {', '.join(unknown)}.",
                                   code="invalid_options", details={"unknown": unknown})
        merged = definition.default_options()
        for name, value in options.items():
            merged[name] = _checked_option(declared[name], value)
        try:
            definition.check_options(merged, n)
        except MoveRejected as e:
            raise ValidationFailed(e.message, code=e.code, details=e.details) from e
        return merged

    # ---- loading --------------------------------------------------------------------------

    def _game_meta(self, game_id: str) -> tuple:
        cached = self._meta.get(game_id)
        if cached:
            return cached
        meta = self.store.meta(game_id)
        if meta is None:
            raise UnknownGame(f"There is no game '{game_id}'.")
        definition = registry.get(meta["type"])
        if definition is None:
            raise ApiError(f"Game '{game_id}' is of type '{meta['type']}', which this server no longer hosts.",
                           code="game_type_unavailable", status=503)
        entry = (meta, definition, json.loads(meta["seats"]), json.loads(meta["seed"]))
        self._meta[game_id] = entry
        return entry

    def _snapshot_code(self, definition: GameDef) -> str:
        return f"{definition.name}|{definition.rules_version}|{SNAPSHOT_FORMAT}"

    def load(self, game_id: str) -> Game:
        """The game at its current version: cached state + the events since, or snapshot +
        tail, or a full replay; a snapshot is saved once the tail grows long."""
        meta, definition, seats, seed = self._game_meta(game_id)
        cached = self._cache.get(game_id)
        if cached is None:
            cached = self._cold_start(game_id, definition, meta, seats, seed)
        tail = self.store.read(game_id, after=cached.version)
        if tail:
            state = fold(definition, _game_events(tail), cached.state)
            cached = Game(game_id, definition, meta, seats, seed, tail[-1].version, state,
                          cached.snapshot_version)
        self._remember(cached)
        return cached

    def _cold_start(self, game_id, definition, meta, seats, seed) -> Game:
        snapshot = self.store.load_snapshot(game_id, self._snapshot_code(definition))
        if snapshot is not None:
            version, blob = snapshot
            return Game(game_id, definition, meta, seats, seed, version, pickle.loads(blob), version)
        return Game(game_id, definition, meta, seats, seed, 0, None)

    def _remember(self, game: Game) -> None:
        cached = self._cache.get(game.id)
        if cached is not None and cached.version > game.version:
            return  # another request of this process already saw a newer version
        self._cache[game.id] = game
        self._cache.move_to_end(game.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        if game.state is not None and game.version - game.snapshot_version >= SNAPSHOT_EVERY:
            self.snapshot(game)

    def snapshot(self, game: Game) -> None:
        if game.state is None:
            return
        self.store.save_snapshot(game.id, game.version, self._snapshot_code(game.definition),
                                 pickle.dumps(game.state, protocol=pickle.HIGHEST_PROTOCOL))
        game.snapshot_version = game.version

    def forget(self, game_id: str) -> None:
        """Drops the process cache of a game (tests and benchmarks of cold reads)."""
        self._cache.pop(game_id, None)

    def at_version(self, game_id: str, version: int) -> Game:
        """The game as it was at `version` (a replay of the events up to it)."""
        current = self.load(game_id)
        setup_version = int(current.meta["setup_version"])
        if not setup_version <= version <= current.version:
            raise ValidationFailed(
                f"Version {version} is outside this game's history ({setup_version} to {current.version}).",
                code="version_out_of_range", version=current.version)
        if version == current.version:
            return current
        # From the newest snapshot at or before `version` (one every SNAPSHOT_EVERY events),
        # so reading any point of a long game costs at most SNAPSHOT_EVERY events of replay.
        state, start = None, 0
        snapshot = self.store.load_snapshot(game_id, self._snapshot_code(current.definition), at_most=version)
        if snapshot is not None:
            start, state = snapshot[0], pickle.loads(snapshot[1])
        events = self.store.read(game_id, after=start, limit=version - start)
        state = fold(current.definition, _game_events(events), state)
        past = Game(game_id, current.definition, current.meta, current.seats, current.seed, version, state)
        if version - start >= SNAPSHOT_EVERY:
            self.snapshot(past)  # the next read near this version starts here
        return past

    # ---- who is asking --------------------------------------------------------------------

    def seat_for_token(self, game_id: str, token: Optional[str]) -> Optional[int]:
        """The seat a bearer token belongs to; None for no token (a spectator)."""
        if token is None:
            return None
        self._game_meta(game_id)
        digest = hash_token(token)
        seat = None
        for key, stored in self.store.credentials(game_id).items():
            # Constant time per comparison, and every seat is compared: no early exit to time.
            if hmac.compare_digest(stored, digest):
                seat = int(key)
        if seat is None:
            raise InvalidToken("This token does not belong to a seat of this game.")
        return seat

    # ---- moves ----------------------------------------------------------------------------

    def move(self, game_id: str, actor, move: Any, expected_version: int,
             idempotency_key: Optional[str] = None) -> dict:
        """Decides and appends one move. Returns {"version", "events"} as the actor sees them.

        With an idempotency key, a request whose twin already succeeded answers what the twin
        did, also when the twin lands while this one is being judged (a refusal caused by the
        twin's own events is not the answer)."""
        fingerprint = hashlib.sha256(canonical([actor, move, expected_version]).encode()).hexdigest()
        if idempotency_key:
            self._game_meta(game_id)
            prior = self.store.recall(game_id, idempotency_key)
            if prior is not None:
                return self._replayed(prior, fingerprint, idempotency_key)
        try:
            return self._decide_and_append(game_id, actor, move, expected_version, idempotency_key, fingerprint)
        except (VersionConflict, IllegalMove):
            prior = self.store.recall(game_id, idempotency_key) if idempotency_key else None
            if prior is None:
                raise
            return self._replayed(prior, fingerprint, idempotency_key)

    def _decide_and_append(self, game_id, actor, move, expected_version, idempotency_key, fingerprint) -> dict:
        for _ in range(20):
            game = self.load(game_id)
            self._check_version(game, actor, expected_version)
            events = self._decide(game, actor, move)
            new_version = game.version + len(events)
            response = {"version": new_version,
                        "events": [self._shown(game, actor, e, game.version + i + 1)
                                   for i, e in enumerate(events)]}
            try:
                result = self.store.append(
                    game_id, game.version, [NewEvent(e["type"], e, actor) for e in events],
                    idempotency_key, fingerprint, canonical(response))
            except Conflict:
                continue  # someone appended between our read and our write: judge again
            except DuplicateRequest:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used for a different request.")
            if result.duplicate:
                return self._replayed((fingerprint, result.response), fingerprint, idempotency_key)
            self._after_append(game, events, new_version)
            return response
        raise VersionConflict("The game is changing too fast; read it again and retry.",
                              version=self.store.version(game_id))

    def check_move(self, game_id: str, actor, move: Any, expected_version: int) -> dict:
        """Judges a move without appending it. Answers only whether it is legal: the events it
        would cause may hold chance (a drawn card) that the actor must not see before choosing."""
        game = self.load(game_id)
        self._check_version(game, actor, expected_version)
        self._decide(game, actor, move)
        answer = {"valid": True, "version": game.version}
        if game.definition.preview is not None:
            answer["preview"] = game.definition.preview(game.state, actor, move)
        return answer

    @staticmethod
    def _replayed(prior, fingerprint, key) -> dict:
        if prior[0] != fingerprint:
            raise IdempotencyKeyReused(
                f"Idempotency-Key '{key}' was already used for a different request.")
        return json.loads(prior[1])

    def _check_version(self, game: Game, actor, expected: int) -> None:
        if expected == game.version:
            return
        if 0 < expected < game.version and game.state is not None:
            then = self.at_version(game.id, max(expected, int(game.meta["setup_version"])))
            if game.definition.stale_ok(then.state, game.state, actor):
                return
        raise VersionConflict(
            f"The game is at version {game.version}, not {expected}: read it again and retry.",
            version=game.version)

    def _decide(self, game: Game, actor, move) -> list:
        if game.finished:
            raise IllegalMove("The game is over.", code="game_over", version=game.version)
        try:
            events = game.definition.decide(game.state, actor, move, rng_for(game.seed, game.version, str(actor)))
        except MoveRejected as e:
            raise IllegalMove(e.message, code=e.code, version=game.version, details=e.details) from e
        return events

    def _after_append(self, game: Game, events: list, new_version: int) -> None:
        state = fold(game.definition, events, game.state)
        updated = Game(game.id, game.definition, game.meta, game.seats, game.seed, new_version, state,
                       game.snapshot_version)
        # The move is appended and durable: a failure from here on (Redis gone while saving a
        # snapshot or enqueueing the next turn) must not answer "nothing was changed". The
        # reconciler enqueues a turn that was missed and marks finished games.
        try:
            self._remember(updated)
            if updated.finished:
                self.store.mark_finished(game.id)
            self.scheduler(game.id, new_version, self._automatic_actors(updated))
        except Exception:  # noqa: BLE001
            log.warning("game %s at version %s: after-append step failed; the reconciler will repair it",
                        game.id, new_version, exc_info=True)

    @staticmethod
    def _automatic_actors(game: Game) -> list:
        """The actors a worker must play now: the system, and bot seats."""
        return [a for a in game.actors() if a == SYSTEM or (is_seat(a) and game.bot_level(a))]

    def automatic_actors(self, game: Game) -> list:
        return self._automatic_actors(game)

    # ---- reading --------------------------------------------------------------------------

    def viewer_for(self, game: Game, seat: Optional[int]):
        """Once a game is over, its whole story is open to everyone."""
        return EVERYONE if game.finished else seat

    def _shown(self, game: Game, viewer, event: dict, version: int) -> dict:
        return self.present(game, viewer, event["type"], event, version, actor=None)

    def present(self, game: Game, viewer, type_: str, data: dict, version: int, actor=None, at=None) -> dict:
        if type_ == CREATED:
            shown = dict(data)
            if viewer != EVERYONE:
                shown.pop("seed", None)  # the seed would tell every future shuffle
        else:
            shown = game.definition.redact(upcast(game.definition, data), viewer)
        return {"version": version, "type": type_, "actor": actor, "at": at, "data": shown}

    def history(self, game: Game, viewer, after: int, limit: int) -> list[dict]:
        return [self.present(game, viewer, e.type, e.data, e.version, e.actor, e.at)
                for e in self.store.read(game.id, after=after, limit=limit)]

    def describe(self, game: Game, seat: Optional[int]) -> dict:
        """The game as a seat (or spectator) may see it."""
        viewer = self.viewer_for(game, seat)
        definition = game.definition
        return {
            "id": game.id,
            "type": definition.name,
            "version": game.version,
            "status": game.status,
            "to_act": game.actors(),
            "seats": [{"seat": i, "name": s.get("name", s.get("bot")), "bot": s.get("bot")}
                      for i, s in enumerate(game.seats)],
            "you": seat,
            "view": definition.view(game.state, viewer),
            "result": definition.result(game.state) if game.finished else None,
        }

    def moves_summary(self, game: Game, seat: Optional[int]) -> Optional[dict]:
        if game.definition.summary is None or seat is None or game.finished:
            return None
        return game.definition.summary(game.state, seat)

    def legal_moves(self, game: Game, seat: Optional[int]) -> list:
        if seat is None or game.finished:
            return []
        return game.definition.legal_moves(game.state, seat)


def _checked_option(option, value):
    kind = option.type
    ok = {"integer": isinstance(value, int) and not isinstance(value, bool),
          "boolean": isinstance(value, bool),
          "string": isinstance(value, str)}[kind]
    if not ok:
        raise ValidationFailed(f"Option '{option.name}' must be a {kind}.", code="invalid_options")
    if option.choices is not None and value not in option.choices:
        raise ValidationFailed(
            f"Option '{option.name}' must be one of {', '.join(map(str, option.choices))}.", code="invalid_options")
    if option.minimum is not None and value < option.minimum:
        raise ValidationFailed(f"Option '{option.name}' must be at least {option.minimum}.", code="invalid_options")
    if option.maximum is not None and value > option.maximum:
        raise ValidationFailed(f"Option '{option.name}' must be at most {option.maximum}.", code="invalid_options")
    return value
