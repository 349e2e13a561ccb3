"""Bot policies: `random`, `greedy` and `expert`. A policy returns one of legal_moves(state, seat).

greedy: buys the most valuable card it can afford (points, then usefulness for nobles, spending
as little gold as possible); otherwise picks a target card (value per missing token) and takes
the gems that bring it closest; reserves a strong target only when gems cannot help; returns
the tokens it needs least. It reads only what its seat may see (the public state and its own
reserve), never deck order.

expert: information-set Monte Carlo tree search (domain/search.py, SearchSpec.information_sets:
one tree over what the seat knows, a fresh determinization per iteration, so the cards a buy
reveals are drawn afresh each time) over the moves greedy rates best (`_prune`), with greedy as
the playout policy and `_evaluate` (a smoothed lead in points, engine and noble progress) where
a playout stops. Like every level it is handed a determinization of the state
(domain/play.py), and draws more of them itself. It replaced root-parallel determinized UCT
(400 iterations in 4 worlds) at the same CPU per decision (issue 56, bench/README.md).
"""
from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

from ..contract import Policy
from ..search import Searcher, SearchRules, SearchSpec, rewards
from .data import (
    CARD_BY_ID,
    CARD_IDS,
    CARDS,
    COLOR_INDEX,
    COLORS,
    GOLD,
    NOBLES,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    TOKEN_NAMES,
)
from .decide import decide
from .determinize import determinize
from .moves import _CHOICES, COSTS, legal_moves, payments, return_choices
from .rules import evolve, result
from .searchplay import buy, give_back, reserve, take
from .searchplay import play as search_play
from .state import EMPTY, NOBLE, OVER, PLAY, RETURN, SCORE, State, gold_shortfall, need_after_bonuses
from .views import actors

if TYPE_CHECKING:
    from domain.contract import Move


def random_policy(state: State, seat: int, rng: random.Random) -> dict:
    return rng.choice(legal_moves(state, seat))


def _card_value(state: State, seat: int, card: int) -> float:
    """Points, plus a little for the bonus (an engine) and more when a noble wants it."""
    info = CARDS[card]
    bonuses = state.players[seat].bonuses
    noble_help = sum(1 for x in state.nobles if NOBLES[x].requires[info.bonus] > bonuses[info.bonus])
    return info.points + 0.6 + 0.3 * noble_help


def _missing(state: State, seat: int, card: int, tokens: tuple[int, ...] | None = None) -> int:
    """Tokens the seat still lacks for a card, gold counted."""
    player = state.players[seat]
    return _lacking(card, player.bonuses, player.tokens if tokens is None else tokens)


@lru_cache(maxsize=1 << 16)
def _lacking(card: int, bonuses: tuple, tokens: tuple) -> int:
    """_missing's pure part, memoized (issue 56: a third of an expert decision's CPU was this,
    recomputed by every rollout step's gem ranking for the same few bonus/token tuples)."""
    need = need_after_bonuses(CARDS[card].cost, bonuses)
    return max(0, gold_shortfall(need, tokens) - tokens[GOLD])


def _candidates(state: State, seat: int) -> list:
    cards = [c for row in state.market for c in row if c != EMPTY]
    return cards + list(state.players[seat].reserved)


def _target(state: State, seat: int) -> int | None:
    """The card worth most per missing token (face-up or own reserve)."""
    best, best_score = None, -1.0
    for card in _candidates(state, seat):
        score = _card_value(state, seat, card) / (1 + _missing(state, seat, card))
        if score > best_score:
            best, best_score = card, score
    return best


def _gain(state: State, seat: int, taken: dict, targets: list) -> float:
    """How much a set of taken gems reduces what the target cards lack (first target counts most)."""
    tokens = list(state.players[seat].tokens)
    for name, n in taken.items():
        tokens[COLOR_INDEX[name]] += n
    gain = 0.0
    for weight, card in zip((3.0, 1.0, 0.5), targets):
        gain += weight * (_missing(state, seat, card) - _missing(state, seat, card, tuple(tokens)))
    return gain


def _play(state: State, seat: int, moves: list, rng: random.Random) -> dict:
    buys = [m for m in moves if m["type"] == "buy"]
    if buys:
        return max(buys, key=lambda m: (_card_value(state, seat, CARD_BY_ID[m["card"]]),
                                        -m["payment"].get("gold", 0), rng.random()))
    ranked = sorted(_candidates(state, seat),
                    key=lambda c: -_card_value(state, seat, c) / (1 + _missing(state, seat, c)))
    targets = ranked[:3]
    best, best_gain = None, 0.0
    for m in moves:
        if m["type"] == "take_gems":
            taken = {c: 1 for c in m["colors"]}
        elif m["type"] == "take_two":
            taken = {m["color"]: 2}
        else:
            continue
        gain = _gain(state, seat, taken, targets) + 0.01 * rng.random()
        if gain > best_gain:
            best, best_gain = m, gain
    if best is not None:
        return best
    reserves = [m for m in moves if m["type"] == "reserve"]
    if reserves and targets:
        wanted = {CARDS[targets[0]].id}
        for m in reserves:
            if m["card"] in wanted:
                return m
    gems = [m for m in moves if m["type"] in ("take_gems", "take_two")]
    return rng.choice(gems or moves)


def _return(state: State, seat: int, moves: list, rng: random.Random) -> dict:
    """Keep what the target card needs: return the tokens whose loss hurts it least (gold last)."""
    target = _target(state, seat)
    tokens = state.players[seat].tokens

    def cost(move: Move) -> tuple[int, int, float]:
        left = list(tokens)
        for name, n in move["tokens"].items():
            left[COLOR_INDEX[name]] -= n
        hurt = _missing(state, seat, target, tuple(left)) if target is not None else 0
        return (hurt, move["tokens"].get("gold", 0), rng.random())

    return min(moves, key=cost)


def greedy_policy(state: State, seat: int, rng: random.Random) -> dict:
    moves = legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    if state.phase == PLAY:
        return _play(state, seat, moves, rng)
    if state.phase == RETURN:
        return _return(state, seat, moves, rng)
    if state.phase == NOBLE:
        return moves[0]
    return rng.choice(moves)


# ---- greedy, the expert's playouts: the same moves, cheaper ------------------------------------

# A playout's move before it is a dict (issue 56): (kind, what the dict names, the 6 token
# counts it moves), or a move dict where greedy_rollout defers to greedy_policy. `_rollout_step`
# applies it directly (searchplay's take / buy / reserve / give_back), `greedy_rollout` writes
# it out as the move dict greedy_policy returns.
_BUY, _GEMS, _TWO, _RESERVE, _RETURN = "buy", "take_gems", "take_two", "reserve", "return_tokens"


def greedy_rollout(state: State, seat: int, rng: random.Random) -> dict:
    """`greedy_policy`'s move, with the same draws from `rng` (so a search decides exactly as
    with greedy_policy: issue 56), without building every legal move (`_rollout_choice`).
    tests/splendor/test_rollout_equivalence.py checks the two agree, move and rng."""
    choice = _rollout_choice(state, seat, rng)
    if type(choice) is dict:
        return choice
    kind, what, _counts = choice
    if kind == _BUY:
        return {"type": _BUY, "card": CARD_IDS[what[0]], "payment": dict(what[1])}
    if kind == _GEMS:
        return {"type": _GEMS, "colors": list(what)}
    if kind == _TWO:
        return {"type": _TWO, "color": what}
    if kind == _RESERVE:
        return {"type": _RESERVE, "card": CARD_IDS[what]}
    return {"type": _RETURN, "tokens": dict(what)}


def _rollout_step(state: State, seat: int, rng: random.Random) -> State:
    """search_play(state, seat, greedy_rollout(state, seat, rng)): the same state and draws,
    without the move dict written and read back (tests/splendor/test_rollout_equivalence.py)."""
    choice = _rollout_choice(state, seat, rng)
    if type(choice) is dict:
        return search_play(state, seat, choice, rng)
    kind, what, counts = choice
    if kind == _GEMS or kind == _TWO:
        return take(state, seat, counts)
    if kind == _BUY:
        return buy(state, seat, what[0], counts)
    if kind == _RESERVE:
        return reserve(state, seat, what)
    return give_back(state, seat, counts)


def _rollout_choice(state: State, seat: int, rng: random.Random) -> tuple | dict:
    """greedy_policy's choice. At a PLAY decision each candidate card's shortfall (the tokens
    its cost exceeds bonuses + tokens by) is computed once a step: a card is bought only when
    gold covers it (only those cards' payments are listed; a card gold covers exactly has one
    payment, written out only if it wins), and a gem take's gain for a target
    is that shortfall less what the take covers, in integers, summed in greedy's order (the same
    floats). Reserves are not listed (greedy reserves only its first target). A return of tokens
    ranks the ways to return as `_return` does (`_rollout_return`). Elsewhere (and with a
    single legal move) it is greedy_policy."""
    if seat != state.seat:
        return greedy_policy(state, seat, rng)
    if state.phase != PLAY:
        if state.phase == RETURN:
            return _rollout_return(state, seat, rng)
        return greedy_policy(state, seat, rng)
    player = state.players[seat]
    bonuses, tokens = player.bonuses, player.tokens
    gold = tokens[GOLD]
    b0, b1, b2, b3, b4 = bonuses
    h0, h1, h2, h3, h4 = b0 + tokens[0], b1 + tokens[1], b2 + tokens[2], b3 + tokens[3], b4 + tokens[4]
    market = [c for row in state.market for c in row if c != EMPTY]
    reserved = player.reserved
    cards = market + list(reserved) if reserved else market
    short = _shortfalls(h0, h1, h2, h3, h4)
    buys = []
    for card in cards:
        d = short[card]
        if d == gold:  # one way to pay (gold fills the gaps exactly): listed once it wins
            buys.append((card, d, None))
        elif d < gold:
            for pay in _payments(card, bonuses, tokens):
                buys.append((card, pay[1][GOLD], pay))
    supply = state.supply
    gem_sets = _gem_sets(supply, state.strict)
    twos = [i for i in range(5) if supply[i] >= 4]
    can_reserve = len(reserved) < RESERVE_LIMIT
    count = len(buys) + len(gem_sets) + len(twos)
    if can_reserve:
        decks = state.decks
        count += len(market) + (1 if decks[0] else 0) + (1 if decks[1] else 0) + (1 if decks[2] else 0)
    if count <= 1:
        return greedy_policy(state, seat, rng)  # one move (or a pass): as greedy, no draw
    value = _card_values(state.nobles, bonuses)
    if buys:
        card, used, pay = max(buys, key=lambda b: (value[b[0]], -b[1], rng.random()))
        if pay is None:
            pay = _exact_payment(card, bonuses, tokens, used)
        return _BUY, (card, pay[0]), pay[1]
    return _rollout_no_buy(state, seat, rng, (market, cards, short, (h0, h1, h2, h3, h4)), value,
                           gem_sets, twos, can_reserve)


def _rollout_no_buy(state: State, seat: int, rng: random.Random, seen: tuple, value: tuple,
                    gem_sets: tuple, twos: list, can_reserve: bool) -> tuple | dict:
    """greedy's `_play` when nothing can be bought: the gem take that brings its targets closest
    (one draw per take, as `_play`), else reserving its first target, else a random take."""
    market, cards, short, have = seen
    gold = state.players[seat].tokens[GOLD]
    if gold:
        lacking = {card: short[card] - gold if short[card] > gold else 0 for card in cards}
    else:
        lacking = short
    rank = {c: -value[c] / (1 + lacking[c]) for c in cards}  # (a card listed twice: the same key)
    ranked = sorted(cards, key=rank.__getitem__)
    targets = ranked[:3]
    weighted = _weighted(targets, have, short, gold)
    best, best_gain = None, 0.0
    for gem_set in gem_sets:
        bits = gem_set[1]
        gain = 0.0
        for weight, over, lacked, _gaps, lacks in weighted:
            after = over - (lacks & bits).bit_count()  # one token of each colour taken
            gain += weight * (lacked - (after if after > 0 else 0))
        gain += 0.01 * rng.random()
        if gain > best_gain:
            best, best_gain = gem_set, gain
    best_two = None
    for i in twos:
        gain = 0.0
        for weight, over, lacked, gaps, _lacks in weighted:
            after = over - min(gaps[i], 2)
            gain += weight * (lacked - (after if after > 0 else 0))
        gain += 0.01 * rng.random()
        if gain > best_gain:
            best_two, best_gain = i, gain
    if best_two is not None:
        return _TWO, COLORS[best_two], _TAKE_TWO[best_two]
    if best is not None:
        return _GEMS, best[0], best[2]
    if can_reserve and market and targets and targets[0] in market:
        return _RESERVE, targets[0], None
    gems = [(_GEMS, colors, taken) for colors, _bits, taken in gem_sets] + \
        [(_TWO, COLORS[i], _TAKE_TWO[i]) for i in twos]
    if gems:
        return rng.choice(gems)
    return rng.choice(legal_moves(state, seat))


def _deficits(color: int, have: int) -> int:
    """Every card's lack in one colour for a holding of `have`, a byte per card (card i at byte i)."""
    return sum(max(0, cost[color] - have) << (8 * card) for card, cost in enumerate(COSTS))


_MOST = max(max(cost) for cost in COSTS)  # a holding above the dearest cost lacks nothing
_DEFICITS = tuple(tuple(_deficits(color, have) for have in range(_MOST + 1)) for color in range(5))


def _shortfalls(h0: int, h1: int, h2: int, h3: int, h4: int) -> bytes:
    """Every card's shortfall (the tokens its cost exceeds these holdings, bonuses + tokens, by:
    the sum over colours), indexed by card: five packed integers added, each byte a card's sum
    (at most 35, so no byte carries into the next). Issue 56: the per-card loop of five
    comparisons was the playout's largest cost."""
    d0, d1, d2, d3, d4 = _DEFICITS
    most = _MOST
    total = d0[h0 if h0 < most else most] + d1[h1 if h1 < most else most] + d2[h2 if h2 < most else most] \
        + d3[h3 if h3 < most else most] + d4[h4 if h4 < most else most]
    return total.to_bytes(len(COSTS), "little")


def _weighted(targets: list, have: tuple, short: bytes, gold: int) -> list:
    """What a gem take's gain (`_gain`) reads of each target, with its weight: (weight, its
    shortfall less gold, the tokens it lacks (`_missing`), its gap per colour, the colours it
    wants as bits). Taking k of colour i leaves it lacking max(0, shortfall - gold - min(gap_i,
    k) summed over the colours taken): the same integers as `_missing` after the take."""
    weighted = []
    h0, h1, h2, h3, h4 = have
    for weight, card in zip((3.0, 1.0, 0.5), targets):
        c0, c1, c2, c3, c4 = COSTS[card]
        gaps = (c0 - h0 if c0 > h0 else 0, c1 - h1 if c1 > h1 else 0, c2 - h2 if c2 > h2 else 0,
                c3 - h3 if c3 > h3 else 0, c4 - h4 if c4 > h4 else 0)
        lacks = (c0 > h0) | (c1 > h1) << 1 | (c2 > h2) << 2 | (c3 > h3) << 3 | (c4 > h4) << 4  # colours it wants
        over = short[card] - gold
        weighted.append((weight, over, over if over > 0 else 0, gaps, lacks))
    return weighted


def _take_gain(weighted: list, move: dict) -> float:
    """`_gain` of a take_gems or take_two move from its targets' `_weighted`: the same floats."""
    gain = 0.0
    if move["type"] == "take_two":
        i = COLOR_INDEX[move["color"]]
        for weight, over, lacked, gaps, _lacks in weighted:
            after = over - min(gaps[i], 2)
            gain += weight * (lacked - (after if after > 0 else 0))
        return gain
    bits = 0
    for name in move["colors"]:
        bits |= 1 << COLOR_INDEX[name]
    for weight, over, lacked, _gaps, lacks in weighted:
        after = over - (lacks & bits).bit_count()
        gain += weight * (lacked - (after if after > 0 else 0))
    return gain


def _rollout_return(state: State, seat: int, rng: random.Random) -> tuple:
    """greedy's `_return`: the way to return (listed as legal_moves lists them) with the least
    (hurt to its target, gold returned, a draw), one draw per way, none when there is one way."""
    player = state.players[seat]
    ways = _returns(player.tokens)
    if len(ways) == 1:
        return ways[0][0]
    target = _rollout_target(state, seat)
    bonuses = player.bonuses
    best, best_key = ways[0], None
    for way in ways:
        key = (_lacking(target, bonuses, way[1]) if target is not None else 0, way[0][2][GOLD], rng.random())
        if best_key is None or key < best_key:  # min(): the first of equals
            best, best_key = way, key
    return best[0]


def _rollout_target(state: State, seat: int) -> int | None:
    """`_target` from every card's shortfall and value at once: the same scores, the same card."""
    player = state.players[seat]
    bonuses, tokens = player.bonuses, player.tokens
    short = _shortfalls(*(b + t for b, t in zip(bonuses, tokens)))
    value = _card_values(state.nobles, bonuses)
    gold = tokens[GOLD]
    best, best_score = None, -1.0
    for card in _candidates(state, seat):
        d = short[card]
        score = value[card] / (1 + (d - gold if d > gold else 0))
        if score > best_score:
            best, best_score = card, score
    return best


_RETURNS: dict = {}  # tokens -> per way to return the excess (in return_choices' order): (choice, tokens left)


def _returns(tokens: tuple) -> tuple:
    got = _RETURNS.get(tokens)
    if got is None:
        if len(_RETURNS) > 1 << 14:
            _RETURNS.clear()
        ways = []
        for back in return_choices(tokens, sum(tokens) - TOKEN_LIMIT):
            counts = tuple(back.get(name, 0) for name in TOKEN_NAMES)
            ways.append(((_RETURN, back, counts), tuple(t - c for t, c in zip(tokens, counts))))
        got = _RETURNS[tokens] = tuple(ways)
    return got


def _taken(colors: tuple) -> tuple:
    return tuple(1 if name in colors else 0 for name in TOKEN_NAMES)


_GEM_SETS = {(mask, strict): tuple((colors, sum(1 << COLOR_INDEX[c] for c in colors), _taken(colors))
                                   for colors in choices)
             for mask, choices in _CHOICES.items() for strict in (False, True)
             if not (strict and choices and len(choices[0]) < 3)}
_TAKE_TWO = tuple(tuple(2 if j == i else 0 for j in range(6)) for i in range(5))


def _gem_sets(supply: tuple, strict: bool) -> tuple:
    """take_gem_choices (the same sets, in the same order) as (colours, bitmask of them, the 6
    counts taken) triples."""
    mask = (1 if supply[0] else 0) | (2 if supply[1] else 0) | (4 if supply[2] else 0) | (8 if supply[3] else 0) \
        | (16 if supply[4] else 0)
    return _GEM_SETS.get((mask, strict), ())


_VALUES: dict = {}


def _card_values(nobles: tuple, bonuses: tuple) -> tuple:
    """`_card_value` of every card (indexed by card) for these nobles on the table and bonuses:
    the same floats (points + 0.6 + 0.3 x the nobles that still want its colour)."""
    key = (nobles, bonuses)
    got = _VALUES.get(key)
    if got is None:
        if len(_VALUES) > 1 << 12:
            _VALUES.clear()
        requires = [NOBLES[x].requires for x in nobles]
        help_ = [sum(1 for r in requires if r[i] > bonuses[i]) for i in range(5)]
        got = _VALUES[key] = tuple(info.points + 0.6 + 0.3 * help_[info.bonus] for info in CARDS)
    return got


def _exact_payment(card: int, bonuses: tuple, tokens: tuple, gold: int) -> tuple:
    """`_payments`' one pair for a card whose gaps `gold` fills exactly (moves.payments' first
    branch: each colour's tokens up to its need after bonuses, the rest gold), unmemoized."""
    cost = COSTS[card]
    pay: dict = {}
    counts = [0, 0, 0, 0, 0, gold]
    for i in range(5):
        n = cost[i] - bonuses[i]
        if n > 0:
            k = n if n < tokens[i] else tokens[i]
            if k:
                pay[COLORS[i]] = counts[i] = k
    if gold:
        pay["gold"] = gold
    return pay, tuple(counts)


@lru_cache(maxsize=1 << 15)
def _payments(card: int, bonuses: tuple, tokens: tuple) -> tuple:
    """`payments` of a card as (payment, its 6 counts) pairs, memoized for the playouts (the
    same few bonus/token tuples recur through a search); shared: a move gets a copy."""
    return tuple((pay, tuple(pay.get(name, 0) for name in TOKEN_NAMES))
                 for pay in payments(COSTS[card], bonuses, tokens))


# ---- expert: search -----------------------------------------------------------------------

RULES = SearchRules(legal_moves=legal_moves, decide=decide, evolve=evolve, actors=actors, result=result,
                    determinize=determinize, play=search_play)


def _gems_of(move: dict) -> dict | None:
    if move["type"] == "take_gems":
        return {c: 1 for c in move["colors"]}
    if move["type"] == "take_two":
        return {move["color"]: 2}
    return None


GEM_MOVES_KEPT = 5
RESERVES_KEPT = 2
RETURNS_KEPT = 3


def _prune(state: State, seat: int, moves: list[Move]) -> list[Move]:
    """The moves worth searching, from what the seat sees: every card it can buy (its payment
    spending the least gold), the gem takes greedy rates best, reserving its best targets."""
    if state.phase == RETURN:
        return sorted(moves, key=lambda m: _return_cost(state, seat, m))[:RETURNS_KEPT]
    if state.phase != PLAY:
        return moves
    buys: dict = {}
    gems, reserves = [], []
    for m in moves:
        kind = m["type"]
        if kind == "buy":
            best = buys.get(m["card"])
            if best is None or m["payment"].get("gold", 0) < best["payment"].get("gold", 0):
                buys[m["card"]] = m
        elif kind in ("take_gems", "take_two"):
            gems.append(m)
        elif kind == "reserve":
            reserves.append(m)
    player = state.players[seat]
    have = tuple(b + t for b, t in zip(player.bonuses, player.tokens))
    short, gold = _shortfalls(*have), player.tokens[GOLD]
    value = _card_values(state.nobles, player.bonuses)  # _card_value; max(0, short - gold) is _missing
    ranked = sorted(_candidates(state, seat),
                    key=lambda c: (-value[c] / (1 + (short[c] - gold if short[c] > gold else 0)), c))
    targets = ranked[:3]
    weighted = _weighted(targets, have, short, gold)
    gems.sort(key=lambda m: -_take_gain(weighted, m))  # -_gain(state, seat, _gems_of(m), targets)
    wanted = [CARDS[c].id for c in ranked]
    reserves.sort(key=lambda m: wanted.index(m["card"]) if m["card"] in wanted else len(wanted))
    kept = list(buys.values()) + gems[:GEM_MOVES_KEPT] + reserves[:RESERVES_KEPT]
    return kept or moves


def _return_cost(state: State, seat: int, move: dict) -> tuple:
    target = _target(state, seat)
    left = list(state.players[seat].tokens)
    for name, n in move["tokens"].items():
        left[COLOR_INDEX[name]] -= n
    hurt = _missing(state, seat, target, tuple(left)) if target is not None else 0
    return (hurt, move["tokens"].get("gold", 0), sorted(move["tokens"].items()))


def _worth(state: State, seat: int) -> float:
    """A seat's standing: points, plus its engine (bonuses), tokens in hand and noble progress."""
    player = state.players[seat]
    bonuses = player.bonuses
    worth = player.points + BONUS_WORTH * sum(bonuses) + TOKEN_WORTH * sum(player.tokens) \
        + GOLD_WORTH * player.tokens[GOLD]
    for x in state.nobles:
        requires = NOBLES[x].requires
        lacking = sum(r - b for r, b in zip(requires, bonuses) if r > b)
        worth += NOBLE_WORTH / (1 + lacking)
    return worth


BONUS_WORTH, TOKEN_WORTH, GOLD_WORTH, NOBLE_WORTH, LEAD_SCALE = 0.8, 0.15, 0.1, 1.0, 3.0


_LAST_WORTHS: list = [(None, None)]  # (state, each seat's worth): a playout's end is valued for every seat


def _evaluate(state: State, seat: int) -> float:
    """A value in [0, 1]: the seat's lead over its strongest rival, through a logistic. The
    seats' worths of the last state valued are kept (issue 56: a search values the same playout
    end once per seat); the pair is read and replaced whole, so threads at worst recompute."""
    last, worths = _LAST_WORTHS[0]
    if last is not state:
        worths = [_worth(state, s) for s in range(state.n)]
        _LAST_WORTHS[0] = (state, worths)
    mine = worths[seat]
    rival = max(w for s, w in enumerate(worths) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - rival) / LEAD_SCALE))


def _evaluations(state: State) -> list:
    """`_evaluate` of every seat, the worths computed once: the same floats."""
    worths = [_worth(state, s) for s in range(state.n)]
    values = []
    for seat, mine in enumerate(worths):
        rival = max(w for s, w in enumerate(worths) if s != seat)
        values.append(1.0 / (1.0 + math.exp(-(mine - rival) / LEAD_SCALE)))
    return values


DEPTH = 12  # playout moves before `_evaluate`


def _playout(state: State, rng: random.Random) -> list:
    """The search's playout (domain/search.py's generic one) with its loop written for Splendor
    (issue 56): `greedy_rollout` for the seat to act, the system's scoring as `score_game`,
    `search_play` for every move, at most DEPTH moves, then the result or `_evaluate` for every
    seat: the same moves, draws and rewards (tests/splendor/test_rollout_equivalence.py)."""
    for _ in range(DEPTH):
        phase = state.phase
        if phase == OVER:
            return rewards(result(state), state.n)
        if phase == SCORE:
            state = state._replace(phase=OVER)  # search_play of score_game, the system's one move
            continue
        state = _rollout_step(state, state.seat, rng)
    if state.phase == OVER:
        return rewards(result(state), state.n)
    return _evaluations(state)


expert_policy = Searcher(RULES, lambda state: state.n, SearchSpec(
    iterations=240, rollout=greedy_rollout, evaluate=_evaluate, depth=DEPTH, determinizations=4,
    exploration=0.7, prune=_prune, playout=_playout, information_sets=True))
# 240 information-set iterations cost what 400 per-world ones did (each draws its own world and
# replays its path): 4.79 s against 4.59 s of CPU over 40 positions, decided in turn.


SEARCH = expert_policy  # what a game's analysis values its positions with (domain/analysis.py)
BOTS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "expert": expert_policy}
