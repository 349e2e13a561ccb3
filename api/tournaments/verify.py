"""Recomputing every pairing of a tournament from its history (python -m tools.tournaments verify):
for each `round_paired` event, the inputs the decider derives from the events before it, and the
tables and byes pairing.pair makes of the recorded inputs, each compared with what was recorded."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from api.tournaments import pairing
from api.tournaments.decider import pairing_inputs
from api.tournaments.state import PAIRED, State, evolve


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (a stored 2.0 reads back as 2.0, a stored 2 as 2: both the same number)."""
    return bool(orjson.loads(orjson.dumps(a)) == orjson.loads(orjson.dumps(b)))


def verify(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """[{"round", "inputs": ok?, "tables": ok?}] for every pairing of the history."""
    state, found = State(), []
    for event in events:
        if event["type"] == PAIRED:
            recorded = event["inputs"]
            again = pairing_inputs(state, int(event["round"]), str(recorded.get("seed", "")))
            made = pairing.pair(recorded)
            byes = sorted(b["entrant"] for b in event.get("byes", []))
            found.append({"round": event["round"], "inputs": _same(again, recorded),
                          "tables": _same(made["tables"], event["tables"]) and made["byes"] == byes})
        state = evolve(state, event)
    return found
