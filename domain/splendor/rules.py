"""Setup and evolve: how events change Splendor's state, and the end-of-turn sequence.

After every action the turn ends in this order (spec: token limit, then nobles):
  1. more than 10 tokens -> phase RETURN (the same seat returns the excess);
  2. nobles qualify      -> phase NOBLE (decide appends `noble_visited` at once when only one
                            qualifies; the seat chooses when several do);
  3. the turn ends: the next seat plays, or, in the last round once the seat after the last
     one would be seat 0 again, the server scores the game (phase SCORE).
`evolve` is pure: it reads every outcome from the events (the deck order is in `game_started`).
"""
from __future__ import annotations

import random

from .data import (
    CARD_BY_ID,
    CARD_IDS,
    CARDS,
    COLOR_INDEX,
    GEMS_PER_COLOR,
    GOLD_TOKENS,
    LEVEL_CARDS,
    LEVELS,
    MARKET_SLOTS,
    NOBLE_BY_ID,
    NOBLE_IDS,
    NOBLE_POINTS,
    NOBLES,
    TOKEN_LIMIT,
    WINNING_POINTS,
    tokens_json,
)
from .state import EMPTY, NEW_PLAYER, NOBLE, OVER, PLAY, RETURN, SCORE, Player, State, qualifying_nobles


def setup(options: dict, n_seats: int, rng: random.Random) -> list:
    """Shuffles the three decks, lays out the market and draws players + 1 nobles."""
    market, decks = [], []
    for level in LEVELS:
        cards = list(LEVEL_CARDS[level])
        rng.shuffle(cards)
        market.append([CARD_IDS[c] for c in cards[:MARKET_SLOTS]])
        decks.append([CARD_IDS[c] for c in cards[MARKET_SLOTS:]])
    nobles = rng.sample(range(len(NOBLES)), n_seats + 1)
    gems = GEMS_PER_COLOR[n_seats]
    return [{
        "type": "game_started",
        "n_seats": n_seats,
        "options": {"strict_take_three": bool(options.get("strict_take_three", False))},
        "supply": tokens_json((gems,) * 5 + (GOLD_TOKENS,)),
        "nobles": [NOBLE_IDS[i] for i in nobles],
        "market": market,
        "deck_sizes": [len(d) for d in decks],
        "decks": decks,  # top card first; redacted for everyone but EVERYONE
    }]


def _tokens(mapping: dict) -> tuple:
    counts = [0] * 6
    for name, n in mapping.items():
        counts[COLOR_INDEX[name]] = n
    return tuple(counts)


def _add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _sub(a: tuple, b: tuple) -> tuple:
    return tuple(x - y for x, y in zip(a, b))


def _set_player(state: State, seat: int, player: Player) -> tuple:
    players = list(state.players)
    players[seat] = player
    return tuple(players)


# ---- the end-of-turn sequence -------------------------------------------------------------

def after_action(state: State) -> State:
    """Step 1: the token limit."""
    if sum(state.players[state.seat].tokens) > TOKEN_LIMIT:
        return state._replace(phase=RETURN)
    return noble_check(state)


def noble_check(state: State) -> State:
    """Step 2: a noble visits (possibly deferred from an earlier turn: one per turn)."""
    if qualifying_nobles(state.players[state.seat].bonuses, state.nobles):
        return state._replace(phase=NOBLE)
    return end_turn(state)


def end_turn(state: State) -> State:
    """Step 3: the next seat, or scoring once the last round is complete."""
    nxt = (state.seat + 1) % state.n
    last_round = state.last_round or any(p.points >= WINNING_POINTS for p in state.players)
    # Seat 0 starts, so a round is complete when seat 0 would play next. A full round of
    # passes means nobody can ever act again (passing changes nothing): end the game too.
    if (last_round and nxt == 0) or state.passes >= state.n:
        phase = SCORE
    else:
        phase = PLAY
    return state._replace(seat=nxt, phase=phase, turns=state.turns + 1, last_round=last_round)


# ---- event handlers -----------------------------------------------------------------------

def _game_started(state, event):
    n = event["n_seats"]
    decks = tuple(tuple(CARD_BY_ID[c] for c in deck) for deck in event["decks"])
    market = tuple(tuple(CARD_BY_ID[c] for c in row) for row in event["market"])
    return State(
        n=n,
        strict=bool(event["options"]["strict_take_three"]),
        supply=_tokens(event["supply"]),
        decks=decks,
        market=market,
        nobles=tuple(NOBLE_BY_ID[x] for x in event["nobles"]),
        players=(NEW_PLAYER,) * n,
        seat=0, phase=PLAY, turns=0, passes=0, last_round=False,
    )


def _gems_taken(state, event):
    seat = event["seat"]
    taken = _tokens(event["tokens"])
    player = state.players[seat]
    player = player._replace(tokens=_add(player.tokens, taken))
    return after_action(state._replace(
        supply=_sub(state.supply, taken), players=_set_player(state, seat, player), passes=0))


def _take_from_market(state, card):
    """Removes a face-up card and refills its slot from the top of its deck (or leaves it empty)."""
    row = CARDS[card].level - 1
    deck = state.decks[row]
    slots = list(state.market[row])
    slot = slots.index(card)
    if deck:
        slots[slot] = deck[0]
        deck = deck[1:]
    else:
        slots[slot] = EMPTY
    decks = list(state.decks)
    decks[row] = deck
    market = list(state.market)
    market[row] = tuple(slots)
    return state._replace(decks=tuple(decks), market=tuple(market))


def _card_reserved(state, event):
    seat = event["seat"]
    card = CARD_BY_ID[event["card"]]
    player = state.players[seat]
    blind = player.blind
    if event["source"] == "deck":
        row = CARDS[card].level - 1
        decks = list(state.decks)
        decks[row] = decks[row][1:]
        state = state._replace(decks=tuple(decks))
        blind = blind + (card,)
    else:
        state = _take_from_market(state, card)
    gold = (0,) * 5 + (event["gold"],)
    player = player._replace(tokens=_add(player.tokens, gold), reserved=player.reserved + (card,), blind=blind)
    return after_action(state._replace(
        supply=_sub(state.supply, gold), players=_set_player(state, seat, player), passes=0))


def _card_bought(state, event):
    seat = event["seat"]
    card = CARD_BY_ID[event["card"]]
    info = CARDS[card]
    paid = _tokens(event["payment"])
    player = state.players[seat]
    reserved, blind = player.reserved, player.blind
    if event["source"] == "reserve":
        reserved = tuple(c for c in reserved if c != card)
        blind = tuple(c for c in blind if c != card)
    else:
        state = _take_from_market(state, card)
    bonuses = list(player.bonuses)
    bonuses[info.bonus] += 1
    player = Player(_sub(player.tokens, paid), tuple(bonuses), player.points + info.points,
                    player.bought + (card,), reserved, blind, player.nobles)
    return after_action(state._replace(
        supply=_add(state.supply, paid), players=_set_player(state, seat, player), passes=0))


def _tokens_returned(state, event):
    seat = event["seat"]
    back = _tokens(event["tokens"])
    player = state.players[seat]
    player = player._replace(tokens=_sub(player.tokens, back))
    return noble_check(state._replace(supply=_add(state.supply, back), players=_set_player(state, seat, player)))


def _noble_visited(state, event):
    seat = event["seat"]
    noble = NOBLE_BY_ID[event["noble"]]
    player = state.players[seat]
    player = player._replace(points=player.points + NOBLE_POINTS, nobles=player.nobles + (noble,))
    return end_turn(state._replace(
        nobles=tuple(x for x in state.nobles if x != noble), players=_set_player(state, seat, player)))


def _turn_passed(state, event):
    return noble_check(state._replace(passes=state.passes + 1))


def _game_scored(state, event):
    return state._replace(phase=OVER)


HANDLERS = {
    "game_started": _game_started,
    "gems_taken": _gems_taken,
    "card_reserved": _card_reserved,
    "card_bought": _card_bought,
    "tokens_returned": _tokens_returned,
    "noble_visited": _noble_visited,
    "turn_passed": _turn_passed,
    "game_scored": _game_scored,
}


def evolve(state, event: dict) -> State:
    return HANDLERS[event["type"]](state, event)


# ---- the outcome --------------------------------------------------------------------------

def result(state: State | None) -> dict | None:
    """The game's result once it is over (None before)."""
    return outcome(state) if state is not None and state.phase == OVER else None


def outcome(state: State) -> dict:
    """Points per seat, cards bought, winners: most points, then fewest bought cards, then shared."""
    scores = [p.points for p in state.players]
    cards = [len(p.bought) for p in state.players]
    best = max(scores)
    fewest = min(c for s, c in zip(scores, cards) if s == best)
    winners = [seat for seat in range(state.n) if scores[seat] == best and cards[seat] == fewest]
    tied = sum(1 for s in scores if s == best) > 1
    return {
        "winners": winners,
        "scores": scores,
        "cards_bought": cards,
        "nobles": [len(p.nobles) for p in state.players],
        # Someone reached 15 (the usual end), or a full round of passes ended a stuck game.
        "reason": "points" if state.last_round else "blocked",
        "tie_break": ("shared" if len(winners) > 1 else "fewest_cards") if tied else "none",
    }
