"""High Card with hooks that stall a worker in the middle of a job, so a test can kill it there.

In a process whose environment names them (SLOW_GAME_HOOKS, comma-separated; SLOW_GAME_DIR a
directory), the first time a hook is reached it writes the process id to `<dir>/<hook>` and
sleeps (SLOW_GAME_SLEEP seconds, default 60):

- `bot`:         inside the `slow` bot's policy (a bot turn, before anything is appended);
- `score`:       inside `decide` for the system's scoring move (before anything is appended);
- `after-score`: when a worker, having appended the scoring, asks who acts next to enqueue their
                 turn (the dual-write gap): the second time `actors` is asked of the state
                 after a `scored` event (the first is before the append: whether a worker
                 will owe a turn, which the append records).

Elsewhere (the tests' own process, a fresh worker) the game is plain High Card.
"""
from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

from domain.contract import SYSTEM
from tests.platform import high_card


def _hook(name: str) -> None:
    if name not in os.environ.get("SLOW_GAME_HOOKS", "").split(","):
        return
    marker = Path(os.environ["SLOW_GAME_DIR"]) / name
    if marker.exists():
        return
    marker.write_text(str(os.getpid()))
    time.sleep(float(os.environ.get("SLOW_GAME_SLEEP", "60")))


def _slow_bot(state, seat, rng):
    _hook("bot")
    return high_card.GAME.bots["random"](state, seat, rng)


def _decide(state, actor, move, rng):
    if actor == SYSTEM:
        _hook("score")
    return high_card.decide(state, actor, move, rng)


_after_scored = {"asked": None}  # per process: how often `actors` was asked since a scoring


def _evolve(state, event):
    if event["type"] == "scored":
        _after_scored["asked"] = 0
    return high_card.evolve(state, event)


def _actors(state):
    if _after_scored["asked"] is not None:
        _after_scored["asked"] += 1
        if _after_scored["asked"] == 2:
            _after_scored["asked"] = None
            _hook("after-score")
    return high_card.actors(state)


GAME = dataclasses.replace(
    high_card.GAME, name="high-card-slow", title="High Card with stalls (worker fault tests)",
    decide=_decide, evolve=_evolve, actors=_actors, bots={**high_card.GAME.bots, "slow": _slow_bot})
