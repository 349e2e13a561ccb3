"""A bench-only opponent for Fairy Tile (issue 34): one-move lookahead.

For each candidate move (the storyteller's top LOOKAHEAD_MOVES by its own move score, as
bots.expert_prune orders them, plus turning the page or finishing) it plays the move on the
determinization it is handed and scores the position reached with the search's evaluation
(bots.expert_evaluate: told cards ahead, the cards' progress, the tokens); the best score wins.
No sampling of other worlds, no reply of the next seat: the yardstick a search level must beat
clearly to be worth its cost (bench/bots_fairy_tile.py's `lookahead` mode).
"""
from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from domain.fairy_tile import GAME
from domain.fairy_tile.bots import _looks_at_land, _move_score, expert_evaluate
from domain.fairy_tile.conditions import figures_in
from domain.fairy_tile.data import CONDITIONS

LOOKAHEAD_MOVES = 20


def _top(state, seat, moves) -> list:
    """The LOOKAHEAD_MOVES best moves by the storyteller's move score (those that tell first)."""
    tree = CONDITIONS[state.seats[seat].hand]
    land, figures = _looks_at_land(tree), figures_in(tree)
    order = sorted(range(len(moves)), key=lambda k: (-_move_score(state, tree, land, figures, moves[k]), k))
    return [moves[k] for k in order[:LOOKAHEAD_MOVES]]


def lookahead_policy(state, seat, rng):
    moves = GAME.legal_moves(state, seat)
    if state.seats[seat].hand is None or len(moves) == 1:
        return moves[0]
    best, best_score = None, -1.0
    seed = rng.random()  # one draw, so the moves are played out alike
    for move in _top(state, seat, moves):
        after = state
        for event in GAME.decide(state, seat, move, random.Random(seed)):
            after = GAME.evolve(after, event)
        score = expert_evaluate(after, seat)
        if score > best_score:
            best, best_score = move, score
    return best


def game_with_lookahead():
    """The game with `lookahead` among its levels, for a bench run only (the server's GAME and
    its level list are left as they are)."""
    return replace(GAME, bots={**GAME.bots, "lookahead": lookahead_policy})
