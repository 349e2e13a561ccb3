"""What a move's answer keeps from one request to the next (issue 57): a game's speaker (its seats'
names) per game type, language and seats; the body parsed once by the route that reads its
expected version first. Each answers what it did when made anew."""
from __future__ import annotations

from dataclasses import replace
from unittest import mock

import pytest
from flask import Flask, request

from api.games import words
from api.games.service import GameService
from api.http import requests
from api.http.json_provider import FastJSONProvider
from events import codec
from events.memory_store import InMemoryEventStore

pytestmark = pytest.mark.unit


def _game(seats):
    service = GameService(InMemoryEventStore())
    created = service.create("splendor", seats, {})
    return service.load(created["id"])


def test_a_games_speaker_is_made_once_per_language_and_follows_its_seats():
    game = _game([{"name": "Ann"}, {"name": "Bo"}])
    said = words.speaker(game, "en")
    assert said is not None and said.seat_names == ["Ann", "Bo"]
    assert words.speaker(game, "en") is said  # the same seats: kept
    assert words.speaker(replace(game, version=game.version + 1), "en") is said  # a later version, the same seats
    assert words.speaker(game, "ko") is not said
    # A seat's change makes a new seats tuple: its names are said, not the kept ones.
    renamed = (game.seats[0], {**game.seats[1], "name": "Cy"})
    moved = replace(game, platform=replace(game.platform, seats=renamed))
    assert words.speaker(moved, "en").seat_names == ["Ann", "Cy"]
    assert words.speaker(game, "en").seat_names == ["Ann", "Bo"]


def test_a_game_with_the_same_names_elsewhere_is_said_with_its_own():
    one, other = _game([{"name": "Ann"}, {"name": "Bo"}]), _game([{"name": "Di"}, {"name": "Ed"}])
    assert words.speaker(one, "en").seat_names == ["Ann", "Bo"]
    assert words.speaker(other, "en").seat_names == ["Di", "Ed"]


def _app() -> Flask:
    app = Flask(__name__)
    app.json = FastJSONProvider(app)
    return app


BODIES = [b'{"expected_version": 3, "move": {"type": "pass"}}', b'{"expected_version": 3', b"", b"[1, 2]",
          b'"x"', b"\xff\xfe", b"[" * 2000 + b"]" * 2000, b"null", b"NaN"]
TYPES = ["application/json", "application/json; charset=utf-8", "application/vnd.game+json", "text/plain",
         "application/x-www-form-urlencoded", None]


@pytest.mark.parametrize("content_type", TYPES)
@pytest.mark.parametrize("body", BODIES)
def test_peek_json_answers_what_get_json_silent_does(content_type, body):
    app = _app()
    headers = {"Content-Type": content_type} if content_type else {}
    with app.test_request_context("/", method="POST", data=body, headers=headers):
        expected = request.get_json(silent=True)
    with app.test_request_context("/", method="POST", data=body, headers=headers):
        assert requests.peek_json() == expected


def test_json_body_after_peek_json_parses_the_body_once():
    app = _app()
    with app.test_request_context("/", method="POST", data=BODIES[0], headers={"Content-Type": "application/json"}):
        with mock.patch.object(codec, "loads", wraps=codec.loads) as loads:
            peeked = requests.peek_json()
            assert requests.json_body() == peeked == {"expected_version": 3, "move": {"type": "pass"}}
        assert loads.call_count == 1
