"""A tournament as a decider (issue 52), like a game's rules and moderation's:
`decide(state, command)` says what happens (the events, state.py) or refuses; `evolve` and `fold`
(state.py) make the state. Pure: no I/O, no clock, no random draw (a command carries its time and,
for a pairing, its seed).

A round's pairing is decided here from the state alone: `pairing_inputs(state, round, seed)` (the
standings with their tiebreaks, who met whom, the seed) go into the `round_paired` event with
the tables `pairing.pair(inputs)` makes of them, so a verifier recomputes both from the history
(tools/tournaments.py).
"""
from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from api.errors import ApiError, Code, ValidationFailed
from api.tournaments import pairing, standings
from api.tournaments.state import (
    ADJUSTED,
    CREATED,
    ENTERED,
    FINISHED,
    FORMATS,
    LATE_JOINED,
    LINKED,
    PAIRED,
    RESULT,
    TIEBREAKS,
    WITHDRAWN,
    Rules,
    State,
    evolve,
    fold,
)

__all__ = ["Command", "State", "decide", "evolve", "fold", "pairing_inputs", "rules_from", "next_step"]

MAX_ROUNDS = 50
GROUP_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_DURATION_S = 30 * 86_400


class TournamentClosed(ApiError):
    status, code = 409, Code.TOURNAMENT_CLOSED


class AlreadyEntered(ApiError):
    status, code = 409, Code.ALREADY_ENTERED


class NotEntered(ApiError):
    status, code = 409, Code.NOT_ENTERED


class RoundNotReady(ApiError):
    status, code = 409, Code.ROUND_NOT_READY


class EntryRefused(ApiError):
    status, code = 403, Code.ENTRY_REFUSED


class GroupMembersOnly(ApiError):
    status, code = 403, Code.GROUP_MEMBERS_ONLY


@dataclass(frozen=True)
class Command:
    kind: str  # create, enter, withdraw, pair, link, result, adjust, finish
    at: int
    by: str = ""
    id: str = ""
    rules: Mapping[str, Any] | None = None
    entrant: str = ""
    name: str = ""
    rating: float = 0.0
    round: int = 0
    table: int = 0
    game_id: str = ""
    places: Mapping[str, int] = field(default_factory=dict)
    how: str = ""  # an adjustment's kind
    reason: str = ""
    seed: str = ""
    missed: tuple[str, ...] = ()  # a result's: the entrants whose clock ran out in the game
    member: bool = False  # an entry's: whether the player is a member of the rules' group (the service asks)


def rules_from(body: Mapping[str, Any], min_seats: int, max_seats: int, now_ms: int) -> dict[str, Any]:
    """The frozen rules of a creation request, checked (ValidationFailed naming the fields)."""
    wrong: dict[str, str] = {}
    fmt = body.get("format", "swiss")
    if fmt not in FORMATS:
        wrong["format"] = "one of swiss, arena, round_robin"
    seats = body.get("seats", max(min_seats, min(2, max_seats)))
    if not isinstance(seats, int) or not min_seats <= seats <= max_seats:
        wrong["seats"] = f"a whole number from {min_seats} to {max_seats}"
        seats = max_seats
    least = body.get("min_seats", seats)
    if not isinstance(least, int) or not min_seats <= least <= seats:
        wrong["min_seats"] = f"a whole number from {min_seats} to seats"
        least = seats
    rounds, duration = body.get("rounds"), body.get("duration_s")
    if fmt == "swiss" and (not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
        wrong["rounds"] = f"a whole number from 1 to {MAX_ROUNDS} (Swiss)"
    if fmt == "round_robin" and rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
        wrong["rounds"] = f"a whole number from 1 to {MAX_ROUNDS}, or none (as many as the schedule needs)"
    if fmt == "arena" and (not isinstance(duration, int) or not 60 <= duration <= MAX_DURATION_S):
        wrong["duration_s"] = f"a whole number of seconds from 60 to {MAX_DURATION_S} (arena)"
    points = body.get("points") or {}
    if not isinstance(points, dict) or any(
            not str(k).isdigit() or not isinstance(v, list) or len(v) != int(k)
            or any(not isinstance(x, (int, float)) or isinstance(x, bool) for x in v) for k, v in points.items()):
        wrong["points"] = "an object: a table size -> its points by place (as many as the size)"
        points = {}
    tiebreaks = body.get("tiebreaks", list(TIEBREAKS))
    if not isinstance(tiebreaks, list) or len(set(map(str, tiebreaks))) != len(tiebreaks) or \
            any(t not in TIEBREAKS for t in tiebreaks):
        wrong["tiebreaks"] = "distinct names among buchholz, median, opponents_places, head_to_head"
        tiebreaks = list(TIEBREAKS)
    numbers = {}
    for name in ("bye_points", "late_join_points"):
        value = body.get(name, 0)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 100:
            wrong[name] = "a number from 0 to 100"
            value = 0
        numbers[name] = float(value)
    _check_entry_rules(body, wrong)
    invited = body.get("invited")
    group = body.get("group")
    if group is not None and (not isinstance(group, str) or not GROUP_ID.match(group)):
        wrong["group"] = "a group's id, or none (anyone may enter)"
    no_show = body.get("no_show_after", 2)
    if not isinstance(no_show, int) or isinstance(no_show, bool) or not 0 <= no_show <= 100:
        wrong["no_show_after"] = "a whole number from 0 (never) to 100"
        no_show = 2
    start = _start(body.get("start", "now"), now_ms, wrong)
    if wrong:
        raise ValidationFailed("The tournament's rules are wrong.", details={"fields": wrong})
    return Rules(format=fmt, game_type=str(body["type"]), seats=seats, min_seats=least,
                 options=dict(body.get("options") or {}),
                 points={str(k): [float(x) for x in v] for k, v in points.items()},
                 bye_points=numbers["bye_points"], late_join_points=numbers["late_join_points"],
                 tiebreaks=tuple(tiebreaks), rated=bool(body.get("rated", False)), clock=body.get("clock"),
                 rounds=rounds if fmt != "arena" else None, duration_s=duration if fmt == "arena" else None,
                 start=int(start), late_join=bool(body.get("late_join", True)),
                 algorithm={"name": pairing.ALGORITHM, "version": pairing.VERSION},
                 min_rating=body.get("min_rating"), max_rating=body.get("max_rating"),
                 invited=tuple(invited) if invited is not None else None, no_show_after=no_show,
                 group=group).as_dict()


def _start(start: Any, now_ms: int, wrong: dict[str, str]) -> int:
    if isinstance(start, float) and start.is_integer():
        start = int(start)  # JSON's integer: 5 or 5.0
    if start == "now":
        return now_ms
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        wrong["start"] = '"now" or a time in ms since the epoch'
        return now_ms
    return start


def _check_entry_rules(body: Mapping[str, Any], wrong: dict[str, str]) -> None:
    for name in ("min_rating", "max_rating"):
        value = body.get(name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 5000):
            wrong[name] = "a whole number from 0 to 5000, or none"
    invited = body.get("invited")
    if invited is not None and (not isinstance(invited, list) or len(invited) > 1000 or
                                any(not isinstance(i, str) or not 1 <= len(i) <= 64 for i in invited)):
        wrong["invited"] = "a list of at most 1,000 player ids, or none (anyone may enter)"


# ---- what the pairing sees ------------------------------------------------------------------
def met(state: State) -> dict[str, dict[str, int]]:
    """How many tables each two entrants shared (every table paired, whatever its result)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in state.rounds:
        for t in r.tables:
            for a in t.seats:
                for b in t.seats:
                    if a != b:
                        counts[a][b] += 1
    return {a: dict(sorted(v.items())) for a, v in sorted(counts.items())}


def schedule_order(state: State, seed: str) -> list[str]:
    """Round robin: the order of the schedule, fixed at the first round (by the seed)."""
    if state.rounds:
        return list(state.rounds[0].inputs.get("order", []))
    playing = [e for e in state.active() if e not in state.voided]
    return sorted(playing, key=lambda e: hashlib.sha256(f"{seed}:order:{e}".encode()).hexdigest())


def pairing_inputs(state: State, round_: int, seed: str) -> dict[str, Any]:
    rules = state.rules
    assert rules is not None
    rows = standings.compute(state)
    busy = state.busy() if rules.format == "arena" else set()
    to_pair = {e for e in state.active() if e not in state.voided and e not in busy}
    players = [{"entrant": r["entrant"], "points": r["points"], "rating": r["rating"], "byes": r["byes"]}
               for r in rows if r["entrant"] in to_pair]
    everyone_met = met(state)
    inputs: dict[str, Any] = {
        "format": rules.format, "round": round_, "seats": rules.seats, "min_seats": rules.min_seats, "seed": seed,
        "algorithm": dict(rules.algorithm), "standings": rows, "players": players,
        "met": {a: {b: n for b, n in v.items() if b in to_pair} for a, v in everyone_met.items() if a in to_pair},
    }
    if rules.format == "arena":
        inputs["last"] = _last_mates(state, to_pair)
    if rules.format == "round_robin":
        inputs["order"] = schedule_order(state, seed)
        if int(rules.algorithm.get("version", 1)) >= 2:  # the schedule is made for this many rounds
            inputs["rounds"] = schedule_rounds(rules, len(inputs["order"]))
    return inputs


def _last_mates(state: State, who: set[str]) -> dict[str, list[str]]:
    last: dict[str, list[str]] = {}
    for r in state.rounds:
        for t in r.tables:
            for e in t.seats:
                if e in who:
                    last[e] = sorted(o for o in t.seats if o != e)
    return dict(sorted(last.items()))


def schedule_rounds(rules: Rules, n: int) -> int:
    """A round robin's rounds for a field of n: the rules', else as many as meeting everyone needs."""
    if rules.rounds:
        return int(rules.rounds)
    if rules.seats == 2:
        return max(1, n - 1 if n % 2 == 0 else n)
    return max(1, math.ceil((n - 1) / (rules.seats - 1)))


def rounds_total(state: State) -> int | None:
    rules = state.rules
    if rules is None or rules.format == "arena":
        return None
    n = len(state.rounds[0].inputs.get("order", [])) if state.rounds else len(state.active())
    return schedule_rounds(rules, n)


def next_step(state: State, now_ms: int) -> str | None:
    """What the tournament waits for the server to do now: "pair", "finish" or None."""
    rules = state.rules
    if rules is None or state.finished_at is not None or now_ms < rules.start:
        return None
    playing = [e for e in state.active() if e not in state.voided]
    if rules.format == "arena":
        if now_ms >= rules.start + int(rules.duration_s or 0) * 1000:
            return "finish" if not state.busy() else None
        idle = [e for e in playing if e not in state.busy()]
        return "pair" if len(idle) >= rules.min_seats and _arena_pairable(state, idle) else None
    if state.rounds and not state.rounds[-1].done:
        return None
    if not state.rounds and len(playing) < rules.min_seats:
        return None  # started without enough entrants: the first round waits for them
    total = rounds_total(state) or 0
    if len(state.rounds) >= total or len(playing) < rules.min_seats:
        return "finish"
    return "pair"


def _arena_pairable(state: State, idle: list[str]) -> bool:
    """Two idle players who just played each other are not paired again while nobody else waits."""
    rules = state.rules
    assert rules is not None
    if len(idle) > rules.seats or len(idle) == 2:
        return True
    last = _last_mates(state, set(idle))
    return not any(o in idle for e in idle for o in last.get(e, []))


# ---- deciding -------------------------------------------------------------------------------
def decide(state: State, command: Command) -> list[dict[str, Any]]:
    kind, at = command.kind, command.at
    if kind == "create":
        if state.rules is not None:
            raise TournamentClosed("This tournament exists already.")
        assert command.rules is not None
        return [{"type": CREATED, "id": command.id, "by": command.by, "rules": dict(command.rules), "at": at}]
    rules = state.rules
    if rules is None:
        raise ValueError("a command to a tournament not created")
    if state.finished_at is not None and kind != "adjust":
        raise TournamentClosed("This tournament is over.")
    if kind == "enter":
        return _enter(state, rules, command)
    if kind == "withdraw":
        entrant = state.entrants.get(command.entrant)
        if entrant is None or not entrant.active:
            raise NotEntered("This player is not in the tournament.")
        return [{"type": WITHDRAWN, "entrant": command.entrant, "reason": command.reason or "player", "at": at}]
    if kind == "pair":
        return _pair(state, rules, command)
    if kind == "link":
        table = _table(state, command)
        if table.game_id is not None:
            return [] if table.game_id == command.game_id else _refuse_table("This table has its game already.")
        return [{"type": LINKED, "round": command.round, "table": command.table, "game_id": command.game_id, "at": at}]
    if kind == "result":
        return _result(state, command)
    if kind == "adjust":
        return _adjust(state, command)
    if kind == "finish":
        return [{"type": FINISHED, "standings": standings.compute(state), "at": at}]
    raise ValueError(f"no tournament command {kind!r}")


def _result(state: State, command: Command) -> list[dict[str, Any]]:
    table = _table(state, command)
    if set(command.places) != set(table.seats) or any(
            not isinstance(p, int) or not 1 <= p <= len(table.seats) for p in command.places.values()):
        raise ValidationFailed("A result names every seat of its table with its place.")
    if table.places is not None or table.void:
        return []  # reported already (the finished game's hook and the sweep both report it)
    event: dict[str, Any] = {"type": RESULT, "round": command.round, "table": command.table,
                             "game_id": table.game_id, "places": dict(command.places), "at": command.at}
    missed = sorted(set(command.missed) & set(table.seats))
    if missed:
        event["missed"] = missed
    events = [event]
    limit = state.rules.no_show_after if state.rules is not None else 0
    for entrant in missed:
        before = sum(1 for r in state.rounds for t in r.tables if entrant in t.missed)
        if limit and before + 1 >= limit and state.entrants[entrant].active:
            events.append({"type": WITHDRAWN, "entrant": entrant, "reason": "no_show", "at": command.at})
    return events


def _refuse_table(message: str) -> list[dict[str, Any]]:
    raise RoundNotReady(message)


def _enter(state: State, rules: Rules, command: Command) -> list[dict[str, Any]]:
    entrant = state.entrants.get(command.entrant)
    if entrant is not None and entrant.active:
        raise AlreadyEntered("This player is in the tournament already.")
    if len(state.active()) >= rules.max_entrants:
        raise TournamentClosed("This tournament is full.")
    if command.entrant.startswith("player:"):
        _check_entry(rules, command)
    event = {"entrant": command.entrant, "name": command.name or command.entrant, "rating": command.rating,
             "at": command.at}
    if not state.rounds:
        return [{"type": ENTERED, **event}]
    total = rounds_total(state)
    if not rules.late_join or rules.format == "round_robin" or (
            rules.format == "swiss" and total is not None and 2 * len(state.rounds) > total):
        raise TournamentClosed("This tournament takes no more entries.")
    points = rules.late_join_points if entrant is None else 0.0
    return [{"type": LATE_JOINED, **event, "points": points, "round": len(state.rounds)}]


def _check_entry(rules: Rules, command: Command) -> None:
    """A player's entry against the rules' conditions (bots are the creator's to enter)."""
    if rules.group is not None and not command.member:
        raise GroupMembersOnly("This tournament is for the members of its group, and this player is not one.",
                               details={"group": rules.group})
    if rules.invited is not None and command.entrant.partition(":")[2] not in rules.invited:
        raise EntryRefused("This tournament is by invitation, and this player is not invited.")
    low, high = rules.min_rating, rules.max_rating
    if (low is not None and command.rating < low) or (high is not None and command.rating > high):
        raise EntryRefused("This player's rating is outside the tournament's range.",
                           details={"rating": command.rating, "min_rating": low, "max_rating": high})


def _pair(state: State, rules: Rules, command: Command) -> list[dict[str, Any]]:
    if rules.format != "arena":
        if state.rounds and not state.rounds[-1].done:
            raise RoundNotReady("The round is still being played.")
        total = rounds_total(state)
        if total is not None and len(state.rounds) >= total:
            raise TournamentClosed("Every round has been played.")
    elif command.at >= rules.start + int(rules.duration_s or 0) * 1000:
        raise TournamentClosed("The arena is over.")
    number = len(state.rounds) + 1
    inputs = pairing_inputs(state, number, command.seed)
    made = pairing.pair(inputs)
    if not made["tables"]:
        return []
    byes = [{"entrant": e, "points": rules.bye_points} for e in made["byes"]]
    return [{"type": PAIRED, "round": number, "inputs": inputs, "tables": made["tables"], "byes": byes,
             "algorithm": dict(rules.algorithm), "at": command.at}]


def _table(state: State, command: Command) -> Any:
    if not 1 <= command.round <= len(state.rounds):
        raise ValidationFailed("No such round.")
    tables = state.rounds[command.round - 1].tables
    if not 1 <= command.table <= len(tables):
        raise ValidationFailed("No such table.")
    return tables[command.table - 1]


def _adjust(state: State, command: Command) -> list[dict[str, Any]]:
    event = {"type": ADJUSTED, "kind": command.how, "by": command.by, "reason": command.reason, "at": command.at}
    if command.how in ("void_game", "set_result"):
        table = _table(state, command)
        event.update(round=command.round, table=command.table)
        if command.how == "set_result":
            if set(command.places) != set(table.seats):
                raise ValidationFailed("A result names every seat of its table with its place.")
            event["places"] = dict(command.places)
        return [event]
    if command.how in ("void_player", "unvoid_player"):
        if command.entrant not in state.entrants:
            raise NotEntered("This player is not in the tournament.")
        if (command.entrant in state.voided) == (command.how == "void_player"):
            return []
        return [{**event, "entrant": command.entrant}]
    raise ValueError(f"no adjustment {command.how!r}")
