"""Bot strength and speed for Witches.

    python bench/bots_witches.py [rounds] [seats]
    python bench/bots_witches.py ladder [games] [minutes] [seats]
    python bench/bots_witches.py --lookahead N [minutes]

Plays many rounds with one `careful` seat (rotating) among `random` seats and prints the
average fire points per round of each bot, then random-play steps per second
(legal_moves + decide + evolve).

`ladder` plays whole games (to 70 fire points) of each level against the one below it, the
way the platform asks its bots (domain/play.py's bot_move: a determinization of the state).
Witches needs 3 to 6 seats, so a match is one seat of the stronger level among seats of the
weaker (3 seats by default), the strong seat moving round the table from game to game. It
prints the strong level's game win rate (ties shared; 1/n when even) and its head-to-head
rate (its total below each weak seat's: 1, equal: 1/2; even: 1/2), each with a 95% Wilson
interval, the games played, and each level's decision time (CPU) p50/p99. The search's
budget is scaled by BOT_ITERATIONS (1: as tuned).

`--lookahead N` (issue 34): the same matches against bench/lookahead.py's one-move lookahead,
3 seats: `lookahead` among 2 `careful` (max(N, 60) games), then `expert` among 2 `lookahead`
seats (N games or `minutes`, default 60); each also with the strong seat's mean place (1 = lowest
total, ties sharing their places; even: 2.0), its mean final total beside the others', and the
load average at the match's end.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import lookahead
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain.contract import SYSTEM
from domain.play import fold
from domain.search import iterations_scale
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


def play_game(levels: list, seed: int, times: dict) -> list:
    """One whole game (default options) with these levels by seat (the game's levels through
    bot_move, or bench/lookahead.py's `lookahead`); returns the final totals."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), len(levels), rng))
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, SYSTEM)[0]
        else:
            start = time.process_time()
            move = lookahead.move(GAME, state, actor, levels[actor], rng)
            times.setdefault(levels[actor], []).append(time.process_time() - start)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    return list(GAME.result(state)["scores"])


def match(strong: str, weak: str, games: int, minutes: float, n: int = 3, seed0: int = 0,
          verbose: bool = False) -> None:
    times: dict = {}
    wins = pair = place = 0.0
    played = 0
    points = [0.0, 0.0]
    start = time.perf_counter()
    while played < games and time.perf_counter() - start < 60 * minutes:
        seat = played % n
        levels = [strong if s == seat else weak for s in range(n)]
        totals = play_game(levels, seed0 + played, times)
        low = min(totals)
        place += 1 + sum(1.0 if t < totals[seat] else 0.5 if t == totals[seat] else 0.0
                         for s, t in enumerate(totals) if s != seat)
        points[0] += totals[seat]
        points[1] += (sum(totals) - totals[seat]) / (n - 1)
        if totals[seat] == low:
            wins += 1 / totals.count(low)
        pair += sum(1.0 if totals[seat] < t else 0.5 if totals[seat] == t else 0.0
                    for s, t in enumerate(totals) if s != seat) / (n - 1)
        played += 1
        if verbose:
            print(f"  game {played}: {strong} (seat {seat}) {totals[seat]}, totals {totals} "
                  f"(running wins {wins:g}/{played})", flush=True)
    w_low, w_high = wilson(wins, played)
    p_low, p_high = wilson(pair, played)
    print(f"{strong} vs {weak} ({n} seats: 1 {strong}, {n - 1} {weak}; {played} games, "
          f"{time.perf_counter() - start:.0f}s, BOT_ITERATIONS={iterations_scale():g}):")
    print(f"  game wins {100 * wins / played:.1f}% [95% CI {100 * w_low:.1f}-{100 * w_high:.1f}%] (even: {100 / n:.1f}%)")
    print(f"  head-to-head {100 * pair / played:.1f}% [95% CI {100 * p_low:.1f}-{100 * p_high:.1f}%] (even: 50%)")
    print(f"  mean place {place / played:.2f} (even: {(n + 1) / 2:.1f}); mean final total {points[0] / played:.1f}"
          f" vs {points[1] / played:.1f} (lower is better); load average {lookahead.load_average()}")
    for level, ts in sorted(times.items()):
        print(f"  {level}: {len(ts)} decisions, p50 {1000 * percentile(ts, 0.5):.2f} ms, "
              f"p99 {1000 * percentile(ts, 0.99):.2f} ms (CPU)")


def ladder(games: int, minutes: float, n: int = 3) -> None:
    levels = list(GAME.bots)
    for weak, strong in reversed(list(zip(levels, levels[1:]))):
        cheap = strong != levels[-1]
        match(strong, weak, games * 4 if cheap else games, minutes / 10 if cheap else minutes, n)


def against_lookahead(games: int, minutes: float, n: int = 3) -> None:
    match("lookahead", "careful", max(games, 60), minutes, n, seed0=50_000)
    match("expert", "lookahead", games, minutes, n, seed0=40_000, verbose=True)


def main():
    if "--lookahead" in sys.argv:
        rest = [a for a in sys.argv[1:] if a != "--lookahead"]
        against_lookahead(int(rest[0]) if rest else 40, float(rest[1]) if len(rest) > 1 else 60)
        return
    if len(sys.argv) > 1 and sys.argv[1] == "ladder":
        games = int(sys.argv[2]) if len(sys.argv) > 2 else 30
        minutes = float(sys.argv[3]) if len(sys.argv) > 3 else 15
        ladder(games, minutes, int(sys.argv[4]) if len(sys.argv) > 4 else 3)
        return
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
