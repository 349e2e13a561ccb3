"""The social relations' decider (issue 53): follows, friends, blocks and privacy, pure."""
from __future__ import annotations

import pytest

from api.errors import ApiError
from api.social import decider
from api.social.decider import Command


def run(state, kind, player, target=None, settings=None, at=1):
    events = decider.decide(state, Command(kind, player, at, target, settings))
    return decider.fold(events, state), events


def refused(state, kind, player, target=None, settings=None):
    with pytest.raises(ApiError) as e:
        decider.decide(state, Command(kind, player, 1, target, settings))
    return e.value.status, e.value.code


def test_follows_are_one_way_and_friends_are_mutual():
    state, events = run(decider.State(), "follow", "a", "b")
    assert [e["type"] for e in events] == ["followed"] and not decider.friends(state, "a", "b")
    assert run(state, "follow", "a", "b")[1] == []  # again: nothing changes
    state, _ = run(state, "follow", "b", "a")
    assert decider.friends(state, "a", "b")
    state, events = run(state, "unfollow", "a", "b")
    assert events[0]["type"] == "unfollowed" and not decider.friends(state, "a", "b")
    assert run(state, "unfollow", "a", "b")[1] == []
    assert refused(state, "follow", "a", "a") == (422, "self_relation")


def test_a_block_ends_follows_both_ways_and_refuses_following_either_way_without_telling_it():
    state, _ = run(decider.State(), "follow", "a", "b")
    state, _ = run(state, "follow", "b", "a")
    state, events = run(state, "block", "a", "b")
    assert [(e["type"], e["player"], e.get("reason")) for e in events] == [
        ("unfollowed", "a", "block"), ("unfollowed", "b", "block"), ("blocked", "a", None)]
    assert state.follows == frozenset() and decider.blocked(state, "b", "a")
    assert refused(state, "follow", "a", "b") == (409, "you_blocked")
    # the player blocked hears what a privacy setting would say: the block is not told
    assert refused(state, "follow", "b", "a") == (403, "not_allowed_by_player")
    assert run(state, "block", "a", "b")[1] == []
    state, events = run(state, "unblock", "a", "b")
    assert events[0]["type"] == "unblocked" and not decider.blocked(state, "a", "b")
    assert run(state, "follow", "b", "a")[1][0]["type"] == "followed"


@pytest.mark.parametrize("level, follows_first, allowed", [
    ("everyone", False, True), ("nobody", False, False), ("friends", False, False), ("friends", True, True)])
def test_who_may_follow_is_the_players_setting(level, follows_first, allowed):
    state, events = run(decider.State(), "privacy", "b", settings={"follow": level})
    assert events == ([] if level == "everyone" else [{"type": "privacy_set", "player": "b",
                                                       "settings": {"follow": level}, "at": 1}])
    if follows_first:
        state, _ = run(state, "follow", "b", "a")
    if allowed:
        assert run(state, "follow", "a", "b")[1][0]["type"] == "followed"
    else:
        assert refused(state, "follow", "a", "b") == (403, "not_allowed_by_player")


def test_challenge_friends_means_mutual_follows_and_the_fold_is_the_events():
    state, log = decider.State(), []
    for kind, player, target, settings in [("privacy", "b", None, {"challenge": "friends", "message": "nobody"}),
                                           ("follow", "b", "a", None)]:
        state, events = run(state, kind, player, target, settings)
        log += events
    assert decider.privacy(state, "b") == {"follow": "everyone", "challenge": "friends", "message": "nobody"}
    assert not decider.allows(state, "b", "challenge", "a")  # b follows a, not a b
    state, events = run(state, "follow", "a", "b")
    log += events
    assert decider.allows(state, "b", "challenge", "a") and not decider.allows(state, "b", "message", "a")
    assert decider.fold(log) == state
    state, _ = run(state, "block", "b", "a")
    assert not decider.allows(state, "b", "challenge", "a") and not decider.allows(state, "a", "challenge", "b")
