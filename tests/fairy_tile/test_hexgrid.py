from domain.fairy_tile.hexgrid import (
    DIR_NAMES,
    DIRS,
    direction_between,
    distance,
    neighbor,
    neighbors,
    opposite,
    ray,
    rotate,
    sight,
)


def test_six_directions_and_their_opposites():
    assert len(set(DIRS)) == 6 and DIR_NAMES == ("e", "se", "sw", "w", "nw", "ne")
    for d in range(6):
        assert neighbor(neighbor((0, 0), d), opposite(d)) == (0, 0)
        assert direction_between((0, 0), DIRS[d]) == d
    assert direction_between((0, 0), (2, 0)) is None


def test_rotation_turns_each_direction_into_the_next():
    for d in range(6):
        assert rotate(DIRS[d], 1) == DIRS[(d + 1) % 6]
        assert rotate(DIRS[d], 6) == DIRS[d]
    assert rotate((2, -1), 3) == (-2, 1)


def test_distance():
    assert distance((0, 0), (0, 0)) == 0
    assert all(distance((0, 0), n) == 1 for n in neighbors((0, 0)))
    assert distance((0, 0), (2, -1)) == 2
    assert distance((0, 0), (1, 1)) == 2
    assert distance((-2, 1), (1, 1)) == 3
    assert distance((3, -3), (-3, 3)) == 6


def test_a_ray_stops_at_the_first_gap():
    cells = {(0, 0), (1, 0), (2, 0), (4, 0)}
    assert list(ray((0, 0), 0, cells)) == [(1, 0), (2, 0)]
    assert list(ray((0, 0), 3, cells)) == []


def test_sight_covers_own_hex_and_six_lines_up_to_gaps():
    cells = {(q, r) for q in range(-3, 4) for r in range(-3, 4) if distance((0, 0), (q, r)) <= 3}
    cells.discard((0, 2))  # a gap south-east
    seen = sight((0, 0), cells)
    assert (0, 0) in seen and (3, 0) in seen and (-3, 3) in seen
    assert (0, 1) in seen and (0, 3) not in seen  # not past the gap
    assert (1, 1) not in seen  # not on a straight line
