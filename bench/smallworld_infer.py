"""Small World: the other seats' coins counted from a seat's view (issue 56; domain/smallworld/
infer.py) against today's guess (domain/smallworld/determinize.py), apart from play and in play.

    python -m bench.smallworld_infer accuracy SEED0 GAMES          # how right the drawn coins are
    python -m bench.smallworld_infer decisions SEED0 GAMES [--every 4]   # does the expert's move change
    python -m bench.smallworld_infer match SEED0 GAMES [--minutes M]     # strength: both experts vs flat MC

`accuracy`: bot games (greedy against greedy; 2, 3, 4 and 5 seats by turns, game i seeded
SEED0 + i). At every decision of a seat, each other seat's coins are drawn from the deciding
seat's view both ways (today's guess with its own rng draw; the ledger that followed the game
as that seat was sent it) and compared with the true total (read here only, by the bench):
the mean absolute error each way, with the counts of positions and of coins drawn, by seats.

`decisions`: 2-seat greedy games; at every `--every`-th searched decision (pick, decline,
conquest) of seat 0 the expert decides three times from the same position: with today's guess
(rng seed r), with today's guess again (seed r + 1: the noise floor of a search's own draws),
and with the counted coins (seed r). Prints how often each pair's moves differ.

`match`: the strength screen. For game i (seed SEED0 + i, the expert's seat i % 2) the expert
plays the equal-CPU flat Monte Carlo (bench/flat_mc.py, its own worlds by today's guess) twice,
interleaved: first with its worlds from the ledger of its seat (bot_move's draw and the search's
worlds alike), then unchanged on the same seed. Each side has its own baseline, whose CPU budget
follows that side's searched decisions. Prints each side's wins with 95% Wilson intervals and
decision CPU p50/p99.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from bench.flat_mc import LEVEL, FlatMC
from domain.contract import SYSTEM
from domain.play import bot_move
from domain.search import Searcher
from domain.smallworld import GAME, bots, infer
from domain.smallworld.determinize import determinize as guessed

SEATS = (2, 3, 4, 5)


def _started(seed: int, n: int) -> tuple:
    """The game's first state and one ledger per seat that saw its setup."""
    ledgers = [infer.Ledger(s) for s in range(n)]
    state = None
    for e in GAME.setup({}, n, random.Random(seed)):
        state = GAME.evolve(state, e)
        for ledger in ledgers:
            ledger.see(e)
    return state, ledgers


def _step(state, move, actor, rng, ledgers):
    for e in GAME.decide(state, actor, move, rng):
        state = GAME.evolve(state, e)
        for ledger in ledgers:
            ledger.see(e)
    return state


def accuracy(seed0: int, games: int) -> None:
    errors: dict = {}  # (n, way) -> [sum of |error|, coins drawn]
    positions: dict = {}
    for i in range(games):
        n = SEATS[i % len(SEATS)]
        rng, draw = random.Random(seed0 + i), random.Random(seed0 + i + 1)
        state, ledgers = _started(seed0 + i, n)
        while actors := GAME.actors(state):
            actor = actors[0]
            if actor == SYSTEM:
                move = GAME.legal_moves(state, actor)[0]
            else:
                positions[n] = positions.get(n, 0) + 1
                for way, world in (("today", guessed(state, actor, draw)),
                                   ("counted", infer.determinize(state, actor, draw, ledgers[actor]))):
                    for s in range(n):
                        if s != actor:
                            e = errors.setdefault((n, way), [0, 0])
                            e[0] += abs(world.players[s].coins - state.players[s].coins)
                            e[1] += 1
                move = GAME.bots["greedy"](state, actor, rng)
            state = _step(state, move, actor, rng, ledgers)
    print(f"seeds {seed0}-{seed0 + games - 1}, greedy in every seat, {games} games")
    print("| seats | positions | coins drawn (each way) | today's guess: mean abs. error | counted: mean abs. error |")
    print("|---|---|---|---|---|")
    total = {"today": [0, 0], "counted": [0, 0]}
    for n in SEATS:
        if (n, "today") not in errors:
            continue
        t, c = errors[(n, "today")], errors[(n, "counted")]
        for way, e in (("today", t), ("counted", c)):
            total[way][0] += e[0]
            total[way][1] += e[1]
        print(f"| {n} | {positions[n]} | {t[1]} | {t[0] / t[1]:.2f} coins | {c[0] / c[1]:.2f} coins |")
    t, c = total["today"], total["counted"]
    print(f"| all | {sum(positions.values())} | {t[1]} | {t[0] / t[1]:.2f} coins | {c[0] / c[1]:.2f} coins |")


def counted_expert(ledgers: list):
    """The expert with every world's coins from its seat's ledger (`ledgers`: the current game's,
    one per seat; the list is refilled for each game)."""
    def worlds(state, seat, rng):
        return infer.determinize(state, seat, rng, ledgers[seat])

    search = bots.SEARCH
    rules = dataclasses.replace(search.rules, determinize=worlds)
    return bots.expert_with(Searcher(rules, search.n_seats, search.spec)), worlds


def decisions(seed0: int, games: int, every: int) -> None:
    ledgers: list = []
    expert, worlds = counted_expert(ledgers)
    differ = {"today vs today (rng + 1)": 0, "today vs counted": 0}
    seen = 0
    for i in range(games):
        rng = random.Random(seed0 + i)
        state, fresh = _started(seed0 + i, 2)
        ledgers[:] = fresh
        k = 0
        while actors := GAME.actors(state):
            actor = actors[0]
            if actor == SYSTEM:
                move = GAME.legal_moves(state, actor)[0]
            else:
                if actor == 0 and state.turn.step in bots.SEARCHED and len(GAME.legal_moves(state, 0)) > 1:
                    k += 1
                    if k % every == 0:
                        r = seed0 * 1000 + seen
                        a = bot_move(GAME, state, 0, "expert", random.Random(r))
                        b = bot_move(GAME, state, 0, "expert", random.Random(r + 1))
                        c = expert(worlds(state, 0, random.Random(r)), 0, random.Random(r))
                        differ["today vs today (rng + 1)"] += a != b
                        differ["today vs counted"] += a != c
                        seen += 1
                move = GAME.bots["greedy"](state, actor, rng)
            state = _step(state, move, actor, rng, ledgers)
    print(f"seeds {seed0}-{seed0 + games - 1}, 2 seats, greedy play, {seen} searched decisions of seat 0 re-decided:")
    for pair, count in differ.items():
        low, high = wilson(count, seen)
        print(f"  {pair}: {count} of {seen} differ ({100 * count / max(1, seen):.1f}%, 95% Wilson {100 * low:.1f}-{100 * high:.1f}%)")


def _game(seed: int, seat: int, expert, ledgers: list, baseline: FlatMC, cpu: dict) -> bool | float:
    """One game of `expert` (seat `seat`) against the flat MC; cpu[level] gets decision CPU."""
    rng = random.Random(seed)
    state, fresh = _started(seed, 2)
    ledgers[:] = fresh
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, actor)[0]
        else:
            start = time.process_time()
            level = "expert" if actor == seat else LEVEL
            move = expert(state, actor, rng) if actor == seat else baseline(guessed(state, actor, rng), actor, rng)
            spent = time.process_time() - start
            cpu.setdefault(level, []).append(spent)
            if level == "expert" and spent > 0.002:  # a searched decision: the baseline's budget follows
                searched = cpu.setdefault("searched", [])
                searched.append(spent)
                baseline.cpu_s = sum(searched) / len(searched)
        state = _step(state, move, actor, rng, ledgers)
    winners = GAME.result(state)["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def match(seed0: int, games: int, minutes: float) -> None:
    ledgers: list = []
    counted, worlds = counted_expert(ledgers)
    sides = {"counted": lambda s, seat, rng: counted(worlds(s, seat, rng), seat, rng),
             "today": lambda s, seat, rng: bot_move(GAME, s, seat, "expert", rng)}
    tally = {side: {"wins": 0.0, "played": 0, "cpu": {}, "baseline": FlatMC(GAME, cpu_s=0.4)} for side in sides}
    begun = time.perf_counter()
    for i in range(games):
        if time.perf_counter() - begun > 60 * minutes:
            break
        for side, expert in sides.items():  # interleaved: the same seed and seat, one side then the other
            t = tally[side]
            t["wins"] += _game(seed0 + i, i % 2, expert, ledgers, t["baseline"], t["cpu"])
            t["played"] += 1
        print(f"  seed {seed0 + i} (expert seat {i % 2}): "
              + ", ".join(f"{side} {t['wins']:g}/{t['played']}" for side, t in tally.items()), flush=True)
    for side, t in tally.items():
        low, high = wilson(t["wins"], t["played"])
        cpu = t["cpu"]
        print(f"{side}: the expert won {t['wins']:g} of {t['played']} against flat MC "
              f"({100 * t['wins'] / max(1, t['played']):.1f}%, 95% Wilson {100 * low:.1f}-{100 * high:.1f}%); "
              + "; ".join(f"{level} {len(cpu.get(level, []))} decisions, CPU p50 {1000 * percentile(cpu[level], 0.5):.1f} ms, "
                          f"p99 {1000 * percentile(cpu[level], 0.99):.1f} ms" for level in ("expert", LEVEL) if cpu.get(level)))
    print(f"seeds {seed0}-{seed0 + tally['today']['played'] - 1}, {time.perf_counter() - begun:.0f}s wall")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.smallworld_infer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("accuracy", "decisions", "match"))
    parser.add_argument("seed0", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--every", type=int, default=4, help="decisions: re-decide every n-th searched decision")
    parser.add_argument("--minutes", type=float, default=40.0, help="match: stop starting games after this")
    args = parser.parse_args(argv)
    if args.mode == "accuracy":
        accuracy(args.seed0, args.games)
    elif args.mode == "decisions":
        decisions(args.seed0, args.games, args.every)
    else:
        match(args.seed0, args.games, args.minutes)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
