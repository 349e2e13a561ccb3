"""The past answers a process keeps (api/games/repository.py, issue 57): their key is made in the
repository from the game, the viewer (a required argument) and what else the bytes are a function
of, so no read can keep one viewer's bytes and answer them to another. Unit: in memory."""
from __future__ import annotations

import pytest

from api.games.repository import GameRepository
from domain.contract import EVERYONE
from events.memory_store import InMemoryEventStore


def test_two_viewers_never_share_a_kept_answer():
    games = GameRepository(InMemoryEventStore())
    viewers = (0, 1, None, EVERYONE)  # two seats, a spectator, everyone (a game over)
    for viewer in viewers:
        games.keep_past_answer(f"as {viewer}".encode(), "g1", viewer, "state", 5, 0)
    for viewer in viewers:
        assert games.past_answer("g1", viewer, "state", 5, 0) == f"as {viewer}".encode()
    assert games.past_answer("g1", 2, "state", 5, 0) is None  # a viewer no answer was kept for
    assert games.past_answer("g2", 0, "state", 5, 0) is None  # another game


def test_a_kept_answer_cannot_be_read_or_kept_without_its_viewer():
    games = GameRepository(InMemoryEventStore())
    with pytest.raises(TypeError):
        games.past_answer("g1")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        games.keep_past_answer(b"x", "g1")  # type: ignore[call-arg]


def test_forgetting_a_game_drops_every_viewers_answers():
    games = GameRepository(InMemoryEventStore())
    games.keep_past_answer(b"a", "g1", 0, "events", 0, 20, None, None)
    games.keep_past_answer(b"b", "g1", None, "events", 0, 20, None, None)
    games.keep_past_answer(b"c", "g2", 0, "events", 0, 20, None, None)
    games.forget("g1")
    assert games.past_answer("g1", 0, "events", 0, 20, None, None) is None
    assert games.past_answer("g1", None, "events", 0, 20, None, None) is None
    assert games.past_answer("g2", 0, "events", 0, 20, None, None) == b"c"
