"""Only real games are rated (issue 50): a game that ends before every seat has made its first
decision of its own is unrated (`too_short`), whoever resigns, times out or aborts, and says why;
a rebuild judges every game as it was judged, the games logged before the rule included. All in
memory (the tests' object graph over fakeredis: tests/fakes.py)."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from api.games.harvest import summary
from api.platform import events as pe
from api.ratings import standings as st
from tests import fakes
from tests.platform import high_card
from workers.jobs import play_turn


@pytest.fixture
def graph():
    return fakes.services()


def _people(graph, n, name):
    return [graph.players.create(f"{name}{i}")[0].id for i in range(n)]


def _game(graph, *seats):
    """A rated Splendor game between `seats` (a player's id, or `bot:<level>`), dealt at once."""
    given = [{"bot": s[4:]} if s.startswith("bot:") else {"name": s, "player": s} for s in seats]
    return graph.service.create("splendor", given, {})["id"]


def _move(graph, gid, seat):
    """The seat's first legal move, made (by its person)."""
    game = graph.service.load(gid)
    assert seat in game.actors(), (seat, game.actors())
    graph.service.move(gid, seat, graph.service.legal_moves(game, seat)[0], game.version)


def _bots_turns(graph, gid):
    while (game := graph.service.load(gid)).actors() and (bots := graph.service.automatic_actors(game)):
        play_turn(graph.service, gid, game.version, bots[0])


def _rating(graph, who):
    found = graph.ledger.rating("splendor", who)
    return None if found is None else (found.mu, found.sigma, found.games, found.wins)


def _everything(graph):
    r = graph.ledger.redis
    return {k: r.dump(k) for k in r.scan_iter(match=f"{graph.ledger.base}:*")}


# ---- the farming scenario ---------------------------------------------------------------------

def test_fifteen_throwaway_accounts_resigning_at_move_0_leave_the_farmers_rating_unchanged(graph):
    farmer, = _people(graph, 1, "farmer")
    throwaways = _people(graph, 15, "alt")
    farmed = []
    for i, alt in enumerate(throwaways):
        gid = _game(graph, farmer, alt)
        if i % 2:
            _move(graph, gid, 0)  # the farmer moved; its victim resigns before its first decision
        graph.seat_control.resign(gid, 1)
        farmed.append(gid)
    graph.ledger.catch_up(graph.store)
    assert _rating(graph, f"player:{farmer}") is None  # never rated: still the newcomer's 1500
    assert all(_rating(graph, f"player:{alt}") is None for alt in throwaways)
    for gid in farmed:
        assert graph.ledger.game_changes(gid) is None
        assert st.game_unrated_reason(graph.service.load(gid)) == st.TOO_SHORT
    # A real game (one decision each) is rated as before, and a rebuild gives the same bytes.
    real = _game(graph, farmer, throwaways[0])
    _move(graph, real, 0)
    _move(graph, real, 1)
    graph.seat_control.resign(real, 1)
    graph.ledger.catch_up(graph.store)
    assert _rating(graph, f"player:{farmer}")[2:] == (1, 1)
    assert st.game_unrated_reason(graph.service.load(real)) is None
    before = _everything(graph)
    graph.ledger.forget_everything()
    graph.ledger.catch_up(graph.store, tell=False)
    assert _everything(graph) == before


def test_a_bot_levels_rating_is_not_moved_by_an_opponent_resigning_early(graph):
    ann, = _people(graph, 1, "ann")
    first = _game(graph, "bot:random", ann)  # the bot moves first, then Ann resigns
    _bots_turns(graph, first)
    graph.seat_control.resign(first, 1)
    second = _game(graph, ann, "bot:random")  # Ann resigns before anyone moved
    graph.seat_control.resign(second, 0)
    graph.ledger.catch_up(graph.store)
    assert _rating(graph, "bot:random") is None
    played = _game(graph, ann, "bot:random")  # each decided once: rated, the bot as a player
    _move(graph, played, 0)
    _bots_turns(graph, played)
    graph.seat_control.resign(played, 0)
    graph.ledger.catch_up(graph.store)
    assert _rating(graph, "bot:random")[2:] == (1, 1)


# ---- what a decision of the seat's own is ------------------------------------------------------

def _stored(type_, data, actor=None, at=None):
    return SimpleNamespace(type=type_, data={"type": type_, **data}, actor=actor, at=at)


def test_a_seat_decides_when_it_moves_itself_once_per_move_never_by_a_bot_playing_for_it():
    created = _stored(pe.CREATED, {"seats": [{"name": "A"}, {"name": "B"}, {"bot": "random"}]})
    setup = [_stored(e["type"], e) for e in high_card.setup({"rounds": 3}, 3, random.Random(1))]
    history = [created, *setup,
               _stored("bid", {"v": 2, "seat": 0, "chips": 1}, 0, 10), _stored("bid", {"v": 2, "seat": 0, "chips": 1}, 0, 10),  # one move
               _stored("bid", {"v": 2, "seat": 2, "chips": 0}, 2, 11),  # the bot seat's own level
               _stored(pe.TAKEN_BY_BOT, {"seat": 1, "bot": "random"}, "system", 12),
               _stored("bid", {"v": 2, "seat": 1, "chips": 2}, 1, 13),  # a bot playing for B: not B's decision
               _stored("scored", {"chips": [10, 10, 10], "final": False}, "system", 14)]
    state, platform = pe.fold_stored(high_card.GAME, history, None, pe.START)
    assert platform.decisions == (1, 0, 1)
    returned = [_stored(pe.RETURNED, {"seat": 1}, 1, 15), _stored("bid", {"v": 2, "seat": 1, "chips": 2}, 1, 16),
                _stored("bid", {"v": 2, "seat": 0, "chips": 0}, 0, 17)]
    _, platform = pe.fold_stored(high_card.GAME, returned, state, platform)  # folded in two parts: the same count
    assert platform.decisions == (2, 1, 1)


def test_the_threshold_is_per_game_type_and_kept_in_each_ended_games_entry(graph):
    ann, bob = _people(graph, 2, "p")
    gid = _game(graph, ann, bob)
    _move(graph, gid, 0)
    game = graph.service.load(gid)
    entry = summary(game)
    assert entry["decisions"] == [1, 0] and entry["rated_after"] == {"decisions_per_seat": 1}
    cold = fakes.service(graph.store).load(gid)  # replayed from the history: the same count
    assert cold.platform.decisions == game.platform.decisions


# ---- the rule, entry by entry ------------------------------------------------------------------

def _entry(decisions=None, rated_after=None, status="finished", result=None, seats=None, **extra):
    entry = {"id": "g", "type": "splendor", "status": status, "last_move_at": 1,
             "seats": seats or [{"seat": 0, "player": "a", "bot": None}, {"seat": 1, "player": "b", "bot": None}],
             "result": result or {"outcome": "resigned", "winners": [0], "resigned": [1]}, **extra}
    if decisions is not None:
        entry["decisions"] = decisions
    if rated_after is not None:
        entry["rated_after"] = {"decisions_per_seat": rated_after}
    return entry


@pytest.mark.parametrize(("entry", "reason"), [
    (_entry([1, 1], 1), None),
    (_entry([3, 0], 1), st.TOO_SHORT),
    (_entry([2, 1], 2), st.TOO_SHORT),  # a game type asking more
    (_entry([1], 1), st.TOO_SHORT),  # a seat the count does not name made none
    (_entry([0, 0]), None),  # logged before the rule (no threshold kept): judged as it was then
    (_entry(), None),
    (_entry([0, 0], 1, rated=False), st.CASUAL),
    (_entry([0, 0], 1, status="aborted", result={"outcome": "aborted", "winners": []}), st.ABORTED),
    (_entry([1, 1], 1, status="abandoned", result={"outcome": "abandoned", "winners": []}), st.ABANDONED),
    (_entry([1, 1], 1, seats=[{"seat": 0, "player": "a", "bot": None}, {"seat": 1, "name": "Bo", "bot": None}]),
     st.ANONYMOUS_SEAT),
    (_entry([1], 1, seats=[{"seat": 0, "player": "a", "bot": None}]), st.ONE_SEAT),
])
def test_why_an_entry_is_not_rated(entry, reason):
    assert st.unrated_reason(entry) == reason
    assert (st.standings(entry) is None) == (reason is not None)
    assert reason is None or reason in st.UNRATED_REASONS
