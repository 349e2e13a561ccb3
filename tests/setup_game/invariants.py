"""SetUp's conservation laws, true after every event of any game (the property tests,
tests/contract/test_properties.py, check them along drawn playouts)."""
from __future__ import annotations

from domain.setup_game.data import N_TILES
from domain.setup_game.state import MARKET_SIZE, RACK_SIZE, State


def check(state: State, before: State | None = None, settled: bool = True) -> None:
    """After any event (`before`: the state before it, None at the first; `settled`: the last
    event of a decision, with no event of the same decision to come)."""
    places = ([t for s in state.stacks for t in s] + [t for r in state.racks for t in r]
              + list(state.market) + list(state.bag))
    assert sorted(places) == list(range(N_TILES)), "every tile is somewhere, once"
    assert all(set(known) <= state.bag for known in state.bag_known), "a seat knows only tiles still in the bag"
    if before is not None:
        assert all(a <= b for a, b in zip(before.scores, state.scores)), "scores never go down"
    if state.over:
        assert max(state.scores) >= state.goal
        if not state.teams:
            assert all(state.scores[w] >= state.goal for w in state.winners)
    elif settled:  # 50 tiles always leave enough in the bag and under the tops
        assert len(state.market) == MARKET_SIZE and all(len(r) == RACK_SIZE for r in state.racks)
