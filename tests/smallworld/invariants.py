"""Small World of Warcraft's box: what every piece count and place keeps after every event of
any game (tests/smallworld/test_invariants.py's bot games and the property tests,
tests/contract/test_properties.py, check it)."""
from __future__ import annotations

from domain.smallworld import abilities, catalog, query
from domain.smallworld.state import State


def check(state: State, before: State | None = None, settled: bool = True) -> None:
    for race in abilities.RACES:
        assert query.tokens_in_play(state, race) <= catalog.RACES[race]["box"]
    assert query.walls_left(state) >= 0
    for piece, box in (("fort", "forts"), ("tower", "watch_towers")):
        assert query.supply_left(state, piece, box) >= 0
    champions = query.count_pieces(state, "champion") + sum(p.champion for p in state.players)
    assert champions <= 1 and query.count_pieces(state, "objective") <= 2
    assert query.bombs_in_stack(state) >= 0 and sum(p.harmony for p in state.players) <= 4
    for r in state.regions:
        assert (r.race is None) == (r.tokens == 0)
        assert 0 <= r.beasts <= r.tokens
        if r.declined:
            assert r.tokens >= 1 and not (r.tower or r.champion or r.beasts)
        if r.race == "tauren" and not r.declined:
            assert r.tokens >= 2  # never alone
    places = [r for r, _, _ in state.display] + list(state.race_pile) + list(state.returned)
    badges = [p for _, p, _ in state.display] + list(state.power_pile) + list(state.power_discards)
    places += [x for row in state.rows for x in row[1:] if x]
    badges += [row[0] for row in state.rows if row[0]]
    for p in state.players:
        assert p.coins >= 0 and p.hand >= 0 and 0 <= p.beasts <= p.hand
        places += [x for x in (p.race, p.declined) if x]
        badges += [x for x in (p.power, p.declined_power) if x]
    assert sorted(places) == sorted(abilities.RACES)  # every banner is in exactly one place
    assert sorted(badges) == sorted(abilities.POWERS)  # and every badge
    assert len(state.display) <= catalog.DISPLAY_SIZE
