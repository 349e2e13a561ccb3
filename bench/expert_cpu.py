"""CPU per expert decision over fixed positions, and the decisions themselves (issue 56: cheaper
search at the same decisions).

    python -m bench.expert_cpu GAME [POSITIONS] [--record PATH] [--check PATH] [--base DIR]
    python -m bench.expert_cpu GAME [POSITIONS] --variant ismcts:480   # the expert and a variant, paired

The positions: seeded games of the game's fewest seats played by its cheapest non-random level
(Splendor `greedy`, Witches `careful`, ...), every seat-to-act position with more than one legal
move kept, a stride through them so they span the game (`positions(game, count)`). Each is
decided by `bot_move(game, state, seat, "expert", Random(i))` (the seat's determinization, as the
server does), its CPU (time.process_time) taken. Prints p50/p99/mean over the positions, with
the load average. `--record` writes the decisions as JSON lines (the fixture
tests/fixtures/expert_decisions.json compares); `--check` compares them with a recorded file.
BOT_ITERATIONS scales the budget as everywhere in bench/.

`--base DIR` (a checkout of the code before a change, e.g. `git worktree add /tmp/base main`):
its `domain/` is loaded as a second package and each position is decided by the base's expert
and by this tree's in turn, the same determinization and rng for both, so the two CPU figures
are paired under the same load (a shared machine's drift falls on both alike; a full collection
before each, outside the timing, so neither pays for the other's garbage); it prints both,
their ratio (mean and median of the per-position ratios) and whether every move is the same.
`--variant NAME[:ITERATIONS]` pairs the same way this tree's expert (`base`) with a variant of
bench/variant_match.py (`this`, at ITERATIONS if given): a variant's budget at the expert's CPU.
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import random
import re
import sys
import time

from bench.common import percentile  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.search import iterations_scale

PLAYER = {"splendor": "greedy", "witches": "careful"}


def positions(game, count: int, seed0: int = 1000) -> list:
    """`count` (state, seat) positions from seeded games, a stride through each game."""
    level = PLAYER.get(game.name) or next(name for name in game.bots if name not in ("random", "expert"))
    found: list = []
    seed = seed0
    while len(found) < count:
        rng = random.Random(seed)
        state = fold(game, game.setup(game.default_options(), game.min_seats, random.Random(seed)))
        step = 0
        while (actors := game.actors(state)) and len(found) < count:
            actor = actors[0]
            if actor == SYSTEM:
                move = game.legal_moves(state, actor)[0]
            else:
                if len(game.legal_moves(state, actor)) > 1:
                    if step % 3 == seed % 3:
                        found.append((state, actor))
                    step += 1
                move = game.bots[level](state, actor, rng)
            for event in game.decide(state, actor, move, rng):
                state = game.evolve(state, event)
        seed += 1
    return found


def decide_all(game, found: list) -> tuple[list, list]:
    moves, cpu = [], []
    for i, (state, seat) in enumerate(found):
        start = time.process_time()
        move = bot_move(game, state, seat, "expert", random.Random(i))
        cpu.append(time.process_time() - start)
        moves.append(move)
    return moves, cpu


def _expert_of(package: str, name: str):
    return importlib.import_module(f"{package}.{MODULES[name]}").BOTS["expert"]


MODULES = {"splendor": "splendor.bots", "witches": "witches.bots"}


def _own_imports(package_dir: str) -> None:
    """The copy's absolute imports of `domain` pointed at the copy itself: without it, a base
    module written `from domain.search import ...` (Witches, SetUp, Fairy Tile) would run this
    tree's search, and the pairing would time this tree's core on both sides."""
    for folder, _dirs, files in os.walk(package_dir):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    text = f.read()
                fixed = re.sub(r"\b(from|import) domain([.\s])", r"\1 basedomain\2", text)
                if fixed != text:
                    with open(path, "w") as f:
                        f.write(fixed)


def paired(game, found: list, base_dir: str) -> int:
    """Each position decided by the base tree's expert and this tree's in turn (see above)."""
    import shutil
    import tempfile

    where = tempfile.mkdtemp(prefix="expert-base-")
    shutil.copytree(os.path.join(base_dir, "domain"), os.path.join(where, "basedomain"))
    _own_imports(os.path.join(where, "basedomain"))
    sys.path.insert(0, where)
    try:
        return in_turn(game, found, _expert_of("basedomain", game.name), _expert_of("domain", game.name))
    finally:
        sys.path.remove(where)
        shutil.rmtree(where, ignore_errors=True)


def in_turn(game, found: list, base, this) -> int:
    """Each position decided by `base` and `this` (two policies) in turn, the same
    determinization and rng for both, the order alternating with the position (see above)."""
    experts = {"base": base, "this": this}
    cpu: dict = {"base": [], "this": []}
    same = 0
    for i, (state, seat) in enumerate(found):
        moves = {}
        for label in (("base", "this") if i % 2 == 0 else ("this", "base")):
            rng = random.Random(i)
            seen = game.determinize(state, seat, rng)
            gc.collect()  # neither side inherits the other's pending garbage (the search pauses the collector)
            start = time.process_time()
            moves[label] = experts[label](seen, seat, rng)
            cpu[label].append(time.process_time() - start)
        same += moves["base"] == moves["this"]
    ratios = sorted(b / t for b, t in zip(cpu["base"], cpu["this"]) if t > 0)
    for label in ("base", "this"):
        spent = cpu[label]
        print(f"  {label}: p50 {1000 * percentile(spent, 0.5):.1f} ms, p99 {1000 * percentile(spent, 0.99):.1f} ms, "
              f"mean {1000 * sum(spent) / len(spent):.1f} ms")
    print(f"  base/this: mean {sum(cpu['base']) / sum(cpu['this']):.2f}x, median per position "
          f"{ratios[len(ratios) // 2]:.2f}x; same move at {same} of {len(found)} positions; load {os.getloadavg()[0]:.2f}")
    return 0 if same == len(found) else 1


def main(argv: list[str]) -> int:
    flags = ("--record", "--check", "--base", "--variant")
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] not in flags)]
    name, count = args[0], int(args[1]) if len(args) > 1 else 40
    game = registry.get(name)
    assert game is not None, f"unknown game {name}"
    found = positions(game, count)
    if "--base" in argv:
        print(f"{name}: expert, BOT_ITERATIONS={iterations_scale():g}, {len(found)} positions, paired with "
              f"{argv[argv.index('--base') + 1]}, load {os.getloadavg()[0]:.2f}")
        return paired(game, found, argv[argv.index("--base") + 1])
    if "--variant" in argv:  # e.g. ismcts:300 — bench/variant_match's variant (at 300 iterations) as `this`
        from bench.variant_match import VARIANTS
        variant, _, iterations = argv[argv.index("--variant") + 1].partition(":")
        this = VARIANTS[variant](game, int(iterations)) if iterations else VARIANTS[variant](game)
        print(f"{name}: expert (base) and variant {variant}{':' + iterations if iterations else ''} (this), "
              f"BOT_ITERATIONS={iterations_scale():g}, {len(found)} positions decided in turn, load {os.getloadavg()[0]:.2f}")
        in_turn(game, found, game.bots["expert"], this)
        return 0
    moves, cpu = decide_all(game, found)
    print(f"{name}: expert, BOT_ITERATIONS={iterations_scale():g}, {len(found)} positions, load {os.getloadavg()[0]:.2f}: "
          f"CPU per decision p50 {1000 * percentile(cpu, 0.5):.1f} ms, p99 {1000 * percentile(cpu, 0.99):.1f} ms, "
          f"mean {1000 * sum(cpu) / len(cpu):.1f} ms")
    if "--record" in argv:
        with open(argv[argv.index("--record") + 1], "w") as f:
            for move in moves:
                f.write(json.dumps(move, sort_keys=True) + "\n")
    if "--check" in argv:
        with open(argv[argv.index("--check") + 1]) as f:
            recorded = [json.loads(line) for line in f]
        differ = [i for i, (a, b) in enumerate(zip(recorded, moves, strict=True)) if a != b]
        print(f"  same decisions as recorded: {len(moves) - len(differ)} of {len(moves)}; differ at {differ}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
