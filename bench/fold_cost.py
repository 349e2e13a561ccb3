"""CPU of a game's expert decisions over seeded games, and of folding those games' events: what a
change to a game's reducer costs its search and every move and past state (issue 56, Fairy
Tile's trail).

    python -m bench.fold_cost GAME [SEED0] [GAMES] [--levels expert,storyteller]

Game i is seeded SEED0 + i and played to its end by the levels given (one a seat); each expert
decision's CPU (time.process_time) is summed; then every game's events are folded 20 times.
Run it in two trees in turn (A B A B) to compare a change: the same seeds play the same games
when the decisions are the same.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from domain import registry  # (the bench package applies BOT_ITERATIONS)
from domain.contract import SYSTEM
from domain.play import bot_move, fold


def play(game, seed: int, levels: list[str]) -> tuple[float, int, list[dict]]:
    """One seeded game: the expert's CPU seconds, its decisions, and the game's events."""
    rng = random.Random(seed)
    events = list(game.setup(game.default_options(), len(levels), random.Random(seed)))
    state, cpu, decisions = fold(game, events), 0.0, 0
    while actors := game.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = game.legal_moves(state, actor)[0]
        else:
            start = time.process_time()
            move = bot_move(game, state, actor, levels[actor], rng)
            if levels[actor] == "expert":
                cpu, decisions = cpu + time.process_time() - start, decisions + 1
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
            events.append(event)
    return cpu, decisions, events


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fold_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("seed0", type=int, nargs="?", default=5000)
    parser.add_argument("games", type=int, nargs="?", default=6)
    parser.add_argument("--levels", default="expert,storyteller")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    levels = args.levels.split(",")
    cpu = decisions = 0.0
    histories = []
    for seed in range(args.seed0, args.seed0 + args.games):
        spent, made, events = play(game, seed, levels)
        cpu, decisions = cpu + spent, decisions + made
        histories.append(events)
    start = time.process_time()
    for _ in range(20):
        for events in histories:
            fold(game, events)
    folded = time.process_time() - start
    print(f"expert {1000 * cpu / max(1, decisions):.2f} ms a decision over {decisions:.0f}; "
          f"fold {1e6 * folded / 20 / sum(map(len, histories)):.2f} us an event")


if __name__ == "__main__":
    main(sys.argv[1:])
