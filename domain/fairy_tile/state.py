"""The state of a Fairy Tile game: frozen dataclasses and tuples, rebuilt by `evolve`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .kingdom import Kingdom
from .tiles import FIGURES

if TYPE_CHECKING:
    from .hexgrid import Hex

# Phases: "adventure" (the seat's first adventure, or turning the page), "second" (one adventure
# done and an active magic token: a second adventure or "finish"), "closing" (between the last
# adventure and the end of the turn, inside one decision), "over".


@dataclass(frozen=True)
class Seat:
    book: tuple              # card ids still in the story book, top first (secret)
    hand: str | None      # the card in hand (secret to its holder)
    told: tuple = ()         # cards told, in order (public)
    magic: bool = False      # magic token active (star side up)
    out: bool = False        # last card can never be completed: out of the game


@dataclass(frozen=True)
class State:
    n: int
    round_limit: int
    kingdom: Kingdom
    figures: tuple           # hexes of the princess, the knight and the dragon
    pile: tuple              # ((tile id, side), ...), top first
    seats: tuple
    laid: tuple = ()         # ((tile id, side, (q, r), rotation), ...) laid after the start
    current: int = 0
    phase: str = "adventure"
    adventures: int = 0      # adventures taken this turn
    moved: frozenset = frozenset()   # figures moved this turn
    passed: frozenset = frozenset()  # figures that passed a castle this turn
    # ((figure, the kingdom as it was when that figure stopped), ...) for the figures moved this
    # turn (rules fairy-tile-2): an "arrive" is judged where the figure stopped, so a tile laid
    # after the move never makes it true.
    stopped: tuple = ()
    turn: int = 1            # the number of the turn being played (1-based)
    winners: tuple = ()
    reason: str | None = None

    def position(self, figure: str) -> Hex:
        return self.figures[FIGURES.index(figure)]

    def positions(self) -> dict:
        return dict(zip(FIGURES, self.figures))

    def stopped_in(self) -> dict:
        """{figure: the kingdom as it was when it stopped} for the figures moved this turn."""
        return dict(self.stopped)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def turn_limit(self) -> int:
        return self.round_limit * self.n
