"""What each viewer may see (rules "What others see"): everything is public except each
seat's coin total (and what a turn's scoring gained), until the game is over.

Face-down artifact/place markers and unrevealed bombs show only their back ("hidden", a
bomb flag): their faces are not in the state at all until revealed (drawn then, into the
event), so no viewer, the server's own views included, can learn them early."""
from __future__ import annotations

from . import catalog, query, team
from .contract_bits import EVERYONE, AllBut, is_seat
from .moves import actors
from .state import OVER, State


def coins_token(seat: int, coins: int) -> str:
    """A distinctive string for a secret coin total, so leak checks can look for it."""
    return f"coins-s{seat}-{coins}"


def _map(state: State) -> list:
    m = state.map
    return [{"id": m.ids[i], "island": m.sides[m.island[i]], "terrain": m.terrain[i],
             "symbols": sorted(m.symbols[i]), "adjacent": [m.ids[j] for j in m.adj[i]]}
            for i in range(len(m.ids))]


def _regions(state: State) -> list:
    return [{"id": state.map.ids[i], "seat": r.seat, "race": r.race, "tokens": r.tokens,
             "declined": r.declined, "wisp_wall": r.wall, "marker": r.marker, "fort": r.fort,
             "watch_tower": r.tower, "beasts": r.beasts, "champion": r.champion,
             "bomb": r.bomb is not None, "military_objective": r.objective}
            for i, r in enumerate(state.regions)]


def _turn(state: State) -> dict:
    t = state.turn
    ids = state.map.ids
    return {"conquests": [{"region": ids[c.region], "race": c.race, "seat": c.seat,
                           "tokens": c.tokens, "declined": c.declined} for c in t.conquests],
            "used": list(t.used), "form": t.form, "declined": t.declined,
            "defenders": list(t.defenders), "placed": list(t.placed), "pieces": list(t.pieces),
            "attacked": list(t.attacked), "forced": t.forced, "bought": t.bought}


def _player(state: State, seat: int, viewer) -> dict:
    p = state.players[seat]
    out = {"seat": seat, "race": p.race, "power": p.power, "hand": p.hand, "beasts_in_hand": p.beasts,
           "declined_race": p.declined, "declined_power": p.declined_power, "faction": p.faction,
           "harmony": p.harmony, "champion_in_hand": p.champion,
           "tokens_on_board": query.tokens_on_board(state, seat)}
    if viewer == seat or viewer == EVERYONE or state.turn.step == OVER:
        out["coins"] = p.coins
        out["coins_token"] = coins_token(seat, p.coins)
    return out


def result(state: State) -> dict | None:
    """The final scores once the game is over (None before)."""
    if state.turn.step != OVER or state.final is None:
        return None
    return state.final


def view(state: State, viewer) -> dict:
    out = {
        "phase": state.turn.step,
        "to_act": actors(state),
        "round": state.round,
        "rounds": state.rounds,
        "current_seat": state.seat,
        "islands": list(state.map.sides),
        "map": _map(state),
        "regions": _regions(state),
        "players": [_player(state, s, viewer) for s in range(state.n)],
        "display": [{"race": r, "power": p, "coins": c, "cost": k}
                    for k, (r, p, c) in enumerate(state.display)],
        "race_pile": len(state.race_pile) + len(state.returned),
        "power_pile": len(state.power_pile) + len(state.power_discards),
        "turn": _turn(state),
        "wisp_walls_left": query.walls_left(state),
        "pieces_left": {"forts": query.supply_left(state, "fort", "forts"),
                        "watch_towers": query.supply_left(state, "tower", "watch_towers"),
                        "bombs": query.bombs_in_stack(state),
                        "harmony": catalog.SUPPLIES["harmony"] - sum(1 for p in state.players if p.harmony)},
    }
    if state.team:
        out["team"] = {"score": state.team["score"]}
        out["rows"] = [dict(zip(team.COLUMNS, row), cost=k) for k, row in enumerate(state.rows)]
    if is_seat(viewer):
        out["you"] = viewer
    if state.final is not None:
        out["result"] = state.final
    return out


def redact(event: dict, viewer) -> dict:
    """Only a turn's scoring is secret: others learn that it happened, not what it gave."""
    if event.get("type") != "turn_scored" or viewer == EVERYONE or viewer == event.get("seat"):
        if event.get("type") == "turn_scored":
            return {**event, "coins_token": coins_token(event["seat"], event["total"])}
        return event
    return {"type": "turn_scored", "seat": event["seat"], "payments": event.get("payments", [])}


_HIDING = AllBut("turn_scored")


def as_stored(viewer):
    """The types redact leaves as they are: all but a turn's scoring (which gains a token for
    everyone, even once the game is over)."""
    return _HIDING


def secrets(state: State) -> dict:
    """The leak oracle: each seat's coin total (team game too: teammates do not see each
    other's), known to that seat alone until the game is over.

    Face-down artifact/place markers and unrevealed Goblin bombs are hidden things with no
    face in the state: a marker's identity is drawn when its region is entered and a bomb's
    (live or dud) when it is revealed, from what is left, into the event (tests/smallworld/
    test_secrets.py proves the state does not fix them). Until then every view shows only
    their back (`"hidden"`, `"bomb": true`), the server's included, so they have no token
    here: there is nothing a viewer could be sent."""
    if state.turn.step == OVER:
        return {}
    return {coins_token(s, p.coins): frozenset({s}) for s, p in enumerate(state.players)}
