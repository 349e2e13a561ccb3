"""What each viewer sees (spec: What others see) and the replay guarantees."""
import json
import random

from domain.contract import EVERYONE, SPECTATOR, SYSTEM
from domain.play import fold
from domain.splendor import GAME
from tests.splendor.helpers import act, start, started_event, toks, with_player


def _game(n=2, seed=3):
    return GAME.setup({"strict_take_three": False}, n, random.Random(seed))


def test_the_first_event_hides_the_deck_order_from_every_seat_and_spectators():
    event = _game()[0]
    for viewer in (0, 1, SPECTATOR):
        redacted = GAME.redact(event, viewer)
        assert "decks" not in redacted and redacted["deck_sizes"] == [36, 26, 16]
        assert redacted["market"] == event["market"]
        text = json.dumps(redacted)
        assert not any(json.dumps(c) in text for deck in event["decks"] for c in deck)
    assert GAME.redact(event, EVERYONE) == event


def test_every_deck_card_is_a_secret_from_everyone():
    state = fold(GAME, _game())
    secrets = GAME.secrets(state)
    assert len(secrets) == 78 and set(secrets.values()) == {frozenset()}


def test_views_show_public_state_and_no_deck_cards():
    state = fold(GAME, _game())
    for viewer in (0, 1, SPECTATOR):
        view = GAME.view(state, viewer)
        assert view["phase"] == "play" and view["to_act"] == [0]
        assert view["deck_sizes"] == [36, 26, 16] and "decks" not in view
        assert all(card["id"].startswith("sp-") for row in view["market"] for card in row)
        assert view["you"] == (viewer if viewer is not None else None)
        text = json.dumps(view)
        assert not any(json.dumps(token) in text for token in GAME.secrets(state))


def test_tokens_bonuses_and_bought_cards_are_public():
    state = with_player(start(), 0, tokens=toks(blue=3, gold=1))
    _, state = act(state, 0, {"type": "buy", "card": "sp-1-02", "payment": {"blue": 3}})
    seen = GAME.view(state, 1)["players"][0]
    assert seen["tokens"] == {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 1}
    assert seen["bonuses"]["white"] == 1 and seen["cards"] == ["sp-1-02"] and seen["token_count"] == 1


def test_pending_return_is_shown():
    state = with_player(start(), 0, tokens=toks(red=4, black=4))
    _, state = act(state, 0, {"type": "take_gems", "colors": ["white", "blue", "green"]})
    assert GAME.view(state, SPECTATOR)["pending"] == {"seat": 0, "return_tokens": 1}


def test_the_refill_card_is_public_once_face_up():
    events, state = act(start(), 0, {"type": "reserve", "card": "sp-1-01"})
    assert GAME.redact(events[0], 1)["refill"] == "sp-1-05"
    assert "sp-1-05" not in GAME.secrets(state)


def test_replay_after_json_gives_an_equal_state():
    events = _game(3)
    state = fold(GAME, events)
    rng = random.Random(9)
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        new = GAME.decide(state, actor, rng.choice(GAME.legal_moves(state, actor)), rng)
        events += new
        state = fold(GAME, new, state)
    assert fold(GAME, json.loads(json.dumps(events))) == state
    assert GAME.actors(state) == [] and GAME.result(state) is not None
    assert GAME.legal_moves(state, SYSTEM) == []


def test_started_event_helper_matches_setup_shape():
    assert set(started_event()) == set(_game()[0])
