"""The game contract: what every game hands to the registry.

A game is a *decider* (functional event sourcing) plus the views a server needs:

    setup(options, n_seats, rng)        -> [event, ...]   the first events; all chance written in
    decide(state, actor, move, rng)     -> [event, ...]   or raise MoveRejected; never changes state
    evolve(state, event)                -> state          pure and total; state is None before event 1
    legal_moves(state, actor)           -> [move, ...]    each can be sent back to decide as is
    actors(state)                       -> [actor, ...]   who may act now; [SYSTEM] when the server must
    view(state, viewer)                 -> dict           what a viewer may see (JSON-able)
    redact(event, viewer)               -> dict           how an event looks to a viewer (JSON-able)
    as_stored(viewer)                   -> types          event types redact leaves unchanged for a viewer
    result(state)                       -> dict | None    the typed outcome once the game is over
    secrets(state)                      -> {token: seats} the leak oracle used by the contract tests

Events and moves are plain JSON-able dicts with a "type" key: they are stored as JSON and
replayed with no schema library in the way. State is whatever the game likes (frozen
dataclasses and tuples are the house style) as long as `evolve` never mutates its input and
two states built from the same events compare equal.

Actors are seat numbers (0-based ints) or SYSTEM. Viewers are seat numbers, SPECTATOR (None)
or EVERYONE (a finished game's history is opened to all).

Chance happens only in `setup` and `decide`, with the `random.Random` they are given; its
outcome is written into the events, so replay never draws a random number.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from .words import GameWords

SYSTEM = "system"
SPECTATOR = None
EVERYONE = "*"

Actor = int | str
Viewer = int | None | str
Event = dict
Move = dict
State = Any


class MoveRejected(Exception):
    """A command `decide` refuses. `code` is stable and machine-readable (`not_your_turn`,
    `cannot_afford`, ...); `message` is a sentence a person understands, in English.

    Every detail is said in every language: `template` is the English sentence with a `{name}`
    placeholder per detail, which the catalogues translate (context "error"; the platform says
    it in the caller's language, api/words `error_sentence`), and `args` fill it (kept as
    `values`: an exception's `args` are its own). An argument is
    a number or a text said as it is (an id, a field name, what the client sent), or one of
    domain.words' `word(...)` (the game's English words or piece names: translated) and
    `seat(i)` ("the second seat"). `message` is the template said in English."""

    def __init__(self, code: str, template: str, details: dict | None = None, args: Mapping[str, Any] | None = None):
        from .words import error_english
        self.code = code
        self.template = template
        self.values = dict(args or {})
        self.message = error_english(template, self.values)
        self.details = details or {}
        super().__init__(self.message)


class InvalidOptions(MoveRejected):
    """Options or seats a game cannot be created with (code `invalid_options`)."""

    def __init__(self, template: str, details: dict | None = None, args: Mapping[str, Any] | None = None):
        super().__init__("invalid_options", template, details, args)


@dataclass(frozen=True)
class Option:
    """One creation option of a game, declared up front so the API and OpenAPI can show it."""

    name: str
    type: str  # "integer" | "boolean" | "string"
    default: Any
    description: str
    choices: Sequence[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None


Policy = Callable[[State, int, random.Random], Move]


class AllBut:
    """Every event type but `types` (for `as_stored`): `AllBut()` is every type."""

    def __init__(self, *types: str):
        self.types = frozenset(types)

    def __contains__(self, type_: object) -> bool:
        return type_ not in self.types

    def __repr__(self) -> str:
        return f"AllBut{tuple(sorted(self.types))}"


EVERY_TYPE = AllBut()
NO_TYPE: frozenset = frozenset()


def _nothing_as_stored(viewer: Viewer) -> Container[str]:
    return NO_TYPE


def _never_stale_ok(state_then: State, state_now: State, actor: Actor) -> bool:
    return False


def _no_options_check(options: dict, n_seats: int) -> None:
    return None


@dataclass(frozen=True)
class GameDef:
    """Everything the server knows about one game. See the module docstring."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    rules_version: str
    setup: Callable[[dict, int, random.Random], list]
    decide: Callable[[State, Actor, Move, random.Random], list]
    evolve: Callable[[State | None, Event], State]
    legal_moves: Callable[[State, Actor], list]
    actors: Callable[[State], list]
    view: Callable[[State, Viewer], dict]
    redact: Callable[[Event, Viewer], dict]
    result: Callable[[State], dict | None]
    secrets: Callable[[State], Mapping[str, frozenset]]
    bots: Mapping[str, Policy]
    options: Sequence[Option] = ()
    # Cross-option checks the declarations cannot express (e.g. "team play needs 4 seats").
    check_options: Callable[[dict, int], None] = _no_options_check
    # Seat counts and options the game-contract suite plays, e.g. ((3, {}), (4, {}), ...).
    test_configs: Sequence[tuple] = ()
    # A move decided against an older version may still be appended when the events since
    # then cannot have changed the actor's choice (simultaneous phases: passing cards).
    stale_ok: Callable[[State, State, Actor], bool] = _never_stale_ok
    # Upper bound on events in one game, so playouts can prove that games end.
    max_events: int = 5000
    # Free text for GET /game-types (e.g. which races are implemented so far).
    notes: str = ""
    # Move types, with a one-line description each, for GET /game-types.
    move_types: Mapping[str, str] = field(default_factory=dict)
    # Upcasters keep old histories replayable when an event's shape changes: the key is
    # (event type, schema version the event has; an event without "v" is version 1) and the
    # function returns the event one version newer. Stored events are never rewritten.
    upcasters: Mapping[tuple, Callable[[Event], Event]] = field(default_factory=dict)
    # The event types `redact(event, viewer)` returns exactly as stored (the same keys in the same
    # order, nothing added or taken) for this viewer, whatever the event holds: a whole-history
    # export passes their stored bytes through without decoding them. A promise the contract
    # suite checks on every event of its playouts; the default promises nothing (every event is
    # redacted). Typically: `EVERY_TYPE` for EVERYONE (a finished game is open), `AllBut(<the
    # types that hide something>)` for the others.
    as_stored: Callable[[Viewer], Container[str]] = _nothing_as_stored
    # Optional help for clients of games with very many legal moves: `preview(state, actor,
    # move)` says what a legal move would bring (e.g. points) without drawing anything, and
    # `summary(state, actor)` condenses the legal moves (e.g. where each tile can go).
    preview: Callable[[State, Actor, Move], dict] | None = None
    summary: Callable[[State, Actor], dict] | None = None
    # `legal_page(state, actor, limit)`: `legal_moves(state, actor)[:limit]` and how many legal
    # moves there are, without building the rest (a compact answer lists 64 of hundreds). The
    # contract suite checks it against legal_moves; without it the server slices the whole list.
    legal_page: Callable[[State, Actor, int], tuple[list, int]] | None = None
    # `determinize(state, seat, rng)`: a state the seat cannot tell from this one (its view and
    # its legal moves the same) in which everything it cannot see (other hands, the decks'
    # order) is drawn anew with `rng`, from what it can see alone: the same for any two states
    # the seat cannot tell apart. Bots are handed it instead of the state (domain/play.py's
    # bot_move), so that no bot decides from another seat's secrets.
    determinize: Callable[[State, int, random.Random], State] | None = None
    # A rated game counts only once every seat has made this many decisions of its own (moves of
    # the game by its person or its bot level, not by a bot playing for it): one that ends sooner
    # (a resignation, an abort, a timeout, an abandonment) is unrated, `too_short`. Shown in
    # GET /game-types as `rated_after`; each ended game's summary keeps the threshold it ended under.
    rated_decisions: int = 1
    # What the game says in words: its moves' labels, its events' and result's sentences, its
    # pieces' names (domain/words.py; rendered per language by api/words/messages.py).
    words: GameWords | None = None

    def default_options(self) -> dict:
        return {o.name: o.default for o in self.options}


def is_seat(actor: object) -> TypeGuard[int]:
    return isinstance(actor, int) and not isinstance(actor, bool)
