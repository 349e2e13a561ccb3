"""The deal, the dealer's rotation, and simultaneous passing 4/3/3/2 in rotating directions."""
import random

import pytest

from domain.contract import SPECTATOR, SYSTEM, MoveRejected
from domain.play import fold
from domain.witches import GAME, stale_ok
from domain.witches.cards import DECK
from domain.witches.state import PASSING, PLAYING, direction_for, pass_target

from .helpers import options, started

HAND = {3: 20, 4: 15, 5: 12, 6: 10}
PASS = {3: 4, 4: 3, 5: 3, 6: 2}


def new_game(n, seed=1, **opts):
    events = GAME.setup(options(**opts), n, random.Random(seed))
    return fold(GAME, events), events


def pass_all(state, order=None):
    """Every seat passes its first cards; returns the state and all events."""
    events = []
    for seat in order or range(state.n):
        move = GAME.legal_moves(state, seat)[0]
        new = GAME.decide(state, seat, move, random.Random(0))
        state = fold(GAME, new, state)
        events += new
    return state, events


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_all_60_cards_are_dealt_evenly(n):
    state, events = new_game(n)
    dealt = events[1]
    assert dealt["type"] == "round_dealt"
    assert [len(h) for h in dealt["hands"]] == [HAND[n]] * n
    assert sorted(c for h in dealt["hands"] for c in h) == sorted(DECK)
    assert len(set(DECK)) == 60 and all(isinstance(c, str) and c.startswith("wi-") for c in DECK)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_seat_passes_the_right_number_of_cards(n):
    state, _ = new_game(n)
    for seat in range(n):
        moves = GAME.legal_moves(state, seat)
        assert all(len(m["cards"]) == PASS[n] for m in moves)
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, 0, {"type": "pass_cards", "cards": list(state.hands[0][:PASS[n] - 1])}, random.Random())
    assert err.value.code == "wrong_card_count"


@pytest.mark.parametrize("n,expected", [
    (3, ["left", "right", "left", "right"]),
    (5, ["left", "right", "left", "right"]),
    (4, ["left", "right", "across", "left", "right", "across"]),
    (6, ["left", "right", "across", "left", "right", "across"]),
])
def test_pass_directions_rotate_by_round(n, expected):
    assert [direction_for(n, r) for r in range(1, len(expected) + 1)] == expected


def test_left_right_across_neighbours():
    assert [pass_target(4, "left", s) for s in range(4)] == [1, 2, 3, 0]
    assert [pass_target(4, "right", s) for s in range(4)] == [3, 0, 1, 2]
    assert [pass_target(6, "across", s) for s in range(6)] == [3, 4, 5, 0, 1, 2]


def test_dealer_rotates_clockwise_and_the_dealers_left_leads():
    state, _ = new_game(4)
    dealers, leaders = [], []
    rng = random.Random(3)
    while len(dealers) < 6 and GAME.actors(state):
        if state.phase == PASSING and len(state.passed) and all(p is None for p in state.passed):
            dealers.append(state.dealer)
        if state.phase == PLAYING and state.tricks_played == 0 and not state.trick:
            leaders.append(GAME.actors(state)[0])
        actor = GAME.actors(state)[0]
        move = GAME.bots["random"](state, actor, rng) if actor != SYSTEM else {"type": "score_round"}
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    assert dealers == [0, 1, 2, 3, 0, 1]
    assert leaders == [1, 2, 3, 0, 1]


def test_passing_is_simultaneous_in_any_order_and_nobody_receives_until_all_passed():
    state, _ = new_game(4, seed=7)
    assert GAME.actors(state) == [0, 1, 2, 3]
    hands_before = state.hands
    passed = {}
    for seat in (2, 0, 3):
        move = GAME.legal_moves(state, seat)[1]
        passed[seat] = move["cards"]
        events = GAME.decide(state, seat, move, random.Random())
        assert [e["type"] for e in events] == ["cards_passed"]
        state = fold(GAME, events, state)
        assert seat not in GAME.actors(state)
        assert GAME.legal_moves(state, seat) == []
        # Nobody has received anything yet.
        for s in range(4):
            assert GAME.view(state, s)["received"] is None
    assert GAME.actors(state) == [1]
    move = GAME.legal_moves(state, 1)[0]
    passed[1] = move["cards"]
    events = GAME.decide(state, 1, move, random.Random())
    assert [e["type"] for e in events] == ["cards_passed", "cards_exchanged"]
    state = fold(GAME, events, state)
    assert state.phase == PLAYING and state.direction == "left"
    for seat in range(4):
        giver = (seat - 1) % 4
        assert set(state.received[seat]) == set(passed[giver])
        expected = (set(hands_before[seat]) - set(passed[seat])) | set(passed[giver])
        assert set(state.hands[seat]) == expected


def test_a_seat_may_not_pass_twice():
    state, _ = new_game(3)
    move = GAME.legal_moves(state, 0)[0]
    state = fold(GAME, GAME.decide(state, 0, move, random.Random()), state)
    again = {"type": "pass_cards", "cards": list(state.hands[0][:4])}
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, 0, again, random.Random())
    assert err.value.code == "already_passed"


def test_no_card_can_be_played_and_the_system_cannot_act_while_passing():
    state, _ = new_game(3)
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, 1, {"type": "play", "card": state.hands[1][0]}, random.Random())
    assert err.value.code == "illegal_move"
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, SYSTEM, {"type": "score_round"}, random.Random())
    assert err.value.code == "not_your_turn"


def test_passed_cards_must_be_in_hand_and_distinct_but_may_come_in_any_order():
    state, _ = new_game(4)
    hand = list(state.hands[0])
    other = state.hands[1][0]
    for cards, code in [([hand[0], hand[0], hand[1]], "duplicate_cards"),
                        ([hand[0], hand[1], other], "card_not_in_hand"),
                        ("abc", "wrong_card_count"), ([1, 2, 3], "wrong_card_count")]:
        with pytest.raises(MoveRejected) as err:
            GAME.decide(state, 0, {"type": "pass_cards", "cards": cards}, random.Random())
        assert err.value.code == code
    events = GAME.decide(state, 0, {"type": "pass_cards", "cards": [hand[5], hand[0], hand[3]]}, random.Random())
    assert events[0]["cards"] == [hand[0], hand[3], hand[5]]


def test_pass_events_are_hidden_from_others_and_the_exchange_revealed_per_seat():
    state, _ = new_game(4)
    state, events = pass_all(state)
    first = events[0]
    assert first["seat"] == 0
    assert GAME.redact(first, 0) == first
    assert "cards" not in GAME.redact(first, 1)
    assert "cards" not in GAME.redact(first, SPECTATOR)
    exchange = events[-1]
    assert exchange["type"] == "cards_exchanged"
    for seat in range(4):
        seen = GAME.redact(exchange, seat)["passes"]
        assert sorted((p["from"], p["to"]) for p in seen) == sorted([(seat, (seat + 1) % 4), ((seat - 1) % 4, seat)])
        view = GAME.view(state, seat)
        assert view["passed"] == [p for p in exchange["passes"] if p["from"] == seat][0]["cards"]
        assert view["received"] == [p for p in exchange["passes"] if p["to"] == seat][0]["cards"]
    assert GAME.redact(exchange, SPECTATOR)["passes"] == []


def test_stale_ok_only_for_other_seats_passes_in_the_same_passing_phase():
    then, _ = new_game(4)
    now, _ = pass_all(then, order=[1, 2])
    assert stale_ok(then, now, 0)
    assert stale_ok(then, now, 3)
    assert not stale_ok(then, now, 1)  # it already passed
    after, _ = pass_all(now, order=[0, 3])
    assert not stale_ok(then, after, 0)  # the exchange happened: the phase is over


@pytest.mark.parametrize("n,round_no,step", [(6, 3, 3), (4, 3, 2), (5, 2, -1), (3, 2, -1), (6, 4, 1)])
def test_the_exchange_follows_the_rounds_direction(n, round_no, step):
    deck = list(DECK)
    size = 60 // n
    state = started(n, [deck[i * size:(i + 1) * size] for i in range(n)], round_no=round_no)
    assert state.dealer == (round_no - 1) % n
    passed = {}
    for seat in range(n):
        move = GAME.legal_moves(state, seat)[-1]
        passed[seat] = set(move["cards"])
        state = fold(GAME, GAME.decide(state, seat, move, random.Random()), state)
    for seat in range(n):
        assert set(state.received[seat]) == passed[(seat - step) % n]
