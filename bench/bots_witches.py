"""Bot strength and speed for Witches.

    python bench/bots_witches.py [rounds] [seats]

Plays many rounds with one `careful` seat (rotating) among `random` seats and prints the
average fire points per round of each bot, then random-play steps per second
(legal_moves + decide + evolve).
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.contract import SYSTEM
from domain.play import fold
from domain.witches import GAME


def play_rounds(n_seats: int, rounds: int, levels_for, seed: int = 0):
    """Plays `rounds` rounds (in games of 10 rounds, no target); returns per-level point lists."""
    rng = random.Random(seed)
    per_level: dict[str, list] = {}
    played = 0
    game_no = 0
    while played < rounds:
        levels = levels_for(game_no)
        opts = {**GAME.default_options(), "rounds": min(10, rounds - played)}
        state = fold(GAME, GAME.setup(opts, n_seats, rng))
        while GAME.actors(state):
            actor = GAME.actors(state)[0] if state.phase != "passing" else rng.choice(GAME.actors(state))
            if actor == SYSTEM:
                move = GAME.legal_moves(state, SYSTEM)[0]
            else:
                move = GAME.bots[levels[actor]](state, actor, rng)
            events = GAME.decide(state, actor, move, rng)
            for event in events:
                if event["type"] == "round_scored":
                    for seat, points in enumerate(event["points"]):
                        per_level.setdefault(levels[seat], []).append(points)
                    played += 1
                state = GAME.evolve(state, event)
        game_no += 1
    return per_level


def steps_per_second(n_seats: int, games: int = 3, seed: int = 1) -> float:
    rng = random.Random(seed)
    steps, elapsed = 0, 0.0
    for _ in range(games):
        state = fold(GAME, GAME.setup(GAME.default_options(), n_seats, rng))
        start = time.process_time()  # CPU time: other processes share this machine
        while True:
            actors = GAME.actors(state)
            if not actors:
                break
            actor = rng.choice(actors)
            move = rng.choice(GAME.legal_moves(state, actor))
            for event in GAME.decide(state, actor, move, rng):
                state = GAME.evolve(state, event)
            steps += 1
        elapsed += time.process_time() - start
    return steps / elapsed


def replay_events_per_second(n_seats: int, seed: int = 2) -> float:
    """How fast the server can rebuild a state: evolve only, over a whole random game."""
    rng = random.Random(seed)
    events = GAME.setup(GAME.default_options(), n_seats, rng)
    state = fold(GAME, events)
    while GAME.actors(state):
        actor = rng.choice(GAME.actors(state))
        new = GAME.decide(state, actor, GAME.bots["random"](state, actor, rng) if actor != SYSTEM
                          else {"type": "score_round"}, rng)
        state = fold(GAME, new, state)
        events += new
    start = time.process_time()
    for _ in range(5):
        fold(GAME, events)
    return 5 * len(events) / (time.process_time() - start)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seat_counts = [int(sys.argv[2])] if len(sys.argv) > 2 else [3, 4, 5, 6]
    for n in seat_counts:
        start = time.perf_counter()
        # One careful seat, moving round the table from game to game; the rest random.
        result = play_rounds(n, rounds, lambda g: ["careful" if s == g % n else "random" for s in range(n)])
        base = play_rounds(n, rounds, lambda g: ["random"] * n, seed=1)["random"]
        careful, rnd = result["careful"], result["random"]
        avg = lambda xs: sum(xs) / len(xs)
        print(f"{n} seats, {rounds} rounds ({time.perf_counter() - start:.1f}s): "
              f"careful {avg(careful):.2f} fire points/round, random seats beside it {avg(rnd):.2f}, "
              f"all-random table {avg(base):.2f}; careful is {100 * (1 - avg(careful) / avg(base)):.0f}% lower")
    for n in seat_counts:
        print(f"{n} seats: random play {steps_per_second(n):,.0f} steps/s (legal_moves + decide + evolve); "
              f"replay {replay_events_per_second(n):,.0f} events/s (evolve only)")


if __name__ == "__main__":
    main()
