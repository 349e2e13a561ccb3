"""evolve: apply one event to the state. Pure and total over events `decide` makes; events
may have been through JSON (lists for tuples), so every sequence is turned into a tuple."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .cards import COLOUR, WIZARD, sort_cards
from .scoring import find_spell, spell_needs_choice
from .state import OVER, PASSING, PLAYING, SCORING, SPELL_CHOICE, Options, State, led_colour, trick_winner

if TYPE_CHECKING:
    from domain.contract import Event


def evolve(state: State | None, event: Event) -> State:
    return _HANDLERS[event["type"]](state, event)


def _started(state: State | None, e: Event) -> State:
    o = e["options"]
    options = Options(int(o["target_score"]), int(o["rounds"]), int(o["pygmy_queen_points"]),
                      bool(o["earth_witch_variant"]))
    n = e["n_seats"]
    return State(n=n, options=options, totals=(0,) * n)


def _dealt(state: State, e: Event) -> State:
    n = state.n
    return replace(
        state, round=e["round"], dealer=e["dealer"], direction=e["pass_direction"], phase=PASSING,
        hands=tuple(tuple(h) for h in e["hands"]), passed=(None,) * n, received=((),) * n,
        leader=(e["dealer"] + 1) % n, trick=(), tricks_played=0, taken=((),) * n,
        tricks_won=(0,) * n, last_trick=(), last_winner=None, spell=None, spell_choice=None,
        voids=(frozenset(),) * n,
    )


def _passed(state: State, e: Event) -> State:
    seat, cards = e["seat"], set(e["cards"])
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c not in cards)
    passed = list(state.passed)
    passed[seat] = sort_cards(cards)
    return replace(state, hands=tuple(hands), passed=tuple(passed))


def _exchanged(state: State, e: Event) -> State:
    hands, received = list(state.hands), list(state.received)
    for p in e["passes"]:
        to = p["to"]
        received[to] = sort_cards(p["cards"])
        hands[to] = sort_cards(hands[to] + received[to])
    return replace(state, hands=tuple(hands), received=tuple(received), phase=PLAYING)


def _played(state: State, e: Event) -> State:
    seat, card = e["seat"], e["card"]
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    voids = state.voids
    colour = led_colour(state.trick)
    if colour is not None and COLOUR[card] not in (colour, WIZARD) and voids:
        voids = voids[:seat] + (voids[seat] | {colour},) + voids[seat + 1:]  # seen by everyone
    return replace(state, hands=tuple(hands), trick=state.trick + ((seat, card),), voids=voids)


def _taken(state: State, e: Event) -> State:
    winner = trick_winner(state.trick)
    taken, won = list(state.taken), list(state.tricks_won)
    taken[winner] = taken[winner] + tuple(card for _, card in state.trick)
    won[winner] += 1
    new = replace(state, leader=winner, trick=(), tricks_played=state.tricks_played + 1,
                  taken=tuple(taken), tricks_won=tuple(won), last_trick=state.trick,
                  last_winner=winner)
    if any(new.hands):
        return new
    spell = find_spell(new.taken)
    phase = SPELL_CHOICE if spell_needs_choice(spell, new.totals, new.options) else SCORING
    return replace(new, spell=spell, phase=phase)


def _spell_chosen(state: State, e: Event) -> State:
    return replace(state, spell_choice=e["choice"], phase=SCORING)


def _scored(state: State, e: Event) -> State:
    # The change of each total (histories recorded before the floor fix carried the unfloored
    # amount in "points"; the totals were always right, so the history is taken from them).
    change = tuple(new - old for new, old in zip(e["totals"], state.totals))
    return replace(state, totals=tuple(e["totals"]), history=state.history + (change,))


def _ended(state: State, e: Event) -> State:
    return replace(state, phase=OVER, winners=tuple(e["winners"]), end_reason=e["reason"])


# The first event's handler (_started) is given no state; the others the state so far.
_HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "game_started": _started,
    "round_dealt": _dealt,
    "cards_passed": _passed,
    "cards_exchanged": _exchanged,
    "card_played": _played,
    "trick_taken": _taken,
    "spell_chosen": _spell_chosen,
    "round_scored": _scored,
    "game_ended": _ended,
}
