"""The end-of-turn scoring (rules 6.7) and the final result (6.10, decision 8)."""
from __future__ import annotations

from . import catalog, query, team
from .abilities import MARKERS, hooks_for
from .actions import OBJECTIVE_COINS
from .state import State


def _bonus_as(state: State, mine: str | None, double: bool) -> int:
    taken: dict = {}
    for c in state.turn.conquests:
        if catalog.opposite(mine, catalog.faction(c.race)):
            taken[c.race] = taken.get(c.race, 0) + 1
    return sum(min(n, 2) if double else 1 for n in taken.values())


def faction_bonus(state: State, seat: int) -> int:
    """+1 per distinct race of the opposite faction that lost a region to the active race
    this turn (active and declined races are distinct races; Murlocs and Neutral: none).
    Holding the Battleground: 2 for a race that lost 2+ regions, and a Neutral race fights
    for the side that pays it best this turn."""
    mine = catalog.faction(state.players[seat].race)
    double = any(h.battleground for h, _ in hooks_for(state, seat))
    if mine == "neutral" and double:
        return max(_bonus_as(state, side, True) for side in ("alliance", "horde"))
    return _bonus_as(state, mine, double)


def objective_coins(state: State, seat: int) -> int:
    """2 coins per Military Objective a non-Horde race of the seat took this turn."""
    if catalog.faction(state.players[seat].race) == "horde":
        return 0
    return OBJECTIVE_COINS * sum(1 for c in state.turn.conquests if c.objective)


def table_coins(state: State, seat: int) -> int:
    """Markers that pay whoever's turn ends, held or not (the Well of Eternity)."""
    return sum(MARKERS[r.marker].table_coins(state, seat, i)
               for i, r in enumerate(state.regions) if r.marker in MARKERS)


def turn_breakdown(state: State) -> dict:
    """{source: coins} for the seat whose turn ends. A seat that declined this turn scores
    its regions only."""
    seat = state.seat
    out = {"regions": len(query.active_regions(state, seat)) + len(query.declined_regions(state, seat))}
    well = table_coins(state, seat)
    if well:  # even in decline
        out["well_of_eternity"] = well
    if state.turn.declined:
        return out
    objectives = objective_coins(state, seat)
    if objectives:
        out["objectives"] = objectives
    for hook, ctx in hooks_for(state, seat):
        coins = hook.turn_coins(ctx) + sum(hook.conquest_coins(ctx, c) for c in state.turn.conquests)
        if coins:
            out[hook.key] = out.get(hook.key, 0) + coins
    for key, coins in _payments_by_source(state).items():
        out[key] = out.get(key, 0) + sum(coins.values())
    bonus = faction_bonus(state, seat) if state.players[seat].race else 0
    if bonus:
        out["faction"] = bonus
    return out


def _payments_by_source(state: State) -> dict:
    """{hook key: {payer: coins}}, each payer paying no more than it has (payments are made
    one after the other, in hook order)."""
    if state.turn.declined:
        return {}
    left = [p.coins for p in state.players]
    out: dict = {}
    for hook, ctx in hooks_for(state, state.seat):
        for payer, coins in sorted(hook.payments(ctx).items()):
            paid = min(coins, left[payer])
            if paid:
                left[payer] -= paid
                out.setdefault(hook.key, {})[payer] = out.get(hook.key, {}).get(payer, 0) + paid
    return out


def payments(state: State) -> list:
    """The coins other seats pay the scoring seat (public, like any payment on the table)."""
    total: dict = {}
    for by_payer in _payments_by_source(state).values():
        for payer, coins in by_payer.items():
            total[payer] = total.get(payer, 0) + coins
    return [{"seat": payer, "coins": coins} for payer, coins in sorted(total.items())]


def final_result(state: State) -> dict:
    scores = [p.coins for p in state.players]
    tokens = [query.tokens_on_board(state, s) for s in range(state.n)]
    if state.team:
        return team.result(state, scores, tokens)
    best = max(zip(scores, tokens))
    winners = [s for s in range(state.n) if (scores[s], tokens[s]) == best]
    tied_on_coins = sum(1 for s in scores if s == best[0]) > 1
    return {
        "winners": winners,
        "scores": scores,
        "tokens_on_board": tokens,
        "reason": "last_round_scored",
        "tie_break": "tokens_on_board" if tied_on_coins else None,
    }
