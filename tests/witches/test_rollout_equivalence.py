"""The expert's playouts (issue 56: cheaper search): `_finish_round`, which plays a round out
with `careful`'s card for every seat keeping the trick's led colour, best card and price as
cards fall, ends every position exactly as `careful`'s `_play_choice` played card by card (the
reference below, the loop the playouts ran before) does: same tricks taken, same spell, same
state. From every playing position of careful-played rounds, 3 to 5 seats, hands as dealt and as
a seat's determinization draws them."""
import random
from dataclasses import replace

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.witches import GAME
from domain.witches.bots import _finish_round, _play_choice, _spell_choice, careful_bot
from domain.witches.scoring import find_spell, spell_needs_choice
from domain.witches.state import PLAYING, SCORING, trick_winner

pytestmark = pytest.mark.unit


class _Table:
    __slots__ = ("n", "hands", "trick")

    def __init__(self, state):
        self.n, self.hands, self.trick = state.n, list(state.hands), state.trick


def _reference(state):
    table = _Table(state)
    taken_lists = [list(t) for t in state.taken]
    n, leader = state.n, state.leader
    while True:
        trick = table.trick
        while len(trick) < n:
            seat = (leader + len(trick)) % n
            card = _play_choice(table, seat)
            table.hands[seat] = tuple(c for c in table.hands[seat] if c != card)
            trick = table.trick = trick + ((seat, card),)
        leader = trick_winner(trick)
        taken_lists[leader].extend(c for _, c in trick)
        table.trick = ()
        if not table.hands[leader]:
            break
    taken = tuple(tuple(t) for t in taken_lists)
    spell = find_spell(taken)
    choice = None
    if spell is not None and spell_needs_choice(spell, state.totals, state.options):
        choice = _spell_choice(replace(state, spell=spell), spell[0])
    return replace(state, hands=((),) * n, trick=(), taken=taken, leader=leader, spell=spell,
                   spell_choice=choice, phase=SCORING, tricks_played=60 // n)


def test_the_fast_playout_finishes_every_round_as_careful_does():
    checked = 0
    for seed in range(18):
        n = 3 + seed % 3
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
        while (actors := GAME.actors(state)) and state.round <= 2:
            actor = actors[0]
            if actor == SYSTEM:
                move = GAME.legal_moves(state, actor)[0]
            else:
                if state.phase == PLAYING:
                    for world in (state, GAME.determinize(state, actor, rng)):
                        assert _finish_round(world) == _reference(world), (seed, world)
                        checked += 1
                move = careful_bot(state, actor, rng) if rng.random() < 0.8 else rng.choice(GAME.legal_moves(state, actor))
            state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    assert checked > 500
