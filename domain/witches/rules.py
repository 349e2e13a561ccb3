"""setup and decide: validate a command against the state and return the events it causes.

`decide` takes moves straight from clients: anything that is not exactly a listed move
shape is refused with a MoveRejected, never another exception.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from domain.contract import SYSTEM, MoveRejected, is_seat

from ..words import seat, word
from .cards import DECK, DECK_SET, card_name, sort_cards
from .moves import SPELL_CHOICES, actors, playable
from .scoring import game_end, score_round, winners
from .state import (
    OVER,
    PASS_COUNT,
    PASSING,
    PLAYING,
    SCORING,
    SPELL_CHOICE,
    State,
    dealer_for,
    direction_for,
    led_colour,
    pass_target,
    to_play,
    trick_winner,
)

if TYPE_CHECKING:
    from domain.contract import Actor, Event, Move

MOVE_KEYS = {"play": {"card"}, "pass_cards": {"cards"}, "choose_spell": {"choice"}, "score_round": set()}


def setup(options: dict, n_seats: int, rng: random.Random) -> list:
    started = {"type": "game_started", "n_seats": n_seats, "options": {
        "target_score": options["target_score"], "rounds": options["rounds"],
        "pygmy_queen_points": options["pygmy_queen_points"],
        "earth_witch_variant": options["earth_witch_variant"]}}
    return [started, deal(n_seats, 1, rng)]


def deal(n: int, round_no: int, rng: random.Random) -> dict:
    """Shuffle and deal all 60 cards; the event carries every hand (redacted per viewer)."""
    deck = list(DECK)
    rng.shuffle(deck)
    size = len(deck) // n
    hands = [list(sort_cards(deck[i * size:(i + 1) * size])) for i in range(n)]
    return {"type": "round_dealt", "round": round_no, "dealer": dealer_for(n, round_no),
            "pass_direction": direction_for(n, round_no), "pass_count": PASS_COUNT[n], "hands": hands}


def decide(state: State, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    kind = _check_shape(move)
    if state.phase == OVER:
        raise MoveRejected("game_over", "The game is over.")
    if not (is_seat(actor) or actor == SYSTEM) or actor not in actors(state):
        if state.phase == PASSING and is_seat(actor) and 0 <= actor < state.n:
            raise MoveRejected("already_passed", "You have already passed your cards; wait for the others.")
        _not_now(state)
    # The phase says who acts: a seat (its number) while playing, passing and choosing, the
    # system when scoring.
    handler: tuple[str, Callable[[State, Any, Move, random.Random], list[Event]]]
    handler = {PLAYING: ("play", _play), PASSING: ("pass_cards", _pass),
               SPELL_CHOICE: ("choose_spell", _choose_spell), SCORING: ("score_round", _score)}[state.phase]
    if kind != handler[0]:
        raise MoveRejected("illegal_move", "Now is not the time for '{move}': the move expected is '{expected}'.",
                           args={"move": kind, "expected": handler[0]})
    return handler[1](state, actor, move, rng)


def _check_shape(move: object) -> str:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise MoveRejected("invalid_move", "A move must be an object with a string 'type'.")
    kind = move["type"]
    if kind not in MOVE_KEYS:
        raise MoveRejected("unknown_move_type", "Witches has no move '{move}'.", args={"move": kind[:40]})
    extra = set(move) - MOVE_KEYS[kind] - {"type"}
    if extra or not MOVE_KEYS[kind] <= set(move):
        if not MOVE_KEYS[kind]:
            raise MoveRejected("invalid_move", "A '{move}' move takes 'type' and nothing else.", args={"move": kind})
        raise MoveRejected("invalid_move", "A '{move}' move takes 'type' and {fields}.",
                           args={"move": kind, "fields": ", ".join(sorted(MOVE_KEYS[kind]))})
    return kind


def _not_now(state: State) -> NoReturn:
    if state.phase == SCORING:
        raise MoveRejected("not_your_turn", "The round is being scored; wait for the next deal.")
    if state.phase == SPELL_CHOICE:
        raise MoveRejected("not_your_turn", "The spell's caster is choosing who takes the spell's points; please wait.")
    if state.phase == PLAYING:
        raise MoveRejected("not_your_turn", "It is {seat}'s turn to play.", args={"seat": seat(to_play(state))})
    raise MoveRejected("not_your_turn", "You cannot act now.")


def _play(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    card = move["card"]
    if not isinstance(card, str) or card not in state.hands[seat]:
        if isinstance(card, str) and card in DECK_SET:
            raise MoveRejected("card_not_in_hand", "You do not hold {card}.", args={"card": word(card_name(card))})
        raise MoveRejected("card_not_in_hand", "You do not hold that card.")
    if card not in playable(state, seat):
        colour = led_colour(state.trick)
        assert colour is not None, "while only wizards are led, every card may be played"
        raise MoveRejected("must_follow_suit", "You must follow suit: you hold a {colour} card (or play a wizard).",
                           args={"colour": word(colour)})
    events = [{"type": "card_played", "seat": seat, "card": card}]
    trick = state.trick + ((seat, card),)
    if len(trick) == state.n:
        events.append({"type": "trick_taken", "trick": state.tricks_played + 1,
                       "winner": trick_winner(trick), "cards": [c for _, c in trick]})
    return events


def _pass(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    cards, k = move["cards"], PASS_COUNT[state.n]
    if not isinstance(cards, list) or len(cards) != k or not all(isinstance(c, str) for c in cards):
        raise MoveRejected("wrong_card_count", "You must pass exactly {n} cards.", args={"n": k})
    if len(set(cards)) != k:
        raise MoveRejected("duplicate_cards", "You named the same card twice.")
    hand = state.hands[seat]
    if any(c not in hand for c in cards):
        raise MoveRejected("card_not_in_hand", "You can only pass cards you hold.")
    events = [{"type": "cards_passed", "seat": seat, "cards": list(sort_cards(cards))}]
    waiting = [s for s, p in enumerate(state.passed) if p is None and s != seat]
    if not waiting:  # the last seat passed: everyone receives at once
        chosen = [tuple(cards) if s == seat else p for s, p in enumerate(state.passed)]
        passes = [{"from": s, "to": pass_target(state.n, state.direction, s), "cards": list(sort_cards(c))}
                  for s, c in enumerate(chosen) if c is not None]  # every seat has passed now
        events.append({"type": "cards_exchanged", "direction": state.direction, "passes": passes})
    return events


def _choose_spell(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    choice = move["choice"]
    if choice not in SPELL_CHOICES:
        raise MoveRejected("invalid_move",
                           "Choose 'others' (they take the points) or 'self' (take them off your total).")
    return [{"type": "spell_chosen", "seat": seat, "choice": choice}]


def _score(state: State, actor: Actor, move: Move, rng: random.Random) -> list[Event]:
    points, totals = score_round(state.taken, state.totals, state.options, state.spell, state.spell_choice)
    spell = None
    if state.spell is not None:
        caster, kind, amount = state.spell
        spell = {"caster": caster, "kind": kind, "points": amount, "choice": state.spell_choice or "others"}
    events = [{"type": "round_scored", "round": state.round, "points": points, "totals": totals, "spell": spell}]
    reason = game_end(state.round, totals, state.options)
    if reason:
        events.append({"type": "game_ended", "reason": reason, "winners": winners(totals), "scores": totals})
    else:
        events.append(deal(state.n, state.round + 1, rng))
    return events
