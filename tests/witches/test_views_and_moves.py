"""Hidden information in views and events, untrusted moves, options, and replay."""
import json
import random

import pytest

from domain.contract import EVERYONE, SPECTATOR, SYSTEM, InvalidOptions, MoveRejected
from domain.play import fold
from domain.witches import GAME, check_options

from .helpers import options


def new_game(n=4, seed=3):
    events = GAME.setup(options(), n, random.Random(seed))
    return fold(GAME, events), events


def test_a_seat_sees_its_own_hand_and_never_another():
    state, events = new_game()
    for seat in range(4):
        view = GAME.view(state, seat)
        assert view["hand"] == list(state.hands[seat])
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(json.dumps(card) in text for card in state.hands[other])
        assert view["hand_sizes"] == [15] * 4
    spectator = json.dumps(GAME.view(state, SPECTATOR))
    assert not any(json.dumps(card) in spectator for hand in state.hands for card in hand)
    assert GAME.view(state, EVERYONE)["hands"] == [list(h) for h in state.hands]


def test_the_deal_event_shows_each_seat_only_its_hand():
    state, events = new_game()
    dealt = events[1]
    for seat in range(4):
        seen = GAME.redact(dealt, seat)
        assert "hands" not in seen and seen["hand"] == dealt["hands"][seat]
        assert seen["hand_sizes"] == [15] * 4
    assert "hand" not in GAME.redact(dealt, SPECTATOR) and "hands" not in GAME.redact(dealt, SPECTATOR)
    assert GAME.redact(dealt, EVERYONE) == dealt


def test_the_card_a_seat_passed_stays_visible_to_it_and_is_secret_to_others():
    state, _ = new_game()
    rng = random.Random(1)
    for seat in range(4):
        move = GAME.bots["random"](state, seat, rng)
        state = fold(GAME, GAME.decide(state, seat, move, rng), state)
    secrets = GAME.secrets(state)
    for seat in range(4):
        for card in state.received[seat]:
            assert secrets[card] == frozenset({seat, (seat - 1) % 4})
        for card in set(state.hands[seat]) - set(state.received[seat]):
            assert secrets[card] == frozenset({seat})


def test_played_cards_and_taken_tricks_are_public():
    state, _ = new_game()
    rng = random.Random(2)
    while state.tricks_played < 2:
        actor = GAME.actors(state)[0]
        state = fold(GAME, GAME.decide(state, actor, GAME.bots["random"](state, actor, rng), rng), state)
    spectator = GAME.view(state, SPECTATOR)
    assert sum(len(t) for t in spectator["taken"]) == 8
    assert sum(spectator["tricks_won"]) == 2
    assert not set(GAME.secrets(state)) & {c for t in state.taken for c in t}


@pytest.mark.parametrize("move,code", [
    (None, "invalid_move"), ([], "invalid_move"), ("play", "invalid_move"), ({}, "invalid_move"),
    ({"type": 3}, "invalid_move"), ({"type": "fly"}, "unknown_move_type"),
    ({"type": "play"}, "invalid_move"), ({"type": "play", "card": "wi-red-01", "x": 1}, "invalid_move"),
    ({"type": "pass_cards", "cards": None}, "wrong_card_count"),
    ({"type": "pass_cards", "cards": [[1], {}, None]}, "wrong_card_count"),
    ({"type": "pass_cards", "cards": ["x" * 10000, "y", "z"]}, "card_not_in_hand"),
    ({"type": "score_round"}, "not_your_turn"),
    ({"type": "choose_spell", "choice": "self"}, "illegal_move"),
])
def test_untrusted_moves_are_refused_with_a_code(move, code):
    state, _ = new_game()
    before = state
    with pytest.raises(MoveRejected) as err:
        actor = SYSTEM if isinstance(move, dict) and move.get("type") == "score_round" else 0
        GAME.decide(state, actor, move, random.Random())
    assert err.value.code == code and err.value.message
    assert state == before


@pytest.mark.parametrize("actor", [True, -1, 4, 10 ** 30, "0", None, 1.0, "admin"])
def test_strange_actors_are_not_your_turn(actor):
    state, _ = new_game()
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, actor, GAME.legal_moves(state, 0)[0], random.Random())
    assert err.value.code in ("not_your_turn", "already_passed")


@pytest.mark.parametrize("opts,n", [
    ({"target_score": 5}, 4), ({"target_score": "70"}, 4), ({"rounds": -1}, 4), ({"rounds": True}, 4),
    ({"pygmy_queen_points": 7}, 4), ({"earth_witch_variant": 1}, 4), ({}, 2), ({}, 7),
])
def test_invalid_options(opts, n):
    with pytest.raises(InvalidOptions):
        check_options(options(**opts), n)


def test_options_are_declared_with_the_spec_defaults():
    assert GAME.default_options() == {"target_score": 70, "rounds": 0, "pygmy_queen_points": 10,
                                      "earth_witch_variant": False}
    check_options(GAME.default_options(), 3)
    check_options(options(rounds=5, pygmy_queen_points=5, earth_witch_variant=True), 6)


def test_replay_after_json_gives_the_same_state():
    state, events = new_game(5)
    rng = random.Random(4)
    while state.round < 3:
        actor = rng.choice(GAME.actors(state))
        new = GAME.decide(state, actor, GAME.bots["careful"](state, actor, rng) if actor != SYSTEM
                          else {"type": "score_round"}, rng)
        state = fold(GAME, new, state)
        events += new
    assert fold(GAME, json.loads(json.dumps(events))) == state
