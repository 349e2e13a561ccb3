"""decide accepts a move if and only if legal_moves lists it: checked over a wide space of
candidate moves (every colour set and order, every card, payments near the listed ones)
in states from seeded random playouts, return and noble phases included."""
import itertools
import random

from domain.contract import MoveRejected
from domain.play import fold
from domain.splendor import GAME
from domain.splendor.data import CARD_IDS, COLORS, NOBLE_IDS, TOKEN_NAMES

COLOR_SETS = [list(p) for k in (1, 2, 3) for combo in itertools.combinations(COLORS, k)
              for p in itertools.permutations(combo)]


def _near(payment):
    """The payment, and variants one token off in each colour."""
    yield payment
    for name in TOKEN_NAMES:
        for delta in (-1, 1):
            varied = dict(payment)
            varied[name] = varied.get(name, 0) + delta
            if varied[name] <= 0:
                del varied[name]
            yield varied


def _candidates(state, seat, listed):
    yield {"type": "pass"}
    for colors in COLOR_SETS:
        yield {"type": "take_gems", "colors": colors}
    for color in COLORS:
        yield {"type": "take_two", "color": color}
    for level in (1, 2, 3):
        yield {"type": "reserve_blind", "level": level}
    for card in CARD_IDS:
        yield {"type": "reserve", "card": card}
        yield {"type": "buy", "card": card, "payment": {}}
    for move in listed:
        if move["type"] == "buy":
            for payment in _near(move["payment"]):
                yield {"type": "buy", "card": move["card"], "payment": payment}
        if move["type"] == "return_tokens":
            for tokens in _near(move["tokens"]):
                yield {"type": "return_tokens", "tokens": tokens}
    for noble in NOBLE_IDS:
        yield {"type": "choose_noble", "noble": noble}


def test_accepted_if_and_only_if_listed():
    checked = 0
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup({"strict_take_three": seed == 3}, n, random.Random(seed)))
        step = 0
        while GAME.actors(state):
            actor = GAME.actors(state)[0]
            listed = GAME.legal_moves(state, actor)
            if isinstance(actor, int) and (step % 5 == 0 or state.phase != "play"):
                for move in _candidates(state, actor, listed):
                    try:
                        GAME.decide(state, actor, move, rng)
                    except MoveRejected:
                        assert move not in listed, move
                    else:
                        assert move in listed, move
                    checked += 1
            bot = GAME.bots["greedy" if step % 3 else "random"]
            move = bot(state, actor, rng) if isinstance(actor, int) else listed[0]
            for event in GAME.decide(state, actor, move, rng):
                state = GAME.evolve(state, event)
            step += 1
    assert checked > 5000, checked
