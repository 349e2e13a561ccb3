"""determinize(state, seat, rng): the game as `seat` might imagine it (issue 34).

What a seat cannot see in Witches, and how it is drawn anew from what the seat can see alone:
- the other seats' hands: every card the seat has not seen (not in its hand, not passed by it
  in this passing phase, not in any trick taken or being played) is pooled in canonical order,
  shuffled with `rng` and dealt out keeping each hand's size (public). One constraint the seat
  knows is kept: after the exchange, the cards it passed and that have not been played since
  are in the hand of the seat it passed them to.
- in the passing phase, the cards the other seats already passed (face down): drawn from the
  same pool, as many as the pass count, for exactly the seats known to have passed.
- after the exchange, the other seats' passes (`passed`/`received`): only the pass the seat
  received (it knows where it came from) and the pass it made (it knows where it went) are
  known; the others are unknown and set to `()` (no rule reads a pass after the exchange; the
  pass still counts as made, as everybody saw).
The deck holds nothing: all 60 cards are dealt, and the next deal is drawn by `decide`.

Inference (issue 56, `INFER`): a seat that did not follow a led colour (a card of another colour,
not a wizard) showed everyone it holds none of that colour this round (`State.voids`, public,
kept by `evolve`); the other seats' hands are dealt so that no hand holds a colour its seat
showed void in (each card, most constrained first, to an allowed seat with room, drawn in
proportion to the room left; a dead end, which no reachable state forces, falls back to a
fresh try). With no void shown the deal is the uniform one above, draw for draw.
"""
from __future__ import annotations

import random
from dataclasses import replace

from .cards import COLOUR, DECK, sort_cards
from .state import PASS_COUNT, PASSING, State, pass_source, pass_target

INFER = True  # deal around the voids shown (False: uniform, as before; bench/infer.py compares)


def _constrained_deal(pool: list, room: dict, voids: tuple, rng: random.Random) -> dict:
    """The shuffled `pool` dealt to the seats of `room` (seat -> cards it still holds unseen),
    no card to a seat void in its colour."""
    for _ in range(100):
        left = dict(room)
        dealt: dict = {s: [] for s in room}
        order = sorted(pool, key=lambda c: sum(1 for s in room if COLOUR[c] not in voids[s]))
        for card in order:
            allowed = [s for s in room if left[s] > 0 and COLOUR[card] not in voids[s]]
            if not allowed:
                break
            pick = rng.choices(allowed, weights=[left[s] for s in allowed])[0]
            dealt[pick].append(card)
            left[pick] -= 1
        else:
            return dealt
    raise AssertionError("no deal respects the voids shown")  # unreachable from a real game


def determinize(state: State, seat: int, rng: random.Random) -> State:
    n = state.n
    if not state.hands or not (0 <= seat < n):
        return state
    exchanged = state.phase != PASSING
    mine = state.passed[seat] if state.passed else None
    seen = set(state.hands[seat])
    seen.update(card for cards in state.taken for card in cards)
    seen.update(card for _, card in state.trick)
    if mine is not None:
        seen.update(mine)  # in the passing phase they are out of the hand; after, in a known hand
    # After the exchange the seat's own passed cards, unplayed, sit in a known hand.
    target = pass_target(n, state.direction, seat)
    placed: dict[int, list] = {s: [] for s in range(n)}
    if exchanged and mine:
        played = set(card for cards in state.taken for card in cards) | {c for _, c in state.trick}
        placed[target] = [c for c in mine if c not in played]
    pool = [c for c in sort_cards(DECK) if c not in seen]
    rng.shuffle(pool)

    hands = list(state.hands)
    passed = list(state.passed)
    k = PASS_COUNT[n]
    voids = state.voids if INFER and state.voids else ()
    constrained = bool(voids) and any(voids[s] for s in range(n) if s != seat)
    if constrained:
        room = {s: len(state.hands[s]) - len(placed[s]) for s in range(n) if s != seat}
        dealt = _constrained_deal(pool, room, voids, rng)
        for other in room:
            hands[other] = sort_cards(placed[other] + dealt[other])
        pool = []
    for other in range(n):
        if other == seat or constrained:
            continue
        need = len(state.hands[other]) - len(placed[other])
        hands[other] = sort_cards(placed[other] + pool[:need])
        del pool[:need]
        if not exchanged and passed[other] is not None:
            passed[other] = sort_cards(pool[:k])
            del pool[:k]
    assert not pool, "the unseen cards fill the unseen places exactly"
    received = list(state.received)
    if exchanged:
        source = pass_source(n, state.direction, seat)
        for other in range(n):
            if other != seat:
                passed[other] = () if passed[other] is not None else None
                received[other] = ()
        passed[source] = state.received[seat] if source != seat else passed[source]
        received[target] = mine if mine is not None and target != seat else received[target]
    return replace(state, hands=tuple(hands), passed=tuple(passed), received=tuple(received))
