"""Who acts now and the complete list of their legal moves (the shapes `decide` takes)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions, query, team
from .abilities import RACES, Ctx
from .contract_bits import SYSTEM, is_seat
from .costs import DIE_MAX, offers
from .flow import movable_markers, pending_pieces, tokens_to_buy
from .state import CONQUER, DEFEND, MARKERS, PICK, REDEPLOY, REINFORCE, SCORE, START, State

if TYPE_CHECKING:
    from .contract_bits import Actor, Move

PLAYING = (PICK, START, CONQUER, REINFORCE, REDEPLOY, MARKERS)


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
    out: list[dict[str, Any]] = []
    if hand <= 0:
        return out
    ids = state.map.ids
    floor = RACES[state.players[seat].race].min_tokens
    for o in offers(state, seat):
        dice = DIE_MAX if o.die else 0  # the Gnomes' free die may close the gap
        kinds = []
        if hand + dice >= o.cost:
            kinds.append("conquer")
        if hand >= floor and hand < o.cost <= hand + dice + DIE_MAX:
            kinds.append("final_conquest")
        if kinds and kinds[0] == "conquer" and not o.die:
            kinds = ["conquer"]
        for kind in kinds:
            move = {"type": kind, "region": ids[o.region]}
            if o.use:
                move["use"] = o.use
            out.append(move)
    return out


def can_abandon(state: State) -> bool:
    return state.turn.readied and not state.turn.conquests


def placements(state: State, seat: int) -> list:
    hand = state.players[seat].hand
    regions = query.active_regions(state, seat)
    has_champion = state.players[seat].champion
    champion = [{"type": "place_champion", "region": state.map.ids[i]} for i in regions] if has_champion else []
    return [{"type": "place", "region": state.map.ids[i], "count": k}
            for i in regions for k in range(1, hand + 1)] + champion


def piece_moves(state: State, seat: int) -> list:
    """Where the first piece still to place may go, or stop placing it."""
    pending = pending_pieces(state)
    if movable_markers(state) or not pending:
        return []
    hook, ctx = pending[0]
    kind = hook.placed_piece
    ids = state.map.ids
    return ([{"type": "place_piece", "piece": kind, "region": ids[i]} for i in hook.piece_targets(ctx)]
            + [{"type": "done_placing", "piece": kind}])


def marker_moves(state: State, seat: int) -> list:
    """Where the first marker still to place may go: its region or a marker-free one."""
    if not movable_markers(state):
        return []
    key, at = movable_markers(state)[0]
    return [{"type": "move_marker", "marker": key, "region": state.map.ids[j]}
            for j in query.active_regions(state, seat) if j == at or state.regions[j].marker is None]


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor not in actors(state):
        return []
    step = state.turn.step
    if step == SCORE:
        return [{"type": "score_turn"}]
    if not is_seat(actor):  # only the system scores; a seat does the rest
        return []
    if step == PICK:
        coins = state.players[actor].coins
        rows = team.picks(state, actor) if state.team else [k for k in range(len(state.display)) if k <= coins]
        if not rows:
            return [{"type": "skip_pick"}]
        return [{"type": "pick", "index": k} for k in rows]
    if step == START:
        return [{"type": "decline"}] + [{"type": "ready", **o} for o in start_options(state, actor)]
    if step == CONQUER:
        out = conquest_moves(state, actor) + actions.legal_actions(state, actor)
        if can_abandon(state):
            out += [{"type": "abandon", "region": state.map.ids[i]} for i in query.active_regions(state, actor)]
        return out + [{"type": "end_conquests"}]
    if step == MARKERS:
        return marker_moves(state, actor) or piece_moves(state, actor)
    if step == REINFORCE:
        return [{"type": "buy_tokens", "count": k} for k in range(tokens_to_buy(state) + 1)]
    return placements(state, actor)
