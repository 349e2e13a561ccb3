"""Measures Fairy Tile's bots and engine speed.

    python bench/bots_fairy_tile.py [games] [round_limit]

1. Bot strength: `storyteller` against `random` over many 2-seat games, seats alternating; how
   often the storyteller finishes its book first (wins by book_finished), and how games end.
2. Engine speed: random play, counting legal_moves + decide + evolve steps per second.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.fairy_tile import GAME
from domain.play import fold

ENGINE = {"steps": 0, "seconds": 0.0, "events": []}


def play(seed: int, levels: dict, n: int, round_limit: int):
    """One bot game; also times the engine's own work (legal_moves + decide + evolve)."""
    rng = random.Random(seed)
    events = GAME.setup({"round_limit": round_limit}, n, rng)
    state = fold(GAME, events)
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        move = GAME.bots[levels[seat]](state, seat, rng)
        start = time.perf_counter()
        GAME.legal_moves(state, seat)
        new = GAME.decide(state, seat, move, rng)
        for event in new:
            state = GAME.evolve(state, event)
        ENGINE["seconds"] += time.perf_counter() - start
        ENGINE["steps"] += 1
        events += new
    ENGINE["events"].append(events)
    return GAME.result(state)


def strength(games: int, round_limit: int) -> None:
    wins, overall, reasons, turns, told = 0, 0, Counter(), [], [0, 0]
    start = time.time()
    for g in range(games):
        smart = g % 2
        levels = {smart: "storyteller", 1 - smart: "random"}
        result = play(1000 + g, levels, 2, round_limit)
        reasons[result["reason"]] += 1
        turns.append(result["turns"])
        if result["reason"] == "book_finished" and result["winners"] == [smart]:
            wins += 1
        overall += smart in result["winners"]
        told[0] += result["scores"][smart]
        told[1] += result["scores"][1 - smart]
    print(f"storyteller vs random, 2 seats, {games} games (seats alternating, round limit {round_limit}):")
    print(f"  storyteller finished its book first in {wins}/{games} = {wins / games:.1%}")
    print(f"  storyteller among the winners (round-limit endings included): {overall}/{games} = {overall / games:.1%}")
    print(f"  endings: {dict(reasons)}; mean turns {sum(turns) / games:.1f}")
    print(f"  mean cards told: storyteller {told[0] / games:.1f}, random {told[1] / games:.1f}")
    print(f"  ({time.time() - start:.1f}s)")
    print(f"engine in those games: {ENGINE['steps']} steps, {ENGINE['steps'] / ENGINE['seconds']:,.0f} "
          f"(legal_moves + decide + evolve) steps/s, bot thinking excluded")
    start, count = time.perf_counter(), 0
    for events in ENGINE["events"]:
        fold(GAME, events)
        count += len(events)
    print(f"replay: {count / (time.perf_counter() - start):,.0f} events/s (evolve only)")


def speed(games: int) -> None:
    for n in (2, 3, 4):
        steps, start = 0, time.time()
        for seed in range(games):
            rng = random.Random(seed)
            state = fold(GAME, GAME.setup(GAME.default_options(), n, rng))
            while GAME.actors(state):
                actor = GAME.actors(state)[0]
                move = rng.choice(GAME.legal_moves(state, actor))
                for event in GAME.decide(state, actor, move, rng):
                    state = GAME.evolve(state, event)
                steps += 1
        elapsed = time.time() - start
        print(f"random play, {n} seats: {steps} steps in {elapsed:.1f}s = {steps / elapsed:,.0f} "
              f"(legal_moves + decide + evolve) steps/s")


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    strength(games, limit)
    speed(max(3, games // 40))
