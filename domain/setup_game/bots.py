"""Bots: `random` (any legal move), `greedy` (the highest-scoring legal set) and `expert`
(expert.py: an expectimax over the greedy bot's best few sets, the others answering greedily).
The determinized MCTS (domain/search.py) over the same sets stays as the analysis's appraiser.

Every level is handed a determinization of the state (domain/play.py's bot_move): the other
racks and the bag are dealt anew from what the seat sees, so they read only their own rack,
the board, the market and the scores (never another rack).
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache

from domain.search import Searcher, SearchRules, SearchSpec

from .data import N_SQUARES, N_TILES, NEIGHBOURS, NUMBER, SUIT, TILE_IDS
from .determinize import determinize
from .evolve import evolve
from .moves import legal_moves, placements, play_move
from .rules import decide
from .state import TEAMS, State, bonus_owner, team_of, tops
from .views import actors, result


def random_policy(state: State, seat: int, rng: random.Random) -> dict:
    return rng.choice(legal_moves(state, seat))


def greedy_policy(state: State, seat: int, rng: random.Random) -> dict:
    """Plays the set worth most points to itself; among equals, the one giving opponents the
    fewest bonus points (partners' bonus counts for it in the team game), then at random.
    With no set to make, swaps its whole rack."""
    return greedy_among(state, seat, placements(state, seat), rng)


def greedy_among(state: State, seat: int, plays: Sequence, rng: random.Random) -> dict:
    """The greedy bot's choice among `plays` (all of them: the expert counts their number)."""
    best, best_value = [], None
    for pairs, value in _valued(state, seat, plays):
        if best_value is None or value > best_value:
            best, best_value = [pairs], value
        elif value == best_value:
            best.append(pairs)
    if best:
        return play_move(rng.choice(best))
    return _swap_all(state, seat)


def _valued(state: State, seat: int, plays: Sequence) -> list:
    """Each play with its greedy value: (points, the bonus handed to partners less that handed to
    opponents), as plays.score counts them (the same figures, from bit masks of squares: the bots
    score thousands a turn; tests/setup_game/test_expert.py holds them equal)."""
    base = tops(state)
    terms = _bonus_terms(state.n, state.teams, seat)
    out = []
    for pairs in plays:
        after = list(base)
        for q, t in pairs:
            after[q] = t
        scored = _scored(after, pairs)
        out.append((pairs, (scored.bit_count(), sum(sign * (scored & mask).bit_count() for mask, sign in terms))))
    return out


def _joins() -> tuple:
    """Per tile, per tile: 1 when they join in a number set, 2 in a run (sets.joined)."""
    return tuple(tuple((NUMBER[a] == NUMBER[b] and SUIT[a] != SUIT[b])
                       | 2 * (SUIT[a] == SUIT[b] and NUMBER[a] - NUMBER[b] in (1, -1))
                       for b in range(N_TILES)) for a in range(N_TILES))


_JOINS = _joins()


def _scored(after: list, pairs: Sequence) -> int:
    """sets.scoring_squares as a bit mask of squares."""
    scored = 0
    for kind in (1, 2):
        done = 0
        for q, _ in pairs:
            if done >> q & 1:
                continue
            seen, todo = 1 << q, [q]
            while todo:
                x = todo.pop()
                row = _JOINS[after[x]]
                for r in NEIGHBOURS[x]:
                    t = after[r]
                    if t >= 0 and not seen >> r & 1 and row[t] & kind:
                        seen |= 1 << r
                        todo.append(r)
            done |= seen
            if seen & (seen - 1):
                scored |= seen
    return scored


@cache
def _bonus_terms(n: int, teams: bool, seat: int) -> tuple:
    """(bonus squares of another seat as a mask, +1 a partner's, -1 an opponent's)."""
    terms = []
    for other in range(n):
        mask = sum(1 << q for q in range(N_SQUARES) if bonus_owner(n, q) == other)
        if other != seat and mask:
            terms.append((mask, 1 if teams and team_of(other) == team_of(seat) else -1))
    return tuple(terms)


def _swap_all(state: State, seat: int) -> dict:
    rack = sorted(state.racks[seat])[:4]
    if rack:
        return {"type": "swap", "tiles": [TILE_IDS[t] for t in rack]}
    return legal_moves(state, seat)[0]


# ---- expert: determinized MCTS ---------------------------------------------------------------

ROLLOUT_SAMPLE = 16  # plays a rollout step scores (of all its legal plays, drawn at random)
PRUNE_KEEP = 12      # plays the search considers in a node: the greedy bot's best


RULES = SearchRules(legal_moves=legal_moves, decide=decide, evolve=evolve, actors=actors, result=result,
                    determinize=determinize)


def rollout_policy(state: State, seat: int, rng: random.Random) -> dict:
    """A fast greedy: the best of a few plays drawn at random (the greedy bot scores them all),
    biggest sets first among equals; the whole rack swapped when no set can be made."""
    plays = placements(state, seat)
    if not plays:
        return _swap_all(state, seat)
    if len(plays) > ROLLOUT_SAMPLE:
        plays = rng.sample(plays, ROLLOUT_SAMPLE)
    best = max(_valued(state, seat, plays), key=lambda pv: pv[1])
    return play_move(best[0])


def prune(state: State, seat: int, moves: list | None, keep: int = PRUNE_KEEP) -> list:
    """The greedy bot's best `keep` sets (ties in the order listed), and a swap of the whole
    rack when no set can be made (the other swaps are rarely better and only dilute the search)."""
    valued = _valued(state, seat, placements(state, seat))
    if not valued:
        return [_swap_all(state, seat)]
    order = sorted(range(len(valued)), key=lambda i: valued[i][1], reverse=True)
    return [play_move(valued[i][0]) for i in order[:keep]]


def _side_scores(state: State, seat: int) -> tuple[float, float]:
    """(ours, the best other's) as the finish rule reads them: in the team game a team is as
    strong as its lower score."""
    if state.teams:
        ours = TEAMS[team_of(seat)]
        theirs = TEAMS[1 - team_of(seat)]
        return min(state.scores[s] for s in ours), min(state.scores[s] for s in theirs)
    return state.scores[seat], max(p for s, p in enumerate(state.scores) if s != seat)


def evaluate(state: State, seat: int) -> float:
    """A smoothed lead: the logistic of the score lead, scaled by how far the finish still is
    (a 4-point lead is worth more with 6 points to go than with 25), with the mover's edge."""
    ours, theirs = _side_scores(state, seat)
    lead = ours - theirs
    to_go = max(1.0, state.goal - max(ours, theirs))
    if state.turn == seat or (state.teams and team_of(state.turn) == team_of(seat)):
        lead += 2.0  # the seat to move makes the next set (about 4 points)
    else:
        lead -= 2.0
    return 1.0 / (1.0 + math.exp(-lead / (1.5 + 0.35 * to_go)))


MCTS = Searcher(RULES, lambda state: state.n,
                SearchSpec(iterations=200, rollout=rollout_policy, evaluate=evaluate, depth=4,
                           determinizations=8, exploration=0.5, prune=prune))


def mcts_policy(state: State, seat: int, rng: random.Random) -> dict:
    """Determinized MCTS (domain/search.py) over the greedy bot's best sets, rollouts by the
    fast greedy, leaves valued by the smoothed score lead (the expert until issue 34's bench
    showed the expectimax stronger; kept as the analysis's appraiser)."""
    return MCTS(state, seat, rng)


SEARCH = MCTS  # what a game's analysis values its positions with (domain/analysis.py)
