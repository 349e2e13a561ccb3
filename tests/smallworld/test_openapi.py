"""The OpenAPI fragment matches real values from seeded playouts."""
import random

from api.openapi import load_yaml
from domain.contract import EVERYONE, SPECTATOR, SYSTEM
from domain.play import fold
from domain.smallworld import GAME, catalog
from tests.schema_check import ROOT, validator_for

PATH = "api/openapi/smallworld-of-warcraft.yaml"
check = validator_for(PATH)


def test_enums_match_the_catalog():
    schemas = load_yaml((ROOT / PATH).read_text())["components"]["schemas"]
    assert sorted(schemas["SmallWorldRace"]["enum"]) == sorted(catalog.RACES)
    assert sorted(schemas["SmallWorldPower"]["enum"]) == sorted(catalog.POWERS)
    assert sorted(schemas["SmallWorldMarker"]["enum"]) == sorted(catalog.MARKERS)


def test_the_uses_enum_lists_every_once_a_turn_conquest_ability():
    from domain.smallworld.abilities import MARKERS, POWERS, RACES, Ability
    schemas = load_yaml((ROOT / PATH).read_text())["components"]["schemas"]
    uses = {k for table in (RACES, POWERS, MARKERS) for k, h in table.items()
            if h.use_reduction or type(h).use_cost is not Ability.use_cost}
    assert sorted(schemas["SmallWorldUse"]["enum"]) == sorted(uses)


def test_options_schema():
    check("SmallWorldOptions", GAME.default_options())


def test_playout_values_match_the_schemas():
    from domain.smallworld.evolve import HANDLERS
    seen = set()
    for n, seed, options in ((2, 1, {}), (5, 2, {}), (3, 3, {}), (4, 4, {}), (4, 5, {"team": True}),
                             (5, 7, {"team": True, "team_score": "highest"})):
        rng = random.Random(seed)
        events = GAME.setup(options, n, random.Random(seed))
        state = fold(GAME, events)
        viewers = list(range(n)) + [SPECTATOR]
        k = 0
        while GAME.actors(state):
            actor = GAME.actors(state)[0]
            moves = GAME.legal_moves(state, actor)
            for m in moves[:3] + moves[-2:]:
                check("SmallWorldMove", m)
            if k % 40 == 0:
                for v in viewers:
                    check("SmallWorldView", GAME.view(state, v))
            policy = GAME.bots["greedy" if seed % 2 else "random"]
            move = moves[0] if actor == SYSTEM else policy(state, actor, rng)
            new = GAME.decide(state, actor, move, rng)
            for e in new:
                state = GAME.evolve(state, e)
            events += new
            k += 1
        samples = {}
        for e in events:  # a few of each event type, as every viewer sees them
            samples.setdefault(e["type"], []).append(e)
        seen |= set(samples)
        for e in [e for group in samples.values() for e in group[:4]]:
            for v in viewers + [EVERYONE]:
                check("SmallWorldEvent", GAME.redact(e, v))
        for v in viewers + [EVERYONE]:
            check("SmallWorldView", GAME.view(state, v))
        check("SmallWorldResult", GAME.result(state))
    for e in scripted_events():
        seen.add(e["type"])
        for v in (0, 1, SPECTATOR, EVERYONE):
            check("SmallWorldEvent", GAME.redact(e, v))
    assert seen == set(HANDLERS), set(HANDLERS) - seen


def scripted_events():
    """Events too rare in short playouts (a Heart of Azeroth moved, then paid for)."""
    from .helpers import play
    from .test_markers import heart_turn
    state, events = play(heart_turn(), 0, {"type": "end_conquests"})
    check("SmallWorldView", GAME.view(state, 0))
    for m in GAME.legal_moves(state, 0):
        check("SmallWorldMove", m)
    state, more = play(state, 0, {"type": "move_marker", "marker": "heart_of_azeroth", "region": "T-4"})
    state, last = play(state, SYSTEM, {"type": "score_turn"})
    return events + more + last + rare_actions()


def rare_actions():
    """An empty display's pass, a stolen artifact and a portal."""
    from domain.smallworld.state import PICK

    from .helpers import MAP, build_map, make_state, mine, play
    _, passed = play(make_state(step=PICK), 0, {"type": "skip_pick"})
    regions = {"T-2": mine(0, "ethereals", 3), "T-4": mine(1, "orcs", 2, marker="frostmourne")}
    state = make_state(regions=regions, players={0: {"race": "ethereals", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer"}})
    _, stolen = play(state, 0, {"type": "steal_artifact", "from": "T-4", "to": "T-2"})
    state = make_state(map_=build_map({"U-2": {"magic"}}), regions={"T-4": mine(1, "orcs", 2), "U-2": mine(0, "trolls", 1)},
                       players={0: {"race": "trolls", "power": "portal_mage"}, 1: {"race": "orcs", "power": "farmer"}})
    check("SmallWorldView", GAME.view(state, 0))
    _, portal = play(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"})
    regions = {"T-1": mine(1, "trolls", 1), "T-2": mine(0, "orcs", 2, champion=True), "T-4": mine(0, "orcs", 1),
               "U-1": mine(0, "orcs", 1)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "orcs", "power": "championing"},
                                                          1: {"race": "trolls", "power": "farmer", "hand": 9}})
    state, captured = play(state, 1, {"type": "conquer", "region": "T-2"})
    state, ended = play(state, 1, {"type": "end_conquests"})
    state, more = play(state, 1, {"type": "place", "region": "T-2", "count": state.players[1].hand})
    ended += more
    check("SmallWorldView", GAME.view(state, 0))
    for m in GAME.legal_moves(state, 0):
        check("SmallWorldMove", m)
    _, placed = play(state, 0, {"type": "place_champion", "region": "T-4"})
    assert MAP is not None
    return passed + stolen + portal + captured + ended + placed
