"""A one-move lookahead opponent for Splendor, Witches and Small World (issue 34: "also against a
one-move lookahead of your own").

Each is a policy `(state, seat, rng) -> move`, handed what `bot_move` hands a level (domain/play.py:
its seat's determinization of the state, never the hidden state). For each legal move (Small World:
the expert's pruned set) it applies the move with the game's own `decide` + `evolve` to that
determinization (Witches: to a few more drawn by the game's `determinize`, the outcome of a card
depending on hands it cannot see), finishes what the move obliges the *same* seat to do right
after (Splendor: returning tokens, choosing a noble; Witches: the rest of the trick, the others
playing `careful`; Small World: the rest of its own turn, played by `greedy`), and plays the move
whose resulting position a simple static evaluation rates best:

- Splendor: points, plus a little for bonuses, tokens and noble progress, and for the best cards
  in reach (value per missing token), minus a share of the rival's same measure (a card it takes
  from under the rival's nose counts);
- Witches: the fire points it would score for the cards taken so far (the trick's included), its
  rivals' beside it, and a light price on the dangerous cards left in its hand;
- Small World: coins after its turn, plus what the regions it holds earn over the turns left
  (the same projection as the expert's `evaluate`), against the rival's.

One ply: it never models a rival's reply (beyond the trick a Witches card starts, which is part of
the move's outcome). Used by the `--lookahead` modes of bench/bots_splendor.py, bots_witches.py and
bots_smallworld.py, and by tests/contract/test_lookahead.py.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from domain.contract import SYSTEM


def _apply(game, state, actor, move, rng):
    for event in game.decide(state, actor, move, rng):
        state = game.evolve(state, event)
    return state


def _best(scored: list) -> dict:
    """The move with the highest score; ties go to the first listed (stable, deterministic)."""
    best_i = max(range(len(scored)), key=lambda i: (scored[i][0], -i))
    return scored[best_i][1]


# ---- Splendor ----------------------------------------------------------------------------------

def _splendor():
    from domain.splendor import GAME
    return GAME


# Tokens count only as progress toward the cards in reach ("reach": value per missing token of
# the best three, weighted): a flat weight per token made it take gems it then had to return.
SPLENDOR_WEIGHTS = {"bonus": 0.45, "token": 0.0, "gold": 0.1, "noble": 2.0, "card": 0.6, "power": 1.5,
                    "reach": (0.5, 0.25, 0.1), "rival": 0.2}


def _splendor_worth(state, seat: int) -> float:
    from domain.splendor.data import CARDS, GOLD, NOBLES
    from domain.splendor.state import EMPTY, gold_shortfall, need_after_bonuses

    player = state.players[seat]
    bonuses, tokens = player.bonuses, player.tokens
    w = SPLENDOR_WEIGHTS
    worth = player.points + w["bonus"] * sum(bonuses) + w["token"] * sum(tokens[:GOLD]) + w["gold"] * tokens[GOLD]
    for x in state.nobles:
        lacking = sum(r - b for r, b in zip(NOBLES[x].requires, bonuses) if r > b)
        worth += w["noble"] / (1 + lacking)
    reach = []
    cards = [c for row in state.market for c in row if c != EMPTY] + list(player.reserved)
    for card in cards:
        info = CARDS[card]
        need = need_after_bonuses(info.cost, bonuses)
        missing = max(0, gold_shortfall(need, tokens) - tokens[GOLD])
        reach.append((info.points + w["card"]) / (1 + missing) ** w["power"])
    reach.sort(reverse=True)
    for weight, value in zip(w["reach"], reach):
        worth += weight * value
    return worth


def splendor_evaluate(state, seat: int) -> float:
    from domain.splendor.state import OVER, SCORE
    if state.phase in (SCORE, OVER):
        game = _splendor()
        if state.phase == SCORE:
            state = _apply(game, state, SYSTEM, game.legal_moves(state, SYSTEM)[0], random.Random(0))
        winners = game.result(state)["winners"]
        return 1000.0 * ((seat in winners) / len(winners) - 0.5)
    mine = _splendor_worth(state, seat)
    rival = max(_splendor_worth(state, s) for s in range(state.n) if s != seat)
    return mine - SPLENDOR_WEIGHTS["rival"] * rival


def splendor_lookahead(state, seat: int, rng: random.Random) -> dict:
    """Every legal move (the cheapest-in-gold payment of each buy), applied to the seat's
    determinization, its own follow-up (returning tokens, choosing a noble) played by `greedy`;
    the best position by `splendor_evaluate`."""
    from domain.splendor.bots import greedy_policy
    from domain.splendor.state import NOBLE, PLAY, RETURN

    game = _splendor()
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    if state.phase == PLAY:
        buys: dict = {}
        rest = []
        for m in moves:
            if m["type"] == "buy":
                kept = buys.get(m["card"])
                if kept is None or m["payment"].get("gold", 0) < kept["payment"].get("gold", 0):
                    buys[m["card"]] = m
            else:
                rest.append(m)
        moves = list(buys.values()) + rest
    scored = []
    for m in moves:
        after = _apply(game, state, seat, m, rng)
        for _ in range(4):  # its own follow-ups: tokens to return, a noble to choose
            if after.phase in (RETURN, NOBLE) and game.actors(after) == [seat]:
                after = _apply(game, after, seat, greedy_policy(after, seat, rng), rng)
            else:
                break
        scored.append((splendor_evaluate(after, seat) + 1e-6 * rng.random(), m))
    return _best(scored)



# ---- Witches -----------------------------------------------------------------------------------

WITCHES_WORLDS = 6  # determinizations a card is tried in (the one handed over and 5 more drawn)
WITCHES_HAND_PRICE = 0.02  # fire points per unit of `careful`'s danger left in the hand


def _witches():
    from domain.witches import GAME
    return GAME


def witches_evaluate(state, seat: int) -> float:
    """Minus the fire points the seat's cards taken so far score, plus a quarter of its rivals'
    mean (points pushed onto others), minus a light price on the danger left in its hand."""
    from domain.witches.bots import _danger
    from domain.witches.scoring import fire_points

    pq = state.options.pygmy_queen_points
    points = [fire_points(cards, pq) for cards in state.taken]
    others = [p for s, p in enumerate(points) if s != seat]
    hand = sum(max(0, _danger(c)) for c in state.hands[seat]) if state.hands else 0
    return -points[seat] + 0.25 * sum(others) / len(others) - WITCHES_HAND_PRICE * hand


def witches_lookahead(state, seat: int, rng: random.Random) -> dict:
    """Each playable card, in the determinization handed over and WITCHES_WORLDS - 1 more: the
    trick it starts or joins finished by the others playing `careful`, then `witches_evaluate`
    (mean over the worlds). Passes and spell choices as `careful` (they are not card plays)."""
    from domain.witches.bots import careful_bot
    from domain.witches.moves import playable
    from domain.witches.state import PLAYING, to_play

    game = _witches()
    if state.phase != PLAYING:
        return careful_bot(state, seat, rng)
    cards = playable(state, seat)
    if len(cards) == 1:
        return {"type": "play", "card": cards[0]}
    worlds = [state] + [game.determinize(state, seat, rng) for _ in range(WITCHES_WORLDS - 1)]
    totals = [0.0] * len(cards)
    for world in worlds:
        for k, card in enumerate(cards):
            after = _apply(game, world, seat, {"type": "play", "card": card}, rng)
            done = world.tricks_played + 1
            while after.phase == PLAYING and after.tricks_played < done:
                other = to_play(after)
                after = _apply(game, after, other, careful_bot(after, other, rng), rng)
            totals[k] += witches_evaluate(after, seat)
    scored = [(totals[k] + 1e-6 * rng.random(), {"type": "play", "card": card}) for k, card in enumerate(cards)]
    return _best(scored)


# ---- Small World -------------------------------------------------------------------------------

SMALLWORLD_SAMPLES = 3  # playouts of each move's rest of the turn (a last conquest rolls a die)


def _smallworld():
    from domain.smallworld import GAME
    return GAME


SMALLWORLD_INCOME = True


def smallworld_evaluate(state, seat: int, before=None) -> float:
    """The seat's projected coins against its strongest rival's (the expert's projection: coins
    now, plus its regions' and tokens' worth over its turns left); with `before` (the position
    the turn's decision was taken in), the seat's own regions are valued at the coins the turn
    just earned instead; a finished game by its result."""
    from domain.smallworld import query
    from domain.smallworld.bots import _projected

    game = _smallworld()
    if not game.actors(state):
        winners = game.result(state)["winners"]
        return 1000.0 * ((seat in winners) / len(winners) - 0.5)
    if before is not None and SMALLWORLD_INCOME:
        p = state.players[seat]
        left = state.rounds - state.round + (1 if seat >= state.seat else 0)
        active = p.hand + sum(state.regions[i].tokens for i in query.active_regions(state, seat)) if p.race else 0
        mine = p.coins + left * (p.coins - before.players[seat].coins + 0.15 * active)
    else:
        mine = _projected(state, seat)
    return mine - max(_projected(state, s) for s in range(state.n) if s != seat)


def smallworld_lookahead(state, seat: int, rng: random.Random) -> dict:
    """At a pick and a conquest: each move the expert would search (its `prune`: the 6 its
    ranking puts first, and greedy's choice) applied to the determinization, the rest of its own
    turn played by `greedy` (defenders' redeployments and the system's steps included), then
    `smallworld_evaluate`, averaged over SMALLWORLD_SAMPLES draws of the dice. Elsewhere as
    `greedy`: at a turn's start (ready or decline: the projection cannot see the next race a
    decline brings), redeploying and markers (steps the projection cannot tell apart)."""
    from domain.smallworld.bots import greedy_bot, prune
    from domain.smallworld.state import CONQUER, PICK

    game = _smallworld()
    if state.turn.step not in (PICK, CONQUER):
        return greedy_bot(state, seat, rng)
    moves = game.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    moves = prune(state, seat, moves)
    turn = (state.round, state.seat)
    scored = []
    for m in moves:
        value = 0.0
        for _ in range(SMALLWORLD_SAMPLES):
            after = _apply(game, state, seat, m, rng)
            for _ in range(200):  # the rest of the turn (a turn is tens of steps)
                actors = game.actors(after)
                if not actors or (after.round, after.seat) != turn:
                    break
                actor = actors[0]
                move = game.legal_moves(after, actor)[0] if actor == SYSTEM else greedy_bot(after, actor, rng)
                after = _apply(game, after, actor, move, rng)
            value += smallworld_evaluate(after, seat, state)
        scored.append((value + 1e-6 * rng.random(), m))
    return _best(scored)


# ---- the bench's side: a level name beside the game's own ----------------------------------------

LEVEL = "lookahead"
POLICIES: dict[str, Callable] = {"splendor": splendor_lookahead, "witches": witches_lookahead,
                                 "smallworld-of-warcraft": smallworld_lookahead}


def load_average() -> str:
    """The 1-minute load average as /proc gives it (the bench shares its cores), or '?'."""
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def move(game, state, seat: int, level: str, rng: random.Random) -> dict:
    """`bot_move` for the game's levels and for `lookahead`: the seat's determinization of the
    state (the game's `determinize`, as domain/play.py's bot_move does), then the policy."""
    from domain.play import bot_move

    if level != LEVEL:
        return bot_move(game, state, seat, level, rng)
    seen = game.determinize(state, seat, rng) if game.determinize is not None else state
    return POLICIES[game.name](seen, seat, rng)
