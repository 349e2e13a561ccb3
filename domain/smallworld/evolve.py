"""evolve: apply one event to the state. Pure, total on what `decide` emits, no chance."""
from __future__ import annotations

from . import abilities, catalog, flow
from .islands import map_for
from .state import CONQUER, OVER, PICK, SCORE, Conquest, Player, Region, State, Turn


def _started(_, e) -> State:
    sides = tuple(e["sides"])
    m = map_for(sides)
    regions = tuple(
        Region(None, catalog.MURLOCS if m.has(i, "murloc") else None, int(m.has(i, "murloc")),
               marker="hidden" if m.has(i, "spot") else None)
        for i in range(len(m.ids)))
    display = tuple((c["race"], c["power"], 0) for c in e["display"])
    shown_r, shown_p = {c[0] for c in display}, {c[1] for c in display}
    return State(
        n=e["seats"], rounds=e["rounds"], round=1, seat=0, map=m, regions=regions,
        players=tuple(Player(catalog.STARTING_COINS) for _ in range(e["seats"])),
        display=display,
        race_pile=tuple(sorted(set(abilities.RACES) - shown_r)),
        power_pile=tuple(sorted(set(abilities.POWERS) - shown_p)),
        turn=Turn(PICK))


def _picked(s: State, e) -> State:
    k = e["index"]
    race, power, lying = s.display[k]
    display = tuple((r, p, c + 1) for r, p, c in s.display[:k]) + s.display[k + 1:]
    p = s.players[e["seat"]]
    p = p._replace(coins=p.coins - k + lying, race=race, power=power, hand=e["tokens"])
    s = s.with_(display=display, turn=s.turn._replace(step=CONQUER))
    return s.set_player(e["seat"], p)


def _refilled(s: State, e) -> State:
    races = {c["race"] for c in e["combos"]}
    powers = {c["power"] for c in e["combos"]}
    return s.with_(display=s.display + tuple((c["race"], c["power"], 0) for c in e["combos"]),
                   race_pile=tuple(x for x in s.race_pile if x not in races),
                   power_pile=tuple(x for x in s.power_pile if x not in powers))


def _readied(s: State, e) -> State:
    seat = e["seat"]
    choice = e.get("choice") or {}
    p = s.players[seat]
    coins = abilities.RACES[p.race].start_coins(choice) if choice else 0
    s = flow.lift(s, seat)
    p = s.players[seat]
    s = s.set_player(seat, p._replace(coins=p.coins + coins))
    return s.with_(turn=s.turn._replace(step=CONQUER, readied=True, form=choice.get("form")))


def _declined(s: State, e) -> State:
    s = flow.decline(s, e["seat"])
    return flow.next_defender(s.with_(turn=s.turn._replace(declined=True)))


def _abandoned(s: State, e) -> State:
    i, seat = s.map.index[e["region"]], e["seat"]
    region = s.regions[i]
    p = s.players[seat]
    s = s.set_player(seat, p._replace(hand=p.hand + region.tokens))
    return s.set_region(i, Region(marker=region.marker))


def _conquered(s: State, e) -> State:
    i, seat = s.map.index[e["region"]], e["seat"]
    old = s.regions[i]
    d = e.get("defender")
    record = Conquest(i, d["race"], d["seat"], d["tokens"], d["declined"]) if d else Conquest(i, None, None, 0, False)
    s = flow.defeat(s, i) if old.race else s
    p = s.players[seat]
    placed = e["tokens"]
    s = s.set_player(seat, p._replace(hand=p.hand - placed))
    marker = e.get("revealed") or old.marker
    s = s.set_region(i, Region(seat, p.race, placed, False, bool(e.get("wall")), marker))
    used = s.turn.used + ((e["use"],) if e.get("use") else ())
    return s.with_(turn=s.turn._replace(conquests=s.turn.conquests + (record,), used=used))


def _rolled(s: State, e) -> State:
    return s  # the roll is read by the conquest or failure event that follows


def _failed(s: State, e) -> State:
    if e.get("use"):
        return s.with_(turn=s.turn._replace(used=s.turn.used + (e["use"],)))
    return s


def _ended(s: State, e) -> State:
    return flow.after_conquests(s, e.get("extra_tokens", 0))


def _placed(s: State, e) -> State:
    return flow.place(s, e["seat"], s.map.index[e["region"]], e["count"])


def _marker_moved(s: State, e) -> State:
    index = s.map.index
    return flow.move_marker(s, e["marker"], index[e["from"]], index[e["to"]])


def _passed(s: State, e) -> State:
    return flow.next_defender(s)


def _scored(s: State, e) -> State:
    for payment in e.get("payments", ()):
        payer = s.players[payment["seat"]]
        s = s.set_player(payment["seat"], payer._replace(coins=payer.coins - payment["coins"]))
    p = s.players[e["seat"]]
    s = s.set_player(e["seat"], p._replace(coins=e["total"]))
    return flow.next_turn(s)


def _over(s: State, e) -> State:
    final = {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in e["result"].items()}
    return s.with_(final=final, turn=Turn(OVER))


HANDLERS = {
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
    "turn_passed": _passed,
    "turn_scored": _scored,
    "game_over": _over,
}


def evolve(state, event):
    return HANDLERS[event["type"]](state, event)


__all__ = ["evolve", "SCORE"]
