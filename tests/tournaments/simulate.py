"""Random tournaments played on the decider alone (no server): entries, rounds, random results
(ties now and then), withdrawals, late joins and voids, as a test or a benchmark draws them."""
from __future__ import annotations

import random

from api.tournaments import decider
from api.tournaments.state import fold


def play(rng: random.Random, fmt: str, seats: int, least: int, entrants: int, rounds: int = 4,
         withdraw: float = 0.1, late: float = 0.1, void: float = 0.05, ties: float = 0.1,
         no_show: float = 0.03) -> list[dict]:
    body = {"type": "game", "format": fmt, "seats": seats, "min_seats": least, "start": 0,
            "bye_points": rng.choice([0, 1, 2]), "late_join_points": rng.choice([0, 1])}
    if fmt == "swiss":
        body["rounds"] = rounds
    elif fmt == "arena":
        body["duration_s"] = 3600
    events: list[dict] = []
    state = decider.State()

    def do(command: decider.Command) -> None:
        nonlocal state
        made = decider.decide(state, command)
        events.extend(made)
        state = fold(made, state)

    now = 1
    do(decider.Command("create", now, id="t", rules=decider.rules_from(body, 2, 6, 0)))
    names = [f"player:p{i}" for i in range(entrants)]
    for name in names:
        do(decider.Command("enter", now, entrant=name, rating=float(rng.randint(1000, 2000))))
    more = entrants
    for step in range(60):
        now += 1000
        wanted = decider.next_step(state, now)
        if wanted == "finish" or (fmt == "arena" and step > 3 * rounds):
            break
        if wanted == "pair":
            do(decider.Command("pair", now, seed=f"{rng.getrandbits(64):016x}"))
        for r in state.rounds:
            for k, table in enumerate(r.tables, 1):
                if table.places is None and not table.void and rng.random() < (0.6 if fmt == "arena" else 1):
                    order = list(table.seats)
                    rng.shuffle(order)
                    places, place = {}, 1
                    for i, e in enumerate(order):
                        if i and rng.random() < ties:
                            places[e] = places[order[i - 1]]
                        else:
                            places[e] = i + 1
                        place = places[e]
                    del place
                    missed = tuple(e for e in table.seats if rng.random() < no_show)
                    do(decider.Command("result", now, round=r.number, table=k, places=places, missed=missed))
        active = state.active()
        if active and rng.random() < withdraw:
            do(decider.Command("withdraw", now, entrant=rng.choice(active)))
        if rng.random() < late and fmt != "round_robin":
            name = f"player:p{more}"
            more += 1
            try:
                do(decider.Command("enter", now, entrant=name, rating=float(rng.randint(1000, 2000))))
            except decider.TournamentClosed:
                pass
        if rng.random() < void and state.entrants:
            do(decider.Command("adjust", now, how="void_player", entrant=rng.choice(list(state.entrants)), by="m"))
        if rng.random() < void and state.rounds and state.rounds[-1].tables:
            r = state.rounds[-1]
            do(decider.Command("adjust", now, how="void_game", round=r.number, table=rng.randint(1, len(r.tables)),
                               by="m"))
    if decider.next_step(state, now) == "finish" or fmt == "arena":
        do(decider.Command("finish", now))
    return events
