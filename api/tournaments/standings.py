"""Standings as a projection of a tournament's state (state.py): recomputed whole from the rounds'
results, byes, late joins and adjustments, so a voided game or player is one event and the whole
table follows.

A table's points: its result's places (1 the best; tied seats share a place) give each seat the
rules' points for that place at a table of its size (`Rules.points_for`), tied seats the mean of
the places they share. A voided player counts as last at each of its tables and scores nothing
(the others move up); a voided game counts for nobody. Arena: a win (an unshared first place)
after two wins in a row scores `streak_bonus` times its points, and so on until a non-win.

Order: points, then the rules' tiebreaks in their order, then the rating at entry, then the
entrant's id:

- `buchholz`: the sum, over the player's counted games, of its table-mates' points (their mean
  at a table of more than two: so 3- and 4-seat games weigh the same);
- `median`: the same without the best and the worst game's (from 3 games on);
- `opponents_places`: the sum, over the counted games, of the table-mates' places in that game
  (the more players finished below it, the more);
- `head_to_head`: among the players level on everything before it, per game they shared, one for
  each of them placed below and minus one for each placed above.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from api.tournaments.state import Rules, State, Table

Game = tuple[int, Table, dict[str, tuple[float, int]]]


def table_points(rules: Rules, table: Table, voided: frozenset[str]) -> dict[str, tuple[float, int]] | None:
    """{entrant: (points, place)} of a table with a counted result, or None."""
    if table.void or table.places is None:
        return None
    size = len(table.seats)
    scale = rules.points_for(size)
    playing = [e for e in table.seats if e not in voided]
    place = {e: 1 + sum(1 for o in playing if table.places[o] < table.places[e]) for e in playing}
    found: dict[str, tuple[float, int]] = {}
    for e in playing:
        shared = sum(1 for o in playing if place[o] == place[e])
        first = place[e] - 1
        found[e] = (sum(scale[first:first + shared]) / shared, place[e])
    for e in table.seats:
        if e in voided:
            found[e] = (0.0, size)
    return found


def _round6(x: float) -> float:
    return round(x, 6)


def compute(state: State) -> list[dict[str, Any]]:
    """The standings, best first: [{"rank", "entrant", "name", "points", "games", "byes", <tiebreaks>,
    "rating", "active", "voided"}]."""
    rules = state.rules
    if rules is None:
        return []
    voided = state.voided
    points, byes, games = _points(state, rules)
    per_game: dict[str, list[float]] = defaultdict(list)
    places_sum: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    for _, t, scored in games:
        for e in t.seats:
            mates = [o for o in t.seats if o != e]
            if not mates:
                continue
            played[e] += 1
            per_game[e].append(sum(points[o] for o in mates) / len(mates))
            places_sum[e] += sum(scored[o][1] for o in mates)
    rows: list[dict[str, Any]] = []
    for e, entrant in state.entrants.items():
        contributions = sorted(per_game[e])
        buchholz = sum(contributions)
        median = sum(contributions[1:-1]) if len(contributions) >= 3 else buchholz
        rows.append({"entrant": e, "name": entrant.name, "points": _round6(points[e]), "games": played[e],
                     "byes": byes[e], "buchholz": _round6(buchholz), "median": _round6(median),
                     "opponents_places": _round6(places_sum[e]), "head_to_head": 0.0,
                     "rating": entrant.rating, "active": entrant.active, "voided": e in voided})
    order = [t for t in rules.tiebreaks if t != "head_to_head"]
    if "head_to_head" in rules.tiebreaks:
        before = rules.tiebreaks[:rules.tiebreaks.index("head_to_head")]
        _head_to_head(rows, [t for t in before], games)
        order = list(rules.tiebreaks)
    rows.sort(key=lambda row: (-row["points"], *(-row[t] for t in order), -row["rating"], row["entrant"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def _points(state: State, rules: Rules) -> tuple[dict[str, float], dict[str, int], list[Game]]:
    voided = state.voided
    points: dict[str, float] = defaultdict(float)
    byes: dict[str, int] = defaultdict(int)
    games: list[Game] = []
    for r in state.rounds:
        for e, p in r.byes.items():
            byes[e] += 1
            points[e] += p
        for t in r.tables:
            scored = table_points(rules, t, voided)
            if scored is not None:
                games.append((t.result_seq, t, scored))
    games.sort(key=lambda g: g[0])
    streak: dict[str, int] = defaultdict(int)
    for _, _t, scored in games:
        winners = [e for e, (_, place) in scored.items() if place == 1]
        for e, (p, _) in scored.items():
            bonus = rules.format == "arena" and streak[e] >= 2
            points[e] += p * (rules.streak_bonus if bonus else 1)
            streak[e] = streak[e] + 1 if winners == [e] else 0
    for e, entrant in state.entrants.items():
        points[e] += entrant.late_points
    for e in voided:
        points[e] = 0.0
    return points, byes, games


def _head_to_head(rows: list[dict[str, Any]], before: list[str],
                  games: list[Game]) -> None:
    groups: dict[tuple[float, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["points"], *(row[t] for t in before))].append(row)
    for group in groups.values():
        if len(group) < 2:
            continue
        members = {row["entrant"]: row for row in group}
        for _, _, scored in games:
            here = [e for e in scored if e in members]
            for e in here:
                for o in here:
                    if o != e:
                        members[e]["head_to_head"] += (scored[e][1] < scored[o][1]) - (scored[e][1] > scored[o][1])


def by_entrant(rows: list[dict[str, Any]]) -> Mapping[str, dict[str, Any]]:
    return {row["entrant"]: row for row in rows}
