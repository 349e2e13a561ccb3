"""Action 3: reserve a face-up card or a deck's top card, take 1 gold if any (spec: A turn, 3)."""
import pytest

from domain.contract import EVERYONE, SPECTATOR, MoveRejected
from domain.splendor import GAME
from tests.splendor.helpers import act, card, decide, moves_of, start, toks, with_player, with_supply


def _code(state, move, seat=0):
    with pytest.raises(MoveRejected) as info:
        decide(state, seat, move, None)
    assert move not in moves_of(state, seat)
    return info.value.code


def test_reserving_a_face_up_card_takes_gold_and_refills_the_slot():
    events, state = act(start(), 0, {"type": "reserve", "card": "sp-1-02"})
    assert events == [{"type": "card_reserved", "seat": 0, "card": "sp-1-02", "level": 1,
                       "source": "market", "gold": 1, "refill": "sp-1-05"}]
    assert state.players[0].reserved == (card("sp-1-02"),)
    assert state.players[0].tokens == toks(gold=1) and state.supply[5] == 4
    assert state.market[0] == tuple(card(c) for c in ("sp-1-01", "sp-1-05", "sp-1-03", "sp-1-04"))
    assert len(state.decks[0]) == 35 and state.seat == 1


def test_reserving_with_no_gold_left_is_allowed_without_gold():
    events, state = act(with_supply(start(), gold=0), 0, {"type": "reserve", "card": "sp-3-01"})
    assert events[0]["gold"] == 0 and state.players[0].tokens == toks()


def test_at_most_three_reserved_cards():
    state = with_player(start(), 0, reserved=["sp-1-10", "sp-1-11", "sp-1-12"])
    assert _code(state, {"type": "reserve", "card": "sp-1-01"}) == "reserve_limit"
    assert _code(state, {"type": "reserve_blind", "level": 1}) == "reserve_limit"
    assert moves_of(state, 0, "reserve") == moves_of(state, 0, "reserve_blind") == []
    two = with_player(start(), 0, reserved=["sp-1-10", "sp-1-11"])
    assert len(moves_of(two, 0, "reserve")) == 12 and len(moves_of(two, 0, "reserve_blind")) == 3


def test_only_face_up_cards_can_be_reserved():
    assert _code(start(), {"type": "reserve", "card": "sp-1-05"}) == "card_not_available"  # in the deck
    assert _code(start(), {"type": "reserve", "card": "sp-9-99"}) == "card_not_available"


def test_blind_reserve_takes_the_top_card_of_the_deck():
    events, state = act(start(), 0, {"type": "reserve_blind", "level": 2})
    assert events == [{"type": "card_reserved", "seat": 0, "card": "sp-2-05", "level": 2,
                       "source": "deck", "gold": 1, "refill": None}]
    assert state.players[0].reserved == state.players[0].blind == (card("sp-2-05"),)
    assert len(state.decks[1]) == 25
    assert state.market == start().market  # the market does not change


def test_blind_card_is_seen_only_by_its_owner_others_see_its_level():
    events, state = act(start(n=3), 0, {"type": "reserve_blind", "level": 3})
    own = GAME.view(state, 0)["players"][0]["reserved"][0]
    assert own["id"] == "sp-3-05" and own["hidden"] is False
    for viewer in (1, 2, SPECTATOR):
        assert GAME.view(state, viewer)["players"][0]["reserved"] == [{"hidden": True, "level": 3}]
        redacted = GAME.redact(events[0], viewer)
        assert "card" not in redacted and redacted["level"] == 3 and redacted["source"] == "deck"
    assert GAME.redact(events[0], 0) == events[0] == GAME.redact(events[0], EVERYONE)
    assert GAME.secrets(state)["sp-3-05"] == frozenset({0})


def test_face_up_reserved_cards_are_public():
    _, state = act(start(), 0, {"type": "reserve", "card": "sp-2-01"})
    assert GAME.view(state, 1)["players"][0]["reserved"][0]["id"] == "sp-2-01"
    assert "sp-2-01" not in GAME.secrets(state)


def test_no_blind_reserve_from_an_empty_deck():
    state = start()
    state = state._replace(decks=(state.decks[0], (), state.decks[2]))
    assert _code(state, {"type": "reserve_blind", "level": 2}) == "deck_empty"
    assert [m["level"] for m in moves_of(state, 0, "reserve_blind")] == [1, 3]


def test_reserving_from_a_market_row_with_an_empty_deck_leaves_the_slot_empty():
    state = start()
    state = state._replace(decks=((), state.decks[1], state.decks[2]))
    events, state = act(state, 0, {"type": "reserve", "card": "sp-1-01"})
    assert events[0]["refill"] is None
    assert GAME.view(state, 1)["market"][0][0] is None
    assert len(moves_of(state, 1, "reserve")) == 11


@pytest.mark.parametrize("level", [0, 4, True, "2", 2.0, None])
def test_blind_reserve_level_must_be_1_2_or_3(level):
    # (True == 1 and 2.0 == 2 in Python, so "not listed" cannot be asserted for those.)
    with pytest.raises(MoveRejected) as info:
        decide(start(), 0, {"type": "reserve_blind", "level": level}, None)
    assert info.value.code == "invalid_move"


def test_reserved_card_belongs_to_its_owner_only():
    state = with_player(start(), 0, reserved=["sp-1-10"])
    state = with_player(state, 1, tokens=toks(white=5, blue=5, green=5, red=5, black=5))._replace(seat=1)
    with pytest.raises(MoveRejected) as info:
        decide(state, 1, {"type": "buy", "card": "sp-1-10", "payment": {}}, None)
    assert info.value.code == "card_not_available"
    assert all(m["card"] != "sp-1-10" for m in moves_of(state, 1, "buy"))
