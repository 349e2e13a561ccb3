"""The 60 cards: four colours 1-14, four wizards (value 0), the witches and the Pygmy Queen."""
from domain.witches.cards import (
    AIR_WITCH,
    COLOUR,
    DECK,
    EARTH_WITCH,
    FIRE_WITCH,
    PYGMY_QUEEN,
    VALUE,
    WATER_WITCH,
    WIZARDS,
    describe,
)


def test_sixty_distinct_cards_four_colours_of_fourteen_and_four_wizards():
    assert len(DECK) == len(set(DECK)) == 60
    for colour in ("red", "green", "yellow", "blue"):
        assert sorted(VALUE[c] for c in DECK if COLOUR[c] == colour) == list(range(1, 15))
    assert len(WIZARDS) == 4 and all(COLOUR[w] == "wizard" and VALUE[w] == 0 for w in WIZARDS)


def test_the_specials():
    assert (COLOUR[FIRE_WITCH], VALUE[FIRE_WITCH]) == ("red", 11)
    assert (COLOUR[WATER_WITCH], VALUE[WATER_WITCH]) == ("green", 11)
    assert (COLOUR[EARTH_WITCH], VALUE[EARTH_WITCH]) == ("yellow", 11)
    assert (COLOUR[AIR_WITCH], VALUE[AIR_WITCH]) == ("blue", 11)
    assert (COLOUR[PYGMY_QUEEN], VALUE[PYGMY_QUEEN]) == ("green", 12)
    assert describe(PYGMY_QUEEN) == "the Pygmy Queen (green 12)"


def test_card_ids_are_distinctive_strings():
    assert "wi-red-07" in DECK and "wi-wizard-1" in DECK
    assert all(c.startswith("wi-") and len(c) >= 9 for c in DECK)
