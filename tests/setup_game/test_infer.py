"""Inference of the last setter's kept tiles (issue 56, domain/setup_game/infer.py): a rack
that would have made a much better set than the one made weighs less, and the posterior reads
only what the deciding seat sees."""
import random

from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.bots import _valued
from domain.setup_game.determinize import determinize
from domain.setup_game.infer import Posterior, evidence, likelihood, unseen
from domain.setup_game.moves import placements


def _with_evidence(seed: int):
    """(state, seat) along a seeded greedy 2-seat game wherever the other seat's last set is
    evidence for the seat to move."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup({"teams": False}, 2, rng))
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        if evidence(state, seat) is not None:
            yield state, seat
        move = GAME.bots["greedy"](state, seat, rng)
        state = fold(GAME, GAME.decide(state, seat, move, rng), state)


def _best(ev, kept) -> int:
    """The best greedy value (points + bonus) the setter's rack would have made with `kept`."""
    racks = list(ev.before.racks)
    racks[ev.setter] = tuple(kept) + ev.from_rack
    before = ev.before.__class__(**{**ev.before.__dict__, "racks": tuple(racks)})
    return max(p + b for _, (p, b) in _valued(before, ev.setter, placements(before, ev.setter)))


def test_kept_tiles_that_would_have_made_a_better_set_weigh_less():
    compared = 0
    for seed in range(3):
        for state, seat in _with_evidence(seed):
            ev = evidence(state, seat)
            rng = random.Random(seed)
            skipped, consistent = None, None
            for _ in range(60):
                kept = tuple(sorted(rng.sample(unseen(state, seat), ev.kept)))
                best = _best(ev, kept)
                if best >= ev.value + 2 and skipped is None:
                    skipped = kept
                elif best <= ev.value and consistent is None:
                    consistent = kept
                if skipped and consistent:
                    break
            if skipped and consistent:
                assert likelihood(ev, skipped) < likelihood(ev, consistent) / 2, (seed, state.turns)
                compared += 1
    assert compared >= 5


def test_the_posterior_reads_only_what_the_seat_sees():
    checked = 0
    for seed in range(3):
        for k, (state, seat) in enumerate(_with_evidence(seed)):
            other = determinize(state, seat, random.Random(99 + k))  # the hidden part dealt anew
            assert other.racks != state.racks or len(state.bag) == 0
            real, permuted = Posterior(state, seat, random.Random(k)), Posterior(other, seat, random.Random(k))
            assert real.hypotheses and (real.hypotheses, real.weights) == (permuted.hypotheses, permuted.weights)
            world = real(random.Random(7))
            assert world == permuted(random.Random(7))
            assert GAME.view(world, seat) == GAME.view(state, seat)
            assert any(set(kept) <= set(world.racks[1 - seat]) for kept in real.hypotheses)  # one drawn
            checked += 1
    assert checked >= 10


def test_without_evidence_a_world_is_the_uniform_one_draw_for_draw():
    state = fold(GAME, GAME.setup({"teams": False}, 2, random.Random(5)))  # no set made yet
    post = Posterior(state, 0, random.Random(1))
    assert not post.hypotheses
    assert post(random.Random(3)) == determinize(state, 0, random.Random(3))


def test_a_setter_that_moved_since_is_no_evidence():
    for state, seat in _with_evidence(1):
        setter = state.last.seat
        swap = GAME.legal_moves(state, seat)[-1]
        assert swap["type"] == "swap"
        after = fold(GAME, GAME.decide(state, seat, swap, random.Random(0)), state)
        assert evidence(after, setter) is None  # its own set, no evidence for it
        swap = [m for m in GAME.legal_moves(after, setter) if m["type"] == "swap"][0]
        again = fold(GAME, GAME.decide(after, setter, swap, random.Random(0)), after)
        assert again.last == state.last and evidence(again, seat) is None
        return
