"""The box: races, powers, markers and the numbers that depend on the seat count."""
from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).parent / "data" / "catalog.json").read_text())

RACES: dict = _DATA["races"]
POWERS: dict = _DATA["powers"]
MARKERS: dict = _DATA["markers"]
SUPPLIES: dict = _DATA["supplies"]
DIE_FACES: tuple = tuple(_DATA["die_faces"])
STARTING_COINS: int = _DATA["starting_coins"]
DISPLAY_SIZE: int = _DATA["display_size"]
FACTIONS = ("alliance", "horde", "neutral")
MURLOCS = "murlocs"  # the ownerless race, always in decline


def rounds_for(n_seats: int) -> int:
    return _DATA["rounds_by_seats"][str(n_seats)]


def board_sizes_for(n_seats: int) -> list:
    return list(_DATA["boards_by_seats"][str(n_seats)])


def all_board_size_lists() -> list:
    return [list(v) for v in _DATA["boards_by_seats"].values()]


def faction(race: str | None) -> str | None:
    """Murlocs belong to no faction."""
    info = RACES.get(race)
    return info["faction"] if info else None


def opposite(f1: str | None, f2: str | None) -> bool:
    return {f1, f2} == {"alliance", "horde"}
