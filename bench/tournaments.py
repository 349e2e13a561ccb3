"""Tournament pairing's cost and quality: `python -m bench.tournaments [players]`.

- Swiss pairing time for `players` (default 1,000) at 2 and 4 seats: rounds played on the decider
  alone (in memory, random results), each round's `pair` command timed whole (the standings
  projection, the inputs and pairing.pair) and pairing.pair alone on the same inputs;
- an arena's continuous pairing: 100 players, each game's end followed by a pairing of the idle
  players, timed per pairing;
- multi-seat repeats (issue 52, "measured"): 24 players at 4 seats over 6 Swiss rounds, the table
  pairs already met counted per round for this grouping against Board Game Arena's (leaders at
  table 1, table after table, repeats not avoided), over 20 random tournaments.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

import bench.common  # noqa: F401 - the repository on sys.path
from bench.common import table


def _swiss(players: int, seats: int, rounds: int, seed: int = 1) -> list[tuple]:
    from api.tournaments import decider, pairing
    from api.tournaments.state import fold

    rng = random.Random(seed)
    rules = decider.rules_from({"type": "g", "format": "swiss", "seats": seats, "rounds": rounds, "start": 0}, 2, 6, 0)
    state = fold(decider.decide(decider.State(), decider.Command("create", 1, id="b", rules=rules)))
    for i in range(players):
        state = fold(decider.decide(state, decider.Command("enter", 1, entrant=f"player:{i}",
                                                           rating=float(rng.randint(1000, 2200)))), state)
    rows = []
    for r in range(1, rounds + 1):
        started = time.perf_counter()
        events = decider.decide(state, decider.Command("pair", 2, seed=f"{r}"))
        whole = time.perf_counter() - started
        started = time.perf_counter()
        pairing.pair(events[0]["inputs"])
        alone = time.perf_counter() - started
        state = fold(events, state)
        for k, t in enumerate(state.rounds[-1].tables, 1):
            order = list(t.seats)
            rng.shuffle(order)
            state = fold(decider.decide(state, decider.Command("result", 3, round=r, table=k,
                                                               places={e: i + 1 for i, e in enumerate(order)})), state)
        rows.append((players, seats, r, f"{whole:.2f}", f"{alone:.2f}"))
    return rows


def _arena(players: int = 100, pairings: int = 200, seed: int = 2) -> tuple[float, float, float]:
    from api.tournaments import decider
    from api.tournaments.state import fold

    rng = random.Random(seed)
    rules = decider.rules_from({"type": "g", "format": "arena", "seats": 2, "duration_s": 3600, "start": 0}, 2, 6, 0)
    state = fold(decider.decide(decider.State(), decider.Command("create", 1, id="a", rules=rules)))
    for i in range(players):
        state = fold(decider.decide(state, decider.Command("enter", 1, entrant=f"player:{i}", rating=1500.0)), state)
    times = []
    for n in range(pairings):
        started = time.perf_counter()
        events = decider.decide(state, decider.Command("pair", 10 + n, seed=f"{n}"))
        times.append(time.perf_counter() - started)
        state = fold(events, state)
        open_tables = [(r.number, k, t) for r in state.rounds for k, t in enumerate(r.tables, 1) if t.places is None]
        for number, k, t in rng.sample(open_tables, max(1, len(open_tables) // 10)):  # a tenth of the games end
            order = list(t.seats)
            rng.shuffle(order)
            state = fold(decider.decide(state, decider.Command("result", 10 + n, round=number, table=k,
                                                               places={e: i + 1 for i, e in enumerate(order)})), state)
    return statistics.median(times), max(times), len(state.rounds)


def _repeats(grouping: str, seed: int, players: int = 24, seats: int = 4, rounds: int = 6) -> int:
    from api.tournaments import pairing

    rng = random.Random(seed)
    points = {f"p{i}": 0.0 for i in range(players)}
    rating = {e: rng.randint(1000, 2000) for e in points}
    met: dict[str, dict[str, int]] = {}
    repeats = 0
    for _ in range(rounds):
        names = sorted(points, key=lambda e: (-points[e], -rating[e], e))
        sizes, _ = pairing.plan(len(names), seats, seats)
        if grouping == "ours":
            tables = pairing.grouped(names, sizes, met, seats)
        else:  # Board Game Arena's: the leaders at table 1, repeats not avoided
            tables = [names[i:i + seats] for i in range(0, len(names), seats)]
        for t in tables:
            repeats += sum(1 for i, a in enumerate(t) for b in t[i + 1:] if met.get(a, {}).get(b))
            for a in t:
                for b in t:
                    if a != b:
                        met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
            order = list(t)
            rng.shuffle(order)
            for place, e in enumerate(order):
                points[e] += 2.0 * (len(t) - 1 - place)
    return repeats


def round_robin_spread(largest: int = 16) -> list[tuple]:
    """The balanced multi-seat round robin's schedule (api/tournaments/schedule.py) for n = 5 to
    `largest` players at 3 to 6 seats over the minimal rounds: the least and the most times two
    players meet, what the counts allow at best (floor and ceiling of the mean), and the time."""
    import math

    from api.tournaments.pairing import plan
    from api.tournaments.schedule import schedule, spread

    rows = []
    for seats in (3, 4, 5, 6):
        for n in range(max(5, seats + 1), largest + 1):
            sizes, byes = plan(n, seats, seats)
            rounds = max(1, math.ceil((n - 1) / (seats - 1)))
            started = time.perf_counter()
            made = schedule(n, tuple(sizes), byes, rounds)
            took = time.perf_counter() - started
            least, most = spread(n, made)
            mean = rounds * sum(s * (s - 1) // 2 for s in sizes) / (n * (n - 1) / 2)
            rows.append((n, seats, rounds, least, most, most - least, math.ceil(mean) - math.floor(mean),
                         round(took * 1000)))
    return rows


def main(players: int = 1000) -> None:
    rows = _swiss(players, 2, 5) + _swiss(players, 4, 5)
    print(table(rows, ("players", "seats", "round", "pair command s", "pairing.pair alone s")))
    median, worst, made = _arena()
    print(f"\narena, 100 players, 200 pairings: median {median * 1000:.1f} ms, max {worst * 1000:.1f} ms "
          f"per pairing ({made} pairings made a table)")
    ours = [_repeats("ours", s) for s in range(20)]
    naive = [_repeats("naive", s) for s in range(20)]
    print(f"\n24 players, 4 seats, 6 rounds, 20 tournaments: repeated pairs per tournament, this grouping "
          f"mean {statistics.mean(ours):.1f} (max {max(ours)}), leaders-at-table-1 without avoidance "
          f"mean {statistics.mean(naive):.1f} (max {max(naive)})")
    print("\nround robin spread: the balanced schedule's least and most meetings of two players")
    print(table(round_robin_spread(16 if players >= 1000 else 8),
                ("players", "seats", "rounds", "least", "most", "spread", "spread the mean allows", "ms")))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
