"""The three movements. A kingdom with two castles far apart:

    row 0:  (0,0)p (1,0)c (2,0)p (3,0)p (4,0)p (5,0)c (6,0)p
    row 1:  (0,1)f (1,1)f (2,1)m ...
"""
from domain.fairy_tile.hexgrid import distance
from domain.fairy_tile.movement import dragon_moves, knight_moves, princess_moves

from .helpers import kingdom, row

K = kingdom({**row("pcpppcp"), **row("ffm", r=1)})


def dests(moves):
    return {(key, to) for key, to, _, _ in moves}


def test_princess_steps_to_an_adjacent_hex():
    moves = princess_moves(K, (3, 0))
    assert {to for _, to, _, _ in moves} == {(2, 0), (4, 0), (2, 1)}
    assert all(key[1] is None for key, _, _, _ in moves)


def test_princess_steps_onto_a_castle_then_jumps():
    moves = dests(princess_moves(K, (2, 0)))
    assert (((5, 0), (1, 0)), (5, 0)) in moves       # step onto (1,0), jump to (5,0)
    assert (((1, 0), None), (1, 0)) in moves         # or just the step
    (path, passed), = [(p, s) for k, _, p, s in princess_moves(K, (2, 0)) if k == ((5, 0), (1, 0))]
    assert path == ((1, 0), (5, 0)) and passed


def test_princess_on_a_castle_jumps_then_steps():
    moves = dests(princess_moves(K, (1, 0)))
    assert (((6, 0), (5, 0)), (6, 0)) in moves and (((4, 0), (5, 0)), (4, 0)) in moves
    assert (((5, 0), None), (5, 0)) not in moves     # no jump without the step


def test_princess_never_jumps_twice_nor_ends_where_she_began():
    k = kingdom({(0, 0): "c", (1, 0): "c", (5, 0): "c", (6, 0): "p", (7, 0): "p"})
    moves = princess_moves(k, (0, 0))
    assert all(to != (0, 0) for _, to, _, _ in moves)
    # step onto (1,0) then jump to (5,0), or jump to (5,0) then step to (6,0); never a second
    # step to (7,0), nor a step back onto her start after jumping to (1,0)
    assert {to for _, to, _, _ in moves} == {(1, 0), (5, 0), (6, 0)}


def test_plain_step_passes_a_castle_only_when_it_lands_on_one():
    steps = {to: passed for key, to, _, passed in princess_moves(K, (0, 0)) if key[1] is None}
    assert steps[(1, 0)] is True and steps[(0, 1)] is False


def test_knight_moves_exactly_two_never_back_nor_next_door():
    moves = knight_moves(K, (2, 0))
    assert {to for _, to, _, _ in moves} == {(0, 0), (4, 0), (0, 1)}
    assert all(distance((2, 0), to) == 2 for _, to, _, _ in moves)
    # both routes to (0, 1) are listed, each with its middle hex
    assert {key for key, to, _, _ in moves if to == (0, 1)} == {((0, 1), (1, 1)), ((0, 1), (1, 0))}


def test_knight_cannot_cross_a_gap():
    k = kingdom({(0, 0): "p", (2, 0): "p", (1, 1): "p"})
    assert {to for _, to, _, _ in knight_moves(k, (0, 0))} == set()
    k2 = kingdom({(0, 0): "p", (1, 0): "c", (2, 0): "p"})
    (key, to, path, passed), = knight_moves(k2, (0, 0))
    assert to == (2, 0) and path == ((1, 0), (2, 0)) and passed  # he went through a castle


def test_dragon_flies_to_the_edge_or_the_last_hex_before_a_gap():
    moves = {d: (to, path) for d, to, path, _ in dragon_moves(K, (0, 0))}
    assert moves[0][0] == (6, 0) and len(moves[0][1]) == 6   # east, to the far edge
    assert moves[1][0] == (0, 1)                             # south-east, one hex
    assert 3 not in moves                                    # nothing west: no move
    k = kingdom({(0, 0): "p", (1, 0): "p", (2, 0): "p", (4, 0): "p"})
    (d, to, path, _), = dragon_moves(k, (0, 0))
    assert to == (2, 0)                                      # never across the gap


def test_dragon_passes_every_castle_it_flies_over():
    passed = {d: p for d, _, _, p in dragon_moves(K, (0, 0))}
    assert passed[0] is True and passed[1] is False


def test_no_figure_leaves_the_kingdom():
    for at in K.cells:
        for mover in (princess_moves, knight_moves, dragon_moves):
            assert all(to in K.cells and all(h in K.cells for h in path) for _, to, path, _ in mover(K, at))
