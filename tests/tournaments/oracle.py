"""A test oracle for tournaments, written from the rules' text (api/tournaments/pairing.py's and
standings.py's docstrings), not from their code: it reads a tournament's events and says what is
wrong with each pairing. It imports nothing of api/tournaments.

Checked for every `round_paired` event:
- the players it lists are the entrants still in, not voided, and (arena) not at a table, each
  with the points an independent count of the history gives, best first;
- every player is seated once (or has a bye; an arena player may wait), tables of `min_seats` to
  `seats`, as few byes as the field allows, byes to those with the fewest byes so far;
- the seat order is the seed's (sha256 of "<seed>:<round>:<table>:<entrant>");
- Swiss, 2 seats: as few repeated pairs as any pairing of the same players has (so none while a
  pairing without one exists), found by an exhaustive search;
- arena: no player meets its last table-mate again when others could be paired.
And the final standings (`tournament_finished`) hold the points the independent count gives,
best first.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from functools import cache


def place_points(size, k):
    return 2.0 * (size - 1 - k)


def points_of(events):
    """entrant -> points after these events, counted from the rules' text."""
    rules = events[0]["rules"]
    custom = rules.get("points") or {}
    tables, byes, late, voided, void_games, order = {}, defaultdict(float), defaultdict(float), set(), set(), []
    for ev in events:
        t = ev["type"]
        if t == "round_paired":
            for k, seats in enumerate(ev["tables"], 1):
                tables[(ev["round"], k)] = {"seats": seats, "places": None}
            for b in ev["byes"]:
                byes[b["entrant"]] += b["points"]
        elif t == "game_result":
            tables[(ev["round"], ev["table"])]["places"] = ev["places"]
            order.append((ev["round"], ev["table"]))
        elif t == "entrant_late_joined":
            late[ev["entrant"]] += ev["points"]
        elif t == "result_adjusted":
            if ev["kind"] == "void_player":
                voided.add(ev["entrant"])
            elif ev["kind"] == "unvoid_player":
                voided.discard(ev["entrant"])
            elif ev["kind"] == "void_game":
                void_games.add((ev["round"], ev["table"]))
            elif ev["kind"] == "set_result":
                key = (ev["round"], ev["table"])
                tables[key]["places"] = ev["places"]
                void_games.discard(key)
                if key not in order:
                    order.append(key)
    total = defaultdict(float)
    for e, p in byes.items():
        total[e] += p
    for e, p in late.items():
        total[e] += p
    wins_in_a_row = defaultdict(int)
    for key in order:
        if key in void_games:
            continue
        table = tables[key]
        seats, places = table["seats"], table["places"]
        size = len(seats)
        scale = custom.get(str(size)) or [place_points(size, k) for k in range(size)]
        # the voided go last; the others keep their order among themselves
        others = sorted((e for e in seats if e not in voided), key=lambda e: places[e])
        got = {}
        i = 0
        while i < len(others):
            j = i
            while j + 1 < len(others) and places[others[j + 1]] == places[others[i]]:
                j += 1
            share = sum(scale[i:j + 1]) / (j - i + 1)
            for e in others[i:j + 1]:
                got[e] = (share, i == j and i == 0)
            i = j + 1
        for e in seats:
            if e in voided:
                continue
            share, won = got[e]
            double = rules["format"] == "arena" and wins_in_a_row[e] >= 2
            total[e] += share * (rules.get("streak_bonus", 2) if double else 1)
            wins_in_a_row[e] = wins_in_a_row[e] + 1 if won else 0
    for e in voided:
        total[e] = 0.0
    return total


def fewest_byes(n, seats, least):
    for b in range(n + 1):
        rest = n - b
        if rest == 0 or any(t * least <= rest <= t * seats for t in range(1, rest + 1)):
            return b
    return n


def seat_key(seed, round_, table, e):
    return hashlib.sha256(f"{seed}:{round_}:{table}:{e}".encode()).hexdigest()


def fewest_repeats(names, met):
    """The fewest repeated pairs of any perfect matching of `names` (an even count)."""
    names = tuple(names)
    n = len(names)

    @cache
    def best(mask):
        if mask == (1 << n) - 1:
            return 0
        i = next(k for k in range(n) if not mask >> k & 1)
        found = None
        for j in range(i + 1, n):
            if not mask >> j & 1:
                here = (1 if met[names[i]].get(names[j]) else 0) + best(mask | 1 << i | 1 << j)
                found = here if found is None else min(found, here)
        return found

    return best(0)


def check(events):
    """The problems found, as sentences ([] when none)."""
    problems = []
    rules = events[0]["rules"]
    seats, least, fmt = rules["seats"], rules["min_seats"], rules["format"]
    active, voided = {}, set()
    met = defaultdict(lambda: defaultdict(int))
    busy = {}
    last = {}
    byes_so_far = defaultdict(int)
    for i, ev in enumerate(events):
        t = ev["type"]
        if t in ("entrant_entered", "entrant_late_joined"):
            active[ev["entrant"]] = True
        elif t == "entrant_withdrawn":
            active[ev["entrant"]] = False
        elif t == "result_adjusted" and ev["kind"] in ("void_player", "unvoid_player"):
            (voided.add if ev["kind"] == "void_player" else voided.discard)(ev["entrant"])
        elif t == "game_result":
            busy.pop((ev["round"], ev["table"]), None)
        elif t == "result_adjusted" and ev["kind"] in ("void_game", "set_result"):
            busy.pop((ev["round"], ev["table"]), None)
        elif t == "tournament_finished":
            points = points_of(events[:i])
            for row in ev["standings"]:
                if abs(row["points"] - points[row["entrant"]]) > 1e-6:
                    problems.append(f"final standings: {row['entrant']} has {row['points']}, not {points[row['entrant']]}")
            shown = [row["points"] for row in ev["standings"]]
            if shown != sorted(shown, reverse=True):
                problems.append("final standings not best first")
        elif t == "round_paired":
            where = f"round {ev['round']}"
            seated_now = {e for s in busy.values() for e in s}
            expected = {e for e, on in active.items() if on and e not in voided and e not in seated_now}
            listed = [p["entrant"] for p in ev["inputs"]["players"]]
            if set(listed) != expected:
                problems.append(f"{where}: players {sorted(listed)} are not {sorted(expected)}")
            points = points_of(events[:i])
            for p in ev["inputs"]["players"]:
                if abs(p["points"] - points[p["entrant"]]) > 1e-6:
                    problems.append(f"{where}: {p['entrant']} has {p['points']} points, not {points[p['entrant']]}")
            shown = [p["points"] for p in ev["inputs"]["players"]]
            if shown != sorted(shown, reverse=True):
                problems.append(f"{where}: players not best first")
            seated = [e for table in ev["tables"] for e in table]
            bye_list = [b["entrant"] for b in ev["byes"]]
            if len(seated) != len(set(seated)) or set(seated) & set(bye_list):
                problems.append(f"{where}: a player seated twice")
            if not set(seated) | set(bye_list) <= set(listed):
                problems.append(f"{where}: a player seated who was not to be paired")
            if fmt != "arena" and set(seated) | set(bye_list) != set(listed):
                problems.append(f"{where}: a player neither seated nor given a bye")
            for table in ev["tables"]:
                if not least <= len(table) <= seats:
                    problems.append(f"{where}: a table of {len(table)}")
            if fmt == "swiss" and len(bye_list) != fewest_byes(len(listed), seats, least):
                problems.append(f"{where}: {len(bye_list)} byes, {fewest_byes(len(listed), seats, least)} needed")
            if fmt == "swiss" and bye_list:
                most_with = max(byes_so_far[e] for e in bye_list)
                least_without = min((byes_so_far[e] for e in listed if e not in bye_list), default=most_with)
                if most_with > least_without:
                    problems.append(f"{where}: a bye for a player with more byes than one without")
            seed = ev["inputs"]["seed"]
            for k, table in enumerate(ev["tables"], 1):
                if table != sorted(table, key=lambda e: seat_key(seed, ev["round"], k, e)):
                    problems.append(f"{where}: table {k}'s seat order is not the seed's")
            if fmt == "swiss" and seats == 2 and len(seated) <= 16:
                repeats = sum(1 for a, b in ev["tables"] if met[a].get(b))
                if repeats != fewest_repeats(sorted(seated), met):
                    problems.append(f"{where}: {repeats} repeats where {fewest_repeats(sorted(seated), met)} would do")
            if fmt == "arena" and len(listed) > 2:
                for table in ev["tables"]:
                    for e in table:
                        if last.get(e, set()) & set(table) and seats == 2:
                            problems.append(f"{where}: {e} meets its last opponent again")
            for k, table in enumerate(ev["tables"], 1):
                busy[(ev["round"], k)] = table
                for a in table:
                    last[a] = set(table) - {a}
                    for b in table:
                        if a != b:
                            met[a][b] += 1
            for e in bye_list:
                byes_so_far[e] += 1
    return problems
