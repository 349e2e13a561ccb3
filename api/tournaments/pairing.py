"""A round's tables from its inputs: a pure function, so that anyone holding a `round_paired`
event's `inputs` recomputes its `tables` and `byes` (python -m tools.tournaments verify <id>).

The inputs (written into the event by api/tournaments/decider.py) are plain JSON:

    format, round, seats, min_seats, seed
    players            the entrants to seat, best first: [{"entrant", "points", "rating", "byes"}]
    met                {entrant: {other: times they shared a table}} (only non-zero counts)
    last               {entrant: [table-mates of its last game]} (arena: no immediate rematch)
    order              round robin: the schedule's order of entrants, fixed at its first round
    rounds             round robin (version 2): the rounds its schedule is made for

The algorithm is named and versioned by the rules (`ALGORITHM`, `VERSION`): a change of any rule
below is a new version, and a tournament keeps the version it was created with.

Table sizes (`plan`): with n players, s seats and a minimum m, t = ceil(n / s) tables when
n >= t * m (sizes as equal as they can be, the larger first); otherwise floor(n / s) full tables
and the rest byes. Byes (Swiss, round robin's odd field) go to the players with the fewest byes,
the lowest placed of them first.

Seat order: a table's entrants sorted by sha256("<seed>:<round>:<table>:<entrant>") in hex, so
any language recomputes it from the seed.

- **Swiss, 2 seats**: a maximum-cardinality maximum-weight matching (networkx, Edmonds' blossom)
  with integer weights `C - cost`, where cost = repeats * R + (points gap * 4)^2 * (n + 1) + rank
  gap and R exceeds every other cost a matching can add up to: so the matching has the fewest
  repeated pairs there can be, then the closest scores, then the closest ranks. Up to 96 players
  the graph is complete, so no repeat is ever made while a pairing without one exists; above,
  the ranked list is cut into consecutive blocks of 64 (the last takes the rest when fewer than
  32 would be left), each matched alone (the guarantee holds within each block): 1,000 players
  in about a second (bench/tournaments.py).
- **Swiss, 3 to 6 seats** (`grouped`): tables filled in order, the leaders at table 1. A table
  starts with the best placed player left and takes, one by one, among the next `3 * seats`
  players left, the one who has shared the fewest tables with those already seated (ties: the
  better placed). Then adjacent tables swap two players when that strictly lowers the repeats of
  both tables together (pairs of tables in order, players in seat order, until nothing changes or
  `seats * tables` swaps were made).
- **Round robin, 2 seats**: the circle method over `order` (a free place added to an odd field):
  round r pairs the rotated list's i-th and (N - 1 - i)-th; an entrant facing the free place or a
  withdrawn entrant has a bye. **3 to 6 seats**, version 2 (`_scheduled`): the whole schedule of
  the field is made once (api/tournaments/schedule.py: a greedy start, then an iterated local
  search over swaps lowering the sum over pairs of meetings cubed, integer-only and seeded from
  the field's shape, so any language recomputes it) for `rounds` rounds (the inputs', the rules'
  or ceil((N - 1) / (seats - 1))), and round r reads its tables, the i-th player of the schedule
  being `order[i]`; a player no longer playing leaves its table, and a table left with fewer than
  `min_seats` gives its players byes. Every two players meet as evenly as the search finds: the
  figures for N = 5..16 are in schedule.py's docstring and bench/README.md. Version 1 (the
  tournaments created with it keep it): `order` rotated by the round, and 7 more orders sorted
  by sha256("<seed>:<round>:try<k>:<entrant>"), each filled table by table (each table taking,
  among every player left, the one who met those seated least), then improved by swaps between
  any two tables while the sum over pairs of (meetings + 1)^2 falls; the order giving the lowest
  sum wins (the first on a tie): a greedy round by round, which left 12 pairs of 12 players at 4
  seats never meeting in 4 rounds.
- **Arena**: only idle players; 2 seats: the matching above without byes, and an edge between
  two who just played each other only when they are the only two; 3 to 6 seats: `grouped`, last
  table-mates counted as 1,000 repeats. A player left over waits for the next pairing.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from api.tournaments import schedule

ALGORITHM = "groups-by-score"
VERSION = 2  # 2: a multi-seat round robin reads a whole balanced schedule (schedule.py); 1: round by round
BLOCK = 64  # players: a 2-seat Swiss round of more is matched in consecutive blocks of this many
WINDOW_FROM = 64  # players: an arena's idle players above this many are matched within a window of ranks
LAST_GAME = 1000  # the cost of seating again a player's last table-mates (arena)
TRIES = 8  # round robin, 3 to 6 seats: orders tried (the first as given, then shuffled by the seed)


def seat_order(seed: str, round_: int, table: int, entrants: Sequence[str]) -> list[str]:
    return sorted(entrants, key=lambda e: hashlib.sha256(f"{seed}:{round_}:{table}:{e}".encode()).hexdigest())


def plan(n: int, seats: int, min_seats: int) -> tuple[list[int], int]:
    """(the tables' sizes, larger first; how many byes)."""
    if n <= 0:
        return [], 0
    t = math.ceil(n / seats)
    if n >= t * min_seats:
        small, extra = divmod(n, t)
        return [small + 1] * extra + [small] * (t - extra), 0
    full = n // seats
    return [seats] * full, n - full * seats


def _met(met: Mapping[str, Mapping[str, int]], a: str, b: str) -> int:
    return int(met.get(a, {}).get(b, 0))


def _bye_takers(players: Sequence[Mapping[str, Any]], k: int) -> list[str]:
    """The k players with the fewest byes, the lowest placed of them first."""
    if k <= 0:
        return []
    ranked = list(enumerate(players))
    ranked.sort(key=lambda ip: (int(ip[1].get("byes", 0)), -ip[0]))
    return [p["entrant"] for _, p in ranked[:k]]


def _matching(names: list[str], points: Mapping[str, float], met: Mapping[str, Mapping[str, int]],
              window: int | None, forbid: Mapping[str, set[str]] | None = None) -> list[list[str]]:
    n = len(names)
    rank = {e: i for i, e in enumerate(names)}
    pair_costs: list[tuple[str, str, int]] = []
    for i, a in enumerate(names):
        last = range(i + 1, n) if window is None else range(i + 1, min(n, i + 1 + window))
        for j in last:
            b = names[j]
            if forbid and (b in forbid.get(a, set()) or a in forbid.get(b, set())):
                continue
            gap = round(abs(points[a] - points[b]) * 4)
            pair_costs.append((a, b, gap * gap * (n + 1) + (j - i)))
    if not pair_costs:
        return []
    top = max(c for _, _, c in pair_costs)
    repeat = top * (n // 2 + 1) + 1  # more than every other cost a matching can add up to
    import networkx as nx  # here: 12 MB of every web worker's memory that only a pairing needs

    graph: Any = nx.Graph()
    graph.add_nodes_from(names)
    costs = [(a, b, c + _met(met, a, b) * repeat) for a, b, c in pair_costs]
    ceiling = max(c for _, _, c in costs) + 1
    for a, b, c in costs:
        graph.add_edge(a, b, weight=ceiling - c)
    matched = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    pairs = [sorted(pair, key=rank.__getitem__) for pair in matched]
    pairs.sort(key=lambda p: rank[p[0]])
    return pairs


def _blocks(names: list[str]) -> list[list[str]]:
    """The ranked list cut into consecutive blocks of BLOCK players (an even count each; the last
    takes the rest), each matched alone: a complete graph per block keeps 1,000 players fast."""
    if len(names) <= BLOCK + BLOCK // 2:
        return [names]
    cuts = list(range(0, len(names), BLOCK))
    if len(names) - cuts[-1] < BLOCK // 2:
        cuts.pop()
    return [names[a:b] for a, b in zip(cuts, [*cuts[1:], len(names)])]


def _repeats(table: Sequence[str], met: Mapping[str, Mapping[str, int]]) -> int:
    return sum(_met(met, a, b) for i, a in enumerate(table) for b in table[i + 1:])


def grouped(names: Sequence[str], sizes: Sequence[int], met: Mapping[str, Mapping[str, int]],
            seats: int) -> list[list[str]]:
    """Tables of the given sizes filled in order from `names` (best first), fewest repeats."""
    left = list(names)
    tables: list[list[str]] = []
    look = 3 * seats
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(range(min(look, len(left))),
                       key=lambda k: (sum(_met(met, left[k], s) for s in table), k))
            table.append(left.pop(best))
        tables.append(table)
    swaps, limit = 0, seats * len(tables)
    changed = True
    while changed and swaps < limit:
        changed = False
        for t in range(len(tables) - 1):
            one, two = tables[t], tables[t + 1]
            before = _repeats(one, met) + _repeats(two, met)
            for i in range(len(one)):
                for j in range(len(two)):
                    a, b = one[:], two[:]
                    a[i], b[j] = two[j], one[i]
                    if _repeats(a, met) + _repeats(b, met) < before:
                        tables[t], tables[t + 1] = one, two = a, b
                        before = _repeats(a, met) + _repeats(b, met)
                        swaps, changed = swaps + 1, True
                        break
                else:
                    continue
                break
            if swaps >= limit:
                break
    order = {e: i for i, e in enumerate(names)}
    return [sorted(table, key=order.__getitem__) for table in tables]


def _seated(inputs: Mapping[str, Any], tables: list[list[str]], byes: list[str]) -> dict[str, Any]:
    seed, round_ = str(inputs["seed"]), int(inputs["round"])
    return {"tables": [seat_order(seed, round_, k + 1, t) for k, t in enumerate(tables)], "byes": sorted(byes)}


def pair(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """{"tables": [[entrant, ...] in seat order, table 1 first], "byes": [entrant, ...]}."""
    fmt = inputs["format"]
    if fmt == "swiss":
        return _swiss(inputs)
    if fmt == "round_robin":
        return _round_robin(inputs)
    if fmt == "arena":
        return _arena(inputs)
    raise ValueError(f"no pairing for the format {fmt!r}")


def _swiss(inputs: Mapping[str, Any]) -> dict[str, Any]:
    players, seats, min_seats = inputs["players"], int(inputs["seats"]), int(inputs["min_seats"])
    met = inputs.get("met", {})
    sizes, bye_count = plan(len(players), seats, min_seats)
    byes = _bye_takers(players, bye_count)
    names = [p["entrant"] for p in players if p["entrant"] not in byes]
    if seats == 2:
        points = {p["entrant"]: float(p["points"]) for p in players}
        tables = []
        for block in _blocks(names):
            tables += _matching(block, points, met, None)
    else:
        tables = grouped(names, sizes, met, seats)
    return _seated(inputs, tables, byes)


def _round_robin(inputs: Mapping[str, Any]) -> dict[str, Any]:
    order: list[str] = list(inputs["order"])
    playing = {p["entrant"] for p in inputs["players"]}
    seats, round_ = int(inputs["seats"]), int(inputs["round"])
    if seats == 2:
        ring: list[str | None] = list(order) + ([None] if len(order) % 2 else [])
        count = len(ring)
        shift = (round_ - 1) % max(1, count - 1)
        rest = ring[1:]
        rotated = [ring[0]] + rest[len(rest) - shift:] + rest[:len(rest) - shift]
        tables, byes = [], []
        for i in range(count // 2):
            a, b = rotated[i], rotated[count - 1 - i]
            here = [e for e in (a, b) if e is not None and e in playing]
            if len(here) == 2:
                tables.append(here)
            byes.extend(here if len(here) == 1 else [])
        return _seated(inputs, tables, byes)
    if int(inputs.get("algorithm", {}).get("version", 1)) >= 2:
        return _scheduled(inputs, order, playing)
    start = (round_ - 1) % max(1, len(order))
    names = [e for e in order[start:] + order[:start] if e in playing]
    sizes, bye_count = plan(len(names), seats, int(inputs["min_seats"]))
    fewest = _bye_takers([{"entrant": e, "byes": _byes(inputs, e)} for e in names], bye_count)
    names = [e for e in names if e not in fewest]
    met = inputs.get("met", {})
    best: list[list[str]] | None = None
    for attempt in range(TRIES):
        tried = names if attempt == 0 else sorted(
            names, key=lambda e: hashlib.sha256(f"{inputs['seed']}:{round_}:try{attempt}:{e}".encode()).hexdigest())
        tables = balanced(tried, sizes, met)
        if best is None or _cost(tables, met) < _cost(best, met):
            best = tables
    return _seated(inputs, best or [], fewest)


def _scheduled(inputs: Mapping[str, Any], order: list[str], playing: set[str]) -> dict[str, Any]:
    """Version 2's multi-seat round robin: round r's tables of the field's balanced schedule
    (schedule.py, made for the whole `order` over `rounds`), the i-th player of the schedule being
    `order[i]`. A player no longer playing (withdrawn, voided) leaves its table; a table left
    with fewer than `min_seats` gives its players byes."""
    seats, least, round_ = int(inputs["seats"]), int(inputs["min_seats"]), int(inputs["round"])
    sizes, bye_count = plan(len(order), seats, least)
    rounds = max(1, int(inputs.get("rounds") or 1))
    made = schedule.schedule(len(order), tuple(sizes), bye_count, rounds)
    tables, byes = made[(round_ - 1) % len(made)] if made else ((), ())
    seated: list[list[str]] = []
    given = [order[p] for p in byes if order[p] in playing]
    for table in tables:
        here = [order[p] for p in table if order[p] in playing]
        if len(here) >= least:
            seated.append(here)
        else:
            given += here
    return _seated(inputs, seated, given)


def _cost(tables: Sequence[Sequence[str]], met: Mapping[str, Mapping[str, int]]) -> int:
    """How unevenly the tables make pairs meet: each pair's meetings after them, squared, summed."""
    return sum((_met(met, a, b) + 1) ** 2 for t in tables for i, a in enumerate(t) for b in t[i + 1:])


def balanced(names: Sequence[str], sizes: Sequence[int], met: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Round robin's tables: filled one by one, each taking, among every player left, the one who
    has met those seated least (ties: the first in `names`); then any two tables swap two players
    while that lowers `_cost` (at most 10 passes over the pairs of tables)."""
    left = list(names)
    tables: list[list[str]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(range(len(left)), key=lambda k: (sum(_met(met, left[k], s) for s in table), k))
            table.append(left.pop(pick))
        tables.append(table)
    for _ in range(10):
        changed = False
        for x in range(len(tables)):
            for y in range(x + 1, len(tables)):
                for i in range(len(tables[x])):
                    for j in range(len(tables[y])):
                        a, b = tables[x][:], tables[y][:]
                        a[i], b[j] = b[j], a[i]
                        if _cost([a, b], met) < _cost([tables[x], tables[y]], met):
                            tables[x], tables[y], changed = a, b, True
        if not changed:
            break
    order = {e: i for i, e in enumerate(names)}
    return [sorted(t, key=order.__getitem__) for t in tables]


def _byes(inputs: Mapping[str, Any], entrant: str) -> int:
    for p in inputs["players"]:
        if p["entrant"] == entrant:
            return int(p.get("byes", 0))
    return 0


def _arena(inputs: Mapping[str, Any]) -> dict[str, Any]:
    players, seats, min_seats = inputs["players"], int(inputs["seats"]), int(inputs["min_seats"])
    names = [p["entrant"] for p in players]
    last = {e: set(v) for e, v in inputs.get("last", {}).items()}
    if seats == 2:
        points = {p["entrant"]: float(p["points"]) for p in players}
        forbid = None if len(names) == 2 else last
        window = None if len(names) <= WINDOW_FROM else 24
        return _seated(inputs, _matching(names, points, {}, window, forbid), [])
    met = {e: {o: LAST_GAME for o in v} for e, v in last.items()}
    sizes, _waiting = plan(len(names), seats, min_seats)
    return _seated(inputs, grouped(names, sizes, met, seats), [])
