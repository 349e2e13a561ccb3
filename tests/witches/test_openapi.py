"""The OpenAPI fragment matches real values: options, every view, every redacted event, legal
moves and results from seeded playouts (and a spell-choice round)."""
import random

import jsonschema
import pytest

from api.openapi import load_yaml
from domain.contract import EVERYONE, SPECTATOR, SYSTEM
from domain.play import fold
from domain.witches import GAME
from domain.witches.cards import PYGMY_QUEEN, RED_CARDS, WATER_WITCH
from tests.schema_check import ROOT, validator_for

from .helpers import round_end

PATH = "api/openapi/witches.yaml"
check = validator_for(PATH)


def viewers(n):
    return list(range(n)) + [SPECTATOR, EVERYONE]


def check_state(state, events):
    n = state.n
    for viewer in viewers(n):
        check("WitchesView", GAME.view(state, viewer))
        for event in events:
            check("WitchesEvent", GAME.redact(event, viewer))
    for actor in GAME.actors(state):
        moves = GAME.legal_moves(state, actor)
        for move in random.Random(0).sample(moves, min(5, len(moves))):
            check("WitchesMove", move)


@pytest.mark.parametrize("n,opts", [(3, {"rounds": 2}), (4, {"target_score": 30}), (5, {"rounds": 1}),
                                    (6, {"rounds": 1, "pygmy_queen_points": 5, "earth_witch_variant": True})])
def test_playout_values_match_the_schemas(n, opts):
    options = {**GAME.default_options(), **opts}
    check("WitchesOptions", options)
    rng = random.Random(n)
    events = GAME.setup(options, n, rng)
    state = fold(GAME, events)
    check_state(state, events)
    while GAME.actors(state):
        actor = rng.choice(GAME.actors(state))
        move = GAME.bots["careful" if actor == 0 else "random"](state, actor, rng) if actor != SYSTEM \
            else GAME.legal_moves(state, SYSTEM)[0]
        new = GAME.decide(state, actor, move, rng)
        state = fold(GAME, new, state)
        # Views are checked at every step of the first round and at round ends after that.
        if state.round == 1 or any(e["type"] in ("round_scored", "cards_exchanged") for e in new):
            check_state(state, new)
        else:
            for event in new:
                check("WitchesEvent", GAME.redact(event, 1))
    check("WitchesResult", GAME.result(state))
    check_state(state, [])


def test_a_spell_choice_matches_the_schemas():
    state = round_end(3, [list(RED_CARDS) + [WATER_WITCH, PYGMY_QUEEN], [], []], totals=[10, 50, 0])
    check_state(state, [])
    events = GAME.decide(state, 0, {"type": "choose_spell", "choice": "self"}, random.Random())
    state = fold(GAME, events, state)
    events += GAME.decide(state, SYSTEM, {"type": "score_round"}, random.Random())
    check_state(fold(GAME, events[1:], state), events)


def test_the_schemas_reject_wrong_values():
    with pytest.raises(jsonschema.ValidationError):
        check("WitchesMove", {"type": "play", "card": "red-7"})
    with pytest.raises(jsonschema.ValidationError):
        check("WitchesOptions", {"pygmy_queen_points": 7})
    with pytest.raises(jsonschema.ValidationError):
        check("WitchesEvent", {"type": "card_played", "seat": 0})


def test_every_schema_and_property_is_described_and_prefixed():
    schemas = load_yaml((ROOT / PATH).read_text())["components"]["schemas"]
    for name, schema in schemas.items():
        assert name.startswith("Witches")
        assert schema.get("description"), name
        for prop, sub in schema.get("properties", {}).items():
            assert sub.get("description") or "$ref" in sub, f"{name}.{prop}"
    for name in ("WitchesOptions", "WitchesMove", "WitchesView", "WitchesEvent", "WitchesResult"):
        assert name in schemas


def test_the_fragment_is_a_valid_openapi_31_components_section():
    from openapi_spec_validator import validate

    fragment = load_yaml((ROOT / PATH).read_text())
    validate({"openapi": "3.1.0", "info": {"title": "Witches", "version": "1"}, "paths": {}, **fragment})
