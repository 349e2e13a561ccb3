"""setup: boards and sides by seat count (decision 2) and the first six combos, from the seed."""
from __future__ import annotations

from . import abilities, catalog, islands


def draw_sides(n_seats: int, rng) -> list:
    """One random board per size slot, each with a random side (L first, then M, then S)."""
    boards = islands.boards()
    sizes = catalog.board_sizes_for(n_seats)
    sides = []
    for size in ("L", "M", "S"):
        for board in sorted(rng.sample(sorted(boards[size]), sizes.count(size))):
            sides.append(rng.choice(sorted(boards[size][board])))
    return sides


def draw_display(rng) -> list:
    """The six visible combos; only races and powers with hooks are playable so far."""
    races, powers = sorted(abilities.RACES), sorted(abilities.POWERS)
    rng.shuffle(races)
    rng.shuffle(powers)
    size = min(catalog.DISPLAY_SIZE, len(races), len(powers))
    return [{"race": r, "power": p} for r, p in zip(races[:size], powers[:size])]


def setup(options: dict, n_seats: int, rng) -> list:
    return [{
        "type": "game_started",
        "seats": n_seats,
        "rounds": catalog.rounds_for(n_seats),
        "sides": draw_sides(n_seats, rng),
        "display": draw_display(rng),
    }]
