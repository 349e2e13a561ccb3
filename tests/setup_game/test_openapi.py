"""The OpenAPI fragment matches real values: views for every viewer, redacted events, legal
moves, previews and results from playouts of every configuration."""
import random

import pytest
from openapi_spec_validator import validate

from domain.contract import EVERYONE, SPECTATOR
from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.moves import summary
from domain.setup_game.rules import preview
from tests.schema_check import _document, validator_for

FRAGMENT = "api/openapi/setup.yaml"
check = validator_for(FRAGMENT)


def test_fragment_is_a_valid_openapi_document():
    validate({"openapi": "3.1.0", "info": {"title": "setup", "version": "1"}, "paths": {},
              **_document(FRAGMENT)})


def test_options_schema():
    check("SetUpOptions", GAME.default_options())
    check("SetUpOptions", {"teams": True})


@pytest.mark.parametrize("n,options", GAME.test_configs)
def test_playout_values_match_the_schemas(n, options):
    rng = random.Random(n)
    events = GAME.setup({**GAME.default_options(), **options}, n, rng)
    state = fold(GAME, events)
    viewers = list(range(n)) + [SPECTATOR]
    step = 0
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        moves = GAME.legal_moves(state, seat)
        for move in rng.sample(moves, min(10, len(moves))):
            check("SetUpMove", move)
            if move["type"] == "play":
                check("SetUpPreview", preview(state, seat, move))
        check("SetUpPreview", preview(state, (seat + 1) % n, moves[0]))
        check("SetUpMoveSummary", summary(state, seat))
        if step % 3 == 0:
            for viewer in viewers:
                check("SetUpView", GAME.view(state, viewer))
        policy = GAME.bots["greedy" if seat % 2 else "random"]
        new = GAME.decide(state, seat, policy(state, seat, rng), rng)
        for event in new:
            state = GAME.evolve(state, event)
        events += new
        step += 1
    for event in events:
        for viewer in viewers + [EVERYONE]:
            check("SetUpEvent", GAME.redact(event, viewer))
    for viewer in viewers + [EVERYONE]:
        check("SetUpView", GAME.view(state, viewer))
    check("SetUpResult", GAME.result(state))


def test_schemas_reject_wrong_values():
    import jsonschema
    for name, value in [("SetUpMove", {"type": "play", "place": {}}),
                        ("SetUpMove", {"type": "swap", "tiles": ["a"] * 5}),
                        ("SetUpMove", {"type": "jump"}),
                        ("SetUpOptions", {"teams": "yes"})]:
        with pytest.raises(jsonschema.ValidationError):
            check(name, value)
