"""The expert level (issue 34): a short expectimax over the greedy bot's best plays.

SetUp games are short (about 6 turns a seat, 4-5 points a set), and what a set costs is mostly
what it hands the next players: the tiles it leaves on top of the board, the market it leaves.
So the expert weighs each of the greedy bot's best few plays by playing it out in several
determinizations (its seat's view, the unseen tiles dealt anew): the other seats answer as the
greedy bot would, then it follows up greedily itself, REPLIES rounds in all, and it keeps the
play whose outcome is best on average. Every candidate is played out in the same worlds with
the same draws (common random numbers), so two plays are compared on the same luck. This beat
MCTS over the same plays here (bench/README.md, issue 34).

Deterministic: the worlds and draws come from the rng it is given, and the budget is counted
(worlds, and plays scored: the greedy answers' cost), never timed; BOT_ITERATIONS scales both.
"""
from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from domain.search import iterations_scale

from .bots import _valued, evaluate, greedy_among, prune
from .determinize import determinize
from .evolve import evolve
from .moves import placements, play_move
from .rules import decide
from .state import MARKET_SIZE, RACK_SIZE, State

WORLDS = 8          # determinizations per decision at BOT_ITERATIONS=1
MIN_WORLDS = 3      # played even past the work cap, so a costly turn still averages some luck
WORK_CAP = 100_000  # plays the greedy answers may score per decision (about 0.5 s of CPU here)
CANDIDATES = 8      # the greedy bot's best plays weighed
REPLIES = 2         # rounds after the play: every other seat answers, then the expert again
SCREEN = 0          # plays screened for the candidates (0: greedy's best CANDIDATES, unscreened)
SCREEN_KEEP = 4     # of the candidates, greedy's best this many always; the rest by the screen
ENDGAME_SCREEN = 0  # plays screened instead once another seat is ENDGAME_GAP or less from the goal
ENDGAME_GAP = 8
SCREEN_WORLDS = 2   # worlds the screen plays each play in (the first worlds of the decision)
EARLY_WEIGHT = 0.0  # weight of the value once the others have answered once (ties: delay a loss)
INFER = 0           # 1: each world weighed by how well its deal explains the last set (0: all alike)
SELF_OPTIONS = 1    # the expert's own follow-ups: the best of its greedy-best this many plays


def choose(state: State, seat: int, rng: random.Random) -> dict:
    """The candidate with the best mean outcome over shared worlds (ties: the greedy's order).
    Worlds stop early once the answers have scored WORK_CAP plays (turns with thousands of
    legal sets), so a decision's cost stays bounded."""
    screen = SCREEN
    if ENDGAME_SCREEN and max(p for s, p in enumerate(state.scores) if s != seat) >= state.goal - ENDGAME_GAP:
        screen = ENDGAME_SCREEN
    moves = prune(state, seat, None, keep=max(CANDIDATES, screen))
    if len(moves) == 1:
        return moves[0]
    scale = iterations_scale()
    worlds, cap = max(1, round(WORLDS * scale)), WORK_CAP * scale
    seeds, work = [], [0]  # the worlds' seeds, drawn as they are played (the screen's first)
    before = _before_last(state, seat) if INFER else None
    if len(moves) > CANDIDATES:
        seeds = [rng.getrandbits(64) for _ in range(min(SCREEN_WORLDS, worlds))]
        moves = _screen(state, seat, moves, seeds, work, before)
    totals, early, first = [0.0] * len(moves), [0.0] * len(moves), [0.0]
    for w in range(worlds):
        seed = seeds[w] if w < len(seeds) else rng.getrandbits(64)
        world, weight = _world(state, seat, seed, before)
        for i, move in enumerate(moves):
            if weight:
                totals[i] += weight * outcome(world, seat, move, random.Random(seed + 1), work, first)
                early[i] += weight * first[0]
        if work[0] > cap and w + 1 >= MIN_WORLDS:
            break
    return moves[max(range(len(moves)), key=lambda i: (totals[i] + EARLY_WEIGHT * early[i], -i))]


def _screen(state: State, seat: int, moves: list, seeds: list, work: list, before: tuple | None) -> list:
    """The candidates: greedy's best SCREEN_KEEP plays, then the best of the rest by their mean
    value after the next seat's greedy answer, in a few worlds (greedy's order among equals)."""
    rest = moves[SCREEN_KEEP:]
    scores = [0.0] * len(rest)
    for seed in seeds:
        world, weight = _world(state, seat, seed, before)
        for i, move in enumerate(rest):
            rng = random.Random(seed + 1)
            after = _play(world, seat, move, rng)
            if not after.over:
                after = _answer(after, rng, work)
            scores[i] += weight * value(after, seat)
    order = sorted(range(len(rest)), key=lambda i: (-scores[i], i))
    return moves[:SCREEN_KEEP] + [rest[i] for i in order[:CANDIDATES - SCREEN_KEEP]]


def _world(state: State, seat: int, seed: int, before: tuple | None) -> tuple:
    """A determinization of the seat's view and its weight: 1, or with `before` (the position
    the last set was made in) how well its deal explains that set (`_likelihood`)."""
    world = determinize(state, seat, random.Random(seed))
    return world, (1.0 if before is None else _likelihood(world, before))


def _before_last(state: State, seat: int) -> tuple | None:
    """The public position the last set was made in, when another seat made it and nothing has
    moved since but swaps: (that seat, the board before it, the tiles it placed, the placement,
    the current market). None when it cannot be told (no set yet, a refilled bag, short draws)."""
    last = state.last
    if last is None or last.seat == seat or len(state.market) != MARKET_SIZE \
            or len(state.racks[last.seat]) != RACK_SIZE:
        return None
    stacks = list(state.stacks)
    for q, t in last.place:
        if not stacks[q] or stacks[q][-1] != t:
            return None  # the bag was refilled from the covered tiles since
        stacks[q] = stacks[q][:-1]
    return last.seat, tuple(stacks), tuple(t for _, t in last.place), last.place, state.market


def _likelihood(world: State, before: tuple) -> float:
    """The chance that a greedy player with the world's rack for the seat that made the last
    set chose exactly that set: over the counts m of its tiles taken from the market (the
    market keeps its order, so the last m tiles there are new; each count alike) and the
    choices of rack tiles kept (each alike), 0 when a set on the board before it was worth more
    to it, else 1 over the number of sets worth as much (greedy picks among them at random).
    The sets worth as much or more are found once, with every tile that may have been at hand."""
    other, stacks, placed, place, market = before
    rack = world.racks[other]
    then = replace(world, stacks=stacks, racks=tuple(rack + placed if s == other else r
                                                     for s, r in enumerate(world.racks)))
    valued = _valued(then, other, placements(then, other))
    worth = next(v for pairs, v in valued if pairs == place)
    better = [_mask(t for _, t in pairs) for pairs, v in valued if v > worth]
    equal = [_mask(t for _, t in pairs) for pairs, v in valued if v == worth]
    shares = []
    for m in range(min(len(placed), MARKET_SIZE) + 1):
        keep = RACK_SIZE - (len(placed) - m)
        if keep < 0 or keep > len(rack):
            continue
        base = _mask(placed + market[:MARKET_SIZE - m])
        chances = []
        for kept in combinations(rack, keep):
            have = base | _mask(kept)
            if any(b & ~have == 0 for b in better):
                chances.append(0.0)
            else:
                chances.append(1.0 / sum(1 for e in equal if e & ~have == 0))
        shares.append(sum(chances) / len(chances))
    return sum(shares) / len(shares) if shares else 1.0


def _mask(tiles) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def outcome(world: State, seat: int, move: dict, rng: random.Random, work: list,
            first: list | None = None) -> float:
    """The seat's value after `move` and REPLIES rounds of greedy answers (every other seat,
    then itself), or at the finish if reached first; `work` counts the plays scored, `first`
    gets the value once the others have answered (or the game ended) the first time."""
    state = _play(world, seat, move, rng)
    left = REPLIES * world.n - 1
    while left > 0 and not state.over:
        if first is not None and state.turn == seat:
            first[0], first = value(state, seat), None
        if state.turn == seat and SELF_OPTIONS > 1:
            state, rng, used = _follow_up(state, seat, rng, work, left)
            left -= used
            continue
        state = _answer(state, rng, work)
        left -= 1
    if first is not None:
        first[0] = value(state, seat)
    return value(state, seat)


def _answer(state: State, rng: random.Random, work: list) -> State:
    plays = placements(state, state.turn)
    work[0] += len(plays)
    return _play(state, state.turn, greedy_among(state, state.turn, plays, rng), rng)


def _follow_up(state: State, seat: int, rng: random.Random, work: list, left: int) -> tuple:
    """The expert's own follow-up in a world: each of its greedy-best SELF_OPTIONS plays, with
    the same draws, then the others' greedy answers up to its next turn; the best by value."""
    plays = placements(state, seat)
    work[0] += len(plays)
    if not plays:
        return _play(state, seat, greedy_among(state, seat, plays, rng), rng), rng, 1
    valued = _valued(state, seat, plays)
    order = sorted(range(len(valued)), key=lambda i: valued[i][1], reverse=True)
    options = [play_move(valued[i][0]) for i in order[:SELF_OPTIONS]]
    start = rng.getstate()
    best = None
    for move in options:
        r = random.Random()
        r.setstate(start)
        after, used = _play(state, seat, move, r), 1
        while used < left and not after.over and after.turn != seat:
            after = _answer(after, r, work)
            used += 1
        v = value(after, seat)
        if best is None or v > best[0]:
            best = (v, after, r, used)
    return best[1], best[2], best[3]


def value(state: State, seat: int) -> float:
    """A finished game's result (1 a win, shared wins split; a team's win is whole), else the
    smoothed lead (bots.evaluate)."""
    if state.over:
        return (1.0 if state.teams else 1.0 / len(state.winners)) if seat in state.winners else 0.0
    return evaluate(state, seat)


def _play(state: State, seat: int, move: dict, rng: random.Random) -> State:
    for event in decide(state, seat, move, rng):
        state = evolve(state, event)
    return state
