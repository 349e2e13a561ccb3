"""Each game's invariants (tests/<game>/invariants.py), by game name: checked after every event
of the property tests' drawn playouts (test_properties.py) and of the contract suite's bot games
(test_game_contract.py). `check(state, before, settled)`: `before` is the state before the event
(None at the first), `settled` says no event of the same decision is to come."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fairy_tile import invariants as fairy_tile
from tests.setup_game import invariants as setup_game
from tests.smallworld import invariants as smallworld
from tests.splendor import invariants as splendor
from tests.witches import invariants as witches

INVARIANTS: dict[str, Callable[[Any, Any, bool], None]] = {
    "splendor": splendor.check, "witches": witches.check, "setup": setup_game.check,
    "fairy-tile": fairy_tile.check, "smallworld-of-warcraft": smallworld.check,
}


def no_check(state: Any, before: Any, settled: bool) -> None:
    """For a game with no invariants written (the platform tests' High Card)."""


def checker(game_name: str) -> Callable[[Any, Any, bool], None]:
    return INVARIANTS.get(game_name, no_check)
