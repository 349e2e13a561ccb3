"""Who acts now and the complete list of their legal moves (the shapes `decide` takes)."""
from __future__ import annotations

from . import query
from .abilities import RACES, Ctx
from .contract_bits import SYSTEM
from .costs import DIE_MAX, offers
from .flow import movable_markers
from .state import CONQUER, DEFEND, MARKERS, PICK, REDEPLOY, SCORE, START, State

PLAYING = (PICK, START, CONQUER, REDEPLOY, MARKERS)


def actors(state: State) -> list:
    step = state.turn.step
    if step in PLAYING:
        return [state.seat]
    if step == DEFEND:
        return [state.turn.defenders[0]]
    if step == SCORE:
        return [SYSTEM]
    return []


def start_options(state: State, seat: int) -> list:
    race = state.players[seat].race
    return RACES[race].start_options(Ctx(state, seat, ()))


def conquest_moves(state: State, seat: int) -> list:
    hand = state.players[seat].hand
    out = []
    if hand <= 0:
        return out
    ids = state.map.ids
    for o in offers(state, seat):
        if hand >= o.cost:
            kind = "conquer"
        elif o.cost - hand <= DIE_MAX:
            kind = "final_conquest"
        else:
            continue
        move = {"type": kind, "region": ids[o.region]}
        if o.use:
            move["use"] = o.use
        out.append(move)
    return out


def can_abandon(state: State) -> bool:
    return state.turn.readied and not state.turn.conquests


def placements(state: State, seat: int) -> list:
    hand = state.players[seat].hand
    return [{"type": "place", "region": state.map.ids[i], "count": k}
            for i in query.active_regions(state, seat) for k in range(1, hand + 1)]


def marker_moves(state: State, seat: int) -> list:
    """Where the first marker still to place may go: its region or a marker-free one."""
    key, at = movable_markers(state)[0]
    return [{"type": "move_marker", "marker": key, "region": state.map.ids[j]}
            for j in query.active_regions(state, seat) if j == at or state.regions[j].marker is None]


def legal_moves(state: State, actor) -> list:
    if actor not in actors(state):
        return []
    step = state.turn.step
    if step == SCORE:
        return [{"type": "score_turn"}]
    if step == PICK:
        coins = state.players[actor].coins
        if not state.display:
            return [{"type": "skip_pick"}]
        return [{"type": "pick", "index": k} for k in range(len(state.display)) if k <= coins]
    if step == START:
        return [{"type": "decline"}] + [{"type": "ready", **o} for o in start_options(state, actor)]
    if step == CONQUER:
        out = conquest_moves(state, actor)
        if can_abandon(state):
            out += [{"type": "abandon", "region": state.map.ids[i]} for i in query.active_regions(state, actor)]
        return out + [{"type": "end_conquests"}]
    if step == MARKERS:
        return marker_moves(state, actor)
    return placements(state, actor)
