"""Checks a finished game's chance: `python -m tools.verify <export>`.

<export> is a file holding the game's history as the server gives it once the game is over
(`{"events": [...]}`: the pages of `GET /games/{id}/events` put together, or a recording of
tests/recorded/), or the game's URL (`http://host:8000/games/<id>`), whose history is read
page by page. The game must be over: only then is its seed revealed.

What is checked, from the history alone:
- the revealed seed hashes to the `seed_sha256` every seat and spectator saw from creation;
- the setup (every shuffle, every dealt card) is exactly what the game's `setup` makes with
  that seed;
- every later group of events is exactly what the game's `decide` makes, with that seed, for
  one of the legal moves of the event's actor at that point (the move itself is not stored,
  so each legal move is tried): every draw, roll and deal after the start is the seed's, not
  the server's choice.

Prints one line per finding and exits 0 when the whole history is confirmed, 1 otherwise. The
check runs the rules of this server's code: a game recorded under other rules (another
`rules_version`) may not re-derive.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from api.platform.events import PLATFORM_EVENTS
from api.platform.fairness import commitment
from domain import registry
from domain.play import fold, rng_for, upcast


@dataclass
class Verdict:
    confirmed: bool
    checked: int = 0  # game events confirmed (setup and moves)
    commands: int = 0  # groups of events re-derived from a legal move
    problems: list = field(default_factory=list)

    def fail(self, message: str) -> Verdict:
        self.confirmed = False
        self.problems.append(message)
        return self


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=list) == json.dumps(b, sort_keys=True, default=list)


def verify(events: list[dict]) -> Verdict:
    """Re-derives every chance event of a finished game's history from its revealed seed."""
    verdict = Verdict(confirmed=True)
    if not events or events[0].get("type") != "game_created":
        return verdict.fail("the history does not start with game_created")
    created = events[0]["data"]
    if "seed" not in created or created["seed"] is None:
        return verdict.fail("the seed is not revealed: is the game over, and is this the history as everyone sees it?")
    seed = created["seed"]
    if "seed_sha256" in created and created["seed_sha256"] != commitment(seed):
        return verdict.fail(f"the revealed seed does not hash to the commitment {created['seed_sha256']}")
    definition = registry.get(created["game_type"])
    if definition is None:
        return verdict.fail(f"this server hosts no game of type {created['game_type']!r}")
    if created.get("rules_version", definition.rules_version) != definition.rules_version:
        return verdict.fail(f"the game was played under rules {created['rules_version']!r} and this server runs "
                            f"{definition.rules_version!r}: check it with the code of its rules")
    played = [e for e in events[1:] if e["type"] not in PLATFORM_EVENTS]
    setup = definition.setup(created["options"], len(created["seats"]), rng_for(seed, 0, "setup"))
    recorded = [upcast(definition, e["data"]) for e in played]
    if not _same(setup, recorded[:len(setup)]):
        return verdict.fail("the setup (shuffles, deals) is not the one the seed makes")
    state = fold(definition, setup)
    verdict.checked = i = len(setup)
    while i < len(played):
        actor, before = played[i]["actor"], played[i]["version"] - 1
        rng_seed = (seed, before, str(actor))
        for move in definition.legal_moves(state, actor):
            try:
                made = definition.decide(state, actor, move, rng_for(*rng_seed))
            except Exception:
                continue
            if made and _same(made, recorded[i:i + len(made)]) and \
                    all(e["actor"] == actor for e in played[i:i + len(made)]):
                break
        else:
            return verdict.fail(f"event {played[i]['version']} ({played[i]['type']} by {actor!r}) is not what any "
                                f"legal move makes with the seed")
        state = fold(definition, made, state)
        i += len(made)
        verdict.checked += len(made)
        verdict.commands += 1
    if definition.result(state) is None and not any(e["type"] in PLATFORM_EVENTS - {"game_created"} for e in events):
        return verdict.fail("the game is not over")
    return verdict


def _read_history(source: str) -> list[dict]:
    if source.startswith(("http://", "https://")):
        import requests

        events: list[dict] = []
        after = 0
        while True:
            page = requests.get(f"{source.rstrip('/')}/events", params={"after": after, "limit": 1000}, timeout=30)
            page.raise_for_status()
            batch = page.json()["events"]
            if not batch:
                return events
            events += batch
            after = batch[-1]["version"]
    with open(source) as f:
        data = json.load(f)
    return data["events"] if isinstance(data, dict) else data


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: python -m tools.verify <history.json | http://host/games/<id>>", file=sys.stderr)
        return 2
    registry.register_modules(os.environ.get("EXTRA_GAME_MODULES", "").split(","))
    verdict = verify(_read_history(argv[0]))
    if verdict.confirmed:
        print(f"confirmed: the setup and {verdict.commands} moves ({verdict.checked} events) are exactly "
              f"what the revealed seed makes")
        return 0
    for problem in verdict.problems:
        print(f"NOT confirmed: {problem}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
