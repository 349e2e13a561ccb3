"""The 60 Witches cards: four colours 1-14 and four wizards, with distinctive string ids.

Ids are "wi-<colour>-<vv>" (e.g. "wi-red-07") and "wi-wizard-<n>", so a card id can be
searched for in any JSON a viewer receives (the leak oracle relies on that).
"""
from __future__ import annotations

from collections.abc import Iterable

COLOURS = ("red", "green", "yellow", "blue")
WIZARD = "wizard"
N_WIZARDS = 4


def card_id(colour: str, value: int) -> str:
    return f"wi-{colour}-{value:02d}"


FIRE_WITCH = card_id("red", 11)
WATER_WITCH = card_id("green", 11)
EARTH_WITCH = card_id("yellow", 11)
AIR_WITCH = card_id("blue", 11)
PYGMY_QUEEN = card_id("green", 12)

WIZARDS = tuple(f"wi-wizard-{i}" for i in range(1, N_WIZARDS + 1))
DECK = tuple(card_id(c, v) for c in COLOURS for v in range(1, 15)) + WIZARDS
RED_CARDS = tuple(card_id("red", v) for v in range(1, 15))

# Lookup tables: the hot paths (legal moves, trick winner) never parse ids.
COLOUR = {card: card.split("-")[1] for card in DECK}
VALUE = {card: (0 if COLOUR[card] == WIZARD else int(card.split("-")[2])) for card in DECK}
# Canonical order of a hand: by colour, then value; wizards first.
ORDER = {card: i for i, card in enumerate(WIZARDS + DECK[:56])}
DECK_SET = frozenset(DECK)

SPECIAL_NAMES = {
    FIRE_WITCH: "Fire Witch",
    WATER_WITCH: "Water Witch",
    EARTH_WITCH: "Earth Witch",
    AIR_WITCH: "Air Witch",
    PYGMY_QUEEN: "Pygmy Queen",
}


def is_wizard(card: str) -> bool:
    return COLOUR[card] == WIZARD


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def card_name(card: str) -> str:
    """A card's name: "red 7", "wizard 2", "Pygmy Queen (green 12)" (the words' names, domain/witches/words.py)."""
    if is_wizard(card):
        return f"wizard {card.rsplit('-', 1)[1]}"
    plain = f"{COLOUR[card]} {VALUE[card]}"
    special = SPECIAL_NAMES.get(card)
    return f"{special} ({plain})" if special else plain


def describe(card: str) -> str:
    """A card in a refusal's sentence: "red 7", "a wizard", "the Pygmy Queen (green 12)"."""
    if is_wizard(card):
        return "a wizard"
    return f"the {card_name(card)}" if card in SPECIAL_NAMES else card_name(card)
