"""Bots: `random` (any legal move) and `greedy` (cheap, valuable conquests; sensible picks,
declines and redeployment; every race's, power's and marker's own moves: steals, portals
to places, intimidation of the next target, Forsaken purchases, bombs, objectives near its
own regions, the Aegis on its most exposed region and the Heart among opponents); `expert`
(determinized MCTS, domain/search.py: greedy playouts, a projected-coins lead, the best ~10
moves of a state searched)."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..search import Searcher, SearchRules, SearchSpec
from . import catalog, query, team
from .costs import offers
from .determinize import determinize
from .evolve import evolve
from .moves import actors, legal_moves
from .rules import decide
from .state import CONQUER, DEFEND, MARKERS, PICK, REDEPLOY, REINFORCE, START
from .views import result

if TYPE_CHECKING:
    from collections.abc import Callable

    from .contract_bits import Move
    from .state import Region, State

EXPERT_ITERATIONS = 100  # per decision at BOT_ITERATIONS=1 (about 0.5-1 s here)
EXPERT_DEPTH = 24  # playout moves before `evaluate` (about a round of two seats)
TERRAIN_POWERS = {"farmer": "fields", "ranger": "forest", "herbalist": "hill",
                  "swamp_walker": "swamp", "mountaineer": "mountain"}
# Rough worth in coins of a power or race beyond its tokens.
BONUS = {"battle_master": 1, "enraged": 1, "archaeologist": 0.5, "explorer": 1, "championing": 1,
         "garrisoned": 1, "defensive": 0.5, "intimidating": 1, "beast_master": 1, "portal_mage": 0.3,
         "forsaken": 1, "tauren": -2, "humans": 1, "goblins": 1, "pandaren": 1, "draenei": 1}


def random_bot(state: State, seat: int, rng: random.Random) -> Move:
    return rng.choice(legal_moves(state, seat))


def _pick_value(state: State, k: int, seat: int) -> float:
    if state.team:
        row = state.rows[k]
        race, power, coins = row[team.COLUMNS.index(state.players[seat].faction)], row[0], 0
    else:
        race, power, coins = state.display[k]
    tokens = catalog.RACES[race]["banner"] + catalog.POWERS[power]["badge"]
    return tokens + coins - k * 1.2 + BONUS.get(race, 0) + BONUS.get(power, 0)


def _region_value(state: State, seat: int, i: int) -> float:
    """Rough worth of holding region i: 1 coin a turn, plus what the turn's bonuses add."""
    r = state.regions[i]
    value = 1.0 + (0.5 if r.tokens and r.race != catalog.MURLOCS else 0)
    if r.marker is not None:
        value += 1.5
    p = state.players[seat]
    if TERRAIN_POWERS.get(p.power) == state.map.terrain[i]:
        value += 1
    if (p.power == "mining" and state.map.has(i, "cavern")) or (p.race == "blood_elves" and state.map.has(i, "magic")):
        value += 1
    if p.power == "beast_master" and state.map.terrain[i] == "hill":
        value += 1
    if r.objective and catalog.faction(p.race) != "horde":
        value += 2
    if r.seat is not None and r.seat != seat and catalog.opposite(catalog.faction(p.race), catalog.faction(r.race)):
        value += 0.5
    return value


def _conquest(state: State, seat: int, moves: list[Move], rng: random.Random) -> Move | None:
    hand = state.players[seat].hand
    best, best_score = None, None
    offered = {(o.region, o.use): o for o in offers(state, seat)}
    for m in moves:
        if m["type"] not in ("conquer", "final_conquest"):
            continue
        i = state.map.index[m["region"]]
        o = offered[(i, m.get("use"))]
        cost = o.cost - (1.5 if o.die else 0)  # the Gnomes' free die
        if m["type"] == "final_conquest" and cost - hand > 1:
            continue
        paid = sum(t["coins"] for t in o.tolls)
        score = (_region_value(state, seat, i) - paid) / max(cost, 1) + rng.random() * 0.01
        if m["type"] == "final_conquest" or (o.die and hand < o.cost):
            score -= 0.3
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best


def _action(state: State, seat: int, moves: list[Move]) -> Move | None:
    """The race's and power's own moves, when they plainly help."""
    steals = [m for m in moves if m["type"] == "steal_artifact"]
    if steals:
        return steals[0]
    mine = set(query.active_regions(state, seat))
    for m in moves:
        if m["type"] == "portal":  # bring the race onto a legendary place or an objective
            a, b = state.map.index[m["a"]], state.map.index[m["b"]]
            for src, dst in ((a, b), (b, a)):
                d = state.regions[dst]
                if src in mine and dst not in mine and (
                        catalog.MARKERS.get(d.marker, {}).get("kind") == "place" or d.objective):
                    return m
    if state.players[seat].hand >= 3:
        def weak(r: Region) -> bool:
            return r.seat is not None and r.tokens <= 2  # a player's region worth thinning
        shaky = [m for m in moves if m["type"] == "intimidate" and weak(state.regions[state.map.index[m["region"]]])]
        if shaky:
            return shaky[0]
    return None


def _should_decline(state: State, seat: int) -> bool:
    p = state.players[seat]
    mine = query.active_regions(state, seat)
    tokens = p.hand + sum(state.regions[i].tokens - 1 for i in mine)
    late = state.round >= state.rounds - 1
    return (tokens < 3 and len(mine) >= 3 and not late) or (not mine and p.hand < 2 and not late)


def _placement(state: State, seat: int, moves: list[Move] | None) -> Move:
    """One token at a time to the least-defended region that touches a foe."""
    mine = query.active_regions(state, seat)

    def exposure(i: int) -> tuple[float, int]:
        foes = sum(1 for j in state.map.adj[i] if state.regions[j].seat not in (None, seat))
        return (state.regions[i].tokens - foes * 0.5, i)
    target = min(mine, key=exposure)
    if not state.players[seat].hand:  # only the ransomed Champion is left to place
        return {"type": "place_champion", "region": state.map.ids[target]}
    return {"type": "place", "region": state.map.ids[target], "count": 1}


def _foes_near(state: State, seat: int, i: int) -> int:
    return sum(1 for j in state.map.adj[i] if state.regions[j].seat not in (None, seat))


def _markers(state: State, seat: int, moves: list[Move]) -> Move:
    """The Aegis on its most exposed region, the Heart among the most opponents, every bomb,
    and objectives next to its own regions (to take back for 2 coins)."""
    kind = moves[0]["type"]
    if kind == "move_marker":
        return max(moves, key=lambda m: (_foes_near(state, seat, state.map.index[m["region"]]), m["region"]))
    places = [m for m in moves if m["type"] == "place_piece"]
    if not places:
        return moves[-1]
    if places[0]["piece"] == "bomb":
        return places[0]
    mine = set(query.active_regions(state, seat))
    near = [m for m in places if any(j in mine for j in state.map.adj[state.map.index[m["region"]]])]
    return min(near or places, key=lambda m: (state.regions[state.map.index[m["region"]]].tokens, m["region"]))


def greedy_bot(state: State, seat: int, rng: random.Random) -> Move:
    moves = legal_moves(state, seat)
    step = state.turn.step
    if step == PICK and moves[0]["type"] == "pick":
        return max(moves, key=lambda m: _pick_value(state, m["index"], seat))
    if step == START:
        if _should_decline(state, seat):
            return {"type": "decline"}
        readies = [m for m in moves if m["type"] == "ready"]
        if state.round >= state.rounds:
            return readies[0]
        return max(readies, key=lambda m: 1 if m.get("form") == "worgen" else 0)
    if step == CONQUER:
        return _action(state, seat, moves) or _conquest(state, seat, moves, rng) or {"type": "end_conquests"}
    if step == REINFORCE:
        return moves[-1] if state.round < state.rounds else moves[0]
    if step in (REDEPLOY, DEFEND):
        return _placement(state, seat, moves)
    if step == MARKERS:
        return _markers(state, seat, moves)
    return moves[0]


# ---- expert: determinized MCTS (domain/search.py) over greedy playouts -----------------------

RULES = SearchRules(legal_moves=legal_moves, decide=decide, evolve=evolve, actors=actors, result=result,
                    determinize=determinize)


def _held(state: State, seat: int) -> int:
    return len(query.active_regions(state, seat)) + len(query.declined_regions(state, seat))


def _projected(state: State, seat: int) -> float:
    """Coins now plus what the seat's board would earn over its turns left."""
    p = state.players[seat]
    left = state.rounds - state.round + (1 if seat >= state.seat else 0)
    active = p.hand + sum(state.regions[i].tokens for i in query.active_regions(state, seat)) if p.race else 0
    return p.coins + left * (_held(state, seat) + 0.15 * active)


def evaluate(state: State, seat: int) -> float:
    """The seat's (or its faction's) share of the projected coins: smooth, never saturated."""
    value = [max(0.0, _projected(state, s)) for s in range(state.n)]
    if state.team:
        pick = max if state.team.get("score") == "highest" else min
        teams: dict = {}
        for s, p in enumerate(state.players):
            teams.setdefault(p.faction, []).append(value[s])
        me = pick(teams[state.players[seat].faction])
        best = max((pick(v) for f, v in teams.items() if f != state.players[seat].faction), default=0.0)
    else:
        me = value[seat]
        best = max((v for s, v in enumerate(value) if s != seat), default=0.0)
    return (me + 1.0) / (me + best + 2.0)


PRUNE_TO = 6


def _rank(state: State, seat: int, m: Move) -> float:
    """How promising a move looks before searching it (higher first)."""
    kind = m["type"]
    if kind in ("conquer", "final_conquest"):
        i = state.map.index[m["region"]]
        return 5 + _region_value(state, seat, i) - (1 if kind == "final_conquest" else 0)
    if kind in ("place", "place_champion"):
        i = state.map.index[m["region"]]
        hand = state.players[seat].hand
        count = m.get("count", 1)
        whole = count in (1, hand) or count == (hand + 1) // 2
        return (3 if whole else 0) + _foes_near(state, seat, i) - 0.2 * state.regions[i].tokens
    if kind in ("end_conquests", "decline", "ready", "pick", "done_placing"):
        return 10
    return 4


def prune(state: State, seat: int, moves: list[Move]) -> list[Move]:
    if len(moves) <= PRUNE_TO:
        return moves
    first = greedy_bot(state, seat, random.Random(0))
    ranked = sorted(range(len(moves)), key=lambda k: (-_rank(state, seat, moves[k]), k))
    keep = sorted(ranked[:PRUNE_TO])
    out = [moves[k] for k in keep]
    return out if first in out else [first] + out


def rollout_bot(state: State, seat: int, rng: random.Random) -> Move:
    """The greedy bot, faster for playouts: it redeploys half its hand at a time."""
    if state.turn.step in (REDEPLOY, DEFEND) and state.players[seat].hand > 1:
        move = _placement(state, seat, None)
        return {**move, "count": state.players[seat].hand // 2}
    return greedy_bot(state, seat, rng)


EXPERT = SearchSpec(iterations=EXPERT_ITERATIONS, rollout=rollout_bot, evaluate=evaluate, depth=EXPERT_DEPTH,
                    determinizations=2, exploration=0.7, prune=prune)
_search = Searcher(RULES, lambda state: state.n, EXPERT)
SEARCHED = (PICK, START, CONQUER)  # redeployment, markers and purchases: the greedy bot's


def expert_with(search: Searcher) -> Callable[[State, int, random.Random], Move]:
    """The expert's policy around `search` (its own, or a variant's: bench/variant_match.py):
    the search where the game is decided (picks, declines, conquests), greedy elsewhere."""

    def expert(state: State, seat: int, rng: random.Random) -> Move:
        if state.turn.step in SEARCHED:
            return search(state, seat, rng)
        return greedy_bot(state, seat, rng)

    return expert


expert_bot = expert_with(_search)


SEARCH = _search  # what a game's analysis values its positions with (domain/analysis.py)
BOTS = {"random": random_bot, "greedy": greedy_bot, "expert": expert_bot}
