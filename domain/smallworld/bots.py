"""Bots: `random` (any legal move) and `greedy` (cheap, valuable conquests; sensible picks,
declines and redeployment)."""
from __future__ import annotations

from . import catalog, query, team
from .costs import offers
from .moves import legal_moves
from .state import CONQUER, PICK, REDEPLOY, DEFEND, START


def random_bot(state, seat, rng):
    return rng.choice(legal_moves(state, seat))


def _pick_value(state, k, seat=None) -> float:
    if state.team:
        row = state.rows[k]
        race, power, coins = row[team.COLUMNS.index(state.players[seat].faction)], row[0], 0
    else:
        race, power, coins = state.display[k]
    tokens = catalog.RACES[race]["banner"] + catalog.POWERS[power]["badge"]
    return tokens + coins - k * 1.2


def _region_value(state, seat, i) -> float:
    """Rough worth of holding region i: 1 coin a turn, plus what the turn's bonuses add."""
    r = state.regions[i]
    value = 1.0 + (0.5 if r.tokens and r.race != catalog.MURLOCS else 0)
    if r.marker is not None:
        value += 1.5
    p = state.players[seat]
    terrains = {"farmer": "fields", "ranger": "forest", "herbalist": "hill",
                "swamp_walker": "swamp", "mountaineer": "mountain"}
    if terrains.get(p.power) == state.map.terrain[i]:
        value += 1
    if (p.power == "mining" and state.map.has(i, "cavern")) or (p.race == "blood_elves" and state.map.has(i, "magic")):
        value += 1
    return value


def _conquest(state, seat, moves, rng):
    hand = state.players[seat].hand
    best, best_score = None, None
    costs = {(o.region, o.use): o.cost for o in offers(state, seat)}
    for m in moves:
        if m["type"] not in ("conquer", "final_conquest"):
            continue
        i = state.map.index[m["region"]]
        cost = costs[(i, m.get("use"))]
        if m["type"] == "final_conquest" and cost - hand > 1:
            continue
        score = _region_value(state, seat, i) / cost + rng.random() * 0.01
        if m["type"] == "final_conquest":
            score -= 0.3
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best or {"type": "end_conquests"}


def _should_decline(state, seat) -> bool:
    p = state.players[seat]
    mine = query.active_regions(state, seat)
    tokens = p.hand + sum(state.regions[i].tokens - 1 for i in mine)
    late = state.round >= state.rounds - 1
    return (tokens < 3 and len(mine) >= 3 and not late) or (not mine and p.hand < 2 and not late)


def _placement(state, seat, moves):
    """One token at a time to the least-defended region that touches a foe."""
    mine = query.active_regions(state, seat)
    def exposure(i):
        foes = sum(1 for j in state.map.adj[i] if state.regions[j].seat not in (None, seat))
        return (state.regions[i].tokens - foes * 0.5, i)
    target = min(mine, key=exposure)
    return {"type": "place", "region": state.map.ids[target], "count": 1}


def greedy_bot(state, seat, rng):
    moves = legal_moves(state, seat)
    step = state.turn.step
    if step == PICK and moves[0]["type"] == "pick":
        return max(moves, key=lambda m: _pick_value(state, m["index"], seat))
    if step == START:
        if _should_decline(state, seat):
            return {"type": "decline"}
        readies = [m for m in moves if m["type"] == "ready"]
        return max(readies, key=lambda m: 1 if m.get("form") == "worgen" else 0) if state.round < state.rounds else readies[0]
    if step == CONQUER:
        return _conquest(state, seat, moves, rng)
    if step in (REDEPLOY, DEFEND):
        return _placement(state, seat, moves)
    return moves[0]


BOTS = {"random": random_bot, "greedy": greedy_bot}
