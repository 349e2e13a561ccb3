"""Fire points, spells and the end of the game: pure functions of the cards taken."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import AIR_WITCH, COLOUR, EARTH_WITCH, FIRE_WITCH, PYGMY_QUEEN, WATER_WITCH
from .state import Options

Spell = tuple[int, str, int]  # (caster, kind, points)

FIRE_CAP = 15
WATER_POINTS = 5
EARTH_RELIEF = 5
# The spells give every other player exactly these points, whatever the Pygmy Queen option.
SPELLS = {  # (has Water Witch, has Pygmy Queen) -> (kind, points)
    (True, False): ("water", 20),
    (False, True): ("pygmy", 25),
    (True, True): ("great_fire", 30),
}


def raw_points(cards: Iterable[str], pygmy_queen_points: int) -> int:
    """A seat's fire points before the Earth Witch: red cards (doubled by the Fire Witch, at
    most 15), then the Water Witch and Pygmy Queen unless the Air Witch cancels them."""
    held = set(cards)
    fire = sum(1 for c in held if COLOUR[c] == "red" and c != FIRE_WITCH)
    if FIRE_WITCH in held:
        fire = min(2 * fire, FIRE_CAP)
    extra = 0
    if AIR_WITCH not in held:
        extra += WATER_POINTS if WATER_WITCH in held else 0
        extra += pygmy_queen_points if PYGMY_QUEEN in held else 0
    return fire + extra


def fire_points(cards: Iterable[str], pygmy_queen_points: int) -> int:
    """A seat's fire points for the round: the Earth Witch takes off 5, never below 0."""
    points = raw_points(cards, pygmy_queen_points)
    if EARTH_WITCH in cards:
        points = max(points - EARTH_RELIEF, 0)
    return points


def find_spell(taken: Sequence[Iterable[str]]) -> Spell | None:
    """(caster, kind, points) when one seat took all 14 red cards and the Water Witch and/or
    the Pygmy Queen; None otherwise."""
    for seat, cards in enumerate(taken):
        held = set(cards)
        if sum(1 for c in held if COLOUR[c] == "red") < 14:
            continue
        key = (WATER_WITCH in held, PYGMY_QUEEN in held)
        if key in SPELLS:
            return (seat,) + SPELLS[key]
        return None
    return None


def spell_needs_choice(spell: Spell | None, totals: Sequence[int], options: Options) -> bool:
    """The caster chooses only when giving the spell's points would end the game (playing to a
    target: someone else would reach it). With a fixed number of rounds the points never end
    the game, so the spell simply hits the others."""
    if spell is None or options.rounds:
        return False
    caster, _, points = spell
    return any(t + points >= options.target_score for s, t in enumerate(totals) if s != caster)


def score_round(taken: Sequence[Iterable[str]], totals: Sequence[int], options: Options, spell: Spell | None,
                choice: str | None) -> tuple[list[int], list[int]]:
    """(points scored this round per seat, new totals). Points are how much each total changed:
    negative when the Earth Witch variant or a spell taken "on self" lowers it, and never more
    than the total had (totals stop at 0)."""
    n = len(totals)
    if spell is not None:
        caster, _, amount = spell
        if choice == "self":
            points = [0] * n
            points[caster] = -amount
        else:
            points = [0 if s == caster else amount for s in range(n)]
    else:
        points = [_seat_points(cards, options) for cards in taken]
    new_totals = [max(t + p, 0) for t, p in zip(totals, points)]
    return [new - old for new, old in zip(new_totals, totals)], new_totals


def _seat_points(cards: Iterable[str], options: Options) -> int:
    raw = raw_points(cards, options.pygmy_queen_points)
    if EARTH_WITCH not in cards:
        return raw
    if options.earth_witch_variant and raw < EARTH_RELIEF:
        return raw - EARTH_RELIEF  # the rest comes off the running total (floored at 0)
    return max(raw - EARTH_RELIEF, 0)


def game_end(round_no: int, totals: Sequence[int], options: Options) -> str | None:
    """The reason the game ends after this round, or None to deal again."""
    if options.rounds:
        return "rounds_played" if round_no >= options.rounds else None
    if max(totals) >= options.target_score:
        return "target_reached"
    return None


def winners(totals: Sequence[int]) -> list[int]:
    low = min(totals)
    return [s for s, t in enumerate(totals) if t == low]
