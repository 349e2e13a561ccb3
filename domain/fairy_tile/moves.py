"""Who acts now and the complete moves they may send."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.contract import is_seat

from .hexgrid import DIR_NAMES
from .movement import MOVERS
from .tiles import FIGURES

if TYPE_CHECKING:
    from domain.contract import Actor, Move

    from .hexgrid import Hex
    from .state import State


def actors(state: State | None) -> list[int]:
    if state is None or state.over:
        return []
    return [state.current]


def figure_moves(state: State, figure: str) -> list[tuple[Move, Hex, tuple[Hex, ...], bool]]:
    """The move dicts for one figure, each with its outcome: [(move, to, path, passed)]."""
    out = []
    for key, to, path, passed in MOVERS[figure](state.kingdom, state.position(figure)):
        if figure == "dragon":
            move: dict[str, Any] = {"type": "move", "figure": "dragon", "direction": DIR_NAMES[key]}
        else:
            move = {"type": "move", "figure": figure, "to": list(to)}
            if key[1] is not None:
                move["via"] = list(key[1])
        out.append((move, to, path, passed))
    return out


def tile_moves(state: State) -> list[Move]:
    if not state.pile:
        return []
    tile, side = state.pile[0]
    return [{"type": "lay_tile", "at": list(at), "rotation": rotation}
            for at, rotation in state.kingdom.placements(tile, side)]


def legal_moves(state: State | None, actor: Actor) -> list[Move]:
    if state is None or state.over or not is_seat(actor) or actor != state.current:
        return []
    moves = [m for figure in FIGURES for m, _, _, _ in figure_moves(state, figure)]
    moves += tile_moves(state)
    if state.phase == "adventure":
        moves.append({"type": "turn_page"})
    elif state.phase == "second":
        moves.append({"type": "finish"})
    return moves


def summary(state: State, seat: Actor) -> dict[str, Any]:
    """The legal moves condensed, for clients (the page offers a kind, then a hex): how many
    there are, the hexes each of the Princess and the Knight may reach and the directions the
    Dragon may fly, the places the pile's top tile may go (each with its rotations), and whether
    the seat may turn the page or finish."""
    moves = legal_moves(state, seat)
    figures: dict = {}
    places: dict = {}
    for m in moves:
        if m["type"] == "move":
            where = m["direction"] if m["figure"] == "dragon" else f"{m['to'][0]},{m['to'][1]}"
            reached = figures.setdefault(m["figure"], [])
            if where not in reached:
                reached.append(where)
        elif m["type"] == "lay_tile":
            places.setdefault(f"{m['at'][0]},{m['at'][1]}", []).append(m["rotation"])
    return {"move_count": len(moves), "figures": figures,
            "tile": {at: sorted(rotations) for at, rotations in places.items()},
            "turn_page": any(m["type"] == "turn_page" for m in moves),
            "finish": any(m["type"] == "finish" for m in moves)}
