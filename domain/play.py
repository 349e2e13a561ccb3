"""Pure helpers shared by the server and the tests: folding events and seeding chance."""
from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, cast

from .contract import GameDef, State


def fold(game: GameDef, events: Iterable[dict], state: State | None = None) -> State:
    """Replays events over a state (None = before the first event), upcasting old events."""
    evolve = game.evolve
    if game.upcasters:
        events = (upcast(game, e) for e in events)
    for event in events:
        state = evolve(state, event)
    return state


def upcast(game: GameDef, event: dict) -> dict:
    """The event in its current shape: applies the game's upcasters one version at a time."""
    upcasters = game.upcasters
    while True:
        step = upcasters.get((event["type"], event.get("v", 1)))
        if step is None:
            return event
        event = step(event)


def rng_for(seed: object, version: int, salt: str = "") -> random.Random:
    """The RNG a decision at `version` uses: a pure function of the game's seed, so a game
    created with a seed replays the same shuffles and bot choices every time. Its outcomes are
    written into events anyway; this only makes *new* decisions reproducible."""
    return random.Random(f"{seed}|{version}|{salt}")


def rng_on_use(seed: object, version: int, salt: str = "") -> random.Random:
    """rng_for's RNG, seeded only when first used: the same draws. Seeding hashes its string
    (SHA-512), about 10 us, and most moves a person sends draw nothing (Splendor's and Fairy
    Tile's decide never do), so the move's path pays it only for the moves that draw."""
    return cast(random.Random, _SeededOnUse(f"{seed}|{version}|{salt}"))


class _SeededOnUse:
    """Every attribute is the random.Random's of the seed, made at the first one asked for."""

    def __init__(self, seed: str):
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:  # only names not set above: the Random's
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return getattr(self._rng, name)


def bot_move(game: GameDef, state: State, seat: int, level: str, rng: random.Random) -> dict:
    """A bot's move from its seat's information only (issue 34): its level's policy is handed
    the game's determinization of the state (everything the seat cannot see resampled, from
    what it can: GameDef.determinize), never the hidden state itself."""
    seen = game.determinize(state, seat, rng) if game.determinize is not None else state
    return game.bots[level](seen, seat, rng)
