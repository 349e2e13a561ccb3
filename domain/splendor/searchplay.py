"""A search-only way to apply a move (issue 56: cheaper search): the state `decide` + `evolve`
reach, built directly, without validating the move or writing event dicts.

Only the expert's search uses it (`bots.RULES.play`), and only with moves it took from
`legal_moves` or from a policy that returns one of them, so nothing is checked: a move that is
not legal gives a meaningless state. The server never applies a move this way (its moves go
through `decide`, its state through `evolve` of the recorded events).
tests/splendor/test_search_play.py checks that for every legal move of thousands of positions
(random and greedy games, 2-4 seats, returns, nobles, empty decks, scoring) it gives the very
state decide + evolve give, so a search over it decides exactly as before.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .data import CARD_BY_ID, CARDS, COLOR_INDEX, NOBLE_BY_ID, NOBLE_POINTS, TOKEN_LIMIT, WINNING_POINTS
from .state import EMPTY, NOBLE, OVER, PLAY, RETURN, SCORE, Player, State, qualifying_nobles

if TYPE_CHECKING:
    import random

    from domain.contract import Actor, Move

def _counts(mapping: dict) -> list:
    counts = [0, 0, 0, 0, 0, 0]
    for name, n in mapping.items():
        counts[COLOR_INDEX[name]] = n
    return counts


def _with(items: tuple, index: int, value: object) -> tuple:
    """`items` with one entry replaced (a list copy: cheaper than slicing past two entries)."""
    if len(items) == 2:
        return (value, items[1]) if index == 0 else (items[0], value)
    changed = list(items)
    changed[index] = value
    return tuple(changed)


_QUALIFYING: dict = {}  # (bonuses, nobles on the table) -> the nobles those bonuses meet


def _close(state: State, seat: int, supply: tuple, decks: tuple, market: tuple, players: tuple, passes: int,
           check_tokens: bool) -> State:
    """The state after an action that left these fields: rules.py's after_action (the token
    limit, when `check_tokens`) / noble_check, decide's automatic noble when exactly one
    qualifies, end_turn; built by one State call (no `_replace` chain)."""
    player = players[seat]
    if check_tokens and sum(player.tokens) > TOKEN_LIMIT:
        return State(state.n, state.strict, supply, decks, market, state.nobles, players, state.seat, RETURN,
                     state.turns, passes, state.last_round)
    nobles = state.nobles
    key = (player.bonuses, nobles)
    meet = _QUALIFYING.get(key)
    if meet is None:
        if len(_QUALIFYING) > 1 << 16:
            _QUALIFYING.clear()
        meet = _QUALIFYING[key] = tuple(qualifying_nobles(player.bonuses, nobles))
    if len(meet) > 1:
        return State(state.n, state.strict, supply, decks, market, nobles, players, state.seat, NOBLE,
                     state.turns, passes, state.last_round)
    if meet:
        return _visited(state, seat, supply, decks, market, players, passes, meet[0])
    return _ended(state, supply, decks, market, nobles, players, passes)


def _visited(state: State, seat: int, supply: tuple, decks: tuple, market: tuple, players: tuple, passes: int,
             noble: int) -> State:
    player = players[seat]
    player = player._replace(points=player.points + NOBLE_POINTS, nobles=player.nobles + (noble,))
    return _ended(state, supply, decks, market, tuple(x for x in state.nobles if x != noble),
                  _with(players, seat, player), passes)


def _ended(state: State, supply: tuple, decks: tuple, market: tuple, nobles: tuple, players: tuple,
           passes: int) -> State:
    """rules.end_turn: the next seat, or scoring once the last round is complete."""
    n = state.n
    nxt = (state.seat + 1) % n
    last_round = state.last_round
    if not last_round:
        for player in players:
            if player.points >= WINNING_POINTS:
                last_round = True
                break
    phase = SCORE if (last_round and nxt == 0) or passes >= n else PLAY
    return State(n, state.strict, supply, decks, market, nobles, players, nxt, phase, state.turns + 1, passes,
                 last_round)


def _take_from_market(state: State, card: int) -> tuple:
    """(decks, market) once a face-up card is gone and its slot refilled from its deck."""
    row = CARDS[card].level - 1
    deck = state.decks[row]
    slots = state.market[row]
    slot = slots.index(card)
    if deck:
        slots, deck = _with(slots, slot, deck[0]), deck[1:]
    else:
        slots = _with(slots, slot, EMPTY)
    return _with(state.decks, row, deck), _with(state.market, row, slots)


def take(state: State, seat: int, taken: tuple) -> State:
    """A gem take (take_gems or take_two) of these 6 counts."""
    player = state.players[seat]
    t0, t1, t2, t3, t4, t5 = player.tokens
    k0, k1, k2, k3, k4, k5 = taken
    s0, s1, s2, s3, s4, s5 = state.supply
    player = Player((t0 + k0, t1 + k1, t2 + k2, t3 + k3, t4 + k4, t5 + k5), player.bonuses, player.points,
                    player.bought, player.reserved, player.blind, player.nobles)
    return _close(state, seat, (s0 - k0, s1 - k1, s2 - k2, s3 - k3, s4 - k4, s5 - k5), state.decks, state.market,
                  _with(state.players, seat, player), 0, True)


def buy(state: State, seat: int, card: int, paid: tuple) -> State:
    """Buying a card (face-up or reserved) with these 6 counts of tokens."""
    player = state.players[seat]
    info = CARDS[card]
    reserved, blind = player.reserved, player.blind
    if card in reserved:
        reserved = tuple(c for c in reserved if c != card)
        blind = tuple(c for c in blind if c != card)
        decks, market = state.decks, state.market
    else:
        decks, market = _take_from_market(state, card)
    bonuses, colour = player.bonuses, info.bonus
    t0, t1, t2, t3, t4, t5 = player.tokens
    p0, p1, p2, p3, p4, p5 = paid
    s0, s1, s2, s3, s4, s5 = state.supply
    player = Player((t0 - p0, t1 - p1, t2 - p2, t3 - p3, t4 - p4, t5 - p5),
                    _with(bonuses, colour, bonuses[colour] + 1), player.points + info.points,
                    player.bought + (card,), reserved, blind, player.nobles)
    return _close(state, seat, (s0 + p0, s1 + p1, s2 + p2, s3 + p3, s4 + p4, s5 + p5), decks, market,
                  _with(state.players, seat, player), 0, True)


def reserve(state: State, seat: int, card: int | None, level: int = 0) -> State:
    """Reserving a face-up card, or (card None) the top of deck `level` (1-3) blind."""
    player = state.players[seat]
    gold = 1 if state.supply[5] > 0 else 0
    blind = player.blind
    if card is None:
        row = level - 1
        card = state.decks[row][0]
        decks, market = _with(state.decks, row, state.decks[row][1:]), state.market
        blind = blind + (card,)
    else:
        decks, market = _take_from_market(state, card)
    tokens = player.tokens[:5] + (player.tokens[5] + gold,)
    player = Player(tokens, player.bonuses, player.points, player.bought, player.reserved + (card,), blind,
                    player.nobles)
    return _close(state, seat, state.supply[:5] + (state.supply[5] - gold,), decks, market,
                  _with(state.players, seat, player), 0, True)


def give_back(state: State, seat: int, back: tuple) -> State:
    """Returning these 6 counts of tokens (the RETURN phase)."""
    player = state.players[seat]
    player = player._replace(tokens=tuple(a - b for a, b in zip(player.tokens, back)))
    return _close(state, seat, tuple(a + b for a, b in zip(state.supply, back)), state.decks, state.market,
                  _with(state.players, seat, player), state.passes, False)


def play(state: State, actor: Actor, move: Move, rng: random.Random | None = None) -> State:
    """The state after `move` (one of `legal_moves(state, actor)`), as decide + evolve give it."""
    kind = move["type"]
    if kind == "score_game":
        return state._replace(phase=OVER)
    seat = actor if isinstance(actor, int) else state.seat  # a seat acts in every phase but scoring
    if kind == "take_gems":
        taken = [0, 0, 0, 0, 0, 0]
        for name in move["colors"]:
            taken[COLOR_INDEX[name]] = 1
        return take(state, seat, tuple(taken))
    if kind == "take_two":
        taken = [0, 0, 0, 0, 0, 0]
        taken[COLOR_INDEX[move["color"]]] = 2
        return take(state, seat, tuple(taken))
    if kind == "buy":
        return buy(state, seat, CARD_BY_ID[move["card"]], tuple(_counts(move["payment"])))
    if kind == "reserve":
        return reserve(state, seat, CARD_BY_ID[move["card"]])
    if kind == "reserve_blind":
        return reserve(state, seat, None, move["level"])
    if kind == "return_tokens":
        return give_back(state, seat, tuple(_counts(move["tokens"])))
    if kind == "choose_noble":
        return _visited(state, seat, state.supply, state.decks, state.market, state.players, state.passes,
                        NOBLE_BY_ID[move["noble"]])
    if kind == "pass":
        return _close(state, seat, state.supply, state.decks, state.market, state.players, state.passes + 1, False)
    raise ValueError(f"not a Splendor move: {kind!r}")
