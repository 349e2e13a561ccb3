"""Action 4: buy a face-up or own reserved card; bonuses, gold, refill (spec: A turn, 4)."""
import pytest

from domain.contract import MoveRejected
from domain.splendor import GAME
from domain.splendor.data import CARDS, COLORS
from tests.splendor.helpers import act, bonus, card, decide, moves_of, start, toks, with_player


def _buys(state, card_id, seat=0):
    return [m["payment"] for m in moves_of(state, seat, "buy") if m["card"] == card_id]


def _code(state, move, seat=0):
    with pytest.raises(MoveRejected) as info:
        decide(state, seat, move, None)
    assert move not in moves_of(state, seat)
    return info.value.code


def test_buying_pays_the_cost_to_the_supply_and_gains_the_bonus():
    state = with_player(start(), 0, tokens=toks(blue=3, red=1))  # sp-1-02: white bonus, costs 3 blue
    events, state = act(state, 0, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 3}})
    assert events == [{"type": "card_bought", "seat": 0, "card": "sp-1-02", "source": "market",
                       "payment": {"blue": 3}, "points": 0, "refill": "sp-1-05"}]
    player = state.players[0]
    assert player.tokens == toks(red=1) and player.bonuses == bonus(white=1)
    assert player.bought == (card("sp-1-02"),)
    assert state.supply[1] == 7
    assert state.market[0][1] == card("sp-1-05") and state.seat == 1


def test_points_are_scored_for_the_card():
    state = with_player(start(), 0, tokens=toks(blue=3, green=3, red=5, black=3))  # sp-3-01, 3 points
    _, state = act(state, 0, {"type": "buy", "card": "sp-3-01",
                              "payment": {"blue": 3, "green": 3, "red": 5, "black": 3}})
    assert state.players[0].points == 3 and state.players[0].bonuses == bonus(white=1)


def test_bonuses_lower_the_cost():
    state = with_player(start(), 0, tokens=toks(blue=1), bonuses=bonus(blue=2))
    assert _buys(state, "sp-1-02") == [{"blue": 1}]


def test_bonuses_can_make_a_card_free():
    state = with_player(start(), 0, bonuses=bonus(blue=3))
    assert _buys(state, "sp-1-02") == [{}]
    _, state = act(state, 0, {"type": "buy", "card": "sp-1-02", "payment": {}})
    assert state.players[0].bonuses == bonus(white=1, blue=3)


def test_every_distinct_way_to_spend_gold_is_listed():
    state = with_player(start(), 0, tokens=toks(blue=2, black=2, gold=2))  # sp-1-04 costs U2 K2
    payments = _buys(state, "sp-1-04")
    expected = [{"blue": 2, "black": 2}, {"blue": 2, "black": 1, "gold": 1}, {"blue": 2, "gold": 2},
                {"blue": 1, "black": 2, "gold": 1}, {"blue": 1, "black": 1, "gold": 2},
                {"black": 2, "gold": 2}]
    assert sorted(map(str, payments)) == sorted(map(str, expected))
    for payment in expected:
        _, after = act(state, 0, {"type": "buy", "card": "sp-1-04", "payment": payment})
        assert after.supply[5] == 5 + payment.get("gold", 0)  # paid gold goes back to the supply
        assert after.players[0].tokens[5] == 2 - payment.get("gold", 0)


def test_gold_covers_missing_tokens():
    state = with_player(start(), 0, tokens=toks(blue=1, gold=2))
    assert _buys(state, "sp-1-02") == [{"blue": 1, "gold": 2}]
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 1, "gold": 1}}) == "cannot_afford"


def test_never_more_gold_than_needed():
    state = with_player(start(), 0, tokens=toks(blue=3, gold=2))
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 3, "gold": 1}}) == "wrong_payment"
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 4}}) == "cannot_afford"
    state = with_player(state, 0, tokens=toks(blue=5))
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 4}}) == "wrong_payment"


def test_cannot_buy_what_one_cannot_afford():
    state = with_player(start(), 0, tokens=toks(blue=2))
    assert _buys(state, "sp-1-02") == []
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 2}}) == "cannot_afford"
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 3}}) == "cannot_afford"


@pytest.mark.parametrize("payment", [{"blue": 0}, {"blue": -3}, {"blue": True}, {"blue": "3"},
                                     {"purple": 3}, [3], None, {"blue": 10 ** 30}])
def test_malformed_payments_are_invalid(payment):
    state = with_player(start(), 0, tokens=toks(blue=3))
    assert _code(state, {"type": "buy", "card": "sp-1-02", "payment": payment}) == "invalid_move"


def test_only_face_up_or_own_reserved_cards_can_be_bought():
    state = with_player(start(), 0, tokens=toks(blue=5, green=5, red=5, white=5, black=5))
    assert _code(state, {"type": "buy", "card": "sp-1-05", "payment": {}}) == "card_not_available"


def test_buying_an_own_reserved_card():
    cost = _cost("sp-1-10")
    state = with_player(start(), 0, tokens=toks(**cost), reserved=["sp-1-10"])
    assert _buys(state, "sp-1-10") == [cost]
    events, after = act(state, 0, {"type": "buy", "card": "sp-1-10", "payment": cost})
    assert events[0]["source"] == "reserve" and events[0]["refill"] is None
    assert after.players[0].reserved == () and after.players[0].bought == (card("sp-1-10"),)
    assert after.market == state.market and after.decks == state.decks


def test_a_blind_card_bought_from_the_reserve_becomes_public():
    state = start()
    _, state = act(state, 0, {"type": "reserve_blind", "level": 1})  # sp-1-05
    assert GAME.secrets(state)["sp-1-05"] == frozenset({0})
    _, state = act(state, 1, {"type": "take_two", "color": "red"})
    cost = _cost("sp-1-05")
    state = with_player(state, 0, tokens=toks(**cost))
    events, state = act(state, 0, {"type": "buy", "card": "sp-1-05", "payment": cost})
    assert GAME.redact(events[0], 1)["card"] == "sp-1-05"
    assert "sp-1-05" not in GAME.secrets(state)
    assert GAME.view(state, 1)["players"][0]["cards"] == ["sp-1-05"]


def test_empty_deck_leaves_the_bought_cards_slot_empty():
    state = start()
    state = state._replace(decks=((), state.decks[1], state.decks[2]))
    state = with_player(state, 0, tokens=toks(blue=3))
    events, state = act(state, 0, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 3}})
    assert events[0]["refill"] is None
    assert GAME.view(state, 0)["market"][0][1] is None
    assert all(m.get("card") != "sp-1-02" for m in moves_of(state, 1))


def _cost(card_id):
    """A card's printed cost as a sparse payment map."""
    return {c: n for c, n in zip(COLORS, CARDS[card(card_id)].cost) if n}
