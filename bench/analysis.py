"""Game analysis (issue 34): `python -m bench.analysis [ITERATIONS] [DECISIONS]` (defaults 400,
the ANALYSIS_ITERATIONS default, and 8 decisions per game).

For each game, a seeded 2-seat game (3 for Witches) played by its `random` bot, seat 0's first
DECISIONS decisions appraised as the analysis job does (domain/analysis.py: the `expert` move at
BOT_ITERATIONS 1, then ITERATIONS of search split over the chance before and after). Prints the
seconds per decision (p50, max) and the decisions a whole game holds for seat 0, so a whole
analysis's time can be read off (workers/queueing/ gives a job ANALYSIS_JOB_TIMEOUT_S).
No Redis, no workers: the search alone.
"""
from __future__ import annotations

import random
import sys
import time

from bench.common import percentile
from domain import registry, search
from domain.analysis import Decision, appraise
from domain.play import fold

SEATS = {"witches": 3}


def decisions(game, n: int, seed: int = 1):
    """(Decision, ...) of seat 0 along a random game, and how many seat 0 made in all."""
    rng = random.Random(seed)
    state = fold(game, game.setup(game.default_options(), n, random.Random(seed)))
    found, step = [], 0
    while actors := game.actors(state):
        actor = rng.choice(actors)
        move = game.bots["random"](state, actor, rng) if actor != "system" else game.legal_moves(state, actor)[0]
        events = game.decide(state, actor, move, rng)
        after = fold(game, events, state)
        if actor == 0:
            found.append(Decision(step, 0, state, after, events))
        state, step = after, step + 1
    return found


def main(argv: list[str]) -> None:
    iterations = int(argv[0]) if argv else 400
    per_game = int(argv[1]) if len(argv) > 1 else 8
    search.set_iterations_scale(1.0)
    print(f"analysis at {iterations} iterations a decision, the expert at BOT_ITERATIONS=1")
    print(f"{'game':<24} {'decisions':>9} {'p50 s':>7} {'max s':>7} {'whole game s':>13}")
    for game in registry.all_games():
        if game.name not in ("splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"):
            continue
        found = decisions(game, SEATS.get(game.name, 2))
        picked = found[:: max(1, len(found) // per_game)][:per_game]
        spent = []
        for d in picked:
            t = time.perf_counter()
            appraise(game, d, 1, iterations)
            spent.append(time.perf_counter() - t)
        p50 = percentile(spent, 0.5)
        print(f"{game.name:<24} {len(found):>9} {p50:>7.2f} {max(spent):>7.2f} {p50 * len(found):>13.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
