"""The special tokens and the actions of races and powers that are moves of their own.

Pieces: Military Objectives (Humans), Goblin bombs, Forts (Garrisoned), Watch Towers
(Defensive), Beasts (Beast Master), the Champion (Championing) and Harmony tokens
(Pandaren). Actions during the conquests: steal an artifact (Ethereals), intimidate
(Intimidating), open a portal (Portal Mage). Each action's legal moves come from its hook's
`actions(ctx)` (the choices are in `targets`); `decide` accepts exactly those and this module
builds and applies the events.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import catalog, flow, query, targets
from . import tolls as toll_rules
from .abilities import RACES, hooks_for
from .state import Region, State

if TYPE_CHECKING:
    import random

    from .contract_bits import Event, Move

OBJECTIVE_COINS = 2  # to a non-Horde conqueror of a Military Objective, and to the Humans


def pay(s: State, payer: int, owed: Iterable[dict[str, Any]]) -> State:
    """Coins from `payer` to each payee (None: the bank); a Harmony toll returns the token."""
    for t in owed:
        p = s.players[payer]
        s = s.set_player(payer, p._replace(coins=p.coins - t["coins"],
                                           harmony=p.harmony and t.get("for") != "harmony"))
        if t["seat"] is not None:
            q = s.players[t["seat"]]
            s = s.set_player(t["seat"], q._replace(coins=q.coins + t["coins"]))
    return s


# --- beasts and the champion ----------------------------------------------------------------

def new_beasts(s: State, seat: int) -> State:
    """Start of a Beast Master turn: the old beasts go, one new beast per Hill region comes."""
    if not s.players[seat].beasts and not any(h.start_beasts(c) for h, c in hooks_for(s, seat)):
        return s
    s = flow.discard_beasts(s, seat)
    new = sum(h.start_beasts(c) for h, c in hooks_for(s, seat))
    p = s.players[seat]
    return s.set_player(seat, p._replace(hand=p.hand + new, beasts=new)) if new else s


def move_champion(s: State, seat: int, i: int) -> State:
    regions = tuple(r._replace(champion=False) if r.champion and r.seat == seat else r for r in s.regions)
    s = s.with_(regions=regions).set_player(seat, s.players[seat]._replace(champion=False))
    return s.set_region(i, s.regions[i]._replace(champion=True))


# --- Military Objectives --------------------------------------------------------------------

def objective_taken(s: State, seat: int, i: int, had: bool) -> State:
    """A non-Horde conqueror takes the objective back to the Humans, who gain 2 coins unless
    they conquered it (the conqueror's 2 coins come with its turn's scoring)."""
    if not had:
        return s
    if catalog.faction(s.players[seat].race) == "horde":
        return s.set_region(i, s.regions[i]._replace(objective=True))
    humans = next((k for k, p in enumerate(s.players)
                   if p.race in RACES and RACES[p.race].placed_piece == "objective"), None)
    s = s.set_region(i, s.regions[i]._replace(objective=False))
    if humans is not None and humans != seat:  # the bank pays the Humans
        p = s.players[humans]
        s = s.set_player(humans, p._replace(coins=p.coins + OBJECTIVE_COINS))
    return s


# --- Goblin bombs ---------------------------------------------------------------------------

def reveal_bombs(s: State, seat: int, rng: random.Random) -> list[Event]:
    """At the start of the Goblins' turn (or their decline): each bomb whose region its
    target still holds is revealed, live or dud drawn from the bombs not yet revealed (the
    same odds as a shuffled stack); the others go back to the stack unseen."""
    race = s.players[seat].race
    if race not in RACES or RACES[race].placed_piece != "bomb":
        return []
    live, dud = s.bombs
    coins = [p.coins for p in s.players]
    out = []
    for i, r in enumerate(s.regions):
        if r.bomb is None:
            continue
        if r.seat != r.bomb:
            out.append({"region": s.map.ids[i], "live": None})
            continue
        is_live = rng.random() < live / (live + dud)
        live, dud = (live - 1, dud) if is_live else (live, dud - 1)
        out.append({"region": s.map.ids[i], "live": is_live})
        if is_live and r.champion and not r.declined and r.seat != seat:
            # the Champion is taken prisoner, as by a conquest: a 1-coin ransom if its owner has one
            ransom = min(1, coins[r.seat])
            coins[r.seat] -= ransom
            out[-1]["ransom"] = ransom
    return [{"type": "bombs_revealed", "seat": seat, "bombs": out}] if out else []


def _bombs_revealed(s: State, e: Event) -> State:
    live, dud = s.bombs
    for b in e["bombs"]:
        i = s.map.index[b["region"]]
        s = s.set_region(i, s.regions[i]._replace(bomb=None))
        if b["live"] is None:
            continue
        live, dud = (live - 1, dud) if b["live"] else (live, dud - 1)
        if b["live"]:  # the explosion: a conquest's losses, and the region is left empty
            owner = s.regions[i].seat
            s = flow.defeat(s, i)
            if b.get("ransom"):
                s = pay(s, owner, [{"seat": e["seat"], "coins": b["ransom"]}])
    return s.with_(bombs=(live, dud))


# --- forts, watch towers, harmony (automatic at the end of the turn) -------------------------

def defences(s: State) -> list:
    """The forts and watch towers the active seat's power puts up at the end of its turn."""
    seat = s.seat
    if s.turn.declined:
        return []
    out = []
    for h, c in hooks_for(s, seat):
        if h.defence == "fort":
            room = query.supply_left(s, "fort", "forts")
            add = [i for i in h.defence_regions(c) if not s.regions[i].fort][:max(room, 0)]
            if add:
                out.append({"type": "defences_built", "seat": seat, "piece": "fort",
                            "added": [s.map.ids[i] for i in add], "removed": []})
        elif h.defence == "tower":
            want = set(h.defence_regions(c))
            have = {i for i in c.regions if s.regions[i].tower}
            removed = sorted(have - want)
            room = catalog.SUPPLIES["watch_towers"] - (query.count_pieces(s, "tower") - len(removed))
            add = sorted(want - have)[:max(room, 0)]
            if add or removed:
                out.append({"type": "defences_built", "seat": seat, "piece": "tower",
                            "added": [s.map.ids[i] for i in add], "removed": [s.map.ids[i] for i in removed]})
    return out


def _defences_built(s: State, e: Event) -> State:
    field = e["piece"]
    for rid in e["added"]:
        s = s.set_region(s.map.index[rid], s.regions[s.map.index[rid]]._replace(**{field: True}))
    for rid in e["removed"]:
        s = s.set_region(s.map.index[rid], s.regions[s.map.index[rid]]._replace(**{field: False}))
    return s


def harmony(s: State) -> list:
    """End of a Pandaren turn: a Harmony token to each opponent whose active race the
    Pandaren did not attack (players without a race too), 4 tokens at most."""
    seat = s.seat
    if not flow.gives_harmony(s.players[seat].race):
        return []
    left = catalog.SUPPLIES["harmony"] - sum(1 for p in s.players if p.harmony)
    to = [o for o in range(s.n) if o != seat and o not in s.turn.attacked and not s.players[o].harmony][:max(left, 0)]
    return [{"type": "harmony_given", "seat": seat, "to": to}] if to else []


def _harmony_given(s: State, e: Event) -> State:
    for o in e["to"]:
        s = s.set_player(o, s.players[o]._replace(harmony=True))
    return s


# --- actions during the conquests -----------------------------------------------------------

def legal_actions(s: State, seat: int) -> list:
    out = []
    for h, c in hooks_for(s, seat):
        out += h.actions(c)
    return out


def decide_action(s: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """The event of a legal action move (checked by the caller)."""
    kind = move["type"]
    if kind == "steal_artifact":
        return [{"type": "artifact_stolen", "seat": seat, "marker": s.regions[s.map.index[move["from"]]].marker,
                 "from": move["from"], "to": move["to"]}]
    if kind == "portal":
        event = {"type": "portal_opened", "seat": seat, "a": move["a"], "b": move["b"]}
        owed = targets.portal_tolls(s, seat, s.map.index[move["a"]], s.map.index[move["b"]])
        if owed:
            event["tolls"] = owed
        return [event]
    i = s.map.index[move["region"]]
    r = s.regions[i]
    removed = "wisp_wall" if r.wall else "fort" if r.fort else None
    event = {"type": "intimidated", "seat": seat, "region": move["region"], "removed": removed,
             "to": move.get("to"), "tolls": toll_rules.power_tolls(s, seat, i)}
    if removed is None and r.seat is not None and r.declined and 0 < r.tokens - 1 < flow.min_tokens(r.race):
        # A declined Tauren left alone follows the token moved out (a region its owner holds)
        # or, with none, is discarded with it. In the event, so histories from before this
        # rule (rules swow-3) replay as they were played.
        event["lone_to"] = move.get("to")
    return [event]


def _stolen(s: State, e: Event) -> State:
    i, j = s.map.index[e["from"]], s.map.index[e["to"]]
    s = s.set_region(i, s.regions[i]._replace(marker=None))
    s = s.set_region(j, s.regions[j]._replace(marker=e["marker"]))
    # the once-a-turn use belongs to the stealing race (its hook's key)
    return s.with_(turn=s.turn._replace(used=s.turn.used + (s.players[e["seat"]].race,)))


def _intimidated(s: State, e: Event) -> State:
    s = pay(s, e["seat"], e.get("tolls", ()))
    s = s.with_(turn=s.turn._replace(used=s.turn.used + ("intimidating",)))
    i = s.map.index[e["region"]]
    r = s.regions[i]
    if r.seat is not None and not r.declined and r.seat not in s.turn.attacked:
        s = s.with_(turn=s.turn._replace(attacked=s.turn.attacked + (r.seat,)))
    if e["removed"] == "wisp_wall":
        return s.set_region(i, r._replace(wall=False))
    if e["removed"] == "fort":
        return s.set_region(i, r._replace(fort=False))
    beast = 1 if r.beasts == r.tokens else 0  # a race token leaves before a beast
    left = r.tokens - 1
    s = s.set_region(i, r._replace(tokens=left, beasts=r.beasts - beast) if left else flow.emptied(r))
    if not left:
        s = _champion_home(s, r)
    if e["to"]:
        j = s.map.index[e["to"]]
        o = s.regions[j]
        s = s.set_region(j, o._replace(tokens=o.tokens + 1, beasts=o.beasts + beast))
    else:
        s = _token_discarded(s, r, i, beast)
    if "lone_to" in e:
        return _lone_declined_token(s, i, e["lone_to"])
    return _no_lone_token(s, i)


def _no_lone_token(s: State, i: int) -> State:
    """A token an intimidation left alone where its active race may not stand alone (Tauren:
    "if a Race token would be left alone for any reason", [R]) goes back to its owner's hand
    and is redeployed at the end of the turn; the region is left."""
    r = s.regions[i]
    if r.seat is None or r.declined or not 0 < r.tokens < flow.min_tokens(r.race):
        return s
    p = s.players[r.seat]
    s = s.set_player(r.seat, p._replace(hand=p.hand + r.tokens, beasts=p.beasts + r.beasts))
    return flow.add_defender(_champion_home(s.set_region(i, flow.emptied(r)), r), r.seat)


def _lone_declined_token(s: State, i: int, to: str | None) -> State:
    """A declined token an intimidation left alone where its race may not stand alone (Tauren:
    "if a Race token would be left alone for any reason, ... redeploy it to a Region they
    already control", [R]) joins the token moved out, in `to`; with no `to`, it is discarded."""
    r = s.regions[i]
    s = s.set_region(i, flow.emptied(r))
    if to is None:
        return flow.drop_declined_if_gone(flow.count_forced(s, r.seat, r.tokens), r.seat)
    j = s.map.index[to]
    return s.set_region(j, s.regions[j]._replace(tokens=s.regions[j].tokens + r.tokens))


def _champion_home(s: State, r: Region) -> State:
    """A Champion whose region an intimidation emptied goes back to its owner's hand, to be
    redeployed like a token at the end of the turn."""
    if not r.champion or r.seat is None or r.declined:
        return s
    s = s.set_player(r.seat, s.players[r.seat]._replace(champion=True))
    return flow.add_defender(s, r.seat)


def _token_discarded(s: State, r: Region, i: int, beast: int) -> State:
    """A token an intimidation could not move: discarded, unless its active race is spared
    (Light's Hope Chapel, Holy Light), when it goes to hand for the redeployment."""
    seat = r.seat
    if seat is None or r.declined:
        s = flow.count_forced(s, seat, 1)
        return s if seat is None else flow.drop_declined_if_gone(s, seat)
    probe = s.set_region(i, r)  # the chapel counts while the token is still there
    spared = flow.spared_by(probe, seat, i)
    if not spared:
        return flow.count_forced(s, seat, 1)
    if spared == "holy_light":
        s = s.with_(turn=s.turn._replace(spared=s.turn.spared + (seat,)))
    p = s.players[seat]
    s = s.set_player(seat, p._replace(hand=p.hand + 1, beasts=p.beasts + beast))
    return flow.add_defender(s, seat)


SWAPPED = ("seat", "race", "tokens", "declined", "wall", "fort", "beasts", "champion", "bomb", "objective")


def _portal(s: State, e: Event) -> State:
    s = pay(s, e["seat"], e.get("tolls", ()))
    i, j = s.map.index[e["a"]], s.map.index[e["b"]]
    a, b = s.regions[i], s.regions[j]
    hit = tuple(r.seat for r in (a, b) if r.seat not in (None, e["seat"]) and not r.declined
                and r.seat not in s.turn.attacked)
    if hit:  # their active race was attacked (no Harmony for them from a Pandaren portal mage)
        s = s.with_(turn=s.turn._replace(attacked=s.turn.attacked + tuple(dict.fromkeys(hit))))
    new_a = a._replace(**{f: getattr(b, f) for f in SWAPPED})
    new_b = b._replace(**{f: getattr(a, f) for f in SWAPPED})
    kinds = {catalog.MARKERS.get(m, {}).get("kind") for m in (a.marker, b.marker)}
    if "artifact" in kinds and "place" not in kinds:  # artifacts go through, places stay
        new_a, new_b = new_a._replace(marker=b.marker), new_b._replace(marker=a.marker)
    s = s.set_region(i, new_a).set_region(j, new_b)
    return s.with_(turn=s.turn._replace(used=s.turn.used + ("portal_mage",)))


EVOLVE = {
    "artifact_stolen": _stolen,
    "intimidated": _intimidated,
    "portal_opened": _portal,
    "bombs_revealed": _bombs_revealed,
    "defences_built": _defences_built,
    "harmony_given": _harmony_given,
    "airborne_rolled": lambda s, e: s,  # read by the conquest or failure that follows
}

ACTION_MOVES = ("steal_artifact", "intimidate", "portal")
