"""Who acts now and the complete moves they may send."""
from __future__ import annotations

from domain.contract import is_seat

from .hexgrid import DIR_NAMES
from .movement import MOVERS
from .tiles import FIGURES


def actors(state) -> list:
    if state is None or state.over:
        return []
    return [state.current]


def figure_moves(state, figure: str) -> list:
    """The move dicts for one figure, each with its outcome: [(move, to, path, passed)]."""
    out = []
    for key, to, path, passed in MOVERS[figure](state.kingdom, state.position(figure)):
        if figure == "dragon":
            move = {"type": "move", "figure": "dragon", "direction": DIR_NAMES[key]}
        else:
            move = {"type": "move", "figure": figure, "to": list(to)}
            if key[1] is not None:
                move["via"] = list(key[1])
        out.append((move, to, path, passed))
    return out


def tile_moves(state) -> list:
    if not state.pile:
        return []
    tile, side = state.pile[0]
    return [{"type": "lay_tile", "at": list(at), "rotation": rotation}
            for at, rotation in state.kingdom.placements(tile, side)]


def legal_moves(state, actor) -> list:
    if state is None or state.over or not is_seat(actor) or actor != state.current:
        return []
    moves = [m for figure in FIGURES for m, _, _, _ in figure_moves(state, figure)]
    moves += tile_moves(state)
    if state.phase == "adventure":
        moves.append({"type": "turn_page"})
    elif state.phase == "second":
        moves.append({"type": "finish"})
    return moves
