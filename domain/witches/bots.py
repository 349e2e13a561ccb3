"""Bot policies: `random`, and `careful`, a Hearts-style player that passes its dangerous
cards, ducks under the winning card, hides behind wizards and dumps penalties when void."""
from __future__ import annotations

import random

from .cards import AIR_WITCH, COLOUR, EARTH_WITCH, FIRE_WITCH, PYGMY_QUEEN, VALUE, WATER_WITCH, WIZARD
from .moves import legal_moves, playable
from .state import PASS_COUNT, PASSING, PLAYING, SPELL_CHOICE, State, led_colour


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


def _pass_choice(hand, k: int) -> list:
    worst = sorted(hand, key=lambda c: (-_danger(c), c))[:k]
    return [c for c in hand if c in worst]  # hand order, as legal_moves lists it


def _penalty(cards) -> int:
    """A rough price of taking these cards."""
    price = 0
    for c in cards:
        if COLOUR[c] == "red":
            price += 3 if c == FIRE_WITCH else 1
        price += {WATER_WITCH: 5, PYGMY_QUEEN: 10, EARTH_WITCH: -5}.get(c, 0)
    return price


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
        safe = [c for c in follow if _penalty([c]) <= 0] or follow
        return max(safe, key=VALUE.__getitem__)
    return min(follow, key=VALUE.__getitem__)


def _lead(options) -> str:
    plain = [c for c in options if COLOUR[c] != WIZARD and _penalty([c]) <= 0 and c not in _DANGER]
    if plain:
        return min(plain, key=lambda c: (VALUE[c], c))
    wizards = [c for c in options if COLOUR[c] == WIZARD]
    if wizards:
        return wizards[0]
    return min(options, key=lambda c: (_danger(c), c))


def _discard(options) -> str:
    return max(options, key=lambda c: (_danger(c), c))


def _spell_choice(state: State, seat: int) -> str:
    """Give the points away when that ends the game with this seat alone in the lead."""
    assert state.spell is not None  # asked only in SPELL_CHOICE, which has a spell shown
    _, _, points = state.spell
    after = [t if s == seat else t + points for s, t in enumerate(state.totals)]
    alone_lowest = all(after[seat] < t for s, t in enumerate(after) if s != seat)
    return "others" if alone_lowest else "self"


BOTS = {"random": random_bot, "careful": careful_bot}
