"""The Python client generated from openapi.yaml, unmodified, plays a whole Splendor game against
a bot through `python app.py`: every request and answer goes through its typed models."""
from __future__ import annotations

import random
import re
import time
import uuid

import pytest


def test_the_generator_takes_every_schema_and_operation(python_client):
    _, output = python_client
    assert "Warning" not in output and "Unable to process" not in output, output
    from game_server_client import models

    names = set(dir(models))
    for game in ("Splendor", "Witches", "SetUp", "FairyTile", "SmallWorld"):
        for part in ("Game", "View", "Result", "Options", "CreateGame", "BotSeat"):
            assert f"{game}{part}" in names
    unnamed = [n for n in names if re.search(r"Type[0-9]+", n)]
    assert not unnamed, f"classes named by position: {unnamed}"
    assert {"SplendorTakeGems", "SplendorBuy", "SplendorGemsTakenEvent", "WitchesPlay",
            "FairyTileMovePrincess", "SetUpPlay"} <= names


def test_a_splendor_game_against_a_bot_to_the_end(python_client, http_server):
    package, _ = python_client
    from game_server_client import AuthenticatedClient, Client
    from game_server_client.api.games import create_game, read_game
    from game_server_client.api.history import read_history
    from game_server_client.api.moves import legal_moves, send_move
    from game_server_client import models as m

    anonymous = Client(base_url=http_server, raise_on_unexpected_status=True)
    created = create_game.sync(client=anonymous, body=m.SplendorCreateGame(
        type_="splendor", seats=[m.PersonSeat(name="Ann"), m.SplendorBotSeat(bot=m.SplendorBotSeatBot.GREEDY)]))
    assert isinstance(created, m.CreatedGame), created
    me = AuthenticatedClient(base_url=http_server, token=created.seats[0].token, raise_on_unexpected_status=True)
    rng = random.Random(17)
    played, kinds, deadline = 0, set(), time.monotonic() + 240
    while time.monotonic() < deadline:
        game = read_game.sync(created.id, client=me)
        assert isinstance(game, m.SplendorGame), game
        assert isinstance(game.view, m.SplendorView)
        if game.status != "active":
            break
        if 0 not in game.to_act:
            time.sleep(0.05)  # the bot's turn, played by a worker
            continue
        listed = legal_moves.sync(created.id, client=me)
        assert isinstance(listed, m.LegalMoves) and listed.moves
        # Typed choices: buy when possible (the game ends sooner), else take gems, else anything.
        buys = [mv for mv in listed.moves if isinstance(mv, m.SplendorBuy)]
        takes = [mv for mv in listed.moves if isinstance(mv, m.SplendorTakeGems)]
        move = rng.choice(buys or takes or listed.moves)
        kinds.add(type(move).__name__)
        answer = send_move.sync(created.id, client=me, idempotency_key=uuid.uuid4().hex,
                                body=m.MoveRequest(expected_version=listed.version, move=move))
        assert isinstance(answer, m.MoveResult), answer
        assert answer.version > listed.version and answer.events
        played += 1
    else:
        pytest.fail(f"the game did not end in time ({played} moves played)")
    assert game.status == "finished" and game.view.phase == "over"
    assert isinstance(game.result, m.SplendorResult)
    assert game.result.winners and len(game.result.scores) == 2
    assert {"SplendorBuy", "SplendorTakeGems"} <= kinds, kinds
    assert played >= 10
    # The whole history, typed: Splendor's own events and the platform's first one.
    history = read_history.sync(created.id, client=me, limit=1000)
    assert isinstance(history, m.History) and history.version == game.version
    assert isinstance(history.events[0].data, m.GameCreated)
    assert any(isinstance(e.data, m.SplendorCardBoughtEvent) for e in history.events)
    assert isinstance(history.events[-1].data, m.SplendorGameScoredEvent)


def test_a_seat_is_claimed_by_its_number(python_client, http_server):
    """The seat in a path is an integer: the typed client takes `1` (a string of digits it refused)."""
    from game_server_client import Client
    from game_server_client import models as m
    from game_server_client.api.games import create_game, read_game
    from game_server_client.api.lobby import claim_seat

    anonymous = Client(base_url=http_server, raise_on_unexpected_status=True)
    created = create_game.sync(client=anonymous, body=m.SplendorCreateGame(
        type_="splendor", seats=[m.PersonSeat(name="Ann"), m.FreeSeatOpen(open_=True)]))
    assert isinstance(created, m.CreatedGame), created
    claimed = claim_seat.sync(created.id, 1, client=anonymous, body=m.ClaimSeatBody(name="Bob"))
    assert isinstance(claimed, m.ClaimedSeat) and claimed.seat == 1, claimed
    assert read_game.sync(created.id, client=anonymous).status == "active"
