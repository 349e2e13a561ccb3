"""Each game's bot ladder at the literature's scale (issue 56): adjacent levels played against
each other, game by game into a results file, and a report of every pair so far.

    python -m bench.ladder GAME [--games 400] [--seed0 S] [--pairs P ...] [--part I/N]
                                [--minutes M] [--cpu-ms MS] [--results PATH]
    python -m bench.ladder report [GAME ...] [--results-dir DIR]
    python -m bench.ladder setup --pairs random-greedy greedy-lookahead --part 0/2

The ladder, weakest first: random < the game's heuristic level (greedy, careful, storyteller) <
the one-move lookahead (bench/lookahead*.py) < the equal-CPU flat Monte Carlo (`flat-mc`,
bench/flat_mc.py) < expert; a pair is two adjacent rungs, named `A-B` (A the weaker). The
order is the measured one: the lookahead beats the heuristic (Splendor 68%, Witches 75%, Small
World 71%) and loses to the expert (55-90%); the expert against flat-mc is 52-74% (bench/README.md).

A game is bench.flat_mc's `one_game`: A in one seat, B in all the others (the game's fewest
seats), A's seat `seed % seats` (so a game is the same whichever process or resumed run plays
it), every level handed its seat's determinization. Each finished game is appended as one JSON
line to the results file (default var/ladder/GAME.jsonl): a run skips the (pair, seed) games
the file already has (the seeds: SEED0 .. SEED0 + GAMES - 1, each game's own block by
default), so an interrupted run resumes, and `--part I/N` plays only the seeds with
seed % N == I, so N niced processes can share a block of seeds and one file. `--minutes` stops
starting games (CPU is never timed in wall time: the decisions' CPU is time.process_time).

The flat-mc level's budget is fixed (`--cpu-ms`, default EXPERT_MEAN_MS: the expert's mean CPU
per searched decision as measured in bench/README.md's 400-game expert-vs-flat-mc runs), so the
same flat-mc plays both its pairs, whichever process plays a game; the report prints the
expert's own mean over its searched decisions (over 2 ms) in the same games beside it.

`report` prints one markdown table per game: pair, games and seeds, A's score (its wins, a shared
win as a share; with 3 seats or more the pairwise score, the share of the other seats A
finished ahead of, and A's average place), the 95% Wilson interval, A's wins by seat, decision
CPU p50/p99 per level.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from bench.flat_mc import LEVEL, LOOKAHEAD, FlatMC, one_game
from domain import registry

RESULTS_DIR = Path(__file__).resolve().parent.parent / "var" / "ladder"
SEARCHED_MS = 2.0  # an expert decision above this searched (bench.flat_mc's budget rule)

# The expert's mean CPU per searched decision, ms, at BOT_ITERATIONS=1: the flat MC's p50 in the
# 400-game expert-vs-flat-mc runs of bench/README.md, whose budget was that mean (Splendor's
# information-set expert, seeds 630000+: 134.3; SetUp, seeds 590089+: 171.2; Fairy Tile, seeds
# 580300+: 122.3; Witches, seed 570000's game: 110.9). Small World's was never printed: 204.6 is
# bench.expert_cpu's mean over all 60 calibration positions (102.3 ms) over the share searched
# (p50 0.1 ms: at most half), a lower bound's estimate.
# Each game's ladder seeds (issue 56): blocks no bench had used (bench/README.md).
SEED0 = {"splendor": 1_100_000, "witches": 1_110_000, "setup": 1_120_000, "fairy-tile": 1_130_000,
         "smallworld-of-warcraft": 1_140_000}
EXPERT_MEAN_MS = {"splendor": 134.3, "setup": 171.2, "fairy-tile": 122.3, "witches": 110.9,
                  "smallworld-of-warcraft": 204.6}


def rungs(game) -> list[str]:
    """The game's ladder, weakest first."""
    heuristic = [level for level in game.bots if level not in ("random", "expert")]
    return ["random", *heuristic, LOOKAHEAD, LEVEL, "expert"]


def pairs_of(game) -> list[tuple[str, str]]:
    ladder = rungs(game)
    return list(zip(ladder, ladder[1:]))


def pair_name(a: str, b: str) -> str:
    return f"{a}-{b}"


def results_path(name: str, results: str | None = None) -> Path:
    return Path(results) if results else RESULTS_DIR / f"{name}.jsonl"


def read(path: Path) -> list[dict]:
    """Every whole line of the file (a line cut by a stopped process is skipped)."""
    if not path.exists():
        return []
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


def append(path: Path, record: dict) -> None:
    """One line in one write, O_APPEND: processes sharing the file do not interleave lines. After
    a line cut by a stopped process, a newline first, so the cut line alone is lost."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        cut = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
        os.write(fd, ("\n" if cut else "").encode() + (json.dumps(record, separators=(",", ":")) + "\n").encode())
    finally:
        os.close(fd)


def to_play(done: list[dict], a: str, b: str, seed0: int, games: int, part: tuple[int, int]) -> list[int]:
    """The seeds of seed0 .. seed0 + games - 1 in this part that the file has no game of."""
    have = {r["seed"] for r in done if (r["a"], r["b"]) == (a, b)}
    index, parts = part
    return [s for s in range(seed0, seed0 + games) if s % parts == index and s not in have]


def run(name: str, seed0: int, games: int, pairs: list[tuple[str, str]], path: Path, minutes: float,
        cpu_ms: float, part: tuple[int, int] = (0, 1), k: int = 8) -> int:
    """Play the pairs' missing games, in the order given, appending each; returns games played."""
    game = registry.get(name)
    assert game is not None, f"unknown game {name}"
    n = game.min_seats
    baseline = FlatMC(game, k=k, cpu_s=cpu_ms / 1000)
    begun, played = time.perf_counter(), 0
    for a, b in pairs:
        for seed in to_play(read(path), a, b, seed0, games, part):
            if time.perf_counter() - begun > 60 * minutes:
                return played
            one = one_game(game, a, b, n, seed % n, seed, baseline, {}, budget_from=None)
            record = {"game": name, "a": a, "b": b, "seats": n, **one,
                      "flat_mc_ms": cpu_ms if LEVEL in (a, b) else None,
                      "bot_iterations": os.environ.get("BOT_ITERATIONS", "1")}
            append(path, record)
            played += 1
            print(f"{name} {pair_name(a, b)} seed {seed}: {a} seat {one['seat']}, winners {one['winners']}, "
                  f"scores {one['scores']}", flush=True)
    return played


def _cpu(records: list[dict], level: str) -> str:
    spent = [t for r in records for t in r["cpu_ms"].get(level, [])]
    if not spent:
        return "-"
    text = f"{percentile(spent, 0.5):.1f} / {percentile(spent, 0.99):.1f} ms ({len(spent):,})"
    searched = [t for t in spent if t > SEARCHED_MS]
    if level == "expert" and searched:
        text += f"; searched mean {sum(searched) / len(searched):.1f}"
    return text


def _seeds(records: list[dict]) -> str:
    seeds = sorted(r["seed"] for r in records)
    span = seeds[-1] - seeds[0] + 1
    return f"{seeds[0]}-{seeds[-1]}" + ("" if span == len(seeds) else f" ({span - len(seeds)} missing)")


def _row(a: str, b: str, records: list[dict]) -> str:
    n = records[0]["seats"]
    games = len(records)
    won = sum(r["won"] for r in records)
    by_seat = "; ".join(f"seat {s}: {sum(r['won'] for r in records if r['seat'] == s):g} of "
                        f"{sum(1 for r in records if r['seat'] == s)}" for s in range(n))
    if n > 2:
        shares = [r["pairwise"] for r in records if r["pairwise"] is not None]
        beaten, pairs = sum(shares) * (n - 1), len(shares) * (n - 1)
        low, high = wilson(beaten, pairs)
        place = 1 + (n - 1) * (1 - sum(shares) / max(1, len(shares)))
        score = (f"pairwise {beaten:g} of {pairs} ({100 * beaten / max(1, pairs):.1f}%); average place "
                 f"{place:.2f} (even {(n + 1) / 2:g}); won {won:g} ({100 * won / games:.1f}%, even {100 / n:.0f}%)")
    else:
        low, high = wilson(won, games)
        score = f"won {won:g} ({100 * won / games:.1f}%)"
    budget = sorted({r["flat_mc_ms"] for r in records if r.get("flat_mc_ms") is not None})
    label = pair_name(a, b) + (f" (flat-mc {', '.join(f'{x:g}' for x in budget)} ms)" if budget else "")
    return (f"| {label} | {games} ({_seeds(records)}) | {score} | {100 * low:.1f}-{100 * high:.1f}% | {by_seat} "
            f"| {_cpu(records, a)} | {_cpu(records, b)} |")


def report(name: str, records: list[dict]) -> str:
    """One markdown table of the game's pairs (the ladder's order first, then any other)."""
    game = registry.get(name)
    order = pairs_of(game) if game is not None else []
    found = list(dict.fromkeys((r["a"], r["b"]) for r in records))
    lines = [f"**{name}**" + (f" ({records[0]['seats']} seats)" if records else ""), "",
             "| pair (A-B) | games (seeds) | A's score | 95% Wilson | A's wins by seat | A's decision CPU p50 / p99 "
             "(decisions) | B's decision CPU p50 / p99 (decisions) |",
             "|---|---|---|---|---|---|---|"]
    for a, b in [*[p for p in order if p in found], *[p for p in found if p not in order]]:
        lines.append(_row(a, b, [r for r in records if (r["a"], r["b"]) == (a, b)]))
    for a, b in order:
        if (a, b) not in found:
            lines.append(f"| {pair_name(a, b)} | 0 | | | | | |")
    return "\n".join(lines)


def _part(text: str) -> tuple[int, int]:
    index, parts = (int(x) for x in text.split("/"))
    if not 0 <= index < parts:
        raise argparse.ArgumentTypeError("--part I/N with 0 <= I < N")
    return index, parts


def main(argv: list[str]) -> int:
    if argv[:1] == ["report"]:
        parser = argparse.ArgumentParser(prog="python -m bench.ladder report")
        parser.add_argument("games", nargs="*", help="default: every game with a results file")
        parser.add_argument("--results-dir", default=str(RESULTS_DIR))
        args = parser.parse_args(argv[1:])
        folder = Path(args.results_dir)
        names = args.games or [g.name for g in registry.all_games() if (folder / f"{g.name}.jsonl").exists()]
        print("\n\n".join(report(name, read(folder / f"{name}.jsonl")) for name in names))
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=400, help="games per pair (default 400)")
    parser.add_argument("--seed0", type=int, help="the pairs' seeds: SEED0 .. SEED0 + GAMES - 1 (default: the game's SEED0)")
    parser.add_argument("--pairs", nargs="+", help="adjacent pairs A-B, in the order to play (default: all, cheapest first)")
    parser.add_argument("--part", type=_part, default=(0, 1), help="I/N: only seeds with seed %% N == I")
    parser.add_argument("--minutes", type=float, default=900.0, help="stop starting games after this (default 900)")
    parser.add_argument("--cpu-ms", type=float, help="the flat-mc level's CPU per decision (default EXPERT_MEAN_MS)")
    parser.add_argument("--results", help="the results file (default var/ladder/GAME.jsonl)")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    if game is None:
        parser.error(f"unknown game {args.game}")
    known = {pair_name(a, b): (a, b) for a, b in pairs_of(game)}
    for wanted in args.pairs or []:
        if wanted not in known:
            parser.error(f"{args.game}'s pairs: {', '.join(known)}")
    pairs = [known[p] for p in args.pairs] if args.pairs else list(known.values())
    cpu_ms = args.cpu_ms if args.cpu_ms is not None else EXPERT_MEAN_MS[args.game]
    seed0 = args.seed0 if args.seed0 is not None else SEED0[args.game]
    path = results_path(args.game, args.results)
    played = run(args.game, seed0, args.games, pairs, path, args.minutes, cpu_ms, args.part)
    print(f"{played} games played into {path}\n")
    print(report(args.game, [r for r in read(path) if (r["a"], r["b"]) in pairs]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
