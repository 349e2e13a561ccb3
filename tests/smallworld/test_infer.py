"""The other seats' coins counted from one seat's view (domain/smallworld/infer.py, issue 56):
from the events as that seat is sent them only, and exact where every scoring follows from the
board (every game today); a spread only where a scoring could not be rebuilt."""
import random

from domain.contract import SYSTEM
from domain.smallworld import GAME
from domain.smallworld.determinize import determinize as guessed
from domain.smallworld.infer import Ledger, determinize
from domain.smallworld.state import SCORE

from .helpers import make_state, mine


def _game(seed, n=2, options=None):
    """A seeded bot game's events (greedy against random), each with the state after it."""
    rng = random.Random(seed)
    events = GAME.setup(options or {}, n, random.Random(seed))
    state = None
    for e in events:
        state = GAME.evolve(state, e)
        yield e, state
    while actors := GAME.actors(state):
        actor = actors[0]
        move = (GAME.legal_moves(state, actor)[0] if actor == SYSTEM
                else GAME.bots["greedy" if actor % 2 else "random"](state, actor, rng))
        for e in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, e)
            yield e, state


def _secret_changed(event, seat, by):
    """`event` with `seat`'s scoring result changed by `by` coins (what redact hides)."""
    if event["type"] != "turn_scored" or event["seat"] != seat:
        return event
    return {**event, "gained": event["gained"] + by, "total": event["total"] + by,
            "breakdown": {**event["breakdown"], "regions": event["breakdown"]["regions"] + by}}


def test_the_count_reads_only_the_seats_view():
    """Two games the seat cannot tell apart (seat 1's scorings gave other totals) give the
    same worlds for the same rng, though the true states differ in seat 1's coins."""
    ledgers, states = [Ledger(0), Ledger(0)], [None, None]
    for e, _ in _game(3):
        for k, event in enumerate((e, _secret_changed(e, 1, 5))):
            ledgers[k].see(event)
            states[k] = GAME.evolve(states[k], event)
        if states[0].turn.step != "over" and states[0].round >= 3:
            break
    assert states[0].players[1].coins != states[1].players[1].coins
    worlds = [determinize(states[k], 0, random.Random(7), ledgers[k]) for k in (0, 1)]
    assert worlds[0] == worlds[1]


def test_the_count_is_exact_when_every_scoring_follows_from_the_board():
    """In seeded bot games (2 seats; 4 in teams) every seat's ledger holds every other seat's
    true coins after every event, so its worlds are the true state; today's guess is not."""
    for seed, n, options in ((11, 2, {}), (12, 4, {"team": True})):
        ledgers = [Ledger(s) for s in range(n)]
        guesses_off = 0
        for e, state in _game(seed, n, options):
            for ledger in ledgers:
                ledger.see(e)
                assert ledger.state == state, (e["type"], ledger.seat)
            if state.turn.step not in ("over", SCORE) and e["type"] == "turn_scored":
                rng = random.Random(seed)
                assert all(determinize(state, s, rng, ledgers[s]) == state for s in range(n))
                guesses_off += guessed(state, 0, rng) != state
        assert all(ledger.rebuilt and not ledger.unsure for ledger in ledgers)
        assert guesses_off


def test_a_scoring_the_board_cannot_explain_leaves_its_seat_unsure():
    """Payments the board does not give (a count gone wrong): the public payments are booked,
    and the scorer's coins are drawn with a spread, the other seats' exactly."""
    state = make_state(n=3, step=SCORE, seat=1, regions={"T-1": mine(1, "naga", 2)},
                       players={1: {"race": "naga", "power": "sailing"}})
    ledger = Ledger(0)
    ledger.state = state
    ledger.see({"type": "turn_scored", "seat": 1, "gained": 3, "total": 8, "breakdown": {"regions": 1},
                "payments": [{"seat": 2, "coins": 2}]})
    assert ledger.coins(1) == 5 + 1 + 2 and ledger.coins(2) == 3
    assert set(ledger.unsure) == {1}
    after = ledger.state
    drawn = {determinize(after, 0, random.Random(k), ledger).players[1].coins for k in range(20)}
    assert len(drawn) > 1
    assert {determinize(after, 0, random.Random(k), ledger).players[2].coins for k in range(20)} == {3}
