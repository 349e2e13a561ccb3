"""The OpenAPI fragment describes real values: every view for every viewer, every redacted
event, every legal move and every result of seeded playouts (all seat counts), plus options."""
import random

import pytest
from jsonschema import ValidationError

from domain.contract import EVERYONE, SPECTATOR, SYSTEM
from domain.play import fold
from domain.splendor import GAME
from tests.schema_check import validator_for

check = validator_for("api/openapi/splendor.yaml")


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (4, {"strict_take_three": True})])
def test_playout_values_match_the_schemas(n, options):
    opts = {**GAME.default_options(), **options}
    check("SplendorOptions", opts)
    rng = random.Random(n)
    events = GAME.setup(opts, n, random.Random(n))
    state = fold(GAME, events)
    viewers = list(range(n)) + [SPECTATOR]
    step = 0
    while True:
        if step % 7 == 0 or not GAME.actors(state):  # every view is costly; sample states
            for viewer in viewers:
                check("SplendorView", GAME.view(state, viewer))
        actors = GAME.actors(state)
        if not actors:
            break
        moves = GAME.legal_moves(state, actors[0])
        for move in moves[:20]:
            check("SplendorMove", move)
        bot = GAME.bots["greedy" if step % 2 else "random"]
        move = moves[0] if actors[0] == SYSTEM else bot(state, actors[0], rng)
        new = GAME.decide(state, actors[0], move, rng)
        for event in new:
            for viewer in viewers + [EVERYONE]:
                check("SplendorEvent", GAME.redact(event, viewer))
        events += new
        state = fold(GAME, new, state)
        step += 1
    check("SplendorResult", GAME.result(state))
    check("SplendorView", GAME.view(state, EVERYONE))
    for event in events:
        check("SplendorEvent", GAME.redact(event, EVERYONE))


def test_the_schemas_can_fail():
    with pytest.raises(ValidationError):
        check("SplendorMove", {"type": "take_gems", "colors": ["gold"]})
    with pytest.raises(ValidationError):
        check("SplendorMove", {"type": "buy", "card": "sp-1-01", "payment": {"red": 0}})
    with pytest.raises(ValidationError):
        check("SplendorOptions", {"strict_take_three": "no"})
    with pytest.raises(ValidationError):
        check("SplendorEvent", {"type": "card_reserved", "seat": 0, "level": 1})


def test_every_move_shape_is_described():
    for move in ({"type": "reserve_blind", "level": 2}, {"type": "pass"}, {"type": "score_game"},
                 {"type": "choose_noble", "noble": "sp-noble-03"},
                 {"type": "return_tokens", "tokens": {"gold": 1, "red": 2}}):
        check("SplendorMove", move)
    assert set(GAME.move_types) == {"take_gems", "take_two", "reserve", "reserve_blind", "buy",
                                    "return_tokens", "choose_noble", "pass", "score_game"}


def test_rare_values_match_the_schemas():
    """States random play seldom reaches: a pending return, a noble choice, a hidden blind
    card, an empty market slot, a pass, a blocked result."""
    from tests.splendor.helpers import act, bonus, start, toks, with_player, with_supply

    seen_events = []

    def play(state, actor, move):
        check("SplendorMove", move)
        events, state = act(state, actor, move)
        seen_events.extend(events)
        for viewer in (0, 1, SPECTATOR):
            check("SplendorView", GAME.view(state, viewer))
        return state

    state = start()._replace(decks=((),) + start().decks[1:])
    state = with_player(state, 0, tokens=toks(red=4, black=4, white=2),
                        bonuses=bonus(white=3, blue=3, red=3, black=3))
    state = play(state, 0, {"type": "reserve", "card": "sp-1-01"})  # empty slot + return pending
    state = play(state, 0, {"type": "return_tokens", "tokens": {"gold": 1}})  # then two nobles
    state = play(state, 0, {"type": "choose_noble", "noble": "sp-noble-03"})
    state = play(state, 1, {"type": "reserve_blind", "level": 2})  # hidden for seat 0
    state = with_supply(state, white=0, blue=0, green=0, red=0, black=0)
    state = with_player(state, 0, tokens=toks(), reserved=["sp-3-10", "sp-3-11", "sp-3-12"])
    state = with_player(state, 1, tokens=toks(), reserved=["sp-3-13", "sp-3-14", "sp-3-15"])
    state = state._replace(market=((-1,) * 4,) * 3)
    state = play(state, 0, {"type": "pass"})
    state = play(state, 1, {"type": "pass"})
    state = play(state, SYSTEM, {"type": "score_game"})
    check("SplendorResult", GAME.result(state))
    kinds = set()
    for event in seen_events:
        kinds.add(event["type"])
        for viewer in (0, 1, SPECTATOR, EVERYONE):
            check("SplendorEvent", GAME.redact(event, viewer))
    assert kinds == {"card_reserved", "tokens_returned", "noble_visited", "turn_passed", "game_scored"}
