"""evolve: apply one event to the state. Pure, total on what `decide` emits, no chance."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import abilities, actions, catalog, flow, team
from .islands import map_for
from .state import CONQUER, OVER, PICK, SCORE, Conquest, Player, Region, State, Turn

if TYPE_CHECKING:
    from .contract_bits import Event

# What the first half of the game had in its box (game_started v1 events name no box).
FIRST_HALF = {
    "races": ["blood_elves", "dwarves", "kobolds", "naga", "night_elves", "orcs", "trolls", "worgen"],
    "powers": ["archaeologist", "battle_master", "blacksmith", "enraged", "explorer", "farmer", "fishing",
               "herbalist", "mining", "mountaineer", "ranger", "sailing", "swamp_walker"],
    "markers": ["dark_portal", "frostmourne", "heart_of_azeroth", "karazhan", "meeting_stone", "spirit_healer"],
}


def upcast_started_v1(e: dict) -> dict:
    """Games of the first half played with its 8 races, 13 powers and 6 markers."""
    return {**e, "v": 2, "box": FIRST_HALF}


UPCASTERS = {("game_started", 1): upcast_started_v1}


def _started(_: State | None, e: Event) -> State:
    sides = tuple(e["sides"])
    m = map_for(sides)
    regions = tuple(
        Region(None, catalog.MURLOCS if m.has(i, "murloc") else None, int(m.has(i, "murloc")),
               marker="hidden" if m.has(i, "spot") else None)
        for i in range(len(m.ids)))
    box = e["box"]
    display = tuple((c["race"], c["power"], 0) for c in e.get("display", ()))
    rows = tuple((r["power"], r["alliance"], r["horde"], r["neutral"]) for r in e.get("rows", ()))
    shown_r = {c[0] for c in display} | {x for r in rows for x in r[1:]}
    shown_p = {c[1] for c in display} | {r[0] for r in rows}
    factions = e.get("factions") or [None] * e["seats"]
    return State(
        n=e["seats"], rounds=e["rounds"], round=1, seat=0, map=m, regions=regions,
        players=tuple(Player(catalog.STARTING_COINS, faction=f) for f in factions),
        display=display,
        race_pile=tuple(sorted(set(box["races"]) - shown_r)),
        power_pile=tuple(sorted(set(box["powers"]) - shown_p)),
        turn=Turn(PICK),
        box=(tuple(box["races"]), tuple(box["powers"]), tuple(box["markers"])),
        bombs=(catalog.SUPPLIES["bombs_live"], catalog.SUPPLIES["bombs_dud"]),
        team=e.get("team"), rows=rows)


def _picked(s: State, e: Event) -> State:
    if s.team:
        return team.picked(s, e)
    k = e["index"]
    race, power, lying = s.display[k]
    display = tuple((r, p, c + 1) for r, p, c in s.display[:k]) + s.display[k + 1:]
    p = s.players[e["seat"]]
    p = p._replace(coins=p.coins - k + lying, race=race, power=power, hand=e["tokens"])
    s = s.with_(display=display, turn=s.turn._replace(step=CONQUER))
    return s.set_player(e["seat"], p)


def _refilled(s: State, e: Event) -> State:
    races = {c["race"] for c in e["combos"]}
    powers = {c["power"] for c in e["combos"]}
    return s.with_(display=s.display + tuple((c["race"], c["power"], 0) for c in e["combos"]),
                   race_pile=tuple(x for x in s.race_pile if x not in races),
                   returned=tuple(x for x in s.returned if x not in races),
                   power_pile=tuple(x for x in s.power_pile if x not in powers),
                   power_discards=tuple(x for x in s.power_discards if x not in powers))


def _readied(s: State, e: Event) -> State:
    seat = e["seat"]
    choice = e.get("choice") or {}
    p = s.players[seat]
    coins = abilities.RACES[p.race].start_coins(choice) if choice else 0
    s = flow.lift(s, seat)
    p = s.players[seat]
    s = s.set_player(seat, p._replace(coins=p.coins + coins))
    s = actions.new_beasts(s, seat)
    return s.with_(turn=s.turn._replace(step=CONQUER, readied=True, form=choice.get("form")))


def _declined(s: State, e: Event) -> State:
    s = flow.decline(s, e["seat"])
    return flow.next_defender(s.with_(turn=s.turn._replace(declined=True)))


def _abandoned(s: State, e: Event) -> State:
    i, seat = s.map.index[e["region"]], e["seat"]
    region = s.regions[i]
    p = s.players[seat]
    s = s.set_player(seat, p._replace(hand=p.hand + region.tokens, beasts=p.beasts + region.beasts,
                                      champion=p.champion or region.champion))  # redeployed with the rest
    return s.set_region(i, flow.emptied(region))


def _conquered(s: State, e: Event) -> State:
    i, seat = s.map.index[e["region"]], e["seat"]
    s = actions.pay(s, seat, e.get("tolls", ()))
    old = s.regions[i]
    d = e.get("defender")
    forced = s.turn.forced
    if old.race:
        s = flow.defeat(s, i)
    if e.get("ransom"):
        s = actions.pay(s, old.seat, [{"seat": seat, "coins": e["ransom"]}])
    lost = s.turn.forced - forced
    record = (Conquest(i, d["race"], d["seat"], d["tokens"], d["declined"], lost, old.objective, e["tokens"])
              if d else Conquest(i, None, None, 0, False, 0, old.objective, e["tokens"]))
    if d and d["seat"] is not None and not d["declined"] and d["seat"] != seat:
        s = s.with_(turn=s.turn._replace(attacked=s.turn.attacked + (d["seat"],)))
    p = s.players[seat]
    placed = e["tokens"]
    beasts = min(p.beasts, placed)
    s = s.set_player(seat, p._replace(hand=p.hand - placed, beasts=p.beasts - beasts))
    marker = e.get("revealed") or old.marker
    if e.get("moved_to"):  # the Well of Eternity flows to its island's lake or sea
        marker = None
        j = s.map.index[e["moved_to"]]
        s = s.set_region(j, s.regions[j]._replace(marker=e["revealed"]))
    s = s.set_region(i, Region(seat, p.race, placed, False, bool(e.get("wall")), marker, beasts=beasts,
                               bomb=old.bomb))
    s = actions.objective_taken(s, seat, i, old.objective)
    used_hook = abilities.hook(e["use"]) if e.get("use") else None
    if used_hook is not None and used_hook.use_piece == "champion":
        s = actions.move_champion(s, seat, i)
    used = s.turn.used + ((e["use"],) if e.get("use") else ())
    return s.with_(turn=s.turn._replace(conquests=s.turn.conquests + (record,), used=used))


def _rolled(s: State, e: Event) -> State:
    return s  # the roll is read by the conquest or failure event that follows


def _failed(s: State, e: Event) -> State:
    s = actions.pay(s, e["seat"], e.get("tolls", ()))
    if e.get("use"):
        return s.with_(turn=s.turn._replace(used=s.turn.used + (e["use"],)))
    return s


def _bought(s: State, e: Event) -> State:
    return flow.buy(s, e["count"])


def _ended(s: State, e: Event) -> State:
    return flow.after_conquests(s, e.get("extra_tokens", 0))


def _placed(s: State, e: Event) -> State:
    return flow.place(s, e["seat"], s.map.index[e["region"]], e["count"])


def _champion_placed(s: State, e: Event) -> State:
    return flow.place_champion(s, e["seat"], s.map.index[e["region"]])


def _marker_moved(s: State, e: Event) -> State:
    index = s.map.index
    return flow.move_marker(s, e["marker"], index[e["from"]], index[e["to"]])


def _piece_placed(s: State, e: Event) -> State:
    s = actions.pay(s, e["seat"], e.get("tolls", ()))
    return flow.place_piece(s, e["piece"], s.map.index[e["region"]])


def _placing_done(s: State, e: Event) -> State:
    return flow.done_placing(s, e["piece"])


def _passed(s: State, e: Event) -> State:
    return flow.next_defender(s)


def _scored(s: State, e: Event) -> State:
    for payment in e.get("payments", ()):
        payer = s.players[payment["seat"]]
        s = s.set_player(payment["seat"], payer._replace(coins=payer.coins - payment["coins"]))
    p = s.players[e["seat"]]
    s = s.set_player(e["seat"], p._replace(coins=e["total"]))
    return flow.next_turn(s)


def _over(s: State, e: Event) -> State:
    final = {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in e["result"].items()}
    return s.with_(final=final, turn=Turn(OVER))


# By event type; game_started's handler is given no state.
HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "game_started": _started,
    "combo_picked": _picked,
    "display_refilled": _refilled,
    "troops_readied": _readied,
    "declined": _declined,
    "region_abandoned": _abandoned,
    "region_conquered": _conquered,
    "reinforcement_rolled": _rolled,
    "conquest_failed": _failed,
    "conquests_ended": _ended,
    "tokens_placed": _placed,
    "marker_moved": _marker_moved,
    "tokens_bought": _bought,
    "champion_placed": _champion_placed,
    "piece_placed": _piece_placed,
    "placing_done": _placing_done,
    "rows_refilled": team.refilled,
    **actions.EVOLVE,
    "turn_passed": _passed,
    "turn_scored": _scored,
    "game_over": _over,
}


def evolve(state: State | None, event: Event) -> State:
    return HANDLERS[event["type"]](state, event)


__all__ = ["evolve", "SCORE"]
