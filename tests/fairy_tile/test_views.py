"""Views, redaction and the OpenAPI fragment, checked on real values from playouts."""
import json
import random

import pytest

from domain.contract import EVERYONE, SPECTATOR
from domain.fairy_tile import GAME
from domain.play import fold
from tests.schema_check import validator_for

check = validator_for("api/openapi/fairy-tile.yaml")


def _playout(n, seed, bots=None):
    rng = random.Random(seed)
    events = GAME.setup({"round_limit": 15}, n, rng)
    state = fold(GAME, events)
    states = [state]
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        policy = GAME.bots[(bots or {}).get(actor, "random")]
        new = GAME.decide(state, actor, policy(state, actor, rng), rng)
        for e in new:
            state = GAME.evolve(state, e)
        events += new
        states.append(state)
    return events, states


@pytest.mark.parametrize("n", [2, 3, 4])
def test_schemas_match_real_views_events_moves_and_results(n):
    events, states = _playout(n, seed=n, bots={0: "storyteller"})
    check("FairyTileOptions", GAME.default_options())
    viewers = list(range(n)) + [SPECTATOR, EVERYONE]
    for state in states[::7] + [states[-1]]:
        for viewer in viewers:
            check("FairyTileView", json.loads(json.dumps(GAME.view(state, viewer))))
        for actor in GAME.actors(state):
            moves = GAME.legal_moves(state, actor)
            for move in moves:
                check("FairyTileMove", move)
            summary = GAME.summary(state, actor)
            check("FairyTileMoveSummary", summary)
            assert summary["move_count"] == len(moves)
            assert sum(len(r) for r in summary["tile"].values()) == sum(m["type"] == "lay_tile" for m in moves)
    for event in events:
        for viewer in viewers:
            check("FairyTileEvent", json.loads(json.dumps(GAME.redact(event, viewer))))
    check("FairyTileResult", GAME.result(states[-1]))


def test_a_seat_sees_its_own_card_and_nobody_elses():
    events, states = _playout(2, seed=5)
    state = fold(GAME, events[:1])
    mine, theirs = state.seats[0].hand, state.seats[1].hand
    v0 = json.dumps(GAME.view(state, 0))
    assert json.dumps(mine) in v0 and json.dumps(theirs) not in v0
    assert GAME.view(state, 0)["hand"]["id"] == mine
    assert "hand" not in GAME.view(state, SPECTATOR)
    setup_for_1 = GAME.redact(events[0], 1)
    assert setup_for_1["hand"] == theirs and "books" not in setup_for_1 and "pile" not in setup_for_1


def test_book_order_and_the_pile_below_its_top_stay_secret():
    events, _ = _playout(2, seed=6)
    state = fold(GAME, events[:1])
    secrets = GAME.secrets(state)
    for card in state.seats[0].book:
        assert secrets[card] == frozenset()
    assert state.pile[0][0] not in secrets                # the top tile shows its face
    assert all(secrets[t] == frozenset() for t, _ in state.pile[1:])
    view = GAME.view(state, 0)
    assert view["next_tile"]["tile"] == state.pile[0][0] and view["pile_size"] == 12
    assert "pile" in GAME.view(state, EVERYONE)


def test_drawn_cards_are_redacted_for_the_others():
    told = {"type": "card_told", "seat": 0, "card": "ft-card-3", "drawn": "ft-card-9"}
    assert GAME.redact(told, 1) == {"type": "card_told", "seat": 0, "card": "ft-card-3"}
    assert GAME.redact(told, 0) == told and GAME.redact(told, EVERYONE) == told
    turned = {"type": "page_turned", "seat": 1, "drawn": "ft-card-9"}
    assert "drawn" not in GAME.redact(turned, SPECTATOR) and GAME.redact(turned, 1) == turned


@pytest.mark.parametrize("bad", [{"type": "move", "figure": "dragon", "direction": "up"},
                                 {"type": "move", "figure": "knight", "to": [0, 1]},
                                 {"type": "lay_tile", "at": [0, 1], "rotation": 6},
                                 {"type": "turn_page", "x": 1}])
def test_the_move_schema_refuses_what_decide_refuses(bad):
    import jsonschema
    with pytest.raises(jsonschema.ValidationError):
        check("FairyTileMove", bad)
