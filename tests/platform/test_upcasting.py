"""Old histories replay through upcasters: the stored events are never rewritten."""
from __future__ import annotations

from domain.play import fold, upcast
from tests.platform import high_card

OLD_LOG = [
    {"type": "started", "seats": 2, "rounds": 1},
    {"type": "dealt", "round": 1, "cards": ["hc-1-7-0", "hc-1-3-1"]},
    {"type": "bid", "seat": 0, "amount": 2},  # version 1: "amount"
    {"type": "bid", "v": 2, "seat": 1, "chips": 1},
]


def test_a_version_1_event_is_upcast_to_the_current_shape():
    assert upcast(high_card.GAME, OLD_LOG[2]) == {"type": "bid", "v": 2, "seat": 0, "chips": 2}
    assert upcast(high_card.GAME, OLD_LOG[3]) is OLD_LOG[3]


def test_an_old_history_replays_to_the_same_state_as_a_new_one():
    new_log = OLD_LOG[:2] + [{"type": "bid", "v": 2, "seat": 0, "chips": 2}, OLD_LOG[3]]
    assert fold(high_card.GAME, OLD_LOG) == fold(high_card.GAME, new_log)
    assert fold(high_card.GAME, OLD_LOG).bids == (2, 1)
