"""The team game, "Battle for Azeroth" (rules: Team game; the seed §5).

Factions by seat (which is the turn order): Alliance, Horde, Neutral, Alliance, Horde, with
no Neutral seat when the seats are even. The display is 4 rows, bottom (free) first; each
row holds a power and one race of each faction. A seat picks its faction's race of a row
with that row's power and pays the bank 1 coin per row climbed. The power column and the
faction's race column then close the gap downwards and the top cell is drawn anew from its
pile (each faction's races are a pile of their own; returned banners lie under it). A
faction's score is its lower member's (option `team_score`: `lowest`, or `highest`); a
Neutral seat scores alone; the best score wins, most race tokens on the boards breaking ties.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import catalog, query
from .state import CONQUER, State

if TYPE_CHECKING:
    import random

    from .contract_bits import Event

ROWS = 4
COLUMNS = ("power", "alliance", "horde", "neutral")
ORDER = ("alliance", "horde", "neutral", "alliance", "horde")


def factions(n: int) -> list:
    if n % 2 == 0:
        return ["alliance", "horde"] * (n // 2)
    return list(ORDER[:n])


def races_of(races: Iterable[str], faction: str | None) -> list[str]:
    return [r for r in races if catalog.RACES[r]["faction"] == faction]


def deal_rows(box: dict[str, Any], rng: random.Random) -> list[Any]:
    powers = sorted(box["powers"])
    rng.shuffle(powers)
    columns = {"power": powers[:ROWS]}
    for f in COLUMNS[1:]:
        races = sorted(races_of(box["races"], f))
        rng.shuffle(races)
        columns[f] = (races[:ROWS] + [None] * ROWS)[:ROWS]
    return [{c: columns[c][k] for c in COLUMNS} for k in range(ROWS)]


def column(s: State, name: str) -> list:
    k = COLUMNS.index(name)
    return [row[k] for row in s.rows]


def picks(s: State, seat: int) -> list:
    """Rows the seat may pick: its faction's race and a power there, and the coins to climb."""
    f = s.players[seat].faction
    coins = s.players[seat].coins
    return [k for k, row in enumerate(s.rows)
            if row[0] and row[COLUMNS.index(f)] and k <= coins]


def pick_event(s: State, seat: int, k: int) -> dict:
    f = s.players[seat].faction
    power, race = s.rows[k][0], s.rows[k][COLUMNS.index(f)]
    tokens = min(catalog.RACES[race]["banner"] + catalog.POWERS[power]["badge"], query.supply(s, race))
    return {"type": "combo_picked", "seat": seat, "index": k, "race": race, "power": power,
            "paid": k, "took": 0, "tokens": tokens}


def _close(values: list, k: int) -> list:
    return values[:k] + values[k + 1:] + [None]


def picked(s: State, e: Event) -> State:
    k, seat = e["index"], e["seat"]
    f = s.players[seat].faction
    cols = {c: column(s, c) for c in COLUMNS}
    cols["power"] = _close(cols["power"], k)
    cols[f] = _close(cols[f], k)
    rows = tuple(tuple(cols[c][r] for c in COLUMNS) for r in range(ROWS))
    p = s.players[seat]
    p = p._replace(coins=p.coins - k, race=e["race"], power=e["power"], hand=e["tokens"])
    s = s.with_(rows=rows, turn=s.turn._replace(step=CONQUER))
    return s.set_player(seat, p)


def refill(s: State, rng: random.Random) -> list[Event]:
    """Empty cells drawn from their piles, bottom up: powers at random; a faction's races at
    random from its unseen banners, then its returned ones in the order they came back."""
    powers, discards = list(s.power_pile), list(s.power_discards)
    unseen, back = list(s.race_pile), list(s.returned)
    cells = []
    for name in COLUMNS:
        for r, key in enumerate(column(s, name)):
            if key is not None:
                continue
            if name == "power":  # the discarded badges make a new stack once it is empty
                pick = _draw(powers, None, rng) or _draw(discards, None, rng)
            else:
                pick = _draw(unseen, back, rng, name)
            if pick is None:
                continue
            cells.append({"row": r, "column": name, "key": pick})
    return [{"type": "rows_refilled", "cells": cells}] if cells else []


def _draw(unseen: list[str], back: list[str] | None, rng: random.Random,
          faction: str | None = None) -> str | None:
    """One key from a pile (removed from the list it came from), or None when it is empty."""
    fresh = races_of(unseen, faction) if faction else unseen
    if fresh:
        pick = rng.choice(fresh)
        unseen.remove(pick)
        return pick
    old = races_of(back, faction) if back else []
    if old and back:
        back.remove(old[0])
        return old[0]
    return None


def refilled(s: State, e: Event) -> State:
    rows = [list(row) for row in s.rows]
    keys = set()
    for c in e["cells"]:
        rows[c["row"]][COLUMNS.index(c["column"])] = c["key"]
        keys.add(c["key"])
    return s.with_(rows=tuple(tuple(r) for r in rows),
                   race_pile=tuple(x for x in s.race_pile if x not in keys),
                   returned=tuple(x for x in s.returned if x not in keys),
                   power_pile=tuple(x for x in s.power_pile if x not in keys),
                   power_discards=tuple(x for x in s.power_discards if x not in keys))


def result(s: State, scores: list, tokens: list) -> dict:
    """Teams by faction; a Neutral seat alone. The best team score wins, then team tokens."""
    assert s.team is not None  # scoring.final_result asks only a team game
    pick = max if s.team.get("score") == "highest" else min
    teams = []
    for f in ("alliance", "horde", "neutral"):
        seats = [k for k, p in enumerate(s.players) if p.faction == f]
        if seats:
            teams.append({"faction": f, "seats": seats, "score": pick(scores[k] for k in seats),
                          "tokens_on_board": sum(tokens[k] for k in seats)})
    best = max((t["score"], t["tokens_on_board"]) for t in teams)
    winners = sorted(k for t in teams if (t["score"], t["tokens_on_board"]) == best for k in t["seats"])
    tied = sum(1 for t in teams if t["score"] == best[0]) > 1
    return {"winners": winners, "scores": scores, "tokens_on_board": tokens, "reason": "last_round_scored",
            "tie_break": "tokens_on_board" if tied else None, "teams": teams}
