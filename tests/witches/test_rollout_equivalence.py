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
from domain.search import Searcher
from domain.witches import GAME
from domain.witches.bots import (
    _HANDS,
    _PLAY,
    _RESTS,
    EXPERT_SPEC,
    ROUND_RULES,
    _card_played,
    _finish_round,
    _packed,
    _play_choice,
    _playout,
    _projected_totals,
    _round_totals,
    _spell_choice,
    _summaries,
    _tracked,
    _unpacked,
    _value,
    _values,
    careful_bot,
    expert_bot,
)
from domain.witches.cards import DECK, RED_CARDS
from domain.witches.scoring import find_spell, spell_needs_choice
from domain.witches.state import PLAYING, SCORING, Options, State, trick_winner

GENERIC = Searcher(ROUND_RULES, lambda state: state.n, replace(EXPERT_SPEC, playout=None))

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
                        draws = random.Random(seed)  # (neither playout draws: the same state after)
                        fused = _playout(world, draws)
                        assert fused == GENERIC._playout(ROUND_RULES, world, draws), (seed, world)
                        assert draws.getstate() == random.Random(seed).getstate()
                        seat = GAME.actors(world)[0]
                        for legal in GAME.legal_moves(world, seat):
                            played = fold(GAME, GAME.decide(world, seat, legal, rng), world)
                            assert _card_played(world, seat, legal["card"]) == played, (seed, legal)
                        checked += 1
                move = careful_bot(state, actor, rng) if rng.random() < 0.8 else rng.choice(GAME.legal_moves(state, actor))
            state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    assert checked > 500


def test_a_finished_rounds_totals_from_the_seats_summaries_are_the_projected_ones():
    """`_round_totals` of the seats' summaries (the fused playout's scoring) against `_projected_totals` of the finished
    state: random splits of the deck, a third of them with one seat holding every red card (a
    spell), totals near the target so the caster must choose, both option sets."""
    rng = random.Random(56)
    spells, chose_self = 0, 0
    for i in range(3000):
        n = 3 + i % 4
        options = Options(target_score=rng.choice((60, 100)), rounds=rng.choice((0, 0, 3)),
                          pygmy_queen_points=rng.choice((5, 10)), earth_witch_variant=bool(i % 2))
        taken = [[] for _ in range(n)]
        caster = rng.randrange(n) if i % 3 == 0 else None
        cards = rng.sample(DECK, rng.randrange(20, len(DECK) + 1))
        if caster is not None:
            taken[caster].extend(RED_CARDS)
            cards = [c for c in cards if c not in RED_CARDS]
        for card in cards:
            taken[rng.randrange(n)].append(card)
        totals = tuple(rng.randrange(0, options.target_score) for _ in range(n))
        spell = find_spell(taken)
        spells += spell is not None
        choice = None
        state = State(n=n, options=options, totals=totals, taken=tuple(tuple(t) for t in taken), spell=spell)
        if spell is not None and spell_needs_choice(spell, totals, options):
            choice = _spell_choice(state, spell[0])
            chose_self += choice == "self"
        finished = replace(state, spell_choice=choice, phase=SCORING)
        assert _round_totals(_summaries(taken), totals, options) == _projected_totals(finished), (i, taken, totals, options)
    assert spells > 200 and chose_self > 20


def test_every_seats_value_at_once_is_each_seats_value():
    rng = random.Random(560)
    for i in range(5000):
        totals = [rng.randrange(0, 12 if i % 2 else 120) for _ in range(3 + i % 4)]  # ties often
        assert _values(totals) == [_value(totals, s) for s in range(len(totals))], totals


def _fresh(state):
    """What `_tracked` computes for a state met afresh (its hands looked up, its taken summed)."""
    return state.hands, tuple(h.cards for h in _tracked(replace(state))[1]), _packed(_summaries(state.taken))


def test_the_tree_hands_its_states_hands_and_summaries_on_and_the_playouts_from_them_are_the_generic_ones():
    """A state `_card_played` gives carries its hands (as `_Hand`s) and packed summaries
    (`_tracked`) from its parent's: the same as a fresh look-up gives, two cards deep from every
    playing position of careful-played first rounds; the fused playout from it gives the generic
    playout's rewards; the search lists the same moves as the rules (`_round_legal_moves`)."""
    checked = 0
    for seed in range(4):
        n = 3 + seed % 3
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
        while (actors := GAME.actors(state)) and state.round <= 1:
            actor = actors[0]
            if actor == SYSTEM:
                move = GAME.legal_moves(state, actor)[0]
            else:
                assert ROUND_RULES.legal_moves(state, actor) == GAME.legal_moves(state, actor)
                for other in range(n):
                    assert ROUND_RULES.legal_moves(state, other) == GAME.legal_moves(state, other)
                if state.phase == PLAYING:
                    world = GAME.determinize(state, actor, rng)
                    for first in GAME.legal_moves(world, actor):
                        child = _card_played(world, actor, first["card"])
                        if child.phase != PLAYING:
                            continue
                        got = _tracked(child)
                        assert (got[0], tuple(h.cards for h in got[1]), got[2]) == _fresh(child), (seed, first)
                        draws = random.Random(seed)
                        assert _playout(child, draws) == GENERIC._playout(ROUND_RULES, replace(child), draws)
                        seat = GAME.actors(child)[0]
                        for second in GAME.legal_moves(child, seat):
                            grand = _card_played(child, seat, second["card"])
                            if grand.phase == PLAYING:
                                got = _tracked(grand)
                                assert (got[0], tuple(h.cards for h in got[1]), got[2]) == _fresh(grand)
                                assert _playout(grand, draws) == GENERIC._playout(ROUND_RULES, replace(grand), draws)
                                checked += 1
                move = careful_bot(state, actor, rng) if rng.random() < 0.8 else rng.choice(GAME.legal_moves(state, actor))
            state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    assert checked > 4000


def test_packed_summaries_unpack_to_the_seats_summaries():
    rng = random.Random(5600)
    for i in range(2000):
        n = 3 + i % 4
        taken = [[] for _ in range(n)]
        for card in rng.sample(DECK, rng.randrange(0, len(DECK) + 1)):
            taken[rng.randrange(n)].append(card)
        summaries = _summaries(taken)
        assert _unpacked(_packed(summaries), n) == summaries


def test_the_expert_hands_out_a_move_of_its_own_and_leaves_no_memo():
    state = fold(GAME, GAME.setup(GAME.default_options(), 3, random.Random(3)))
    rng = random.Random(3)
    while state.phase != PLAYING or len(GAME.legal_moves(state, GAME.actors(state)[0])) < 2:
        actor = GAME.actors(state)[0]
        move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else careful_bot(state, actor, rng)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    seat = GAME.actors(state)[0]
    move = expert_bot(GAME.determinize(state, seat, rng), seat, rng)
    assert move["type"] == "play" and all(move is not shared for shared in _PLAY.values())
    assert not _HANDS and not _RESTS
