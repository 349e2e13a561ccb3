"""The games this server hosts, by name.

Every package under `domain/` that defines `GAME` (a GameDef) is a hosted game: adding a game
is adding its package, with no list to edit here.
"""
from __future__ import annotations

import pkgutil
from collections.abc import Iterable
from importlib import import_module
from pathlib import Path

from .contract import GameDef

# The order GET /game-types lists games in; games not named here follow alphabetically.
PREFERRED_ORDER = ("splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft")

_games: dict[str, GameDef] = {}


def _load() -> None:
    if _games:
        return
    found = []
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not module.ispkg:
            continue
        game = getattr(import_module(f"{__package__}.{module.name}"), "GAME", None)
        if isinstance(game, GameDef):
            found.append(game)
    rank = {name: i for i, name in enumerate(PREFERRED_ORDER)}
    for game in sorted(found, key=lambda g: (rank.get(g.name, len(rank)), g.name)):
        _games[game.name] = game


def get(name: str) -> GameDef | None:
    _load()
    return _games.get(name)


def all_games() -> list[GameDef]:
    _load()
    return list(_games.values())


def register(game: GameDef) -> None:
    """Adds a game that does not live under domain/ (the platform tests' own small game)."""
    _load()
    _games[game.name] = game


def register_modules(module_names: Iterable[str]) -> None:
    """Registers the GAME of each named module (games hosted from outside domain/)."""
    for name in module_names:
        if name:
            register(import_module(name).GAME)
