"""Properties of every hosted game, drawn by Hypothesis through the contract (domain/contract.py).

A drawn playout is a seat count and options within what the game declares, a seed, then at
each step one of the actors (SYSTEM included: the server's moves are legal moves too) and an
index into its legal moves, for up to MAX_STEPS decisions; the drawn options (a low target, few
rounds) let many playouts reach the end. Along it:

- the game's own invariants (tests/<game>/invariants.py: every card, tile, token in one place)
  hold after every event, and a game with no actor left has a result (checked along every
  property's playout: Playout.add and play);
- `decide` accepts every listed move drawn, never changes the state it is given, refuses
  seats that are not actors, refuses with MoveRejected (never another error) a listed move
  with one field changed to any JSON, and accepts a move listed before only if it is listed now;
- replaying the events from the setup's rebuilds the state reached step by step; on the same
  playout, the events read back through the store's codec (events/redis_entries.py) and a
  snapshot (pickled as api/games/repository.py pickles one) read back equal and go on to the
  same state;
- no view or redacted event shows a viewer another seat's secret (GameDef.secrets).

Deterministic for the suite (derandomized, no example database). For a long
run by hand, PROPERTY_PROFILE=thorough draws a hundred times as many playouts, new ones each
run; Hypothesis prints the smallest failing playout it finds, draw by draw.
"""
from __future__ import annotations

import copy
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st

from domain import registry
from domain.contract import SPECTATOR, SYSTEM, GameDef, InvalidOptions, MoveRejected, Option
from domain.play import fold, rng_for
from events import codec
from events.redis_entries import decode_entry, encode_entries
from events.store import NewEvent
from tests.contract.invariants import INVARIANTS, checker
from tests.platform import high_card

MAX_STEPS = 300  # decisions per playout: whole games of most drawn configurations

settings.register_profile(
    "properties", max_examples=6, deadline=None, derandomize=True, database=None, print_blob=False,
    # A playout is a few hundred draws and a few hundred decisions, by design: not a slow strategy.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("properties-thorough", settings.get_profile("properties"), max_examples=600,
                          derandomize=False)
PROFILE = settings.get_profile("properties-thorough" if os.environ.get("PROPERTY_PROFILE") == "thorough"
                               else "properties")
GAMES = pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.name)


# ---- a drawn playout ------------------------------------------------------------------------

def _values(option: Option) -> st.SearchStrategy:
    if option.choices:
        return st.sampled_from(list(option.choices))
    if option.type == "boolean":
        return st.booleans()
    if option.type == "integer":
        return st.integers(option.minimum if option.minimum is not None else 0,
                           option.maximum if option.maximum is not None else 1000)
    return st.just(option.default)


def _config(data: st.DataObject, game: GameDef) -> tuple[int, dict]:
    n = data.draw(st.integers(game.min_seats, game.max_seats), label="seats")
    options = {o.name: data.draw(_values(o), label=o.name) for o in game.options}
    try:
        game.check_options(options, n)
    except InvalidOptions:
        reject()  # e.g. teams with 3 seats: a configuration the API refuses
    return n, options


def _index(data: st.DataObject, items: list, label: str) -> int:
    return data.draw(st.integers(0, len(items) - 1), label=label) if len(items) > 1 else 0


@dataclass
class Playout:
    game: GameDef
    n: int
    seed: int
    events: list = field(default_factory=list)
    actors: list = field(default_factory=list)  # who caused each event (None: the setup)
    states: list = field(default_factory=list)  # the state after each event
    settled: set = field(default_factory=set)  # the event counts at which a decision's events end

    @property
    def state(self) -> Any:
        return self.states[-1]

    def add(self, events: list, actor: object) -> None:
        """Evolves event by event, checking the game's invariants after each."""
        check = checker(self.game.name)
        for i, event in enumerate(events, start=1):
            before = self.states[-1] if self.states else None
            after = self.game.evolve(before, event)
            check(after, before, i == len(events))
            self.events.append(event)
            self.actors.append(actor)
            self.states.append(after)
        self.settled.add(len(self.events))


Step = Callable[[Playout, Any, list, dict], None]  # (playout, actor, legal moves, drawn move)


def play(data: st.DataObject, game: GameDef, step: Step | None = None) -> Playout:
    """A drawn playout, `step` called before each decision; ends with the game or MAX_STEPS."""
    n, options = _config(data, game)
    seed = data.draw(st.integers(0, 2 ** 32 - 1), label="seed")
    playout = Playout(game, n, seed)
    playout.add(game.setup(options, n, rng_for(seed, 0, "setup")), None)
    for _ in range(MAX_STEPS):
        actors = game.actors(playout.state)
        if not actors:
            result = game.result(playout.state)
            assert result is not None, "a game with no actor left has a result"
            codec.dumps(result)
            break
        actor = actors[_index(data, actors, "actor")]
        moves = game.legal_moves(playout.state, actor)
        assert moves, f"actor {actor!r} has no legal move"
        move = moves[_index(data, moves, "move")]
        if step is not None:
            step(playout, actor, moves, move)
        new = game.decide(playout.state, actor, move, rng_for(seed, len(playout.events), str(actor)))
        assert new, "an accepted move causes at least one event"
        playout.add(new, actor)
        assert len(playout.events) <= game.max_events
    return playout


# ---- the properties: each a function of a game and drawn data, run by the tests below -------

# What a client may put in a move's field instead: JSON of every kind, and the values other moves
# hold (ids, colours, squares of moves listed at other times), the likeliest to be wrongly accepted.
HOSTILE = [None, True, False, -1, 0, 1, 2, 3, 2.5, 10 ** 20, "", "x", [], [0], ["x"], {}, {"x": 1}]


def _accepted(game: GameDef, state: Any, actor: object, move: Any) -> list | None:
    """decide's events for the move, or None when refused as the contract says."""
    try:
        return game.decide(state, actor, move, rng_for(0, 0))
    except MoveRejected as rejected:
        assert rejected.code and rejected.message, "a refusal says why"
        return None


def accepts_the_listed_moves_alone(game: GameDef, data: st.DataObject) -> None:
    pool: list = []  # moves listed before, at other states or for other actors
    values = list(HOSTILE)

    def check(playout: Playout, actor: Any, moves: list, move: dict) -> None:
        state = playout.state
        codec.dumps(moves)  # sent to clients as they are
        before = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        for other in (move, moves[_index(data, moves, "also listed")]):
            out = _accepted(game, state, actor, other)
            assert out, f"listed move {other} refused or without events"
            fold(game, out, state)  # evolve takes what decide makes
        if pool:
            earlier = pool[_index(data, pool, "earlier move")]
            assert _accepted(game, state, actor, earlier) is None or earlier in moves, f"{earlier} accepted, not listed"
        changed, fields = dict(move), sorted(move)
        changed[fields[_index(data, fields, "field")]] = values[_index(data, values, "value")]
        assert _accepted(game, state, actor, changed) is None or changed in moves, f"{changed} accepted, not listed"
        actors = game.actors(state)
        for seat in range(playout.n):
            if seat not in actors:
                assert game.legal_moves(state, seat) == [], f"seat {seat} is not an actor but has moves"
                assert _accepted(game, state, seat, move) is None, f"seat {seat} acted out of turn"
        if SYSTEM not in actors:
            assert _accepted(game, state, SYSTEM, move) is None, "the server acted for a seat"
        assert state == pickle.loads(before), "decide or evolve changed the state it was given"
        for seen in moves[:3]:
            pool.append(seen)
            values.extend(v for k, v in seen.items() if k != "type" and v not in values)

    play(data, game, check)


def replays(game: GameDef, data: st.DataObject, playout: Playout | None = None) -> None:
    playout = playout or play(data, game)
    assert fold(game, copy.deepcopy(playout.events)) == playout.state, "the replay differs from the live state"
    cut = data.draw(st.integers(1, len(playout.events)), label="cut")
    assert fold(game, copy.deepcopy(playout.events[:cut])) == playout.states[cut - 1]


def _through_the_store(events: list, actors: list) -> list:
    """The events as the event store on Redis writes them and reads them back."""
    entries = encode_entries([NewEvent(e["type"], e, a) for e, a in zip(events, actors)], at=1)
    stored = [decode_entry(f"0-{i}".encode(), {b"e": entry}) for i, entry in enumerate(entries, start=1)]
    assert [codec.dumps_bytes({"t": s.type, "d": s.data, "a": s.actor, "at": s.at}) for s in stored] == entries
    assert [s.actor for s in stored] == actors
    return [s.data for s in stored]


def reads_back(game: GameDef, data: st.DataObject, playout: Playout | None = None) -> None:
    playout = playout or play(data, game)
    assert fold(game, _through_the_store(playout.events, playout.actors)) == playout.state, \
        "the events read back from the store replay to another state"
    cut = data.draw(st.integers(1, len(playout.events)), label="snapshot after event")
    then = playout.states[cut - 1]
    restored = pickle.loads(pickle.dumps(then, protocol=pickle.HIGHEST_PROTOCOL))
    assert restored == then, "a snapshot reads back to another state"
    if cut in playout.settled:  # not in the middle of a decision's events, where rules never look
        for actor in game.actors(then):
            assert game.legal_moves(restored, actor) == game.legal_moves(then, actor)
        for viewer in [*range(playout.n), SPECTATOR]:
            assert game.view(restored, viewer) == game.view(then, viewer)
    assert fold(game, playout.events[cut:], restored) == playout.state


def _no_leak(game: GameDef, state: Any, n: int, events: list) -> None:
    secrets = game.secrets(state)
    for viewer in [*range(n), SPECTATOR]:
        hidden = [codec.dumps(token) for token, allowed in secrets.items() if viewer not in allowed]
        seen = codec.dumps(game.view(state, viewer))  # every view is JSON, whatever it hides
        if not hidden:
            continue
        texts = [seen] + [codec.dumps(game.redact(e, viewer)) for e in events]
        for text in texts:
            assert not any(token in text for token in hidden), f"{viewer!r} is shown a secret: {text[:300]}"


def keeps_secrets(game: GameDef, data: st.DataObject) -> None:
    seen = 0  # events already checked

    def check(playout: Playout, actor: Any, moves: list, move: dict) -> None:
        nonlocal seen
        _no_leak(game, playout.state, playout.n, playout.events[seen:])
        seen = len(playout.events)

    playout = play(data, game, check)
    _no_leak(game, playout.state, playout.n, playout.events[seen:])


@GAMES
@PROFILE
@given(data=st.data())
def test_listed_moves_and_only_they_are_accepted_and_decide_changes_nothing(game, data):
    accepts_the_listed_moves_alone(game, data)


def replays_and_reads_back(game: GameDef, data: st.DataObject) -> None:
    """Both, on one drawn playout: each is a pure function of the events and states a playout
    made, so two playouts drawn for them checked nothing a second one does not."""
    playout = play(data, game)
    replays(game, data, playout)
    reads_back(game, data, playout)


# The invariants have no test of their own: every property's playout checks them after every event
# and the result at its end (Playout.add, play), on the three properties' playouts below.

@GAMES
@PROFILE
@given(data=st.data())
def test_replaying_the_events_or_reading_them_back_rebuilds_every_state(game, data):
    """The events replay to every state reached step by step, and the events and snapshots read
    back from the store equal and go on alike."""
    replays_and_reads_back(game, data)


@GAMES
@PROFILE
@given(data=st.data())
def test_no_view_or_event_shows_a_viewer_another_seats_secret(game, data):
    keeps_secrets(game, data)


# ---- and each can fail: run on games broken on purpose ---------------------------------------

def test_every_game_of_domain_has_its_invariants_checked():
    hosted = {g.name for g in registry.all_games() if g.evolve.__module__.startswith("domain.")}
    assert hosted == set(INVARIANTS)


LOSSES = {  # a piece lost from each game's state, which its invariants must notice
    "splendor": lambda s: s._replace(supply=(s.supply[0] - 1, *s.supply[1:])),
    "witches": lambda s: replace(s, hands=(s.hands[0][1:], *s.hands[1:])),
    "setup": lambda s: replace(s, racks=(s.racks[0][1:], *s.racks[1:])),
    "fairy-tile": lambda s: replace(s, pile=s.pile[1:]),
    "smallworld-of-warcraft": lambda s: replace(s, race_pile=s.race_pile[1:]),
}


@pytest.mark.parametrize("name", sorted(INVARIANTS))
def test_the_invariants_notice_a_lost_piece(name):
    game = registry.get(name)
    n = game.test_configs[0][0]
    state = fold(game, game.setup(game.default_options(), n, rng_for(1, 0)))
    INVARIANTS[name](state, None, True)
    with pytest.raises(AssertionError):
        INVARIANTS[name](LOSSES[name](state), state, True)


def _bid_two_unlisted(state, actor):
    return [m for m in high_card.legal_moves(state, actor) if m.get("chips") != 2]


def _decide_spending_a_chip(state, actor, move, rng):
    events = high_card.decide(state, actor, move, rng)
    object.__setattr__(state, "chips", (state.chips[0] - 1, *state.chips[1:]))  # through the frozen dataclass
    return events


def _setup_dealing_a_tuple(options, n, rng):
    started, dealt = high_card.setup(options, n, rng)
    return [started, {**dealt, "cards": tuple(dealt["cards"])}]  # JSON reads it back as a list


def _evolve_keeping_the_cards_as_sent(state, event):
    state = high_card.evolve(state, event)
    return replace(state, hands=event["cards"]) if event["type"] == "dealt" else state


def _view_every_hand(state, viewer):
    return {**high_card.view(state, viewer), "hands": list(state.hands)}


def _evolve_taking_the_chips(state, event):
    return high_card.evolve(state, {**event, "chips": event.pop("chips")} if event["type"] == "bid" else event)


BROKEN = [  # High Card (tests/platform/high_card.py) broken, the property that must notice, and how it fails
    pytest.param(accepts_the_listed_moves_alone, {"legal_moves": _bid_two_unlisted}, "accepted, not listed",
                 id="a-move-accepted-unlisted"),
    pytest.param(accepts_the_listed_moves_alone, {"decide": _decide_spending_a_chip}, "changed the state",
                 id="a-decide-changing-its-state"),
    pytest.param(replays_and_reads_back, {"evolve": _evolve_taking_the_chips}, "chips",
                 id="an-evolve-changing-its-event"),
    pytest.param(replays_and_reads_back, {"setup": _setup_dealing_a_tuple, "evolve": _evolve_keeping_the_cards_as_sent},
                 "read back from the store",
                 id="a-state-unlike-after-json"),
    pytest.param(keeps_secrets, {"view": _view_every_hand}, "is shown a secret", id="a-view-showing-every-hand"),
]


@pytest.mark.parametrize("prop,broken,message", BROKEN)
def test_each_property_fails_on_a_game_broken_for_it(prop, broken, message):
    game = replace(high_card.GAME, **broken)

    @settings(PROFILE, phases=[Phase.generate], report_multiple_bugs=False)
    @given(data=st.data())
    def run(data):
        prop(game, data)

    with pytest.raises((AssertionError, KeyError), match=message):
        run()
