"""Game analysis (issue 34), the pure part: for one person's decision of a finished game, what
the search level would have played from that seat's information, and the seat's winning
chance before and after the move as the search estimates it; and, over a game's decisions,
the ones that cost most.

Only the seat's information goes in: the suggestion is the level's bot move (domain/play.py's
bot_move: the game's determinization of the state from the seat's view, never the real hidden
state), and each chance is the search's mean reward over determinizations drawn from what the
seat sees then (domain/search.py's Searcher.appraise). So an analysis cannot tell more of the
other seats' hidden information than the seat itself knew (tests/analysis/test_no_leak.py
permutes it and finds the same analysis).

Deterministic: every draw comes from an rng derived from the game's seed, the version and the
seat, and the budget is counted in iterations (ANALYSIS_ITERATIONS), so an analysis computed
twice is the same.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .contract import GameDef, State
from .play import bot_move, rng_for, upcast
from .search import Searcher, SearchRules, SearchSpec
from .search import key as search_key

LEVEL = "expert"  # the search level whose moves are suggested (a game without one: its last level)
MARKS = 3  # the costliest decisions marked, at most
MARK_DROP = 0.1  # ... and only those whose chance fell by at least this much

# The searcher each hosted game values its positions with (its `expert` level's).
SEARCHERS = {"splendor": "domain.splendor.bots", "witches": "domain.witches.bots",
             "setup": "domain.setup_game.bots", "fairy-tile": "domain.fairy_tile.bots",
             "smallworld-of-warcraft": "domain.smallworld.bots"}


@dataclass(frozen=True)
class Decision:
    """One person's decision: the state it was made in (at `version`), the state it left, and
    the events it appended (as stored)."""

    version: int
    seat: int
    before: State
    after: State
    events: Sequence[dict]


def level_of(game: GameDef) -> str:
    return LEVEL if LEVEL in game.bots else list(game.bots)[-1]


def searcher_of(game: GameDef) -> Searcher:
    """The game's own searcher, or for a game that has none (an extra module) a plain one:
    rollouts by its first bot level to the end, no evaluation needed."""
    module = SEARCHERS.get(game.name)
    if module is not None:
        found = getattr(importlib.import_module(module), "SEARCH", None)
        if isinstance(found, Searcher):
            return found
    return Searcher(game, lambda state: state.n,  # the house style's seat count
                    SearchSpec(iterations=1, rollout=next(iter(game.bots.values())),
                               evaluate=lambda state, seat: 0.5, depth=game.max_events))


def appraise(game: GameDef, decision: Decision, seed: object, iterations: int) -> dict:
    """One decision's analysis: `suggested` (the level's move from the seat's information),
    `played_suggested`, and `chance_before` / `chance_after` (each estimated with half the
    iterations), `drop` their difference."""
    seat = decision.seat
    rng = rng_for(seed, decision.version, f"analysis:{seat}")
    suggested = bot_move(game, decision.before, seat, level_of(game), rng)
    search, half = searcher_of(game), max(1, iterations // 2)
    before = search.appraise(decision.before, seat, random.Random(rng.random()), half)
    after = search.appraise(decision.after, seat, random.Random(rng.random()), half)
    return {"version": decision.version, "seat": seat, "suggested": suggested,
            "played_suggested": _plays(game, decision, suggested, seed),
            "chance_before": round(before, 4), "chance_after": round(after, 4), "drop": round(before - after, 4)}


def _plays(game: GameDef, decision: Decision, move: dict, seed: object) -> bool:
    """Whether the seat's move was the suggestion: the suggestion's events, decided with the
    rng the server decided the real move with, are the ones appended."""
    try:
        events = game.decide(decision.before, decision.seat, move, rng_for(seed, decision.version, str(decision.seat)))
    except Exception:  # a suggestion the rules refuse was not played
        return False
    return list(events) == [upcast(game, e) for e in decision.events]


def marked(analysed: Sequence[dict]) -> list[int]:
    """The versions of the costliest decisions: the MARKS largest drops of at least MARK_DROP,
    of the moves that were not the suggestion (playing the level's own move costs nothing by
    its measure: a drop there is the search's noise, or the game's chance)."""
    costly = sorted((d for d in analysed if d["drop"] >= MARK_DROP and not d.get("played_suggested")),
                    key=lambda d: (-d["drop"], d["version"]))
    return sorted(d["version"] for d in costly[:MARKS])


# ---- peeking (issue 50): what the real hidden state explains of a seat's decisions ----------------

def peeking_searcher(game: GameDef) -> Searcher:
    """The game's searcher without its determinization: it searches the real state, every
    hidden card in sight (the model of a player who peeks; never a bot's nor an analysis's)."""
    honest = searcher_of(game)
    rules = honest.rules
    blind = SearchRules(rules.legal_moves, rules.decide, rules.evolve, rules.actors, rules.result, None,
                        getattr(rules, "play", None))
    return Searcher(blind, honest.n_seats, honest.spec)


def hidden_information(game: GameDef) -> bool:
    """Whether a seat of the game may not see all of its state (it determinizes)."""
    return game.determinize is not None


def peek_evidence(game: GameDef, state: State, seat: int, played: dict, seed: object, version: int,
                  iterations: int) -> dict | None:
    """One decision's evidence for the peeking detector (api/moderation/signals.py): the
    search's visit shares over the seat's moves from what the seat could see (`honest`: its
    determinizations) and from the real state (`peeking`), `iterations` each, and the move
    `played` (its key); None where the seat had one move or the game hides nothing."""
    if not hidden_information(game):
        return None
    moves = game.legal_moves(state, seat)
    if len(moves) < 2:
        return None
    rng = rng_for(seed, version, f"peeking:{seat}")
    honest = searcher_of(game).policy(state, seat, random.Random(rng.random()), iterations)
    peeking = peeking_searcher(game).policy(state, seat, random.Random(rng.random()), iterations)
    return {"version": version, "seat": seat, "moves": len(moves), "played": search_key(played),
            "honest": honest, "peeking": peeking}


def played_move(game: GameDef, decision: Decision, seed: object) -> dict | None:
    """The move the seat made in `decision` (a history keeps its events, not its move): the legal
    move whose events, decided with the rng the server decided it with, are the ones appended;
    None where none is (a move the rules accepted that is not listed)."""
    wanted = [upcast(game, e) for e in decision.events]
    for move in game.legal_moves(decision.before, decision.seat):
        try:
            events = game.decide(decision.before, decision.seat, move, rng_for(seed, decision.version,
                                                                                 str(decision.seat)))
        except Exception:  # a listed move the rules refuse here was not the one played
            continue
        if list(events) == wanted:
            return move
    return None
