"""setup: boards and sides by seat count (decision 2), the box, and the first combos (six in
a column, or the team game's 4 rows), from the seed."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import abilities, catalog, islands, team

if TYPE_CHECKING:
    import random

    from .contract_bits import Event


def draw_sides(n_seats: int, rng: random.Random) -> list[int]:
    """One random board per size slot, each with a random side (L first, then M, then S)."""
    boards = islands.boards()
    sizes = catalog.board_sizes_for(n_seats)
    sides = []
    for size in ("L", "M", "S"):
        for board in sorted(rng.sample(sorted(boards[size]), sizes.count(size))):
            sides.append(rng.choice(sorted(boards[size][board])))
    return sides


def the_box() -> dict:
    """Every race, power and marker with a hook (since issue 16: all of them)."""
    return {"races": sorted(abilities.RACES), "powers": sorted(abilities.POWERS),
            "markers": sorted(abilities.MARKERS)}


def draw_display(box: dict[str, Any], rng: random.Random) -> list[dict[str, str]]:
    """The six visible combos."""
    races, powers = list(box["races"]), list(box["powers"])
    rng.shuffle(races)
    rng.shuffle(powers)
    size = min(catalog.DISPLAY_SIZE, len(races), len(powers))
    return [{"race": r, "power": p} for r, p in zip(races[:size], powers[:size])]


def setup(options: dict[str, Any], n_seats: int, rng: random.Random) -> list[Event]:
    box = the_box()
    event = {"type": "game_started", "v": 2, "seats": n_seats, "rounds": catalog.rounds_for(n_seats),
             "sides": draw_sides(n_seats, rng), "box": box}
    if options.get("team"):
        event["team"] = {"score": options.get("team_score", "lowest")}
        event["factions"] = team.factions(n_seats)
        event["rows"] = team.deal_rows(box, rng)
        event["display"] = []
    else:
        event["display"] = draw_display(box, rng)
    return [event]
