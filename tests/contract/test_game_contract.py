"""The game-contract suite, run over every registered game and every seat configuration it
declares (OpenSpiel's random_sim_test, as an event-sourced decider), with its bots.

For each configuration, a seeded playout by its bot levels (dealt round the table) checks that:
- every bot plays legal moves, from its seat's information, to the end within `max_events`,
  with a result, each game's invariants (tests/<game>/invariants.py) holding after every event;
- views and redacted events are JSON and never show a viewer another seat's secret;
- every event of a type the game declares `as_stored` for a viewer is redacted to exactly its
  stored bytes for that viewer (the whole-history export passes those bytes through);
- a game's `legal_page` (a page of its legal moves without the rest) gives the list's first
  moves and its length, for every actor at every step.

What random playouts checked here (listed moves and only they accepted, `decide` changing
nothing, replay and JSON, no leak) the Hypothesis properties check on drawn playouts, over
drawn seats and options: tests/contract/test_properties.py. The seeded random game each
configuration still plays (for the as-stored bytes) is played with the game's invariants and
legal moves checked, not its views, pages and JSON at every step: the bots' games above and the
properties check those (their cost was a third of this file's).
"""
from __future__ import annotations

import functools
import json
import random

import orjson
import pytest

from domain import registry
from domain.contract import EVERY_TYPE, EVERYONE, SPECTATOR, is_seat
from domain.play import bot_move, upcast
from events import codec
from tests.contract.invariants import checker

CASES = [
    pytest.param(game, n, options, id=f"{game.name}-{n}{'-' + '-'.join(f'{k}={v}' for k, v in options.items()) if options else ''}")
    for game in registry.all_games()
    for (n, options) in game.test_configs
]


def _options(game, options):
    merged = {**game.default_options(), **options}
    return merged


# orjson (as the server's events/codec.py) made to refuse what json.dumps refuses (a dataclass,
# a datetime, a subclass of str, int, dict or list), and json.dumps for what orjson refuses
# beside (an integer beyond 64 bits): a value is JSON here when it was before (an Enum's or a
# UUID's value aside, which the server's codec writes too), about ten times faster. The views
# and events serialized after every event were a quarter of the contract suite's time.
_STRICT = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS)


def _json(value):
    try:
        return orjson.dumps(value, option=_STRICT).decode()
    except TypeError:
        return json.dumps(value, sort_keys=True)


@functools.cache
def _needles(token) -> set[str]:
    """The token as a JSON text, as either encoder writes it (json escapes non-ASCII, orjson
    writes UTF-8)."""
    found = {json.dumps(token)}
    try:
        found.add(orjson.dumps(token, option=orjson.OPT_NON_STR_KEYS).decode())
    except TypeError:
        pass
    return found


def _check_no_leak(game, state, n, events):
    secrets = game.secrets(state)
    viewers = list(range(n)) + [SPECTATOR]
    for viewer in viewers:
        hidden = [token for token, allowed in secrets.items() if viewer not in allowed]
        if not hidden:
            continue
        seen = _json(game.view(state, viewer))
        redacted = [_json(game.redact(e, viewer)) for e in events]
        # the view and the events in one text, one search per needle (a JSON text holds no raw
        # newline, so no needle spans two of them); which one leaked is looked up on a hit
        shown = "\n".join([seen, *redacted])
        for token in hidden:
            for needle in _needles(token):
                if needle in shown:
                    assert needle not in seen, f"view for {viewer!r} leaks {token}"
                    text = next(t for t in redacted if needle in t)
                    raise AssertionError(f"event for {viewer!r} leaks {token}: {text[:300]}")


def _choose(game, state, actor, rng, bot_seats, moves=None):
    if is_seat(actor) and actor in bot_seats:
        return bot_move(game, state, actor, bot_seats[actor], rng)  # from its seat's information
    return rng.choice(game.legal_moves(state, actor) if moves is None else moves)


def _evolve(game, state, events, check):
    for i, event in enumerate(events, start=1):
        before, state = state, game.evolve(state, event)
        check(state, before, i == len(events))
    return state


LONG = 500  # the largest page the API answers with (besides the whole list)


def _page_broken(game, state, actor, moves) -> list[int]:
    """The page sizes at which the game's legal_page differs from its whole list's slice and
    length ([] for a game without legal_page). A list longer than the API's pages (Witches'
    passes: 4,845 moves with 3 seats) is checked at the pages' sizes and past its end; the
    pages ending one short of and at its last move make the whole list twice more at every
    step of a passing phase, and are checked at every position of random games of every seat
    count by the game's own test (tests/witches/test_legal_page.py; Set Up's long lists:
    tests/setup_game/test_moves_bots.py)."""
    if game.legal_page is None:
        return []
    ends = {len(moves) + 1} if len(moves) > LONG + 1 else {len(moves) - 1, len(moves), len(moves) + 1}
    limits = ({0, 1, 2, 64, LONG} | ends) - {-1}
    return sorted(k for k in limits if game.legal_page(state, actor, k) != (moves[:k], len(moves)))


def playout(game, n, options, seed, bot_seats=None, checked=True):
    """Plays one seeded game to its end (random moves for seats without a bot), checking the
    contract at every step (unless not `checked`: its events only, the game's invariants, legal
    moves and an end within max_events still checked)."""
    rng = random.Random(seed)
    bot_seats = bot_seats or {}
    check = checker(game.name)
    opts = _options(game, options)
    game.check_options(opts, n)
    events = game.setup(opts, n, random.Random(seed))
    assert events and all(isinstance(e, dict) and "type" in e for e in events)
    state = _evolve(game, None, events, check)
    if checked:
        _check_no_leak(game, state, n, events)
    while True:
        actors = game.actors(state)
        if not actors:
            break
        assert len(events) < game.max_events, f"{game.name} did not end within {game.max_events} events"
        actor = rng.choice(actors)
        moves = game.legal_moves(state, actor)
        assert moves, f"actor {actor!r} has no legal move"
        if checked:
            for seat in range(n):
                if seat not in actors:
                    assert game.legal_moves(state, seat) == [], f"seat {seat} is not an actor but has moves"
                    assert _page_broken(game, state, seat, []) == []
            assert _page_broken(game, state, actor, moves) == []
            _json(moves)
        move = _choose(game, state, actor, rng, bot_seats, moves)
        assert move in moves, f"bot move {move} is not among the legal moves"
        new = game.decide(state, actor, move, rng)
        assert new, "an accepted move must cause at least one event"
        if checked:
            _json(new)
        state = _evolve(game, state, new, check)
        events.extend(new)
        if checked:
            _check_no_leak(game, state, n, new)
    result = game.result(state)
    assert result is not None, "a game with no actors left must have a result"
    _json(result)
    return events, state


@pytest.mark.parametrize("game,n,options", CASES)
def test_setup_is_deterministic_for_a_seed(game, n, options):
    opts = _options(game, options)
    assert game.setup(opts, n, random.Random(42)) == game.setup(opts, n, random.Random(42))


def _table(game, n, options) -> dict:
    """The bot levels dealt round the table (strongest first), the deal turned by one for each
    of the game's configurations: one mixed game per configuration instead of one per level,
    each level still seated in every game, at several seat counts and positions (the strongest
    levels' searches are most of the contract suite's time; bench/ measures how well they play)."""
    levels = list(reversed(game.bots))
    turn = next(k for k, (m, o) in enumerate(game.test_configs) if (m, o) == (n, options))
    return {seat: levels[(seat + turn) % len(levels)] for seat in range(n)}


@pytest.mark.parametrize("game,n,options", CASES)
def test_every_bot_plays_legal_moves_to_the_end(game, n, options):
    playout(game, n, options, seed=100, bot_seats=_table(game, n, options))


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.name)
def test_every_bot_level_sits_at_a_table_of_every_seat_position(game):
    """The mixed tables above leave out no level, and seat each at every seat of some game."""
    seated = {(level, seat) for n, options in game.test_configs
              for seat, level in _table(game, n, options).items()}
    assert {level for level, _ in seated} == set(game.bots)
    assert {(level, seat) for level in game.bots for seat in range(game.min_seats)} <= seated


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.name)
def test_game_declares_what_the_api_needs(game):
    assert game.min_seats <= game.max_seats
    assert {"random"} <= set(game.bots), "every game has at least a random bot"
    assert len(game.bots) >= 2, "and a stronger one"
    assert game.test_configs, "the contract suite needs seat configurations to play"
    for n, _ in game.test_configs:
        assert game.min_seats <= n <= game.max_seats
    for option in game.options:
        assert option.type in ("integer", "boolean", "string")


def _as_stored_broken(game, n, events):
    """(viewer, event) pairs where the game declares the event's type as stored for the viewer
    but redact changes it (a byte of difference, key order included, is a broken promise)."""
    broken = []
    for viewer in list(range(n)) + [SPECTATOR, EVERYONE]:
        declared = game.as_stored(viewer)
        for event in events:
            if event["type"] in declared:
                stored = codec.dumps_bytes(event)
                if codec.dumps_bytes(game.redact(upcast(game, codec.loads(stored)), viewer)) != stored:
                    broken.append((viewer, event["type"]))
    return broken


@pytest.mark.parametrize("game,n,options", CASES)
def test_types_declared_as_stored_are_redacted_to_their_stored_bytes(game, n, options):
    # a random game, its contract unchecked: the bots' games above check it at every step, the
    # properties (test_properties.py) on drawn random playouts
    events, _ = playout(game, n, options, seed=7, checked=False)
    assert any(e["type"] in game.as_stored(0) for e in events) or game.as_stored(0) == frozenset()
    assert _as_stored_broken(game, n, events) == []


def test_a_false_as_stored_promise_is_caught():
    from dataclasses import replace

    splendor = registry.get("splendor")
    events, _ = playout(splendor, 2, {}, seed=7)
    lying = replace(splendor, as_stored=lambda viewer: EVERY_TYPE)  # the deal's decks hidden from seats
    assert ("game_started" in {t for _, t in _as_stored_broken(lying, 2, events)})


def test_a_wrong_legal_page_is_caught():
    from dataclasses import replace

    setup_game = registry.get("setup")
    assert setup_game.legal_page is not None
    short = replace(setup_game, legal_page=lambda state, actor, limit: (
        setup_game.legal_moves(state, actor)[:limit], max(0, len(setup_game.legal_moves(state, actor)) - 1)))
    with pytest.raises(AssertionError):
        playout(short, 2, {}, seed=7)
