"""The card words' exact meanings, and the condition language they are written in."""
import pytest

from domain.fairy_tile.conditions import ConditionError, Context, holds, parse

from .helpers import kingdom, row


def ctx(k, princess, knight, dragon, moved=(), passed=()):
    pos = {"princess": princess, "knight": knight, "dragon": dragon}
    return Context(k, pos, frozenset(moved), frozenset(passed))


def check(text, c):
    return holds(parse(text), c)


def test_precedence_and_parentheses():
    assert parse("dragon see knight or dragon see princess and knight pass castle") == (
        "or", (("see_fig", "dragon", "knight"),
               ("and", (("see_fig", "dragon", "princess"), ("pass", "knight", ("terrain", "castle"))))))
    assert parse("(dragon see knight or dragon see princess) and knight pass castle")[0] == "and"
    assert parse("knight see 3 forest") == ("see_line", "knight", 3, ("terrain", "forest"))
    assert parse("dragon arrive big river") == ("arrive", "dragon", ("big_river",))
    assert parse("princess meet knight on big plain") == ("meet", "princess", "knight", ("big", "plain"))


@pytest.mark.parametrize("bad", ["princess fly castle", "princess meet princess", "dragon see",
                                 "knight arrive castle castle", "(knight pass castle", "big castle"])
def test_malformed_conditions_are_refused(bad):
    with pytest.raises(ConditionError):
        parse(bad)


LINE = kingdom({**row("pcpfm"), **row("fff", r=1, q0=-1)})


def test_see_includes_own_hex():
    assert check("princess see castle", ctx(LINE, (1, 0), (0, 0), (0, 0)))
    assert not check("dragon see castle", ctx(LINE, (1, 0), (0, 0), (-1, 1)))


def test_see_goes_through_figures_any_distance():
    c = ctx(LINE, (0, 0), (2, 0), (4, 0))
    assert check("princess see dragon", c)  # the knight stands between
    assert check("dragon see princess", c)


def test_see_stops_at_a_gap():
    k = kingdom({(0, 0): "p", (1, 0): "p", (3, 0): "m", (4, 0): "p"})
    assert not check("princess see dragon", ctx(k, (0, 0), (1, 0), (3, 0)))
    assert not check("princess see mountain", ctx(k, (0, 0), (1, 0), (3, 0)))
    assert check("princess see knight", ctx(k, (0, 0), (1, 0), (3, 0)))


def test_see_two_figures_needs_no_single_place():
    c = ctx(LINE, (0, 0), (2, 0), (4, 0))
    assert check("knight see princess and knight see dragon", c)  # west and east of him


def test_see_three_in_a_line_need_not_be_adjacent():
    k = kingdom(row("pfpff"))
    assert check("knight see 3 forest", ctx(k, (0, 0), (0, 0), (0, 0)))
    # three forests in sight, but not on one line
    k2 = kingdom({(0, 0): "p", (1, 0): "f", (2, 0): "f", (0, 1): "f"})
    assert not check("knight see 3 forest", ctx(k2, (0, 0), (0, 0), (0, 0)))


def test_arrive_needs_this_turns_move_and_the_stop_there():
    c = dict(princess=(1, 0), knight=(0, 0), dragon=(0, 0))
    assert not check("princess arrive castle", ctx(LINE, **c))                     # just standing there
    assert check("princess arrive castle", ctx(LINE, **c, moved={"princess"}))
    assert not check("knight arrive castle", ctx(LINE, **c, moved={"princess"}))   # someone else moved
    assert not check("princess arrive forest", ctx(LINE, **c, moved={"princess"}))


def test_meet_needs_one_hex_and_one_of_them_moved_there():
    same = dict(princess=(3, 0), knight=(3, 0), dragon=(0, 0))
    assert check("princess meet knight on forest", ctx(LINE, **same, moved={"knight"}))
    assert check("princess meet knight", ctx(LINE, **same, moved={"princess"}))
    assert not check("princess meet knight", ctx(LINE, **same))                       # nobody moved
    assert not check("princess meet knight", ctx(LINE, **same, moved={"dragon"}))
    assert not check("princess meet knight on plain", ctx(LINE, **same, moved={"knight"}))
    apart = dict(princess=(3, 0), knight=(2, 0), dragon=(0, 0))
    assert not check("princess meet knight", ctx(LINE, **apart, moved={"knight", "princess"}))


def test_pass_a_castle_is_recorded_by_the_move():
    c = dict(princess=(0, 0), knight=(0, 0), dragon=(4, 0))
    assert check("dragon pass castle", ctx(LINE, **c, moved={"dragon"}, passed={"dragon"}))
    assert not check("dragon pass castle", ctx(LINE, **c, moved={"dragon"}))


def test_big_terrain_is_three_connected_hexes():
    assert (-1, 1) in LINE.big("forest") and (3, 0) not in LINE.big("forest")
    k = kingdom({(0, 0): "m", (1, 0): "m", (3, 0): "m"})
    assert not k.big("mountain")
    assert check("dragon arrive big forest", ctx(LINE, (0, 0), (0, 0), (0, 1), moved={"dragon"}))
    assert not check("dragon arrive big mountain", ctx(k, (0, 0), (0, 0), (0, 0), moved={"dragon"}))


def test_big_river_is_five_hexes_along_the_river():
    course = {(q, 0): ("p", [3, 0]) for q in range(5)}
    assert kingdom(course).big_river() == frozenset(course)
    four = {(q, 0): ("p", [3, 0]) for q in range(4)}
    assert not kingdom(four).big_river()
    # five river hexes side by side, but two rivers that do not meet on their shared edge
    broken = {**four, (0, 1): ("p", [1, 2])}  # touches (0,0) and (1,0), its river runs elsewhere
    assert not kingdom(broken).big_river()
    k = kingdom(course)
    assert check("knight see big river", ctx(k, (0, 0), (4, 0), (0, 0)))
