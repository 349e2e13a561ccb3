"""decide: check a move from an untrusted client and return the events it causes.

Every refusal is a MoveRejected with a stable code; nothing else is ever raised.
"""
from __future__ import annotations

from . import abilities, catalog, query, scoring
from .abilities import hooks_for
from .contract_bits import SYSTEM, MoveRejected, is_seat
from .costs import DIE_MAX, offer_for
from .evolve import evolve
from .flow import movable_markers
from .moves import actors, can_abandon, marker_moves, start_options
from .state import CONQUER, DEFEND, MARKERS, OVER, PICK, REDEPLOY, SCORE, START, State


def _reject(code: str, message: str):
    raise MoveRejected(code, message)


# move type -> (steps it belongs to, required fields, optional fields)
SHAPES = {
    "pick": ((PICK,), {"index": int}, {}),
    "skip_pick": ((PICK,), {}, {}),
    "decline": ((START,), {}, {}),
    "ready": ((START,), {}, {"form": str}),
    "abandon": ((CONQUER,), {"region": str}, {}),
    "conquer": ((CONQUER,), {"region": str}, {"use": str}),
    "final_conquest": ((CONQUER,), {"region": str}, {"use": str}),
    "end_conquests": ((CONQUER,), {}, {}),
    "place": ((REDEPLOY, DEFEND), {"region": str, "count": int}, {}),
    "move_marker": ((MARKERS,), {"marker": str, "region": str}, {}),
    "score_turn": ((SCORE,), {}, {}),
}


def _check_shape(move) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        _reject("invalid_move", "A move is an object with a string \"type\".")
    if move["type"] not in SHAPES:
        _reject("unknown_move_type", f"There is no move of type {move['type'][:40]!r}.")
    _, required, optional = SHAPES[move["type"]]
    for key, value in move.items():
        if key == "type":
            continue
        kind = required.get(key) or optional.get(key)
        if kind is None:
            _reject("invalid_move", f"A {move['type']} move has no field {str(key)[:40]!r}.")
        if not isinstance(value, kind) or isinstance(value, bool):
            _reject("invalid_move", f"The field {key!r} must be a {kind.__name__}.")
    missing = [k for k in required if k not in move]
    if missing:
        _reject("invalid_move", f"A {move['type']} move needs the field(s) {', '.join(missing)}.")


def _check_actor(state: State, actor) -> None:
    now = actors(state)
    if actor in now:
        return
    if now == [SYSTEM]:
        _reject("not_your_turn", "The turn is being scored; wait for the server to finish it.")
    if actor == SYSTEM or not is_seat(actor):
        _reject("not_your_turn", "Only a player may make this move now.")
    _reject("not_your_turn", "It is not your turn.")


def _region(state: State, move) -> int:
    i = state.map.index.get(move["region"])
    if i is None:
        _reject("unknown_region", f"There is no region {move['region'][:40]!r} on this map.")
    return i


def _pick(state, seat, move, rng):
    k = move["index"]
    if not 0 <= k < len(state.display):
        _reject("illegal_move", f"Choose a combo from 0 to {len(state.display) - 1}.")
    if state.players[seat].coins < k:
        _reject("cannot_afford", f"This combo costs {k} coins: 1 on each combo above it.")
    race, power, lying = state.display[k]
    tokens = min(catalog.RACES[race]["banner"] + catalog.POWERS[power]["badge"], query.supply(state, race))
    return [{"type": "combo_picked", "seat": seat, "index": k, "race": race, "power": power,
             "paid": k, "took": lying, "tokens": tokens}]


def _skip_pick(state, seat, move, rng):
    if state.display:
        _reject("illegal_move", "You must pick one of the combos on display.")
    return [{"type": "turn_passed", "seat": seat}]


def _decline(state, seat, move, rng):
    p = state.players[seat]
    return [{"type": "declined", "seat": seat, "race": p.race, "removed": p.declined}]


def _ready(state, seat, move, rng):
    choice = {k: v for k, v in move.items() if k != "type"}
    if choice not in start_options(state, seat):
        _reject("illegal_move", "That choice is not open to your race now.")
    event = {"type": "troops_readied", "seat": seat}
    if choice:
        event["choice"] = choice
    return [event]


def _abandon(state, seat, move, rng):
    i = _region(state, move)
    if i not in query.active_regions(state, seat):
        _reject("not_your_region", "You can only abandon a region of your active race.")
    if not can_abandon(state):
        _reject("cannot_abandon", "Regions can only be abandoned before your first conquest of an expansion turn.")
    return [{"type": "region_abandoned", "seat": seat, "region": move["region"]}]


def _offer(state, seat, move):
    i = _region(state, move)
    offer = offer_for(state, seat, i, move.get("use"))
    if offer is None:
        if move.get("use"):
            _reject("cannot_use", f"{move['use'][:40]} cannot make this conquest cheaper now.")
        _reject("not_reachable", "Your race cannot attack that region now.")
    return offer


def _conquest_event(state, seat, i, tokens, use, rng, final=False) -> dict:
    old = state.regions[i]
    defender = None
    if old.race:
        defender = {"seat": old.seat, "race": old.race, "tokens": old.tokens, "declined": old.declined}
    hooks = hooks_for(state, seat)
    wall = query.walls_left(state) > 0 and any(h.places_wall(c, i) for h, c in hooks)
    revealed = None
    if old.marker == "hidden":
        pool = sorted(set(abilities.MARKERS) - query.revealed_markers(state))
        revealed = rng.choice(pool) if pool else None
    event = {"type": "region_conquered", "seat": seat, "region": state.map.ids[i], "tokens": tokens,
             "defender": defender, "wall": wall, "revealed": revealed, "final": final}
    if use:
        event["use"] = use
    return event


def _conquer(state, seat, move, rng):
    offer = _offer(state, seat, move)
    if state.players[seat].hand < offer.cost:
        _reject("not_enough_tokens", f"You need {offer.cost} tokens in hand to conquer this region"
                f" (you have {state.players[seat].hand}; a final conquest may try with the die).")
    return [_conquest_event(state, seat, offer.region, offer.cost, offer.use, rng)]


def _extra_tokens(state, seat) -> int:
    extra = sum(h.redeploy_tokens(c) for h, c in hooks_for(state, seat))
    race = state.players[seat].race
    return min(extra, query.supply(state, race)) if race else 0


def _final(state, seat, move, rng):
    offer = _offer(state, seat, move)
    hand = state.players[seat].hand
    if not (1 <= hand < offer.cost <= hand + DIE_MAX):
        _reject("not_final_conquest", "A final conquest needs 1+ tokens in hand and at most 3 missing.")
    roll = rng.choice(catalog.DIE_FACES)
    rid = move["region"]
    events = [{"type": "reinforcement_rolled", "seat": seat, "region": rid, "roll": roll,
               "cost": offer.cost, "hand": hand}]
    if hand + roll >= offer.cost:
        events.append(_conquest_event(state, seat, offer.region, hand, offer.use, rng, final=True))
    else:
        failed = {"type": "conquest_failed", "seat": seat, "region": rid}
        if offer.use:
            failed["use"] = offer.use
        events.append(failed)
    after = state
    for e in events:
        after = evolve(after, e)
    return events + [{"type": "conquests_ended", "seat": seat, "extra_tokens": _extra_tokens(after, seat)}]


def _end(state, seat, move, rng):
    return [{"type": "conquests_ended", "seat": seat, "extra_tokens": _extra_tokens(state, seat)}]


def _place(state, seat, move, rng):
    i = _region(state, move)
    if i not in query.active_regions(state, seat):
        _reject("not_your_region", "Tokens can only be placed in regions of your active race.")
    if not 1 <= move["count"] <= state.players[seat].hand:
        _reject("illegal_move", f"Place from 1 to {state.players[seat].hand} tokens.")
    return [{"type": "tokens_placed", "seat": seat, "region": move["region"], "count": move["count"]}]


def _move_marker(state, seat, move, rng):
    if move not in marker_moves(state, seat):
        _reject("illegal_move", "Place the marker in one of your active race's regions without another marker.")
    at = movable_markers(state)[0][1]
    return [{"type": "marker_moved", "seat": seat, "marker": move["marker"],
             "from": state.map.ids[at], "to": move["region"]}]


def _score(state, seat, move, rng):
    breakdown, payments = scoring.turn_breakdown(state), scoring.payments(state)
    gained = sum(breakdown.values())
    total = state.players[state.seat].coins + gained
    scored = {"type": "turn_scored", "seat": state.seat, "gained": gained, "total": total,
              "breakdown": breakdown, "payments": payments}
    after = evolve(state, scored)
    if after.turn.step != OVER:
        return [scored]
    return [scored, {"type": "game_over", "result": scoring.final_result(after)}]


HANDLERS = {
    "pick": _pick, "skip_pick": _skip_pick, "decline": _decline, "ready": _ready,
    "abandon": _abandon, "conquer": _conquer, "final_conquest": _final, "end_conquests": _end,
    "place": _place, "move_marker": _move_marker, "score_turn": _score,
}


def decide(state: State, actor, move, rng) -> list:
    if state.turn.step == OVER:
        _reject("game_over", "The game is over.")
    _check_shape(move)
    _check_actor(state, actor)
    steps = SHAPES[move["type"]][0]
    if state.turn.step not in steps:
        _reject("wrong_step", f"A {move['type']} move is not possible now (step: {state.turn.step}).")
    return _refill(state, HANDLERS[move["type"]](state, actor, move, rng), rng)


def _refill(state, events, rng):
    """Whenever the display is short and the piles are not empty (after a pick, or when a
    banner went back under the pile), new combos are drawn into an event of their own."""
    after = state
    for e in events:
        after = evolve(after, e)
    races, powers = list(after.race_pile), list(after.power_pile)
    combos = []
    while len(after.display) + len(combos) < catalog.DISPLAY_SIZE and races and powers:
        race, power = rng.choice(races), rng.choice(powers)
        races.remove(race)
        powers.remove(power)
        combos.append({"race": race, "power": power})
    return events + [{"type": "display_refilled", "combos": combos}] if combos else events
