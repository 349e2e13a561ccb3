"""A tournament's state: the fold of its events (`evolve`, `fold`), pure and total. The events
(each with `type` and `at`, in ms) are those decider.py decides:

    tournament_created  id, by, rules (frozen: see `Rules`)
    entrant_entered     entrant ("player:<id>" or "bot:<level>[#n]"), name, rating
    entrant_late_joined entrant, name, rating, points (the rules' late_join_points), round
    entrant_withdrawn   entrant, reason ("player"; "no_show": its clock ran out in `no_show_after`
                        of its games, decided with the result that made it so)
    round_paired        round, inputs (pairing.py), tables [[entrant, ...] in seat order], byes
                        [{"entrant", "points"}], algorithm {"name", "version"}
    game_linked         round, table, game_id
    game_result         round, table, game_id, places {entrant: place, 1 the best, ties share},
                        missed [entrants whose clock ran out in the game] (when any)
    result_adjusted     kind ("void_game", "set_result", "void_player", "unvoid_player"), by,
                        reason, round and table (a game's), places (set_result), entrant (a player's)
    tournament_finished standings (the projection at that moment)
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

CREATED = "tournament_created"
ENTERED = "entrant_entered"
LATE_JOINED = "entrant_late_joined"
WITHDRAWN = "entrant_withdrawn"
PAIRED = "round_paired"
LINKED = "game_linked"
RESULT = "game_result"
ADJUSTED = "result_adjusted"
FINISHED = "tournament_finished"
EVENTS = (CREATED, ENTERED, LATE_JOINED, WITHDRAWN, PAIRED, LINKED, RESULT, ADJUSTED, FINISHED)

FORMATS = ("swiss", "arena", "round_robin")
TIEBREAKS = ("buchholz", "median", "opponents_places", "head_to_head")


def default_points(size: int) -> list[float]:
    """Points by place at a table of `size`: 2 per table-mate beaten (2-0; 6-4-2-0)."""
    return [float(2 * (size - 1 - k)) for k in range(size)]


@dataclass(frozen=True)
class Rules:
    format: str
    game_type: str
    seats: int
    min_seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    points: Mapping[str, list[float]] = field(default_factory=dict)  # table size (str) -> points by place
    bye_points: float = 0.0
    late_join_points: float = 0.0
    tiebreaks: tuple[str, ...] = TIEBREAKS
    rated: bool = False
    clock: Mapping[str, Any] | None = None
    rounds: int | None = None  # swiss, round robin
    duration_s: int | None = None  # arena
    start: int = 0  # ms
    streak_bonus: int = 2  # arena: a result is multiplied after two wins in a row
    late_join: bool = True
    max_entrants: int = 1000
    algorithm: Mapping[str, Any] = field(default_factory=dict)  # {"name", "version"}
    min_rating: int | None = None  # entry conditions: a player's rating at entry within these
    max_rating: int | None = None
    invited: tuple[str, ...] | None = None  # player ids: only they may enter (None: anyone)
    no_show_after: int = 2  # a player whose clock ran out in this many of its games is withdrawn (0: never)
    group: str | None = None  # a group's id: only its members may enter (issue 53); frozen at creation

    def points_for(self, size: int) -> list[float]:
        return [float(p) for p in self.points.get(str(size), default_points(size))]

    def as_dict(self) -> dict[str, Any]:
        return {"format": self.format, "game_type": self.game_type, "seats": self.seats,
                "min_seats": self.min_seats, "options": dict(self.options),
                "points": {k: list(v) for k, v in self.points.items()}, "bye_points": self.bye_points,
                "late_join_points": self.late_join_points, "tiebreaks": list(self.tiebreaks),
                "rated": self.rated, "clock": dict(self.clock) if self.clock else None,
                "rounds": self.rounds, "duration_s": self.duration_s, "start": self.start,
                "streak_bonus": self.streak_bonus, "late_join": self.late_join,
                "max_entrants": self.max_entrants, "algorithm": dict(self.algorithm),
                "min_rating": self.min_rating, "max_rating": self.max_rating,
                "invited": list(self.invited) if self.invited is not None else None,
                "no_show_after": self.no_show_after, "group": self.group}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        return cls(format=d["format"], game_type=d["game_type"], seats=int(d["seats"]),
                   min_seats=int(d["min_seats"]), options=dict(d.get("options") or {}),
                   points={str(k): [float(x) for x in v] for k, v in (d.get("points") or {}).items()},
                   bye_points=float(d.get("bye_points", 0)), late_join_points=float(d.get("late_join_points", 0)),
                   tiebreaks=tuple(d.get("tiebreaks", TIEBREAKS)), rated=bool(d.get("rated", False)),
                   clock=d.get("clock"), rounds=d.get("rounds"), duration_s=d.get("duration_s"),
                   start=int(d.get("start", 0)), streak_bonus=int(d.get("streak_bonus", 2)),
                   late_join=bool(d.get("late_join", True)), max_entrants=int(d.get("max_entrants", 1000)),
                   algorithm=dict(d.get("algorithm") or {}), min_rating=d.get("min_rating"),
                   max_rating=d.get("max_rating"),
                   invited=tuple(d["invited"]) if d.get("invited") is not None else None,
                   no_show_after=int(d.get("no_show_after", 2)), group=d.get("group"))


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str
    rating: float
    active: bool = True
    late_points: float = 0.0
    joined_round: int = 0  # the rounds paired before it entered


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    game_id: str | None = None
    places: Mapping[str, int] | None = None  # the result as reported (or set by an adjustment)
    void: bool = False
    result_seq: int = -1  # the result's position in the history (arena's streaks follow it)
    missed: tuple[str, ...] = ()  # the entrants whose clock ran out in the game (no-shows)


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: Mapping[str, float]
    inputs: Mapping[str, Any]
    at: int

    @property
    def done(self) -> bool:
        return all(t.places is not None or t.void for t in self.tables)


@dataclass(frozen=True)
class State:
    id: str = ""
    rules: Rules | None = None
    by: str = ""
    created_at: int = 0
    entrants: Mapping[str, Entrant] = field(default_factory=dict)  # in entry order
    rounds: tuple[Round, ...] = ()
    voided: frozenset[str] = frozenset()  # entrants voided by an adjustment (fair play)
    finished_at: int | None = None
    seq: int = 0  # events folded

    @property
    def status(self) -> str:
        if self.rules is None:
            return "none"
        if self.finished_at is not None:
            return "finished"
        return "running" if self.rounds else "upcoming"

    def active(self) -> list[str]:
        return [e for e, v in self.entrants.items() if v.active]

    def busy(self) -> set[str]:
        """Entrants seated at a table without a result (arena: not idle)."""
        return {e for r in self.rounds for t in r.tables if t.places is None and not t.void for e in t.seats}


def _set_table(state: State, round_: int, table: int, **changes: Any) -> State:
    rounds = list(state.rounds)
    r = rounds[round_ - 1]
    tables = list(r.tables)
    tables[table - 1] = replace(tables[table - 1], **changes)
    rounds[round_ - 1] = replace(r, tables=tuple(tables))
    return replace(state, rounds=tuple(rounds))


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind = event["type"]
    state = replace(state, seq=state.seq + 1)
    if kind == CREATED:
        return replace(state, id=event["id"], rules=Rules.from_dict(event["rules"]), by=event.get("by", ""),
                       created_at=int(event["at"]))
    if kind in (ENTERED, LATE_JOINED):
        entrant = event["entrant"]
        old = state.entrants.get(entrant)
        late = float(event.get("points", 0)) + (old.late_points if old else 0.0)
        joined = int(event.get("round", len(state.rounds)))
        new = Entrant(entrant, event.get("name", entrant), float(event.get("rating", 0)), True, late,
                      old.joined_round if old else joined)
        return replace(state, entrants={**state.entrants, entrant: new})
    if kind == WITHDRAWN:
        entrant = event["entrant"]
        return replace(state, entrants={**state.entrants, entrant: replace(state.entrants[entrant], active=False)})
    if kind == PAIRED:
        tables = tuple(Table(tuple(seats)) for seats in event["tables"])
        byes = {b["entrant"]: float(b["points"]) for b in event.get("byes", [])}
        round_ = Round(int(event["round"]), tables, byes, event.get("inputs", {}), int(event["at"]))
        return replace(state, rounds=(*state.rounds, round_))
    if kind == LINKED:
        return _set_table(state, int(event["round"]), int(event["table"]), game_id=event["game_id"])
    if kind == RESULT:
        return _set_table(state, int(event["round"]), int(event["table"]), places=dict(event["places"]),
                          result_seq=state.seq, missed=tuple(event.get("missed", ())))
    if kind == ADJUSTED:
        how = event["kind"]
        if how == "void_game":
            return _set_table(state, int(event["round"]), int(event["table"]), void=True)
        if how == "set_result":
            return _set_table(state, int(event["round"]), int(event["table"]), places=dict(event["places"]),
                              void=False)
        if how == "void_player":
            return replace(state, voided=state.voided | {event["entrant"]})
        if how == "unvoid_player":
            return replace(state, voided=state.voided - {event["entrant"]})
        return state
    if kind == FINISHED:
        return replace(state, finished_at=int(event["at"]))
    return state  # an event of a later version: passed over


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = state or State()
    for event in events:
        state = evolve(state, event)
    return state
