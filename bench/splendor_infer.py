"""Splendor: how right the inferred blind reserves are (issue 56; domain/splendor/infer.py), apart
from play.

    python -m bench.splendor_infer SEED0 GAMES [--holder flat-mc|greedy|random] [--cpu-ms 40] [--blind P]
                                   [--not-bought F ...] [--toward T ...] [--floor L ...]

2-seat games, seeded SEED0 + i: an observer (`greedy`, the seat rotating with the game; neither
greedy nor the expert ever reserves blind) and a holder (the flat Monte Carlo baseline at
`--cpu-ms` per decision, `greedy` or `random`; with `--blind P` it reserves blind, from a level
drawn at random, at a share P of its decisions where it can buy nothing: the flat MC at 40 ms
held no blind reserve in 40 games of 1200000+, so without it there is nothing to infer; after
the reserve it plays by its level, which knows its card: greedy aims its gems at its reserved
cards and buys one as soon as it can pay). At every observer decision the observer's
`Record` watches its view (the determinization bot_move hands over), and wherever the holder
holds a blind reserve the posterior's chance that a world deals the slot its true card (read
here only, by the bench, from the real state) is compared with uniform dealing's (1 over the
unseen cards of its level): exact over the weights for a slot alone in its level among the
hidden ones, its weight's share otherwise (the sequential draw's first slot). Printed: the
mean chance each way (and the relative gain), the geometric mean ratio, the share of slots
where inference gives the true card more (and less) than uniform, over all slot-positions and
over those with evidence (a turn kept through); and what decides a search's playouts, whether
the holder can pay for its blind card now: the truth's share of slot-positions against a
world's chance each way (and the Brier score of each); for each set of factors given (one set of
games: the factors change the weights, not the positions).
"""
from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.flat_mc import FlatMC  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.play import bot_move, fold
from domain.splendor import infer
from domain.splendor.bots import _lacking

GAME = registry.get("splendor")


def positions(seed: int, observer: int, holder_level: str, cpu_ms: float, blind: float = 0.0):
    """(the real state, the observer's view of it, its record) at each observer decision. With
    `blind`, the holder reserves blind (from a level drawn at random) at that share of its
    decisions where it can reserve and buy nothing, and plays by its level otherwise."""
    rng = random.Random(seed)
    baseline = FlatMC(GAME, cpu_s=cpu_ms / 1000)
    record = infer.Record(observer)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, random.Random(seed)))
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == observer:
            view = GAME.determinize(state, observer, rng)
            record.watch(view)
            yield state, view, record
            move = GAME.bots["greedy"](view, actor, rng)
        elif blind and (forced := _blind_reserve(state, actor, rng, blind)) is not None:
            move = forced
        elif holder_level == "flat-mc":
            move = baseline(GAME.determinize(state, actor, rng), actor, rng)
        else:
            move = bot_move(GAME, state, actor, holder_level, rng)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)


def _blind_reserve(state, seat: int, rng: random.Random, share: float) -> dict | None:
    moves = GAME.legal_moves(state, seat)
    if any(m["type"] == "buy" for m in moves) or rng.random() >= share:
        return None
    blind = [m for m in moves if m["type"] == "reserve_blind"]
    return rng.choice(blind) if blind else None


def slots(seed: int, observer: int, holder: str, cpu_ms: float, blind: float = 0.0):
    """(the turns the slot was kept through, its level's unseen cards, its true card, which of
    them the holder could pay for now) per hidden slot per observer decision (the posterior's
    slots: infer.Posterior)."""
    for state, view, record in positions(seed, observer, holder, cpu_ms, blind):
        post = infer.Posterior(view, observer, record)
        for s, k, row, _weights in post.slots:
            true = state.players[s].blind[k]  # (the bench reads the truth)
            kept = record.slots[s][k].turns if k < len(record.slots[s]) and record.slots[s][k].row == row else []
            holder = state.players[s]
            affordable = [_lacking(c, holder.bonuses, holder.tokens) == 0 for c in post.pools[row]]
            yield list(kept), post.pools[row], true, affordable


def chances(found: list, not_bought: float, toward: float, floor: float) -> list:
    """(chance inferred, chance uniform, turns of evidence, (the chance the holder can pay for
    the slot's card now: inferred, uniform, the truth)) per slot-position with these factors: the
    true card's weight's share of its level's (Posterior.chance)."""
    infer.NOT_BOUGHT, infer.TOWARD, infer.FLOOR = not_bought, toward, floor
    rows = []
    for turns, pool, true, affordable in found:
        weights = [infer.likelihood(c, turns) for c in pool]
        total = sum(weights)
        can = (sum(w for w, a in zip(weights, affordable) if a) / total, sum(affordable) / len(pool),
               float(affordable[pool.index(true)]))
        rows.append((weights[pool.index(true)] / total, 1 / len(pool), len(turns), can))
    return rows


def summary(rows: list, label: str) -> str:
    n = len(rows)
    if not n:
        return f"  {label}: no slots"
    inferred, uniform = sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n
    log_ratio = sum(math.log(r[0] / r[1]) for r in rows) / n
    more = sum(1 for r in rows if r[0] > r[1] * (1 + 1e-9))
    fewer = sum(1 for r in rows if r[0] < r[1] * (1 - 1e-9))
    return (f"  {label}: {n} slot-positions; the true card's chance in a world: inferred {inferred:.4f}, "
            f"uniform {uniform:.4f} ({100 * (inferred / uniform - 1):+.1f}%); geometric mean ratio "
            f"x{math.exp(log_ratio):.3f}; inference gives it more at {more} ({100 * more / n:.1f}%), less at "
            f"{fewer} ({100 * fewer / n:.1f}%); turns of evidence mean {sum(r[2] for r in rows) / n:.1f}\n"
            f"    the holder can pay for the card now: truly {_mean(r[3][2] for r in rows):.3f}, in a world inferred "
            f"{_mean(r[3][0] for r in rows):.3f}, uniform {_mean(r[3][1] for r in rows):.3f} (Brier: inferred "
            f"{_mean((r[3][0] - r[3][2]) ** 2 for r in rows):.4f}, uniform {_mean((r[3][1] - r[3][2]) ** 2 for r in rows):.4f})")


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.splendor_infer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed0", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--holder", default="flat-mc", choices=["flat-mc", "greedy", "random"])
    parser.add_argument("--blind", type=float, default=0.0,
                        help="the share of the holder's decisions with nothing to buy where it reserves blind")
    parser.add_argument("--cpu-ms", type=float, default=40.0)
    parser.add_argument("--not-bought", type=float, nargs="+", default=[infer.NOT_BOUGHT])
    parser.add_argument("--toward", type=float, nargs="+", default=[infer.TOWARD])
    parser.add_argument("--floor", type=float, nargs="+", default=[infer.FLOOR])
    args = parser.parse_args(argv)
    found, games_with = [], 0
    for i in range(args.games):
        got = list(slots(args.seed0 + i, i % 2, args.holder, args.cpu_ms, args.blind))
        found += got
        games_with += bool(got)
    print(f"splendor blind-reserve inference, holder {args.holder}"
          f"{f' {args.cpu_ms:g} ms' if args.holder == 'flat-mc' else ''}"
          f"{f', reserving blind at {args.blind:g} of its decisions with nothing to buy' if args.blind else ''}, seeds {args.seed0}-"
          f"{args.seed0 + args.games - 1}: {games_with} of {args.games} games with a blind reserve held")
    if not found:
        return 0
    for not_bought, toward, floor in itertools.product(args.not_bought, args.toward, args.floor):
        rows = chances(found, not_bought, toward, floor)
        print(f" not-bought {not_bought:g}, toward {toward:g}, floor {floor:g}:")
        print(summary(rows, "all"))
        print(summary([r for r in rows if r[2]], "with evidence"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
