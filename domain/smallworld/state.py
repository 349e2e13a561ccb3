"""The state of a game: immutable named tuples and one frozen dataclass, replaced on change.

Regions, players and the turn are NamedTuples (cheap `_replace`, equal after a JSON round
trip because `evolve` always rebuilds tuples). The static map is shared and compared by sides.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .islands import Map

# Steps of a seat's turn. "defend": a seat that lost tokens redeploys them (end of turn);
# "markers": the active seat places the markers it moves at the end of its turn.
# "reinforce": the Forsaken buy tokens after their last conquest.
PICK, START, CONQUER, REINFORCE, REDEPLOY, DEFEND, MARKERS, SCORE, OVER = (
    "pick", "start", "conquer", "reinforce", "redeploy", "defend", "markers", "score", "over")


class Region(NamedTuple):
    seat: int | None = None     # owning seat; None when empty or Murlocs
    race: str | None = None     # a race key, "murlocs", or None when empty
    tokens: int = 0
    declined: bool = False
    wall: bool = False             # a Night Elves Wisp Wall
    marker: str | None = None   # None, "hidden" (face down) or a marker key
    fort: bool = False             # a Garrisoned Fort (+1 defence, stays in decline)
    tower: bool = False            # a Defensive Watch Tower (immune to powers and conquest)
    beasts: int = 0                # how many of `tokens` are Beast Master beasts
    champion: bool = False         # the Championing champion (+1 defence)
    bomb: int | None = None     # a face-down Goblin bomb aimed at this seat's race
    objective: bool = False        # a Humans Military Objective


class Player(NamedTuple):
    coins: int
    race: str | None = None      # the active race
    power: str | None = None     # its special power
    hand: int = 0                   # active-race tokens not on the map
    declined: str | None = None  # the race in decline (one at most)
    faction: str | None = None   # the team game: alliance, horde or neutral
    harmony: bool = False           # holds a Pandaren Harmony token
    beasts: int = 0                 # how many of `hand` are beasts
    declined_power: str | None = None  # a badge that keeps working in decline (MarshDweller)
    champion: bool = False          # the Champion is back in hand (ransomed), to be redeployed


class Conquest(NamedTuple):
    """What a conquest took, kept for the end-of-turn bonuses."""
    region: int
    race: str | None      # the defending race (or "murlocs"), None for an empty region
    seat: int | None
    tokens: int              # defending race tokens
    declined: bool
    lost: int = 0            # defending tokens that left the game (Forsaken)
    objective: bool = False  # a Military Objective lay there
    cost: int = 0            # tokens the conquest cost (Tauren occupy with 2)


class Turn(NamedTuple):
    step: str
    conquests: tuple = ()     # Conquest records of this turn
    used: tuple = ()          # once-per-turn things used (e.g. "frostmourne")
    form: str | None = None  # Worgen form chosen this turn
    declined: bool = False    # the seat went into decline this turn
    readied: bool = False     # the seat readied its troops (may abandon until it conquers)
    defenders: tuple = ()     # seats still to redeploy lost tokens, in order
    placed: tuple = ()        # markers the active seat placed at the end of this turn
    spared: tuple = ()        # Draenei seats whose first loss this turn was kept (Holy Light)
    attacked: tuple = ()      # seats whose active race the active seat attacked (Harmony)
    forced: int = 0           # opponent tokens this seat made leave the game (Forsaken)
    bought: int = 0           # Forsaken tokens bought this turn
    pieces: tuple = ()        # pieces placed this turn ("objective", "bomb")


@dataclass(frozen=True)
class State:
    n: int
    rounds: int
    round: int
    seat: int                 # whose turn it is
    map: Map
    regions: tuple            # Region per map index
    players: tuple            # Player per seat
    display: tuple            # (race, power, coins) from the top (free) down
    race_pile: tuple          # sorted keys of the banners not in play nor shown
    power_pile: tuple
    turn: Turn
    final: dict | None = None  # the revealed result once over
    box: tuple = ()               # (races, powers, markers) in this game's box
    returned: tuple = ()          # banners put back under the pile, in order (drawn last)
    bombs: tuple = (6, 6)         # (live, dud) bombs not yet revealed (stack + map)
    team: dict | None = None   # the team game: {"score": lowest|highest}
    rows: tuple = ()              # team display: (power, alliance, horde, neutral) bottom first
    power_discards: tuple = ()    # discarded badges, sorted: drawn once the badge stack is empty

    def with_(self, **changes: Any) -> State:
        """dataclasses.replace without State's __init__ (the fields copied, `changes` set): the
        same state at a fraction of the cost; a move's decide and fold replace it a dozen times."""
        if not _FIELDS.issuperset(changes):
            raise TypeError(f"State has no field {sorted(set(changes) - _FIELDS)}")
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def set_region(self, i: int, region: Region) -> State:
        regions = self.regions
        return self.with_(regions=regions[:i] + (region,) + regions[i + 1:])

    def set_player(self, seat: int, player: Player) -> State:
        players = self.players
        return self.with_(players=players[:seat] + (player,) + players[seat + 1:])


_FIELDS = frozenset(State.__dataclass_fields__)
