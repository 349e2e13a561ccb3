"""Inference of another seat's blind reserves (issue 56, domain/splendor/infer.py): a card the
holder could have paid for and kept weighs less, and the record, weights and worlds read only
what the deciding seat sees."""
import random

from domain.play import fold
from domain.splendor import GAME
from domain.splendor.bots import _lacking
from domain.splendor.data import LEVEL_CARDS
from domain.splendor.determinize import determinize
from domain.splendor.infer import Posterior, Record
from domain.splendor.state import NEW_PLAYER

from .helpers import start, toks

OBSERVER = 0


def _decisions(seed: int):
    """The observer's decisions along a seeded 2-seat game of random bots (they reserve blind
    often): (the real state) at each."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, rng))
    while actors := GAME.actors(state):
        seat = actors[0]
        if seat == OBSERVER:
            yield state
        move = GAME.bots["random"](state, seat, rng)
        state = fold(GAME, GAME.decide(state, seat, move, rng), state)


def test_two_states_the_seat_cannot_tell_apart_give_the_same_weights_and_worlds():
    checked = 0
    for seed in range(4):
        real, permuted = Record(OBSERVER), Record(OBSERVER)
        for k, state in enumerate(_decisions(seed)):
            # the same position with every card the observer cannot see dealt anew
            other = determinize(state, OBSERVER, random.Random(seed * 1000 + k))
            real.watch(state)
            permuted.watch(other)
            a, b = Posterior(state, OBSERVER, real), Posterior(other, OBSERVER, permuted)
            assert [ws for *_, ws in a.slots] == [ws for *_, ws in b.slots], (seed, k)
            assert a.world(state, OBSERVER, random.Random(k)) == b.world(other, OBSERVER, random.Random(k))
            checked += a.evidence
    assert checked >= 20  # positions where the worlds were weighted, not uniform


def test_a_card_the_holder_could_buy_and_kept_weighs_less():
    state = start()
    held = state.decks[0][0]  # the holder's blind reserve (the observer cannot see it)
    holder = NEW_PLAYER._replace(tokens=toks(white=2, blue=2, green=2, red=1, gold=1), reserved=(held,),
                                 blind=(held,))
    before = state._replace(decks=(state.decks[0][1:],) + state.decks[1:], players=(NEW_PLAYER, holder),
                            turns=2)
    record = Record(OBSERVER)
    record.watch(before)
    record.watch(before._replace(turns=4))  # the holder's turn: it kept the card, took nothing
    post = Posterior(before._replace(turns=4), OBSERVER, record)
    unseen = post.pools[0]
    affordable = [c for c in unseen if _lacking(c, holder.bonuses, holder.tokens) == 0]
    not_affordable = [c for c in unseen if c not in affordable]
    assert affordable and not_affordable and set(unseen) <= set(LEVEL_CARDS[1])
    assert max(post.chance(0, c) for c in affordable) < min(post.chance(0, c) for c in not_affordable)
