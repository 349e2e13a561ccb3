"""Game.with_ and Platform.with_ (domain/copies.py Replaceable, issue 57): dataclasses.replace
without __init__, made on every move's fold; the same value as replace for every field, the
original untouched, no unknown field."""
from __future__ import annotations

from dataclasses import fields, replace

import pytest

from api.games.repository import Game
from api.platform.events import START, Platform

pytestmark = pytest.mark.unit


def _changes(kind) -> list[dict]:
    one = {f.name: ("changed", f.name) for f in fields(kind)}
    return [{}, one, *({name: value} for name, value in one.items())]


def _platform() -> Platform:
    return replace(START, seats=({"name": "a"},), started=True, decisions=(2,), last_decision=(0, 5))


def _game() -> Game:
    return Game(id="g", definition=None, meta={"m": 1}, seed="s", version=7, state=("st",), snapshot_version=5,
                last_at=9, platform=_platform())


@pytest.mark.parametrize("make", [_platform, _game])
def test_with_is_replace(make):
    original = make()
    for changes in _changes(type(original)):
        made = original.with_(**changes)
        assert made == replace(original, **changes)
        assert type(made) is type(original)
        assert {f.name: getattr(made, f.name) for f in fields(made)} == \
            {f.name: getattr(replace(original, **changes), f.name) for f in fields(made)}
        assert original == make()  # untouched
        assert made is not original


@pytest.mark.parametrize("make", [_platform, _game])
def test_with_refuses_an_unknown_field(make):
    with pytest.raises(TypeError):
        make().with_(nope=1)


def test_a_platform_made_by_with_stays_frozen_and_hashable():
    made = _platform().with_(started=False)
    with pytest.raises(AttributeError):
        made.started = True  # type: ignore[misc]
    assert made == replace(_platform(), started=False)
