"""legal_moves: every complete move a seat may send now, in the exact shape `decide` takes.

Canonical shapes (decide accepts exactly these, so "listed" and "accepted" coincide):
- take_gems:     {"type": "take_gems", "colors": [...]} colours distinct, in COLORS order;
- take_two:      {"type": "take_two", "color": c};
- reserve:       {"type": "reserve", "card": id};   reserve_blind: {"type": "reserve_blind", "level": l};
- buy:           {"type": "buy", "card": id, "payment": {colour: n}} the tokens paid, gold included,
                 non-zero entries only (one move per distinct way to spend gold);
- return_tokens: {"type": "return_tokens", "tokens": {colour: n}} non-zero entries only;
- choose_noble:  {"type": "choose_noble", "noble": id};  pass: {"type": "pass"};
- score_game:    {"type": "score_game"} (SYSTEM only).
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from .data import CARD_IDS, CARDS, COLORS, GOLD, NOBLE_IDS, RESERVE_LIMIT, TOKEN_LIMIT, TOKEN_NAMES
from .state import EMPTY, NOBLE, PLAY, RETURN, SCORE, State, qualifying_nobles

if TYPE_CHECKING:
    from domain.contract import Actor, Move

COSTS = tuple(card.cost for card in CARDS)
PASS = {"type": "pass"}
SCORE_GAME = {"type": "score_game"}


def _choices_for(available: tuple) -> tuple:
    if len(available) >= 3:
        return tuple(combinations(available, 3))
    return (available,) if available else ()


# The colour sets take_gems may name, per bitmask of the colours left in the supply.
_CHOICES = {mask: _choices_for(tuple(c for i, c in enumerate(COLORS) if mask >> i & 1)) for mask in range(32)}


def take_gem_choices(state: State) -> list:
    """The colour sets a take_gems move may name: 3 distinct colours, or, when fewer than 3
    colours are left (and the option strict_take_three is off), one of each colour left."""
    supply = state.supply
    mask = sum(1 << i for i in range(5) if supply[i] > 0)
    choices = _CHOICES[mask]
    if state.strict and choices and len(choices[0]) < 3:
        return []
    return [list(c) for c in choices]


def payments(cost: tuple, bonuses: tuple, tokens: tuple) -> list:
    """Every distinct payment (a sparse token map) for a card of this cost: the cost minus the
    bonuses, gold standing in for any colour, never more gold than needed. [] if unaffordable.
    Hot path of random playouts: one pass over the colours, no intermediate tuples."""
    gold = tokens[GOLD]
    short = 0
    ranges = []  # (colour, tokens needed, least gold for it)
    for i in range(5):
        n = cost[i] - bonuses[i]
        if n > 0:
            t = tokens[i]
            low = n - t if n > t else 0
            short += low
            ranges.append((i, n, low))
    if short > gold:
        return []
    if short == gold or not ranges:  # no choice: gold exactly fills the gaps
        pay = {COLORS[i]: n - low for i, n, low in ranges if n > low}
        if short:
            pay["gold"] = short
        return [pay]
    out = []

    def walk(k: int, gold_left: int, paid: tuple[tuple[int, int], ...]) -> None:
        if k == len(ranges):
            used = gold - gold_left
            pay = {COLORS[i]: v for i, v in paid if v}
            if used:
                pay["gold"] = used
            out.append(pay)
            return
        i, n, low = ranges[k]
        for g in range(low, min(n, low + gold_left) + 1):
            walk(k + 1, gold_left - (g - low), paid + ((i, n - g),))

    walk(0, gold - short, ())
    return out


def buyable(state: State, seat: int) -> list:
    """(card, source) pairs the seat could pay for: face-up cards and its own reserve."""
    player = state.players[seat]
    out = []
    for row in state.market:
        for card in row:
            if card != EMPTY:
                out.append((card, "market"))
    for card in player.reserved:
        out.append((card, "reserve"))
    return out


def play_moves(state: State, seat: int) -> list:
    player = state.players[seat]
    moves = [{"type": "take_gems", "colors": colors} for colors in take_gem_choices(state)]
    moves += [{"type": "take_two", "color": c} for i, c in enumerate(COLORS) if state.supply[i] >= 4]
    if len(player.reserved) < RESERVE_LIMIT:
        for row in state.market:
            moves += [{"type": "reserve", "card": CARD_IDS[c]} for c in row if c != EMPTY]
        moves += [{"type": "reserve_blind", "level": i + 1} for i, deck in enumerate(state.decks) if deck]
    bonuses, tokens = player.bonuses, player.tokens
    for card, _ in buyable(state, seat):
        for pay in payments(COSTS[card], bonuses, tokens):
            moves.append({"type": "buy", "card": CARD_IDS[card], "payment": pay})
    return moves or [dict(PASS)]


def return_choices(tokens: tuple, excess: int) -> list:
    """Every distinct way to hand back `excess` tokens (sparse maps)."""
    out = []

    def walk(i: int, left: int, chosen: tuple[tuple[int, int], ...]) -> None:
        if left == 0:
            out.append({TOKEN_NAMES[j]: n for j, n in chosen})
            return
        if i == 6:
            return
        for n in range(min(left, tokens[i]), -1, -1):
            walk(i + 1, left - n, chosen + ((i, n),) if n else chosen)

    walk(0, excess, ())
    return out


def legal_moves(state: State, actor: Actor) -> list[Move]:
    phase = state.phase
    if phase == SCORE:
        return [dict(SCORE_GAME)] if actor == "system" else []
    if actor != state.seat or isinstance(actor, bool):
        return []
    if phase == PLAY:
        return play_moves(state, actor)
    if phase == RETURN:
        tokens = state.players[actor].tokens
        return [{"type": "return_tokens", "tokens": t} for t in return_choices(tokens, sum(tokens) - TOKEN_LIMIT)]
    if phase == NOBLE:
        return [{"type": "choose_noble", "noble": NOBLE_IDS[x]}
                for x in qualifying_nobles(state.players[actor].bonuses, state.nobles)]
    return []
