"""Making a set: the set rule along links, one set for all played tiles, scoring and bonus
points, stacking. The seed's scoring example is the first test."""
from domain.setup_game.data import SQUARE_INDEX

from .helpers import apply, first, play, rejected, start, tix

# Board:      N1 N2
#          W1 C1 C2 E1
#          W2 C3 C4 E2
#             S1 S2
QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}  # no two of these join


def test_seed_example_two_tiles_three_points_and_a_bonus_point_for_the_north_owner():
    # The walkthrough: the player puts star 10 and club 10 in the centre, next to the diamond 10
    # on the purple (12 o'clock = north = seat 2) bonus square: 3 points, and purple gets 1.
    state = start(n=4, board={**QUIET, "N1": "d10"}, racks=[["st10", "h2"], [], [], []],
                  market=["c10", "s5"])
    events, after = apply(state, play({"C1": "st10", "C2": "c10"}))
    made = first(events, "set_made")
    assert made["points"] == 3 and made["bonus"] == [0, 0, 1, 0]
    assert sorted(made["set_tiles"]) == sorted(["su-diamond-10", "su-star-10", "su-club-10"])
    assert made["from_rack"] == ["su-star-10"] and made["from_market"] == ["su-club-10"]
    assert after.scores == (3, 0, 1, 0)


def test_seed_example_when_the_north_player_plays_it_no_bonus():
    state = start(n=4, board={**QUIET, "N1": "d10"}, racks=[[], [], ["st10"], []],
                  market=["c10"], turn=2)
    _, after = apply(state, play({"C1": "st10", "C2": "c10"}))
    assert after.scores == (0, 0, 3, 0)


def test_a_tile_in_two_sets_scores_once():
    # The seed: (heart 5, heart 6) and (heart 5, diamond 5) together: 3 points.
    state = start(board={**QUIET, "C2": "h6", "C3": "d5"}, racks=[["h5"], []])
    events, after = apply(state, play({"C1": "h5"}))
    assert first(events, "set_made")["points"] == 3 and after.scores == (3, 0)


def test_number_set_is_any_linked_group_of_one_number():
    state = start(board={**QUIET, "N1": "d7", "N2": "c7"}, racks=[["h7"], []])
    events, _ = apply(state, play({"C1": "h7"}))  # N1-C1 linked, N1-N2 linked
    assert first(events, "set_made")["points"] == 3


def test_run_follows_links_one_number_apart_in_one_suit():
    state = start(board={**QUIET, "C3": "c3", "S1": "c2"}, racks=[["c4"], []])
    events, _ = apply(state, play({"C4": "c4"}))  # S1-C3-C4 : clubs 2, 3, 4
    assert first(events, "set_made")["points"] == 3


def test_ten_does_not_wrap_to_one():
    board = {"C1": "s4", "C2": "h10", "C3": "c6", "C4": "d8"}
    assert rejected(start(board=board, racks=[["h1"], []]), play({"E1": "h1"})).code == "not_a_set"
    board = {"C1": "s4", "C2": "h1", "C3": "c6", "C4": "d8"}
    assert rejected(start(board=board, racks=[["h10"], []]), play({"E1": "h10"})).code == "not_a_set"


def test_same_suit_two_apart_is_not_a_run():
    state = start(board={**QUIET, "C2": "d3"}, racks=[["d5"], []])
    assert rejected(state, play({"C4": "d5"})).code == "not_a_set"


def test_squares_not_linked_do_not_join():
    # C1 and C4 are diagonal: no link. W1 and N1 touch at a corner: no link.
    state = start(board={"C1": "h5", "C2": "s1", "C3": "c9", "N1": "d5"}, racks=[["s5"], []])
    assert rejected(state, play({"C4": "s5"})).code == "not_a_set"
    assert rejected(state, play({"S1": "s5"})).code == "not_a_set"


def test_all_played_tiles_must_be_in_one_set():
    state = start(board={**QUIET, "C2": "h6", "E2": "c9"}, racks=[["h5", "d9"], []])
    error = rejected(state, play({"C1": "h5", "C4": "d9"}))  # two different sets
    assert error.code == "tiles_not_in_one_set" and "same set" in error.message


def test_a_played_tile_in_no_set_is_not_a_set():
    state = start(board={**QUIET, "C2": "h6"}, racks=[["h5", "d9"], []])
    error = rejected(state, play({"C1": "h5", "S2": "d9"}))
    assert error.code == "not_a_set" and "diamond 9" in error.message


def test_tiles_of_two_sets_may_be_legal_when_one_set_holds_them_all():
    # heart 5 joins heart 6 (a run) and diamond 5 (a number set): the number set {h5, d5}
    # holds both played tiles, so the play is legal and scores h5, d5 and h6.
    state = start(board={**QUIET, "C2": "h6"}, racks=[["h5", "d5"], []])
    events, _ = apply(state, play({"C1": "h5", "C3": "d5"}))
    assert first(events, "set_made")["points"] == 3


def test_played_tiles_need_not_touch_when_a_board_tile_links_them():
    state = start(board={**QUIET, "C1": "c7", "C4": "s10"}, racks=[["h7", "d7"], []])
    events, _ = apply(state, play({"C2": "h7", "C3": "d7"}))  # C2-C1-C3
    assert first(events, "set_made")["points"] == 3


def test_eight_tiles_from_rack_and_market_in_one_run():
    board = {"C1": "s1", "C2": "s2", "C3": "s3", "C4": "s4", "E1": "d1", "E2": "d2",
             "N1": "st9", "N2": "st7"}
    state = start(board=board, racks=[["h1", "h2", "h3", "h4"], []], market=["h5", "h6", "h7", "h8"])
    path = ["S1", "S2", "C4", "C3", "C1", "N1", "N2", "C2"]
    events, after = apply(state, play({q: f"h{i + 1}" for i, q in enumerate(path)}))
    assert first(events, "set_made")["points"] == 8
    assert after.scores == (8, 0)
    assert len(after.market) == 4 and len(after.racks[0]) == 4  # refilled


def test_stacking_covers_and_covered_tiles_no_longer_count():
    state = start(board={"C2": "s9", "C3": "c6", "C4": "h8"}, stacks={"C1": ["h5", "d1"]},
                  racks=[["h6", "d2"], []])
    # the heart 5 under the diamond 1 does not count any more
    assert rejected(state, play({"C2": "h6"})).code == "not_a_set"
    # but a tile can go on top of a stack: the diamond 2 on C2 joins the diamond 1 on C1
    _, after = apply(state, play({"C2": "d2"}))
    assert [len(s) for s in (after.stacks[SQUARE_INDEX["C1"]], after.stacks[SQUARE_INDEX["C2"]])] == [2, 2]
    assert after.stacks[SQUARE_INDEX["C2"]][-1] == tix("d2")


def test_bonus_points_go_to_every_other_owner_not_the_player_nor_absent_sides():
    # 3 seats: W = seat 1, N = seat 2, E = an absent side (common squares, nobody's bonus).
    # The 7s on C1, W1, W2, N1, N2 form one set; the player (seat 0) scores all 5 tiles,
    # seat 1 gets 2 bonus points, seat 2 gets 2.
    board = {"C2": "s1", "C3": "c1", "C4": "h9", "W1": "s7", "W2": "c7", "N1": "d7", "N2": "st7"}
    state = start(n=3, board=board, racks=[["h7"], [], []])
    events, after = apply(state, play({"C1": "h7"}))
    assert first(events, "set_made")["bonus"] == [0, 2, 2]
    assert after.scores == (5, 2, 2)


def test_own_bonus_squares_give_no_extra_points_and_absent_sides_none():
    state = start(n=3, board={**QUIET, "E1": "d5"}, racks=[["h5", "c5"], [], []])
    events, after = apply(state, play({"S1": "c5"}))  # seat 0's own S1, next to c6 on C3
    assert first(events, "set_made")["bonus"] == [0, 0, 0] and after.scores == (2, 0, 0)
    events, after = apply(state, play({"C2": "h5"}))  # next to d5 on E1: side 3 is absent
    assert first(events, "set_made")["bonus"] == [0, 0, 0] and after.scores == (2, 0, 0)


def test_a_bonus_square_of_another_player_is_not_yours():
    state = start(n=4, board=QUIET, racks=[["s1"], [], [], []])
    for square in ("W1", "N2", "E2"):
        error = rejected(state, play({square: "s1"}))
        assert error.code == "square_not_yours" and square in error.message


def test_bonus_to_the_partner_in_the_team_game():
    state = start(n=4, teams=True, board={**QUIET, "W1": "d1"}, racks=[["s1"], [], [], []])
    _, after = apply(state, play({"C1": "s1"}))  # next to partner seat 1's W1 (diamond 1)
    assert after.scores == (2, 1, 0, 0)


def test_a_run_may_be_bridged_by_a_board_tile_but_not_by_a_covered_one():
    from domain.setup_game.moves import placements
    # heart 4 on C1; hearts 3 and 5 played on either side of it (C2 and C3) make 3-4-5.
    state = start(board={"C1": "h4", "C2": "s9", "C3": "c1", "C4": "d7"}, racks=[["h3", "h5"], []])
    events, _ = apply(state, play({"C2": "h3", "C3": "h5"}))
    assert first(events, "set_made")["points"] == 3
    listed = placements(state, 0)
    assert ((SQUARE_INDEX["C2"], tix("h3")), (SQUARE_INDEX["C3"], tix("h5"))) in listed
    # covering the heart 4 breaks the bridge: heart 3 on C1, heart 5 on C4 are not one run
    assert rejected(state, play({"C1": "h3", "C4": "h5"})).code == "not_a_set"
    assert ((SQUARE_INDEX["C1"], tix("h3")), (SQUARE_INDEX["C4"], tix("h5"))) not in listed
