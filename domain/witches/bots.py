"""Bot policies: `random`; `careful`, a Hearts-style player that passes its dangerous
cards, ducks under the winning card, hides behind wizards and dumps penalties when void; and
`expert`, a determinized Monte Carlo tree search (domain/search.py) over the rest of the round,
with `careful` as its playout policy and the projected totals as its evaluation.

Every level is handed a determinization of the state (domain/play.py's bot_move): the other
hands are resampled, so a bot reads only its own hand and the public cards."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from domain.contract import is_seat
from domain.search import Searcher, SearchRules, SearchSpec, collector_paused

from .cards import AIR_WITCH, COLOUR, COLOURS, DECK, EARTH_WITCH, FIRE_WITCH, PYGMY_QUEEN, VALUE, WATER_WITCH, WIZARD
from .determinize import determinize
from .evolve import evolve
from .moves import actors, legal_moves, playable
from .rules import decide
from .scoring import (
    EARTH_RELIEF,
    FIRE_CAP,
    SPELLS,
    WATER_POINTS,
    find_spell,
    score_round,
    spell_needs_choice,
)
from .state import (
    PASS_COUNT,
    PASSING,
    PLAYING,
    SCORING,
    SPELL_CHOICE,
    Options,
    State,
    led_colour,
    to_play,
    trick_winner,
)
from .views import result

if TYPE_CHECKING:
    from domain.contract import Actor, Event, Move


def random_bot(state: State, seat: int, rng: random.Random) -> dict:
    if state.phase == PASSING:
        # Same distribution as choosing among legal_moves, without listing every combination.
        hand = state.hands[seat]
        picked = sorted(rng.sample(range(len(hand)), PASS_COUNT[state.n]))
        return {"type": "pass_cards", "cards": [hand[i] for i in picked]}
    return rng.choice(legal_moves(state, seat))


def careful_bot(state: State, seat: int, rng: random.Random) -> dict:
    if state.phase == PASSING:
        return {"type": "pass_cards", "cards": _pass_choice(state.hands[seat], PASS_COUNT[state.n])}
    if state.phase == PLAYING:
        return {"type": "play", "card": _play_choice(state, seat)}
    if state.phase == SPELL_CHOICE:
        return {"type": "choose_spell", "choice": _spell_choice(state, seat)}
    return legal_moves(state, seat)[0]


# How much a card hurts to hold (it may win a trick full of points, or be a penalty itself).
_DANGER = {PYGMY_QUEEN: 100, WATER_WITCH: 80, FIRE_WITCH: 70, EARTH_WITCH: -50, AIR_WITCH: -5}


def _danger(card: str) -> int:
    return _DANGER_OF[card]


def _danger_of(card: str) -> int:
    if card in _DANGER:
        return _DANGER[card]
    colour, value = COLOUR[card], VALUE[card]
    if colour == WIZARD:
        return -100  # a wizard is a free duck: keep it
    if colour == "green" and value > 12:
        return 40 + value  # could be forced to catch the Pygmy Queen
    if colour == "red":
        return 20 + value if value >= 8 else value
    return value


_DANGER_OF = {c: _danger_of(c) for c in DECK}


def _pass_choice(hand: Sequence[str], k: int) -> list[str]:
    worst = sorted(hand, key=lambda c: (-_danger(c), c))[:k]
    return [c for c in hand if c in worst]  # hand order, as legal_moves lists it


def _card_penalty(c: str) -> int:
    price = (3 if c == FIRE_WITCH else 1) if COLOUR[c] == "red" else 0
    return price + {WATER_WITCH: 5, PYGMY_QUEEN: 10, EARTH_WITCH: -5}.get(c, 0)


_PENALTY = {c: _card_penalty(c) for c in DECK}  # per card, computed once (playouts ask it often)


def _penalty(cards: Iterable[str]) -> int:
    """A rough price of taking these cards."""
    return sum(_PENALTY[c] for c in cards)


def _play_choice(state: State, seat: int) -> str:
    options = playable(state, seat)
    colour = led_colour(state.trick)
    if colour is None:
        return _lead(options)
    follow = [c for c in options if COLOUR[c] == colour]
    wizards = [c for c in options if COLOUR[c] == WIZARD]
    if not follow:
        return _discard(options)
    best = max(VALUE[c] for _, c in state.trick if COLOUR[c] == colour)
    under = [c for c in follow if VALUE[c] < best]
    if under:
        return max(under, key=VALUE.__getitem__)  # duck as high as possible
    last = len(state.trick) == state.n - 1
    trick_cards = [c for _, c in state.trick]
    if wizards and (_penalty(trick_cards) > 0 or not last):
        return wizards[0]
    if last:
        safe = [c for c in follow if _PENALTY[c] <= 0] or follow
        return max(safe, key=VALUE.__getitem__)
    return min(follow, key=VALUE.__getitem__)


def _lead(options: Sequence[str]) -> str:
    plain = [c for c in options if COLOUR[c] != WIZARD and _PENALTY[c] <= 0 and c not in _DANGER]
    if plain:
        return min(plain, key=lambda c: (VALUE[c], c))
    wizards = [c for c in options if COLOUR[c] == WIZARD]
    if wizards:
        return wizards[0]
    return min(options, key=lambda c: (_danger(c), c))


def _discard(options: Sequence[str]) -> str:
    return max(options, key=lambda c: (_danger(c), c))


def _spell_choice(state: State, seat: int) -> str:
    """Give the points away when that ends the game with this seat alone in the lead."""
    assert state.spell is not None  # asked only in SPELL_CHOICE, which has a spell shown
    _, _, points = state.spell
    after = [t if s == seat else t + points for s, t in enumerate(state.totals)]
    alone_lowest = all(after[seat] < t for s, t in enumerate(after) if s != seat)
    return "others" if alone_lowest else "self"


# ---- expert: determinized MCTS over the rest of the round ---------------------------------------

_FINISH = {"type": "finish_round"}  # the playouts' one move: `careful` plays the round out


# Per card, for the playouts' inner loop (issue 56): its colour, value, price and `careful`'s keys.
_PLAIN = {c: COLOUR[c] != WIZARD and _PENALTY[c] <= 0 and c not in _DANGER for c in DECK}
_LEAD_KEY = {c: (VALUE[c], c) for c in DECK}
_DISCARD_KEY = {c: (_DANGER_OF[c], c) for c in DECK}


def _careful_card(hand: Sequence[str], led: str | None, best: int, price: int, last: bool) -> str:
    """`_play_choice` for a hand, given the trick's led colour (None: leading, or only wizards
    so far), the best value of that colour in it, the price of its cards and whether this card
    ends it: the same card, without rescanning the trick."""
    if led is None:
        plain = [c for c in hand if _PLAIN[c]]
        if plain:
            return min(plain, key=_LEAD_KEY.__getitem__)
        for c in hand:
            if COLOUR[c] == WIZARD:
                return c
        return min(hand, key=_DISCARD_KEY.__getitem__)
    follow = [c for c in hand if COLOUR[c] == led]
    if not follow:
        return max(hand, key=_DISCARD_KEY.__getitem__)
    under = [c for c in follow if VALUE[c] < best]
    if under:
        return max(under, key=VALUE.__getitem__)
    if price > 0 or not last:
        for c in hand:
            if COLOUR[c] == WIZARD:
                return c
    if last:
        safe = [c for c in follow if _PENALTY[c] <= 0] or follow
        return max(safe, key=VALUE.__getitem__)
    return min(follow, key=VALUE.__getitem__)


# careful's card, and the hand left, per (hand, led colour, best value, priced trick, last card):
# `_careful_card` reads these alone, and a search's playouts meet the same few hands of its
# worlds again and again (issue 56). A hand is a `_Hand`, found by its cards once a playout
# (`_HANDS`); each keeps careful's step per trick situation (a small int) with the `_Hand` left,
# so the playouts hash no tuple per card. Bounded; a thread at worst recomputes.
_COLOUR_CODE = {colour: i + 1 for i, colour in enumerate(COLOURS)} | {WIZARD: 5}  # led 0: none yet
_LED_NAME = (None,) + COLOURS
_INFO = {c: (_COLOUR_CODE[COLOUR[c]], VALUE[c], _PENALTY[c]) for c in DECK}  # colour code, value, price
MEMO_LIMIT = 1 << 16


class _Hand:
    __slots__ = ("cards", "steps", "plays")

    def __init__(self, cards: tuple):
        self.cards = cards
        self.steps: dict = {}  # situation -> careful's play there (one of `plays`)
        self.plays: dict = {}  # card -> (card, _Hand left, its colour code, value, price, summary)


_HANDS: dict = {}  # cards -> _Hand


def _hand(cards: tuple) -> _Hand:
    got = _HANDS.get(cards)
    if got is None:
        got = _HANDS[cards] = _Hand(cards)
    return got


def _play_of(hand: _Hand, card: str) -> tuple:
    """`card` (one of `hand`'s) played: (card, the `_Hand` of the cards left in the same order,
    the card's colour code, value, price, summary), one tuple per hand and card."""
    got = hand.plays.get(card)
    if got is None:
        cards = hand.cards
        at = cards.index(card)
        got = hand.plays[card] = (card, _hand(cards[:at] + cards[at + 1:])) + _INFO[card] + (_SUMMARY[card],)
    return got


def _careful_step(hand: _Hand, led: int, best: int, price: int, last: bool) -> tuple:
    return _play_of(hand, _careful_card(hand.cards, _LED_NAME[led], best, price, last))


def forget() -> None:
    """Empty the playouts' memos (`_HANDS`, `_RESTS`): an expert decision does once it is made,
    while the collector is still paused (issue 56), so the collector never walks a search's memo
    entries, nor the next search a larger table; a later search only recomputes."""
    _HANDS.clear()
    _RESTS.clear()
    _ENDS.clear()


def _finish_round(state: State) -> State:
    """The round played out by `careful` for every seat, fast (no events), to its scoring.
    The trick's led colour, best value and price are kept as cards fall (tests/witches/
    test_rollout_equivalence.py checks it against `_play_choice` played card by card), and
    careful's card is memoized (`_HANDS`)."""
    n = state.n
    taken_lists, leader = _play_tricks(state)
    taken = tuple(tuple(t) for t in taken_lists)
    spell = find_spell(taken)
    choice = None
    if spell is not None and spell_needs_choice(spell, state.totals, state.options):
        choice = _spell_choice(replace(state, spell=spell), spell[0])
    return _replaced(state, hands=((),) * n, trick=(), taken=taken, leader=leader, spell=spell,
                     spell_choice=choice, phase=SCORING, tricks_played=60 // n)


def _play_tricks(state: State) -> tuple[list, int]:
    """The rest of the round by `careful`: each seat's taken cards (lists) and the last leader."""
    if len(_HANDS) > MEMO_LIMIT:
        _HANDS.clear()
    hands = [_hand(h) for h in state.hands]
    taken_lists = [list(t) for t in state.taken]
    leader, trick = state.leader, state.trick
    while True:
        cards, leader = _trick(hands, leader, trick)
        taken_lists[leader].extend(cards)
        trick = ()
        if not hands[leader].cards:
            return taken_lists, leader


def _trick(hands: list, leader: int, trick: tuple) -> tuple[list, int]:
    """The trick (begun with `trick`) played out by `careful`: its cards and its winner; `hands`
    (of `_Hand`s) are left without the cards played. The led colour (a code, 0 while none),
    best value and price are kept as cards fall."""
    n = len(hands)
    info = _INFO
    led, best, best_seat, price = 0, -1, -1, 0
    cards = []
    for seat, card in trick:
        colour, value, penalty = info[card]
        if led == 0 and colour != 5:
            led = colour
        if colour == led and value > best:
            best, best_seat = value, seat
        price += penalty
        cards.append(card)
    first = trick[0][0] if trick else leader
    for k in range(len(trick), n):
        seat = (leader + k) % n
        hand = hands[seat]
        last = k == n - 1
        situation = ((led * 16 + best + 1) << 2) | (2 if price > 0 else 0) | last
        step = hand.steps.get(situation)
        if step is None:
            step = hand.steps[situation] = _careful_step(hand, led, best, price, last)
        card, hands[seat], colour, value, penalty, _ = step
        cards.append(card)
        if led == 0 and colour != 5:
            led = colour
        if colour == led and value > best:
            best, best_seat = value, seat
        price += penalty
    return cards, (first if led == 0 else best_seat)


# A card's part of a seat's score summary: 32 per red card, plus a bit per card that scoring names
# (each card is taken once, so a seat's summary is the sum of its cards': reds, and the bits held).
_FIRE, _WATER, _PYGMY, _AIR, _EARTH = 1, 2, 4, 8, 16
_SUMMARY = {c: (32 if COLOUR[c] == "red" else 0)
            + {FIRE_WITCH: _FIRE, WATER_WITCH: _WATER, PYGMY_QUEEN: _PYGMY, AIR_WITCH: _AIR,
               EARTH_WITCH: _EARTH}.get(c, 0) for c in DECK}


def _summaries(taken: Sequence[Sequence[str]]) -> list[int]:
    return [sum(map(_SUMMARY.__getitem__, cards)) for cards in taken]


def _round_totals(summaries: Sequence[int], totals: Sequence[int], options: Options) -> list[int]:
    """The totals `_projected_totals` gives once a round ends with these cards taken (each seat's
    `_SUMMARY` sum): its spell (find_spell), the caster's choice (`_spell_choice` when
    spell_needs_choice, else "others"), score_round's totals (seat_points); without the state."""
    spell = None
    for caster, summary in enumerate(summaries):  # find_spell
        if summary >> 5 >= 14:
            kind = SPELLS.get((bool(summary & _WATER), bool(summary & _PYGMY)))
            if kind is not None:
                spell = (caster,) + kind
            break
    if spell is None:
        points = [_seat_points(summary, options) for summary in summaries]
    else:
        caster, _, amount = spell
        choice = "others"
        if spell_needs_choice(spell, totals, options):
            after = [t if s == caster else t + amount for s, t in enumerate(totals)]
            if not all(after[caster] < t for s, t in enumerate(after) if s != caster):
                choice = "self"
        if choice == "self":
            points = [0] * len(totals)
            points[caster] = -amount
        else:
            points = [0 if s == caster else amount for s in range(len(totals))]
    return [max(t + p, 0) for t, p in zip(totals, points)]


def _seat_points(summary: int, options: Options) -> int:
    """scoring.seat_points (raw_points, then the Earth Witch) of the cards a summary stands for."""
    fire = (summary >> 5) - (1 if summary & _FIRE else 0)  # red cards but the Fire Witch
    if summary & _FIRE:
        fire = min(2 * fire, FIRE_CAP)
    raw = fire
    if not summary & _AIR:
        raw += WATER_POINTS if summary & _WATER else 0
        raw += options.pygmy_queen_points if summary & _PYGMY else 0
    if not summary & _EARTH:
        return raw
    if options.earth_witch_variant and raw < EARTH_RELIEF:
        return raw - EARTH_RELIEF
    return max(raw - EARTH_RELIEF, 0)


# A position between tricks, (leader, each seat's `_Hand`), decides the rest of the round under
# `careful`, and a search's playouts reach the same ones again and again (issue 56: 62% of the
# tricks Witches' expert played out came after one met before): what the rest adds to each seat's
# summary, per position. Its keys hold their `_Hand`s; emptied with `_HANDS`.
_RESTS: dict = {}
# A round's end, its seats' summaries packed, valued for every seat (`_values` of `_round_totals`),
# per (totals, options) before the round (issue 56: nine playouts in ten of a search end as one
# before did): one dict per round's start, which the tree's states hold (`_tracked`).
_ENDS: dict = {}


# The seats' summaries packed in one int (issue 56): `SUMMARY_BITS` bits a seat (a summary is at
# most 14 red cards' 32 each plus 31), so a trick's gain is added at its winner's place and a
# position's rest is one int (an int is nothing the collector tracks).
SUMMARY_BITS = 10
_SEAT_MASK = (1 << SUMMARY_BITS) - 1


def _packed(summaries: Sequence[int]) -> int:
    return sum(summary << (SUMMARY_BITS * seat) for seat, summary in enumerate(summaries))


def _unpacked(packed: int, n: int) -> list[int]:
    return [(packed >> (SUMMARY_BITS * seat)) & _SEAT_MASK for seat in range(n)]


def _tracked(state: State) -> tuple:
    """The state's hands as `_Hand`s, its seats' summaries packed and its round's `_ENDS`, kept on
    the state (issue 56: the tree's states hand them on to their children, `_card_played`, so a
    playout looks no hand up); valid while the state's hands are the tuple they were taken from
    (`_replaced` copies the entry to states it gives other hands). Only the search's own states
    meet it (its determinized worlds are copies: `determinize` replaces the hands of a playing
    state), never a state the server keeps or pickles."""
    memo = state.__dict__.get("_tracked")
    if memo is not None and memo[0] is state.hands:
        return memo
    ends = _ENDS.get((state.totals, state.options))
    if ends is None:
        ends = _ENDS[(state.totals, state.options)] = {}
    memo = (state.hands, tuple(_hand(h) for h in state.hands), _packed(_summaries(state.taken)), ends)
    state.__dict__["_tracked"] = memo
    return memo


def _trick_gain(hands: list, leader: int, trick: tuple) -> tuple[int, int]:
    """`_trick` for a playout: what the trick (begun with `trick`) adds to its winner's summary,
    and the winner; `hands` (of `_Hand`s) are left without the cards played. `_trick`'s loop
    written again on purpose: as `_trick` and a sum of its cards, an expert decision cost 5%
    more (bench.expert_cpu witches 24, twice, 0.95x at the same 24 moves)."""
    n = len(hands)
    info = _INFO
    led, best, best_seat, price, gain = 0, -1, -1, 0, 0
    for seat, card in trick:
        colour, value, penalty = info[card]
        if led == 0 and colour != 5:
            led = colour
        if colour == led and value > best:
            best, best_seat = value, seat
        price += penalty
        gain += _SUMMARY[card]
    first = trick[0][0] if trick else leader
    seat = (leader + len(trick)) % n
    for k in range(len(trick), n):
        hand = hands[seat]
        situation = ((led * 16 + best + 1) << 2) | (2 if price > 0 else 0) | (k == n - 1)
        step = hand.steps.get(situation)
        if step is None:
            step = hand.steps[situation] = _careful_step(hand, led, best, price, k == n - 1)
        _, hands[seat], colour, value, penalty, worth = step
        gain += worth
        if led == 0 and colour != 5:
            led = colour
        if colour == led and value > best:
            best, best_seat = value, seat
        price += penalty
        seat += 1
        if seat == n:
            seat = 0
    return gain, (first if led == 0 else best_seat)


def _playout(state: State, rng: random.Random) -> list | None:
    """The search's whole playout from a playing position (issue 56), what the generic one gives
    there: `_finish_round` (the rollout's one move), two no-op scorings, then `_evaluate` for
    every seat. Here the round is played out by `_trick_gain`, up to a position between tricks
    met before (`_RESTS`), and scored from the seats' summaries without building the finished
    state: the same spell, choice, totals, so the same rewards
    (tests/witches/test_rollout_equivalence.py). Elsewhere (None) the generic playout runs."""
    if state.phase != PLAYING:
        return None
    if len(_HANDS) > MEMO_LIMIT or len(_RESTS) > MEMO_LIMIT:
        forget()
    _, held, summary, ends = _tracked(state)
    hands = list(held)
    leader = state.leader
    if state.trick:
        gained, leader = _trick_gain(hands, leader, state.trick)
        summary += gained << (SUMMARY_BITS * leader)
    rests = _RESTS
    met = []  # (position between tricks, what the trick from it gave its winner, packed)
    while True:
        between = (leader, *hands)
        rest = rests.get(between)
        if rest is not None:
            break
        if not hands[leader].cards:
            rest = 0
            break
        gained, leader = _trick_gain(hands, leader, ())
        met.append((between, gained << (SUMMARY_BITS * leader)))
    for between, gained in reversed(met):
        rest += gained
        rests[between] = rest
    end = summary + rest
    values = ends.get(end)
    if values is None:
        totals = _round_totals(_unpacked(end, len(hands)), state.totals, state.options)
        values = ends[end] = _values(totals)
    return values[:]


def _card_played(state: State, seat: int, card: str) -> State:
    """decide + evolve of a legal card play (card_played, then trick_taken when it ends the
    trick), without validation, events or dataclasses.replace (issue 56: the tree's expansions):
    the same state (tests/witches/test_rollout_equivalence.py, every legal card of 1,000+
    positions)."""
    _, held, summary, ends = _tracked(state)
    left = _play_of(held[seat], card)[1]
    hands = list(state.hands)
    hands[seat] = left.cards
    new_hands = tuple(hands)
    new_held = held[:seat] + (left,) + held[seat + 1:]
    voids = state.voids
    colour = led_colour(state.trick)
    if colour is not None and COLOUR[card] not in (colour, WIZARD) and voids:
        voids = voids[:seat] + (voids[seat] | {colour},) + voids[seat + 1:]
    trick = state.trick + ((seat, card),)
    if len(trick) < state.n:
        new = _replaced(state, hands=new_hands, trick=trick, voids=voids)
        new.__dict__["_tracked"] = (new_hands, new_held, summary, ends)
        return new
    winner = trick_winner(trick)
    taken, won = list(state.taken), list(state.tricks_won)
    taken[winner] = taken[winner] + tuple(c for _, c in trick)
    won[winner] += 1
    changes = {"hands": new_hands, "voids": voids, "leader": winner, "trick": (),
               "tricks_played": state.tricks_played + 1, "taken": tuple(taken), "tricks_won": tuple(won),
               "last_trick": trick, "last_winner": winner}
    if any(hands):
        new = _replaced(state, **changes)
        gained = sum(_SUMMARY[c] for _, c in trick)
        new.__dict__["_tracked"] = (new_hands, new_held, summary + (gained << (SUMMARY_BITS * winner)), ends)
        return new
    spell = find_spell(taken)
    phase = SPELL_CHOICE if spell_needs_choice(spell, state.totals, state.options) else SCORING
    return _replaced(state, **changes, spell=spell, phase=phase)


def _replaced(state: State, **changes: object) -> State:
    """dataclasses.replace for the playouts' end state, without its per-field introspection
    (State is a plain frozen dataclass: no __post_init__, no slots): the same fields, equal."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _rollout(state: State, seat: int, rng: random.Random) -> dict:
    return _FINISH if state.phase == PLAYING else careful_bot(state, seat, rng)


# The game as the search plays it: a round's end is final (the system's scoring is a no-op
# there), so playouts are scored by `_evaluate` on the round just played instead of wandering
# into a next deal nobody can foresee; and a playout's `finish_round` plays the rest of the
# round out at once.

def _round_decide(state: State, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    if move is _FINISH:
        return [{"type": "round_finished", "state": _finish_round(state)}]
    if state.phase == SCORING:
        return []
    return decide(state, actor, move, rng)


def _round_evolve(state: State | None, event: Event) -> State:
    return event["state"] if event["type"] == "round_finished" else evolve(state, event)


def _round_play(state: State, actor: Actor, move: Move, rng: random.Random) -> State:
    """_round_decide + _round_evolve without the event that carries a finished round."""
    if move is _FINISH:
        return _finish_round(state)
    if state.phase == PLAYING and is_seat(actor):  # (a seat plays every card)
        return _card_played(state, actor, move["card"])
    for event in _round_decide(state, actor, move, rng):
        state = _round_evolve(state, event)
    return state


_PLAY = {c: {"type": "play", "card": c} for c in DECK}  # one move dict per card, shared by the tree's nodes


def _round_legal_moves(state: State, actor: Actor) -> list[Move]:
    """legal_moves, a card play listed as its shared dict (`_PLAY`: issue 56, the tree lists a
    node's moves at its first visit; nothing in the search changes a move): equal lists."""
    if state.phase == PLAYING and is_seat(actor):
        return [_PLAY[c] for c in playable(state, actor)] if actor == to_play(state) else []
    return legal_moves(state, actor)


ROUND_RULES = SearchRules(legal_moves=_round_legal_moves, decide=_round_decide, evolve=_round_evolve, actors=actors,
                          result=result, determinize=determinize, play=_round_play)


EVAL_SCALE = 12.0  # fire points of lead that count as a clear edge


_LAST_PROJECTED: list = [(None, None)]  # (state, totals): a playout's end is valued once per seat


def _projected_totals(state: State) -> list:
    """The totals once the cards taken so far are scored (a spell as its caster would choose).
    The last state's are kept (issue 56): a search values the same playout end for every seat.
    The pair is read and replaced whole, so threads at worst recompute."""
    last, totals = _LAST_PROJECTED[0]
    if last is state:
        return totals
    spell, choice = state.spell, state.spell_choice
    if spell is not None and choice is None:
        choice = "others"
    _, totals = score_round(state.taken, state.totals, state.options, spell, choice)
    _LAST_PROJECTED[0] = (state, totals)
    return totals


def _evaluate(state: State, seat: int) -> float:
    """In [0, 1]: how far the seat's projected total is below its rivals' (lower is better),
    half against the closest rival and half against the table's mean, smoothed."""
    return _value(_projected_totals(state), seat)


def _value(totals: Sequence[int], seat: int) -> float:
    """_evaluate's value of these totals for the seat."""
    others = [t for s, t in enumerate(totals) if s != seat]
    lead = 0.5 * (min(others) - totals[seat]) + 0.5 * (sum(others) / len(others) - totals[seat])
    return 1.0 / (1.0 + math.exp(-lead / EVAL_SCALE))


def _values(totals: Sequence[int]) -> list[float]:
    """`_value` for every seat at once (the fast playout's end), the same floats: the rivals' least
    total is the table's least but for its holder (then the next), their sum the table's less its
    own (integers: exact)."""
    ordered = sorted(totals)
    whole, rivals = sum(totals), len(totals) - 1
    out = []
    for t in totals:
        least = ordered[1] if t == ordered[0] else ordered[0]
        lead = 0.5 * (least - t) + 0.5 * ((whole - t) / rivals - t)
        out.append(1.0 / (1.0 + math.exp(-lead / EVAL_SCALE)))
    return out


EXPERT_SPEC = SearchSpec(
    iterations=2500,
    rollout=_rollout,
    evaluate=_evaluate,
    depth=3,  # one `finish_round` plays the round out; then the (no-op) scoring
    playout=_playout,  # that playout, fused
    determinizations=8,
    exploration=0.5,
)

_SEARCH = Searcher(ROUND_RULES, lambda state: state.n, EXPERT_SPEC)


def expert_with(search: Searcher) -> Callable[[State, int, random.Random], dict]:
    """The expert's policy around `search` (its own, or a variant's: bench/variant_match.py):
    passes and spell choices as `careful` does; `search` chooses every card it plays."""

    def expert(state: State, seat: int, rng: random.Random) -> dict:
        if state.phase != PLAYING:
            return careful_bot(state, seat, rng)
        if len(playable(state, seat)) == 1:
            return {"type": "play", "card": playable(state, seat)[0]}
        with collector_paused():  # (the memos emptied before the collector is back on)
            try:
                move = search(state, seat, rng)
            finally:
                forget()
        return dict(move)  # not the search's shared dict (`_PLAY`)

    return expert


expert_bot = expert_with(_SEARCH)


SEARCH = _SEARCH  # what a game's analysis values its positions with (domain/analysis.py)
BOTS = {"random": random_bot, "careful": careful_bot, "expert": expert_bot}
