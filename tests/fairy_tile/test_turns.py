"""A turn: one adventure (or two with an active magic token) then telling, or turning the page;
the immediate win, the player who is out, and what decide refuses."""
import random
from dataclasses import replace

import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.fairy_tile import GAME

from .helpers import apply, card, kingdom, make, row, started

R = random.Random(0)
# row 0: (0,0)p (1,0)c (2,0)p (3,0)f (4,0)m      row 1: (0,1)f (1,1)f (2,1)m
K = kingdom({**row("pcpfm"), **row("ffm", r=1)})
ARRIVE_CASTLE = card("princess arrive castle")
MEET_FOREST = card("princess meet knight on forest")
SEE_KNIGHT = card("dragon see knight")
NEUTRAL = card("dragon arrive big river")  # never holds in K: no river


def step(state, move, actor=None):
    actor = state.current if actor is None else actor
    events = GAME.decide(state, actor, move, R)
    return apply(state, events), events


def types(events):
    return [e["type"] for e in events]


def princess_to(q, r, via=None):
    move = {"type": "move", "figure": "princess", "to": [q, r]}
    if via:
        move["via"] = list(via)
    return move


@pytest.mark.parametrize("n,per", [(2, 18), (3, 12), (4, 9)])
def test_setup_deals_every_card_and_seat_0_begins(n, per):
    state, events = started(n)
    assert [len(s.book) + 1 for s in state.seats] == [per] * n
    assert all(s.hand and not s.magic and not s.told for s in state.seats)
    assert len({c for s in state.seats for c in s.book + (s.hand,)}) == 36
    assert len(state.pile) == 12 and state.current == 0 and GAME.actors(state) == [0]
    assert {side for _, side in state.pile} <= {"a", "b"}


def test_one_adventure_without_a_token_ends_the_turn():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[NEUTRAL, NEUTRAL])
    after, events = step(state, princess_to(0, 1))
    assert types(events) == ["figure_moved", "turn_ended"]
    assert after.current == 1 and after.phase == "adventure" and after.moved == frozenset()


def test_telling_after_the_adventure_draws_the_next_card():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[ARRIVE_CASTLE, SEE_KNIGHT],
                 books=[(MEET_FOREST, SEE_KNIGHT), ("ft-card-30",)])
    after, events = step(state, princess_to(1, 0))
    assert types(events) == ["figure_moved", "card_told", "turn_ended"]
    told = events[1]
    assert told["card"] == ARRIVE_CASTLE and told["drawn"] == MEET_FOREST
    assert after.seats[0].told == (ARRIVE_CASTLE,) and after.seats[0].hand == MEET_FOREST
    assert after.seats[0].book == (SEE_KNIGHT,)


def test_at_most_one_card_a_turn():
    # Both cards in a row hold after the move; only the first is told this turn.
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[ARRIVE_CASTLE, SEE_KNIGHT],
                 books=[(card("princess pass castle"), SEE_KNIGHT), ("ft-card-30",)])
    after, events = step(state, princess_to(1, 0))
    assert types(events).count("card_told") == 1


def test_a_condition_met_on_another_players_turn_counts_for_nothing():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[NEUTRAL, ARRIVE_CASTLE],
                 books=[("ft-card-30",), ("ft-card-31",)])
    after, events = step(state, princess_to(1, 0))           # seat 0 brings her to the castle
    assert "card_told" not in types(events)
    after, events = step(after, {"type": "move", "figure": "dragon", "direction": "w"})
    assert "card_told" not in types(events)                  # seat 1 did not move her: no arrival


def test_turning_the_page_puts_the_card_under_the_book_and_activates_the_token():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[ARRIVE_CASTLE, SEE_KNIGHT],
                 books=[(MEET_FOREST, SEE_KNIGHT), ("ft-card-30",)])
    after, events = step(state, {"type": "turn_page"})
    assert types(events) == ["page_turned", "turn_ended"]
    seat = after.seats[0]
    assert seat.hand == MEET_FOREST and seat.book == (SEE_KNIGHT, ARRIVE_CASTLE) and seat.magic
    again = replace(after, current=0)
    again, _ = step(again, {"type": "turn_page"})
    assert again.seats[0].magic  # stays active: nobody holds more than one


def test_turning_the_page_with_one_card_left_and_no_telling_after_it():
    # The Dragon already sees the Knight, but turning the page is no adventure: nothing is told.
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[SEE_KNIGHT, SEE_KNIGHT], books=[(), ()])
    after, events = step(state, {"type": "turn_page"})
    assert types(events) == ["page_turned", "turn_ended"]
    assert after.seats[0].hand == SEE_KNIGHT and after.seats[0].book == () and after.seats[0].magic


def test_an_active_token_gives_a_second_adventure():
    state = make(K, (2, 0), (3, 0), (4, 0), hands=[MEET_FOREST, SEE_KNIGHT], magic={0})
    after, events = step(state, princess_to(3, 0))  # meets the Knight on the forest... told at the end
    assert types(events) == ["figure_moved"] and after.phase == "second"
    moves = GAME.legal_moves(after, 0)
    assert {"type": "finish"} in moves and {"type": "turn_page"} not in moves
    done, events = step(after, {"type": "finish"})
    assert types(events) == ["card_told", "turn_ended"] and done.seats[0].magic  # token unused

    after2, events = step(after, {"type": "move", "figure": "knight", "to": [1, 1], "via": [2, 1]})
    assert types(events) == ["magic_used", "figure_moved", "turn_ended"]  # they no longer meet
    assert not after2.seats[0].magic and after2.current == 1


def test_two_adventures_together_complete_a_card():
    # The Knight goes to the forest (1,1), then the Princess joins him there.
    state = make(K, (2, 0), (3, 0), (4, 0), hands=[MEET_FOREST, SEE_KNIGHT], magic={0})
    after, _ = step(state, {"type": "move", "figure": "knight", "to": [1, 1], "via": [2, 1]})
    assert after.phase == "second"
    done, events = step(after, princess_to(1, 1))
    assert "card_told" in types(events) and done.seats[0].told == (MEET_FOREST,)


def test_laying_a_tile_can_make_see_true_but_never_arrive_or_meet():
    # The Dragon on (0,0) cannot see the Knight on (3,0) across the gap (1,0)-(2,0).
    gap = kingdom({(0, 0): "p", (3, 0): "p", (0, 1): "p", (1, 1): "p", (2, 1): "p"})
    state = make(gap, (0, 1), (3, 0), (0, 0), hands=[SEE_KNIGHT, SEE_KNIGHT],
                 pile=[("ft-tile-3", "a")])
    fill = {"type": "lay_tile", "at": [2, 0], "rotation": 3}   # covers (2,0), (1,0), (2,-1)
    assert fill in GAME.legal_moves(state, 0)
    _, events = step(state, fill)
    assert "card_told" in types(events)

    castle = kingdom({(0, 0): "c", (1, 0): "p", (2, 0): "p", (3, 0): "p"})
    state = make(castle, (0, 0), (0, 0), (3, 0), hands=[ARRIVE_CASTLE, SEE_KNIGHT],
                 pile=[("ft-tile-3", "a")])
    lay = next(m for m in GAME.legal_moves(state, 0) if m["type"] == "lay_tile")
    _, events = step(state, lay)
    assert "card_told" not in types(events)


def test_telling_the_last_card_wins_at_once():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[ARRIVE_CASTLE, SEE_KNIGHT], books=[(), ("ft-card-30",)])
    after, events = step(state, princess_to(1, 0))
    assert types(events) == ["figure_moved", "card_told", "game_ended"]
    assert GAME.actors(after) == [] and GAME.result(after)["winners"] == [0]
    assert GAME.result(after)["reason"] == "book_finished" and GAME.result(after)["scores"] == [1, 0]
    with pytest.raises(MoveRejected) as e:
        GAME.decide(after, 1, {"type": "turn_page"}, R)
    assert e.value.code == "game_over"


def test_a_player_whose_last_card_can_never_be_completed_is_out():
    no_river = K
    big_river = card("dragon arrive big river")
    state = make(no_river, (0, 0), (3, 0), (4, 0), hands=[big_river, SEE_KNIGHT],
                 books=[(), ("ft-card-30",)], pile=[], n=2)
    after, events = step(state, princess_to(0, 1))
    assert types(events) == ["figure_moved", "player_out", "turn_ended"]
    assert after.seats[0].out and after.current == 1
    after, events = step(after, princess_to(0, 0))
    assert events[-1] == {"type": "turn_ended", "seat": 1, "next": 1}  # seat 0 is skipped


def test_a_player_is_not_out_while_tiles_remain_or_cards_are_left():
    big_river = card("dragon arrive big river")
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[big_river, SEE_KNIGHT],
                 books=[(), ("ft-card-30",)], pile=[("ft-tile-3", "a")])
    _, events = step(state, princess_to(0, 1))
    assert "player_out" not in types(events)
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[big_river, SEE_KNIGHT],
                 books=[("ft-card-31",), ("ft-card-30",)], pile=[])
    _, events = step(state, princess_to(0, 1))
    assert "player_out" not in types(events)


def test_when_everyone_is_out_nobody_wins():
    big_river = card("dragon arrive big river")
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[big_river, big_river], books=[(), ()], pile=[])
    after, events = step(state, princess_to(0, 1))
    assert types(events)[-3:] == ["player_out", "player_out", "game_ended"]
    assert GAME.result(after)["winners"] == [] and GAME.result(after)["reason"] == "all_out"


def test_the_round_limit_ends_the_game_for_the_most_told_cards():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[NEUTRAL, NEUTRAL], turn=200)
    state = replace(state, seats=(state.seats[0], replace(state.seats[1], told=("ft-card-5",))))
    after, events = step(state, princess_to(0, 1))
    assert events[-1] == {"type": "game_ended", "reason": "round_limit", "winners": [1]}


BAD = [None, [], "move", 7, {}, {"type": 3}, {"type": "fly"},
       {"type": "move"}, {"type": "move", "figure": "wizard", "to": [0, 1]},
       {"type": "move", "figure": "princess", "to": [0]}, {"type": "move", "figure": "princess", "to": "0,1"},
       {"type": "move", "figure": "princess", "to": [True, 1]},
       {"type": "move", "figure": "princess", "to": [0, 1], "extra": 1},
       {"type": "move", "figure": "princess", "to": [10 ** 30, 1]},
       {"type": "move", "figure": "knight", "to": [2, 0]},
       {"type": "move", "figure": "dragon", "direction": "up"},
       {"type": "move", "figure": "dragon", "direction": ["e"]},
       {"type": "move", "figure": "dragon", "direction": "w"},
       {"type": "lay_tile", "at": [0, 1], "rotation": 9}, {"type": "lay_tile", "at": [0, 1]},
       {"type": "turn_page", "now": True}, {"type": "finish"}]


@pytest.mark.parametrize("move", BAD)
def test_decide_refuses_anything_malformed_or_illegal_with_a_code(move):
    state = make(K, (0, 0), (3, 0), (0, 0), hands=[SEE_KNIGHT, SEE_KNIGHT], pile=[("ft-tile-3", "a")])
    with pytest.raises(MoveRejected) as e:
        GAME.decide(state, 0, move, R)
    assert e.value.code in {"invalid_move", "unknown_move_type", "illegal_move", "illegal_figure_move",
                            "illegal_placement"}
    assert e.value.message.endswith(".")


def test_only_the_seat_to_play_may_act():
    state = make(K, (0, 0), (3, 0), (4, 0))
    for actor in (1, SYSTEM, "0", None, True):
        with pytest.raises(MoveRejected) as e:
            GAME.decide(state, actor, {"type": "turn_page"}, R)
        assert e.value.code == "not_your_turn"
    assert GAME.legal_moves(state, 1) == [] and GAME.legal_moves(state, SYSTEM) == []


def test_decide_survives_random_garbage():
    rng = random.Random(7)
    values = [None, True, 0, -1, 2 ** 70, 1.5, "", "e", "princess", "knight", "dragon", [], [0], [0, 1],
              [1, 0, 0], ["a", "b"], {}, {"q": 0}, [None, None], [0.0, 1.0]]
    keys = ["type", "figure", "to", "via", "direction", "at", "rotation", "x"]
    types_ = ["move", "lay_tile", "turn_page", "finish", "MOVE", 5]
    state = make(K, (0, 0), (3, 0), (0, 0), hands=[NEUTRAL, NEUTRAL], pile=[("ft-tile-3", "a")], magic={0})
    for _ in range(3000):
        move = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 5))}
        if rng.random() < 0.8:
            move["type"] = rng.choice(types_)
        try:
            events = GAME.decide(state, 0, move, R)
        except MoveRejected as e:
            assert e.code and e.message
        else:
            assert move in GAME.legal_moves(state, 0) and events


def test_options_are_checked():
    from domain.contract import InvalidOptions
    GAME.check_options({"round_limit": 100}, 3)
    for bad, n in [({"round_limit": 5}, 2), ({"round_limit": 201}, 2), ({"round_limit": "9"}, 2),
                   ({"round_limit": True}, 2), ({"round_limit": 100}, 5), ({"round_limit": 100}, 1)]:
        with pytest.raises(InvalidOptions):
            GAME.check_options(bad, n)


def test_games_end_within_max_events_even_at_the_longest_round_limit():
    state, events = started(4, seed=3, round_limit=200)
    rng = random.Random(3)
    count = len(events)
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        new = GAME.decide(state, seat, {"type": "turn_page"}, rng)  # nobody ever tells a card
        state = apply(state, new)
        count += len(new)
    assert GAME.result(state)["reason"] == "round_limit" and count < GAME.max_events
