"""Engines, in-process, no I/O: random playouts per second for every hosted game, and the
replay path's cost per event beside a marshmallow load of the same event.

    python -m bench --only engines [--quick]

An action is what a random player does: list the legal moves of the actor to play, pick one,
decide it, and evolve the state by every event it caused. The floor for Splendor is the
target of issue 8 (10,000 actions/s with 2 seats; public pure-Python engines do 2,400-4,000).

The replay path is what GameService.load does per stored event: json.loads of the stored
field + evolve. Beside it: a marshmallow load (json + Schema.load) of the same event, with a
schema inferred from the game's own events, i.e. what parsing events through marshmallow on the
replay path would cost. Last, marshmallow's Schema.load is counted while a fresh service
rebuilds a stored game and a past version of it: it must be 0.
"""
from __future__ import annotations

import json
import random
import time

from bench.common import configs, hosted_games, random_history, table

SPLENDOR_TARGET = 10_000  # actions/s, 2 seats (issue 8)


def playouts(definition, n_seats: int, options: dict, seconds: float, timed: bool = False):
    """Random playouts for `seconds`. Returns (actions, games, elapsed, phase seconds)."""
    from domain.play import fold

    legal, decide, evolve, actors = definition.legal_moves, definition.decide, definition.evolve, definition.actors
    actions = games = 0
    phases = {"legal_moves": 0.0, "decide": 0.0, "evolve": 0.0}
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        rng = random.Random(games)
        state = fold(definition, definition.setup(options, n_seats, random.Random(games)))
        steps = 0
        while steps < definition.max_events:
            who = actors(state)
            if not who:
                break
            if timed:
                t0 = clock()
                moves = legal(state, who[0])
                t1 = clock()
                move = rng.choice(moves)
                t2 = clock()
                new = decide(state, who[0], move, rng)
                t3 = clock()
                for event in new:
                    state = evolve(state, event)
                t4 = clock()
                phases["legal_moves"] += t1 - t0
                phases["decide"] += t3 - t2
                phases["evolve"] += t4 - t3
            else:
                for event in decide(state, who[0], rng.choice(legal(state, who[0])), rng):
                    state = evolve(state, event)
            steps += 1
        actions += steps
        games += 1
    return actions, games, clock() - start, phases


# ---- marshmallow, inferred from the events themselves -----------------------------------------

def _field_for(values):
    from marshmallow import fields

    values = [v for v in values if v is not None]
    allow_none = True
    if not values:
        return fields.Raw(allow_none=allow_none)
    if all(isinstance(v, bool) for v in values):
        return fields.Boolean(allow_none=allow_none)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return fields.Integer(allow_none=allow_none)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return fields.Float(allow_none=allow_none)
    if all(isinstance(v, str) for v in values):
        return fields.String(allow_none=allow_none)
    if all(isinstance(v, list) for v in values):
        return fields.List(_field_for([x for v in values for x in v]), allow_none=allow_none)
    if all(isinstance(v, dict) for v in values):
        return fields.Nested(_schema_for(values), allow_none=allow_none)
    return fields.Raw(allow_none=allow_none)


def _schema_for(dicts):
    from marshmallow import INCLUDE, Schema

    keys = sorted({k for d in dicts for k in d})
    if any(not k.isidentifier() for k in keys):  # dicts keyed by data (seat numbers, colours)
        from marshmallow import fields

        return Schema.from_dict({"_": fields.Raw()})  # never used: see _event_field
    attrs = {k: _field_for([d.get(k) for d in dicts]) for k in keys}
    schema = Schema.from_dict(attrs)
    schema.Meta.unknown = INCLUDE
    return schema


def event_schemas(events: list[dict]) -> dict:
    """One marshmallow Schema per event type, its fields inferred from the observed events."""
    from marshmallow import Schema, fields

    by_type: dict[str, list] = {}
    for e in events:
        by_type.setdefault(e["type"], []).append(e)
    schemas = {}
    for type_, seen in by_type.items():
        keys = sorted({k for e in seen for k in e})
        attrs = {}
        for k in keys:
            vals = [e.get(k) for e in seen]
            if any(isinstance(v, dict) and any(not str(x).isidentifier() for x in v) for v in vals):
                attrs[k] = fields.Dict(keys=fields.String(), values=fields.Raw(), allow_none=True)
            else:
                attrs[k] = _field_for(vals)
        schemas[type_] = Schema.from_dict(attrs)()
    return schemas


def per_event(definition, n_seats: int, options: dict, seconds: float):
    """µs per event: json.loads, evolve, both (the replay path), marshmallow loads."""
    from domain.play import fold

    events, final = random_history(definition, n_seats, options, seed=11)
    raw = [json.dumps(e, separators=(",", ":")) for e in events]
    decoded = [json.loads(r) for r in raw]
    schemas = event_schemas(decoded)
    for r, e in zip(raw, decoded):  # the inferred schemas accept every event
        schemas[e["type"]].loads(r)

    def rate(fn):
        n = 0
        start = time.perf_counter()
        while True:
            fn()
            n += len(raw)
            took = time.perf_counter() - start
            if took >= seconds:
                return took / n * 1e6

    loads = json.loads
    evolve = definition.evolve
    decode_us = rate(lambda: [loads(r) for r in raw])
    evolve_us = rate(lambda: fold(definition, decoded))

    def replay():
        state = None
        for r in raw:
            state = evolve(state, loads(r))
        return state

    assert replay() == fold(definition, decoded)
    replay_us = rate(replay)
    mm_us = rate(lambda: [schemas[loads(r)["type"]].loads(r) for r in raw])
    return len(events), decode_us, evolve_us, replay_us, mm_us


def marshmallow_on_replay_path(definition, n_seats: int, options: dict) -> tuple[int, int]:
    """(marshmallow loads, events replayed) while a fresh service rebuilds a stored game cold
    and a past version of it, on the in-memory store."""
    import marshmallow

    from api.games.service import GameService
    from bench.common import grow_game
    from events.memory_store import InMemoryEventStore

    store = InMemoryEventStore()
    service = GameService(store)
    gid = service.create(definition.name, [{"name": f"p{i}"} for i in range(n_seats)], options, seed=3)["id"]
    version = grow_game(service, gid, 400, seed=3)
    calls = 0
    original = marshmallow.Schema.load

    def counting(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        return original(self, *args, **kwargs)

    marshmallow.Schema.load = counting
    try:
        fresh = GameService(store)
        fresh.load(gid)
        fresh.at_version(gid, max(int(store.meta(gid)["setup_version"]), version // 2))
    finally:
        marshmallow.Schema.load = original
    return calls, version + version // 2


def run(quick: bool = False, smoke: bool = False) -> dict:
    seconds = 0.06 if smoke else 0.6 if quick else 3.0
    rows, results = [], {}
    for d in hosted_games():
        for n, options in configs(d)[:1] if smoke else configs(d):
            actions, games, took, _ = playouts(d, n, options, seconds)
            _, _, _, phases = playouts(d, n, options, seconds / 3, timed=True)
            total = sum(phases.values()) or 1
            rate = actions / took
            floor = f"{SPLENDOR_TARGET:,} (target)" if d.name == "splendor" and n == 2 else "-"
            r = f"{rate / SPLENDOR_TARGET:.2f}" if d.name == "splendor" and n == 2 else "-"
            rows.append((d.name, n, games, f"{rate:,.0f}", f"{1e6 / rate:.1f}",
                         f"{100 * phases['legal_moves'] / total:.0f}/{100 * phases['decide'] / total:.0f}/"
                         f"{100 * phases['evolve'] / total:.0f}", floor, r))
            results[f"{d.name}/{n}"] = {"actions_per_s": rate, "games": games}
    print("Engines: random playouts in-process (legal_moves + pick + decide + evolve), "
          f"{seconds:g} s per row")
    print(table(rows, ("game", "seats", "games", "actions/s", "µs/action", "legal/decide/evolve %",
                       "floor", "ratio")))
    print()
    rows = []
    for d in hosted_games():
        n, options = configs(d)[0]
        count, decode_us, evolve_us, replay_us, mm_us = per_event(d, n, options, seconds / 2)
        calls, replayed = marshmallow_on_replay_path(d, n, options)
        rows.append((d.name, n, count, f"{decode_us:.2f}", f"{evolve_us:.2f}", f"{replay_us:.2f}",
                     f"{mm_us:.2f}", f"{mm_us / replay_us:.1f}", f"{calls} in {replayed}"))
        results[f"{d.name}/replay"] = {"replay_us": replay_us, "marshmallow_us": mm_us, "marshmallow_calls": calls}
    print("Replay path per event (json.loads + evolve, as GameService.load does) vs a marshmallow "
          "load of the same event (json + Schema.load, schema inferred from the events)")
    print(table(rows, ("game", "seats", "events", "json µs", "evolve µs", "replay µs", "marshmallow µs",
                       "mm/replay", "marshmallow loads on replay")))
    return results


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
