"""The end-of-turn scoring (rules 6.7) and the final result (6.10, decision 8)."""
from __future__ import annotations

from . import catalog, query
from .abilities import hooks_for
from .state import State


def faction_bonus(state: State, seat: int) -> int:
    """+1 per distinct race of the opposite faction that lost a region to the active race
    this turn (active and declined races are distinct races; Murlocs and Neutral: none)."""
    mine = catalog.faction(state.players[seat].race)
    beaten = {c.race for c in state.turn.conquests if catalog.opposite(mine, catalog.faction(c.race))}
    return len(beaten)


def turn_breakdown(state: State) -> dict:
    """{source: coins} for the seat whose turn ends. A seat that declined this turn scores
    its regions only."""
    seat = state.seat
    out = {"regions": len(query.active_regions(state, seat)) + len(query.declined_regions(state, seat))}
    if state.turn.declined:
        return out
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
