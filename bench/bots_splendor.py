"""Measures Splendor's bots and engine speed (pure, in-process).

    python bench/bots_splendor.py [games] [--speed-only]
    python bench/bots_splendor.py --ladder [games] [--minutes M]   (BOT_ITERATIONS scales expert)
    python bench/bots_splendor.py --lookahead N [--minutes M]

1. Bot strength: `greedy` against `random` in 2-seat games, seats alternating (greedy is seat 0
   in even games, seat 1 in odd ones). A shared win counts as half a win.
   --ladder: the ladder instead: `expert` vs `greedy` (the strongest before it) for `games`
   games or M minutes, whichever ends first, then `greedy` vs `random`; each with the win rate,
   its 95% Wilson interval, and decision times p50/p99 per level. Bots get what bot_move gives
   them (domain/play.py: a determinization of the state for their seat).
   --lookahead N (issue 34): against bench/lookahead.py's one-move lookahead: `lookahead` vs
   `greedy` (max(N, 100) games: cheap) then `expert` vs `lookahead` (N games or M minutes), the
   same lines as the ladder's, and the load average at each match's end.
2. Engine speed: random playouts with 2 seats, counting steps of
   legal_moves + pick one + decide + evolve (every event the move caused).
3. Replay speed: events folded per second when rebuilding a finished game from JSON.
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import lookahead
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain.play import fold
from domain.search import iterations_scale
from domain.splendor import GAME


def play(policies: dict, n: int, seed: int):
    """One game; policies maps seat -> bot name. Returns (result, steps)."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
    steps = 0
    while True:
        actors = GAME.actors(state)
        if not actors:
            return GAME.result(state), steps
        actor = actors[0]
        if actor in policies:
            move = GAME.bots[policies[actor]](state, actor, rng)
        else:
            move = GAME.legal_moves(state, actor)[0]  # the system move
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
        steps += 1


def play_timed(levels: dict, seed: int, times: dict):
    """One 2-seat game through bot_move (or bench/lookahead.py's `lookahead`, handed the same
    determinization); levels maps seat -> level; decision times are appended to times[level].
    Returns the result."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, random.Random(seed)))
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor in levels:
            start = time.perf_counter()
            move = lookahead.move(GAME, state, actor, levels[actor], rng)
            times.setdefault(levels[actor], []).append(time.perf_counter() - start)
        else:
            move = GAME.legal_moves(state, actor)[0]
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
    return GAME.result(state)


def match(strong: str, weak: str, games: int, minutes: float, seed0: int = 0, verbose: bool = False) -> None:
    """`strong` against `weak`, seats alternating; stops after `games` or `minutes`."""
    wins, played, times, points = 0.0, 0, {}, [0, 0]
    start = time.perf_counter()
    for game in range(games):
        if time.perf_counter() - start > 60 * minutes:
            break
        seat = game % 2
        result = play_timed({seat: strong, 1 - seat: weak}, seed0 + game, times)
        if seat in result["winners"]:
            wins += 1 / len(result["winners"])
        points[0] += result["scores"][seat]
        points[1] += result["scores"][1 - seat]
        played += 1
        if verbose:
            print(f"  game {played}: {strong} {result['scores'][seat]} - {weak} "
                  f"{result['scores'][1 - seat]} (running {wins:g}/{played})", flush=True)
    low, high = wilson(wins, played)
    took = time.perf_counter() - start
    print(f"{strong} vs {weak}, 2 seats: {played} games, {strong} won {wins:g} "
          f"({100 * wins / max(1, played):.1f}%, 95% Wilson CI {100 * low:.1f}-{100 * high:.1f}%), "
          f"average points {points[0] / max(1, played):.1f} vs {points[1] / max(1, played):.1f} "
          f"({took:.0f}s, load average {lookahead.load_average()})")
    for level, spent in times.items():
        print(f"  {level}: {len(spent)} decisions, p50 {1000 * percentile(spent, 0.5):.1f} ms, "
              f"p99 {1000 * percentile(spent, 0.99):.1f} ms")


def ladder(games: int, minutes: float) -> None:
    print(f"BOT_ITERATIONS={iterations_scale():g}")
    match("expert", "greedy", games, minutes, verbose=True)
    match("greedy", "random", 100, 1.0, seed0=10_000)


def against_lookahead(games: int, minutes: float) -> None:
    print(f"BOT_ITERATIONS={iterations_scale():g}")
    match("lookahead", "greedy", max(games, 100), minutes, seed0=20_000)
    match("expert", "lookahead", games, minutes, seed0=30_000, verbose=True)


def strength(games: int) -> None:
    wins = 0.0
    points = [0, 0]
    start = time.perf_counter()
    for game in range(games):
        greedy_seat = game % 2
        result, _ = play({greedy_seat: "greedy", 1 - greedy_seat: "random"}, 2, seed=game)
        if greedy_seat in result["winners"]:
            wins += 1 / len(result["winners"])
        points[0] += result["scores"][greedy_seat]
        points[1] += result["scores"][1 - greedy_seat]
    took = time.perf_counter() - start
    print(f"greedy vs random, 2 seats: {games} games, greedy won {wins:g} "
          f"({100 * wins / games:.1f}%), average points greedy {points[0] / games:.1f} "
          f"vs random {points[1] / games:.1f} ({took:.1f}s)")


def speed(seconds: float = 3.0) -> None:
    steps = games = 0
    start = time.perf_counter()
    legal, decide, evolve, actors = GAME.legal_moves, GAME.decide, GAME.evolve, GAME.actors
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        state = fold(GAME, GAME.setup(GAME.default_options(), 2, random.Random(games)))
        while True:
            who = actors(state)
            if not who:
                break
            move = rng.choice(legal(state, who[0]))
            for event in decide(state, who[0], move, rng):
                state = evolve(state, event)
            steps += 1
        games += 1
    took = time.perf_counter() - start
    print(f"random playouts, 2 seats: {games} games, {steps} steps in {took:.2f}s = "
          f"{steps / took:,.0f} steps/s (legal_moves + choice + decide + evolve)")


def replay(seconds: float = 2.0) -> None:
    """Rebuilding state from stored events (what the server does without a snapshot)."""
    rng = random.Random(7)
    events = GAME.setup(GAME.default_options(), 2, random.Random(7))
    state = fold(GAME, events)
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        new = GAME.decide(state, actor, rng.choice(GAME.legal_moves(state, actor)), rng)
        events += new
        state = fold(GAME, new, state)
    stored = json.loads(json.dumps(events))
    folds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        assert fold(GAME, stored) == state
        folds += 1
    took = time.perf_counter() - start
    print(f"replay: a {len(stored)}-event game rebuilt {folds} times in {took:.2f}s = "
          f"{folds * len(stored) / took:,.0f} events/s")


if __name__ == "__main__":
    if "--ladder" in sys.argv:
        rest = sys.argv[1:]
        minutes = float(rest[rest.index("--minutes") + 1]) if "--minutes" in rest else 15.0
        counts = [a for a in rest if a.isdigit() and (rest.index(a) == 0 or rest[rest.index(a) - 1] != "--minutes")]
        ladder(int(counts[0]) if counts else 1000, minutes)
        sys.exit(0)
    if "--lookahead" in sys.argv:
        rest = sys.argv[1:]
        minutes = float(rest[rest.index("--minutes") + 1]) if "--minutes" in rest else 30.0
        against_lookahead(int(rest[rest.index("--lookahead") + 1]), minutes)
        sys.exit(0)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--speed-only" not in sys.argv:
        strength(int(args[0]) if args else 200)
    speed()
    replay()
