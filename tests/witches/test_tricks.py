"""Following suit, wizards, trick winners and leads."""
import random

import pytest

from domain.contract import MoveRejected
from domain.witches import GAME
from domain.witches.cards import FIRE_WITCH, PYGMY_QUEEN

from .helpers import c, play, play_trick, playing, wiz


def legal_cards(state, seat):
    return sorted(m["card"] for m in GAME.legal_moves(state, seat))


def test_the_leader_may_lead_any_card_even_a_wizard_or_a_witch():
    hands = [[c("red", 3), FIRE_WITCH, wiz(1), c("blue", 2)], [c("green", 2)], [c("green", 3)]]
    state = playing(3, hands, leader=0)
    assert legal_cards(state, 0) == sorted(hands[0])


def test_a_player_holding_the_led_colour_must_follow_it():
    hands = [[c("blue", 5)], [c("blue", 2), c("red", 14), c("green", 1)], [c("yellow", 1)]]
    state = playing(3, hands, leader=0)
    state, _ = play(state, 0, c("blue", 5))
    assert legal_cards(state, 1) == [c("blue", 2)]
    with pytest.raises(MoveRejected) as err:
        play(state, 1, c("red", 14))
    assert err.value.code == "must_follow_suit"
    assert "follow suit" in err.value.message


def test_a_wizard_may_always_be_played_even_when_one_could_follow():
    hands = [[c("blue", 5)], [c("blue", 2), wiz(2), c("green", 1)], [c("yellow", 1)]]
    state = playing(3, hands, leader=0)
    state, _ = play(state, 0, c("blue", 5))
    assert legal_cards(state, 1) == sorted([c("blue", 2), wiz(2)])
    play(state, 1, wiz(2))


def test_without_the_led_colour_any_card_may_be_played():
    hands = [[c("blue", 5)], [c("red", 2), wiz(2), PYGMY_QUEEN], [c("yellow", 1)]]
    state = playing(3, hands, leader=0)
    state, _ = play(state, 0, c("blue", 5))
    assert legal_cards(state, 1) == sorted(hands[1])


def test_the_highest_card_of_the_led_colour_wins_and_other_colours_never_win():
    hands = [[c("blue", 5)], [c("red", 14)], [c("blue", 9)], [c("green", 14)]]
    state = playing(4, hands, leader=0)
    state, events = play_trick(state, [c("blue", 5), c("red", 14), c("blue", 9), c("green", 14)])
    assert events[-1] == {"type": "trick_taken", "trick": 1, "winner": 2,
                          "cards": [c("blue", 5), c("red", 14), c("blue", 9), c("green", 14)]}
    assert state.taken[2] == (c("blue", 5), c("red", 14), c("blue", 9), c("green", 14))
    assert state.tricks_won == (0, 0, 1, 0)


def test_the_trick_winner_leads_the_next_trick_and_play_goes_clockwise():
    hands = [[c("blue", 5), c("red", 1)], [c("blue", 1), c("red", 2)], [c("blue", 9), c("red", 3)]]
    state = playing(3, hands, leader=1)
    assert GAME.actors(state) == [1]
    state, _ = play(state, 1, c("blue", 1))
    assert GAME.actors(state) == [2]
    state, _ = play(state, 2, c("blue", 9))
    assert GAME.actors(state) == [0]
    state, _ = play(state, 0, c("blue", 5))
    assert GAME.actors(state) == [2]  # seat 2 won with blue 9
    assert GAME.view(state, 0)["last_trick"]["winner"] == 2


def test_after_a_led_wizard_the_first_non_wizard_card_sets_the_colour():
    hands = [[wiz(1)], [wiz(2), c("green", 3)], [c("green", 4), c("red", 9)], [c("green", 2), c("red", 13)]]
    state = playing(4, hands, leader=0)
    state, _ = play(state, 0, wiz(1))
    assert GAME.view(state, 1)["led_colour"] is None
    assert legal_cards(state, 1) == sorted(hands[1])  # nothing to follow yet
    state, _ = play(state, 1, wiz(2))
    state, _ = play(state, 2, c("red", 9))  # the first non-wizard card: red is led
    assert GAME.view(state, 3)["led_colour"] == "red"
    assert legal_cards(state, 3) == [c("red", 13)]
    state, events = play(state, 3, c("red", 13))
    assert events[-1]["winner"] == 3


def test_a_led_wizard_never_wins_against_a_coloured_card():
    hands = [[wiz(1)], [c("green", 1)], [c("green", 2)]]
    state = playing(3, hands, leader=0)
    state, events = play_trick(state, [wiz(1), c("green", 1), c("green", 2)])
    assert events[-1]["winner"] == 2


def test_a_trick_of_wizards_only_goes_to_the_first_wizard_played():
    hands = [[wiz(1)], [wiz(2)], [wiz(3)], [wiz(4)]]
    state = playing(4, hands, leader=2)
    state, events = play_trick(state, [wiz(3), wiz(4), wiz(1), wiz(2)])
    assert events[-1]["winner"] == 2


def test_cards_must_be_held_and_only_the_seat_to_play_may_play():
    hands = [[c("blue", 5)], [c("blue", 2)], [c("blue", 3)]]
    state = playing(3, hands, leader=0)
    for seat, card, code in [(0, c("blue", 2), "card_not_in_hand"), (0, "wi-red-99", "card_not_in_hand"),
                             (0, 7, "card_not_in_hand"), (1, c("blue", 2), "not_your_turn")]:
        with pytest.raises(MoveRejected) as err:
            GAME.decide(state, seat, {"type": "play", "card": card}, random.Random())
        assert err.value.code == code
