"""domain/play.py rng_on_use: rng_for's draws, the seeding (a SHA-512 of the seed string, ~10 us)
paid only by a decision that draws (issue 57: most moves draw nothing)."""
from __future__ import annotations

import random

from domain import play
from domain.play import rng_for, rng_on_use


def _draws(rng: random.Random) -> list:
    deck = list(range(40))
    rng.shuffle(deck)
    return [deck, rng.random(), rng.choice(deck), rng.randint(1, 6), rng.sample(deck, 5), rng.getrandbits(64),
            rng.choices(deck, k=3), rng.uniform(0, 1)]


def test_it_draws_what_rng_for_draws():
    for seed, version, salt in ((4, 0, "setup"), ("s3", 57, "1"), (10 ** 12, 3, "system")):
        assert _draws(rng_on_use(seed, version, salt)) == _draws(rng_for(seed, version, salt))


def test_it_is_seeded_at_its_first_use_only(monkeypatch):
    made = []

    class Counted(random.Random):
        def __init__(self, seed):
            made.append(seed)
            super().__init__(seed)

    monkeypatch.setattr(play.random, "Random", Counted)
    rng = rng_on_use(7, 2, "0")
    assert made == []  # a decision that draws nothing pays no seeding
    first = rng.random()
    rng.shuffle([1, 2, 3])
    assert made == ["7|2|0"] and first == random.Random("7|2|0").random()
