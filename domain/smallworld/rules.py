"""decide: check a move from an untrusted client and return the events it causes.

Every refusal is a MoveRejected with a stable code; nothing else is ever raised.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from . import actions, catalog, query, scoring, team
from .abilities import hooks_for
from .contract_bits import SYSTEM, MoveRejected, is_seat
from .costs import DIE_MAX, offer_for
from .evolve import evolve
from .flow import movable_markers, tokens_to_buy
from .moves import actors, can_abandon, marker_moves, piece_moves, start_options
from .state import CONQUER, DEFEND, MARKERS, OVER, PICK, REDEPLOY, REINFORCE, SCORE, START, State
from .tolls import power_tolls

if TYPE_CHECKING:
    import random

    from .contract_bits import Actor, Event, Move
    from .costs import Offer


def _reject(code: str, template: str, **args: Any) -> NoReturn:
    """Refuses with `template` (its placeholders filled by `args`: MoveRejected)."""
    raise MoveRejected(code, template, args=args)


# move type -> (steps it belongs to, required fields, optional fields)
SHAPES: dict[str, tuple[tuple[str, ...], dict[str, type], dict[str, type]]] = {
    "pick": ((PICK,), {"index": int}, {}),
    "skip_pick": ((PICK,), {}, {}),
    "decline": ((START,), {}, {}),
    "ready": ((START,), {}, {"form": str}),
    "abandon": ((CONQUER,), {"region": str}, {}),
    "conquer": ((CONQUER,), {"region": str}, {"use": str}),
    "final_conquest": ((CONQUER,), {"region": str}, {"use": str}),
    "end_conquests": ((CONQUER,), {}, {}),
    "steal_artifact": ((CONQUER,), {"from": str, "to": str}, {}),
    "intimidate": ((CONQUER,), {"region": str}, {"to": str}),
    "portal": ((CONQUER,), {"a": str, "b": str}, {}),
    "buy_tokens": ((REINFORCE,), {"count": int}, {}),
    "place_piece": ((MARKERS,), {"piece": str, "region": str}, {}),
    "done_placing": ((MARKERS,), {"piece": str}, {}),
    "place": ((REDEPLOY, DEFEND), {"region": str, "count": int}, {}),
    "place_champion": ((REDEPLOY, DEFEND), {"region": str}, {}),
    "move_marker": ((MARKERS,), {"marker": str, "region": str}, {}),
    "score_turn": ((SCORE,), {}, {}),
}


def _check_shape(move: object) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        _reject("invalid_move", "A move is an object with a string \"type\".")
    if move["type"] not in SHAPES:
        _reject("unknown_move_type", "There is no move of type {value}.", value=repr(move["type"][:40]))
    _, required, optional = SHAPES[move["type"]]
    for key, value in move.items():
        if key == "type":
            continue
        kind = required.get(key) or optional.get(key)
        if kind is None:
            _reject("invalid_move", "A {move} move has no field {field}.", move=move["type"], field=repr(str(key)[:40]))
        if not isinstance(value, kind) or isinstance(value, bool):
            _reject("invalid_move", "The field {field} must be a {kind}.", field=repr(key), kind=kind.__name__)
    missing = [k for k in required if k not in move]
    if missing:
        _reject("invalid_move", "A {move} move needs the field(s) {fields}.", move=move["type"],
                fields=", ".join(missing))


def _check_actor(state: State, actor: Actor) -> None:
    now = actors(state)
    if actor in now:
        return
    if now == [SYSTEM]:
        _reject("not_your_turn", "The turn is being scored; wait for the server to finish it.")
    if actor == SYSTEM or not is_seat(actor):
        _reject("not_your_turn", "Only a player may make this move now.")
    _reject("not_your_turn", "It is not your turn.")


def _region(state: State, move: Move) -> int:
    i = state.map.index.get(move["region"])
    if i is None:
        _reject("unknown_region", "There is no region {value} on this map.", value=repr(move["region"][:40]))
    return i


def _pick(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    k = move["index"]
    if state.team:
        if k not in team.picks(state, seat):
            _reject("illegal_move", "Pick a row with your faction's race that you can afford (1 coin a row climbed).")
        return [team.pick_event(state, seat, k)]
    if not 0 <= k < len(state.display):
        _reject("illegal_move", "Choose a combo from 0 to {last}.", last=len(state.display) - 1)
    if state.players[seat].coins < k:
        _reject("cannot_afford", "This combo costs {n} coins: 1 on each combo above it.", n=k)
    race, power, lying = state.display[k]
    tokens = min(catalog.RACES[race]["banner"] + catalog.POWERS[power]["badge"], query.supply(state, race))
    return [{"type": "combo_picked", "seat": seat, "index": k, "race": race, "power": power,
             "paid": k, "took": lying, "tokens": tokens}]


def _skip_pick(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if (team.picks(state, seat) if state.team else state.display):
        _reject("illegal_move", "You must pick one of the combos on display.")
    return [{"type": "turn_passed", "seat": seat}]


def _decline(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    p = state.players[seat]
    return actions.reveal_bombs(state, seat, rng) + [
        {"type": "declined", "seat": seat, "race": p.race, "removed": p.declined}]


def _ready(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    choice = {k: v for k, v in move.items() if k != "type"}
    if choice not in start_options(state, seat):
        _reject("illegal_move", "That choice is not open to your race now.")
    event = {"type": "troops_readied", "seat": seat}
    if choice:
        event["choice"] = choice
    return actions.reveal_bombs(state, seat, rng) + [event]


def _abandon(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    i = _region(state, move)
    if i not in query.active_regions(state, seat):
        _reject("not_your_region", "You can only abandon a region of your active race.")
    if not can_abandon(state):
        _reject("cannot_abandon", "Regions can only be abandoned before your first conquest of an expansion turn.")
    return [{"type": "region_abandoned", "seat": seat, "region": move["region"]}]


def _offer(state: State, seat: int, move: Move) -> Offer:
    i = _region(state, move)
    offer = offer_for(state, seat, i, move.get("use"))
    if offer is None:
        if move.get("use"):
            _reject("cannot_use", "{value} cannot make this conquest cheaper now.", value=move["use"][:40])
        _reject("not_reachable", "Your race cannot attack that region now.")
    return offer


def _reveal(state: State, i: int, rng: random.Random) -> dict[str, Any]:
    """A face-down marker's identity, drawn from the box's markers not yet on the map; the
    Well of Eternity flows to its island's first lake or sea (no water: another place)."""
    pool = sorted(set(state.box[2]) - query.revealed_markers(state))
    if not pool:
        return {"revealed": None}
    revealed = rng.choice(pool)
    if revealed != "well_of_eternity":
        return {"revealed": revealed}
    m = state.map
    water = [j for j in range(len(m.ids)) if m.island[j] == m.island[i] and m.water(j)
             and state.regions[j].marker is None]
    if water:
        return {"revealed": revealed, "moved_to": m.ids[water[0]]}
    places = [k for k in pool if catalog.MARKERS[k]["kind"] == "place" and k != revealed]
    return {"revealed": rng.choice(places) if places else None}


def _conquest_event(state: State, seat: int, i: int, tokens: int, offer: Offer, rng: random.Random,
                    final: bool = False) -> Event:
    old = state.regions[i]
    defender = None
    if old.race:
        defender = {"seat": old.seat, "race": old.race, "tokens": old.tokens, "declined": old.declined}
    hooks = hooks_for(state, seat)
    wall = query.walls_left(state) > 0 and any(h.places_wall(c, i) for h, c in hooks)
    shown = _reveal(state, i, rng) if old.marker == "hidden" else {"revealed": None}
    event = {"type": "region_conquered", "seat": seat, "region": state.map.ids[i], "tokens": tokens,
             "defender": defender, "wall": wall, **shown, "final": final}
    if offer.use:
        event["use"] = offer.use
    if offer.tolls:
        event["tolls"] = list(offer.tolls)
    if old.champion and old.seat not in (None, seat) and not old.declined:
        # the champion is taken prisoner; its owner pays a 1-coin ransom if it can
        owner_coins = state.players[old.seat].coins + _received(offer.tolls, old.seat)
        event["ransom"] = min(1, owner_coins)
    return event


def _received(tolls: Iterable[dict[str, Any]], seat: int) -> int:
    return sum(t["coins"] for t in tolls if t["seat"] == seat)


def _airborne(state: State, seat: int, offer: Offer, rng: random.Random) -> tuple[Event, int]:
    """Gnomes: the free die lowers the cost before the assault (never below the floor)."""
    roll = rng.choice(catalog.DIE_FACES)
    cost = max(1, offer.cost - roll)
    event = {"type": "airborne_rolled", "seat": seat, "region": state.map.ids[offer.region],
             "roll": roll, "cost": cost}
    return event, cost


def _failed_event(state: State, seat: int, offer: Offer, rid: str) -> Event:
    failed = {"type": "conquest_failed", "seat": seat, "region": rid}
    if offer.use:
        failed["use"] = offer.use
    if offer.tolls:
        failed["tolls"] = list(offer.tolls)
    return failed


def _conquer(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    offer = _offer(state, seat, move)
    hand = state.players[seat].hand
    if offer.die:
        if hand + DIE_MAX < offer.cost:
            _reject("not_enough_tokens", "Even the best roll leaves this assault {n} tokens short.",
                    n=offer.cost - hand - DIE_MAX)
        rolled, cost = _airborne(state, seat, offer, rng)
        if hand >= cost:
            return [rolled, _conquest_event(state, seat, offer.region, cost, offer, rng)]
        return [rolled, _failed_event(state, seat, offer, move["region"])]
    if hand < offer.cost:
        _reject("not_enough_tokens", "You need {n} tokens in hand to conquer this region (you have {hand}; a final "
                "conquest may try with the die).", n=offer.cost, hand=hand)
    return [_conquest_event(state, seat, offer.region, offer.cost, offer, rng)]


def _extra_tokens(state: State, seat: int) -> int:
    extra = sum(h.redeploy_tokens(c) for h, c in hooks_for(state, seat))
    race = state.players[seat].race
    # Never negative: a tray counted short (more of the race in play than its box) gives none.
    return max(0, min(extra, query.supply(state, race))) if race else 0


def _final(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    offer = _offer(state, seat, move)
    hand = state.players[seat].hand
    reach = DIE_MAX * (2 if offer.die else 1)
    floor = max(h.min_tokens for h, _ in hooks_for(state, seat))
    if not (max(1, floor) <= hand < offer.cost <= hand + reach):
        _reject("not_final_conquest", "A final conquest needs {least}+ tokens in hand and at most {reach} missing.",
                least=max(1, floor), reach=reach)
    events, cost = [], offer.cost
    if offer.die:
        rolled, cost = _airborne(state, seat, offer, rng)
        events.append(rolled)
    roll = rng.choice(catalog.DIE_FACES)
    rid = move["region"]
    events.append({"type": "reinforcement_rolled", "seat": seat, "region": rid, "roll": roll,
                   "cost": cost, "hand": hand})
    if hand + roll >= cost:
        events.append(_conquest_event(state, seat, offer.region, max(hand, 1), offer, rng, final=True))
    else:
        events.append(_failed_event(state, seat, offer, rid))
    after = state
    for e in events:
        after = evolve(after, e)
    return events + [{"type": "conquests_ended", "seat": seat, "extra_tokens": _extra_tokens(after, seat)}]


def _end(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    return [{"type": "conquests_ended", "seat": seat, "extra_tokens": _extra_tokens(state, seat)}]


def _place_champion(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    i = _region(state, move)
    if not state.players[seat].champion or i not in query.active_regions(state, seat):
        _reject("illegal_move", "Place your ransomed Champion in a region of your active race.")
    return [{"type": "champion_placed", "seat": seat, "region": move["region"]}]


def _buy(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    most = tokens_to_buy(state)
    if not 0 <= move["count"] <= most:
        _reject("illegal_move", "Buy from 0 to {most} tokens (1 coin each).", most=most)
    return [{"type": "tokens_bought", "seat": seat, "count": move["count"]}]


def _action(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if move not in actions.legal_actions(state, seat):
        _reject("illegal_move", "Your race or power cannot do that now.")
    return actions.decide_action(state, seat, move, rng)


def _place_piece(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if move not in piece_moves(state, seat):
        _reject("illegal_move", "That piece cannot go there now.")
    i = _region(state, move)
    owed = power_tolls(state, seat, i) if move["piece"] == "bomb" else []
    event = {"type": "piece_placed", "seat": seat, "piece": move["piece"], "region": move["region"]}
    if owed:
        event["tolls"] = owed
    return [event]


def _done_placing(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if move not in piece_moves(state, seat):
        _reject("illegal_move", "You are not placing that piece now.")
    return [{"type": "placing_done", "seat": seat, "piece": move["piece"]}]


def _place(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    i = _region(state, move)
    if i not in query.active_regions(state, seat):
        _reject("not_your_region", "Tokens can only be placed in regions of your active race.")
    if not 1 <= move["count"] <= state.players[seat].hand:
        _reject("illegal_move", "Place from 1 to {most} tokens.", most=state.players[seat].hand)
    return [{"type": "tokens_placed", "seat": seat, "region": move["region"], "count": move["count"]}]


def _move_marker(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    if move not in marker_moves(state, seat):
        _reject("illegal_move", "Place the marker in one of your active race's regions without another marker.")
    at = movable_markers(state)[0][1]
    return [{"type": "marker_moved", "seat": seat, "marker": move["marker"],
             "from": state.map.ids[at], "to": move["region"]}]


def _score(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    before = actions.defences(state) + actions.harmony(state)
    for e in before:
        state = evolve(state, e)
    breakdown, payments = scoring.turn_breakdown(state), scoring.payments(state)
    gained = sum(breakdown.values())
    total = state.players[state.seat].coins + gained
    scored = {"type": "turn_scored", "seat": state.seat, "gained": gained, "total": total,
              "breakdown": breakdown, "payments": payments}
    after = evolve(state, scored)
    if after.turn.step != OVER:
        return before + [scored]
    return before + [scored, {"type": "game_over", "result": scoring.final_result(after)}]


# By move type; the actor is a seat, but for score_turn the system.
HANDLERS: dict[str, Callable[[State, Any, Move, random.Random], list[Event]]] = {
    "pick": _pick, "skip_pick": _skip_pick, "decline": _decline, "ready": _ready,
    "abandon": _abandon, "conquer": _conquer, "final_conquest": _final, "end_conquests": _end,
    "place": _place, "move_marker": _move_marker, "score_turn": _score,
    "steal_artifact": _action, "intimidate": _action, "portal": _action, "buy_tokens": _buy,
    "place_piece": _place_piece, "done_placing": _done_placing, "place_champion": _place_champion,
}


def decide(state: State, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    """The game's `decide`: one step of the rules (`decide_step`), and when it ends the turn,
    the turn's scoring with it (`_turn_scored`)."""
    events, after = _step(state, actor, move, rng)
    if move["type"] == "score_turn" or after.turn.step != SCORE:
        return events
    return events + _turn_scored(after, rng)


def decide_step(state: State, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    """One step of the rules: a move that ends the turn leaves it at SCORE (the rules' tests
    play it this way, then the system's `score_turn`)."""
    return _step(state, actor, move, rng)[0]


def _step(state: State, actor: Actor, move: Move, rng: random.Random) -> tuple[list[Event], State]:
    """decide_step's events and the state after them (folded once, for `decide` to read)."""
    if state.turn.step == OVER:
        _reject("game_over", "The game is over.")
    _check_shape(move)
    _check_actor(state, actor)
    steps = SHAPES[move["type"]][0]
    if state.turn.step not in steps:
        _reject("wrong_step", "A {move} move is not possible now (step: {step}).", move=move["type"],
                step=state.turn.step)
    return _refilled(state, HANDLERS[move["type"]](state, actor, move, rng), rng)


def _turn_scored(after: State, rng: random.Random) -> list[Event]:
    """A turn's coins are counted by the move that ends it (issue 57), as the published game
    counts them at once: a move that leaves the turn at SCORE (`after`) carries the scoring's
    events, the very ones the system's `score_turn` would append next (the same handler, the same
    refill). The scoring that ends the game stays the system's turn, played by a worker as every
    game's final scoring is. A history from before keeps its SCORE steps: the system still
    scores them."""
    scored, _ = _refilled(after, _score(after, after.seat, {"type": "score_turn"}, rng), rng)
    if any(e["type"] == "game_over" for e in scored):
        return []
    return scored


def _refilled(state: State, events: list[Event], rng: random.Random) -> tuple[list[Event], State]:
    """`events`, then whenever the display is short and the piles are not empty (after a pick, or
    when a banner went back under the pile) the new combos drawn, in an event of their own; and
    the state after all of them."""
    after = state
    for e in events:
        after = evolve(after, e)
    drawn = team.refill(after, rng) if after.team else _drawn(after, rng)
    for e in drawn:
        after = evolve(after, e)
    return events + drawn, after


def _drawn(after: State, rng: random.Random) -> list[Event]:
    races, back = list(after.race_pile), list(after.returned)
    powers, discards = list(after.power_pile), list(after.power_discards)
    combos: list[dict[str, str]] = []
    while len(after.display) + len(combos) < catalog.DISPLAY_SIZE and (races or back) and (powers or discards):
        race = rng.choice(races) if races else back[0]  # returned banners lie under the pile
        (races if races else back).remove(race)
        power = rng.choice(powers or discards)  # the discards make a new stack once it is empty
        (powers or discards).remove(power)
        combos.append({"race": race, "power": power})
    return [{"type": "display_refilled", "combos": combos}] if combos else []
