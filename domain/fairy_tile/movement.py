"""How the three figures move. Each function lists (key, to, path, passed_castle) for every
move: `key` is what the client chose beyond the figure (Princess and Knight: (to, via); Dragon:
a direction), `path` the hexes entered in order (the last is `to`), `passed_castle` whether the
figure arrived at or moved through a castle. Results are cached on the kingdom."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hexgrid import Hex, distance, neighbors, ray

if TYPE_CHECKING:
    from .kingdom import Kingdom


def princess_moves(kingdom: Kingdom, at: Hex) -> tuple:
    """One step to an adjacent hex; a castle-to-castle jump only together with that step: step
    onto a castle then jump, or (from a castle) jump then step. A move never ends where it began."""
    return kingdom._cached(("princess", at), lambda: _princess(kingdom, at))


def _princess(kingdom: Kingdom, at: Hex) -> tuple:
    cells, castles = kingdom.cells, kingdom.castles()
    found: dict[tuple[Hex, Hex | None], tuple[Hex, tuple[Hex, ...], bool]] = {}
    for n in neighbors(at):
        if n not in cells:
            continue
        found[(n, None)] = (n, (n,), kingdom.terrain(n) == "castle")
        if kingdom.terrain(n) == "castle":  # step onto a castle, then jump
            for c in castles:
                if c != n and c != at:
                    found[(c, n)] = (c, (n, c), True)
    if kingdom.terrain(at) == "castle":  # jump first, then step
        for c in castles:
            if c == at:
                continue
            for n in neighbors(c):
                if n in cells and n != at:
                    found.setdefault((n, c), (n, (c, n), True))
    return tuple((key, to, path, passed) for key, (to, path, passed) in sorted(found.items(), key=_order))


def knight_moves(kingdom: Kingdom, at: Hex) -> tuple:
    """Exactly two steps through kingdom hexes, ending at distance 2 from where he began (never
    on his start hex nor next to it). `via` is the hex he passes through."""
    return kingdom._cached(("knight", at), lambda: _knight(kingdom, at))


def _knight(kingdom: Kingdom, at: Hex) -> tuple:
    cells = kingdom.cells
    found = {}
    for m in neighbors(at):
        if m not in cells:
            continue
        for n in neighbors(m):
            if n in cells and distance(at, n) == 2:
                passed = kingdom.terrain(m) == "castle" or kingdom.terrain(n) == "castle"
                found[(n, m)] = (n, (m, n), passed)
    return tuple((key, to, path, passed) for key, (to, path, passed) in sorted(found.items(), key=_order))


def dragon_moves(kingdom: Kingdom, at: Hex) -> tuple:
    """One of the 6 directions, straight to the last hex before a gap or the edge; a direction
    with no kingdom hex next to him is no move."""
    return kingdom._cached(("dragon", at), lambda: _dragon(kingdom, at))


def _dragon(kingdom: Kingdom, at: Hex) -> tuple:
    out = []
    for d in range(6):
        path = tuple(ray(at, d, kingdom.cells))
        if path:
            passed = any(kingdom.terrain(h) == "castle" for h in path)
            out.append((d, path[-1], path, passed))
    return tuple(out)


MOVERS = {"princess": princess_moves, "knight": knight_moves, "dragon": dragon_moves}


def _order(item: tuple[tuple[Hex, Any], Any]) -> tuple[Hex, Hex]:
    (to, via), _ = item
    return (to, via or (-999, -999))
