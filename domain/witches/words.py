"""Witches in words (issue 32): the label of every move, the sentence of every event and of the
result, and the names of the 60 cards, as messages the platform renders in each language.

Cards are named as the web client names them ("red 7", "wizard 2"), the five special cards by
their role as well ("Pygmy Queen (green 12)"). Events are said from the data as the viewer sees
it: another seat's pass or hand is never in it, so it is never named ("has chosen the cards to
pass"). Sentences that list every seat (a round's scores) or every winner have one template per
number of seats or winners, since a `player` argument is one seat.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from domain.words import GameWords, Message, count, piece, player, word

from .cards import (
    AIR_WITCH,
    COLOURS,
    DECK,
    EARTH_WITCH,
    FIRE_WITCH,
    PYGMY_QUEEN,
    RED_CARDS,
    WATER_WITCH,
    WIZARDS,
    card_name,
)
from .state import pass_target

if TYPE_CHECKING:
    from .state import State

NAMES = {card: card_name(card) for card in DECK}
DIRECTIONS = ("left", "right", "across")
SPELLS = {"water": "Water Spell", "pygmy": "Pygmy Spell", "great_fire": "Great Fire Spell"}
REASONS = {"target_reached": "target reached", "rounds_played": "all rounds played"}
SEAT_COUNTS = range(3, 7)

# Moves.
PASS = "Pass {cards} to {player} ({direction})."
LEAD = "Lead {card}."
PLAY = "Play {card}."
GIVE = "Cast the spell on the others: each of them takes {points} fire points."
TAKE_OFF = "Take the spell's {points} fire points off your own total."
SCORE = "Score round {round}."

# Events.
STARTED_TARGET = ("A game of Witches begins: it ends after a round in which someone reaches {target} fire "
                  "points, and the lowest total wins.")
STARTED_ROUNDS = ("A game of Witches begins: {rounds} round is played, and the lowest total of fire points wins.",
                  "A game of Witches begins: {rounds} rounds are played, and the lowest total of fire points wins.")
DEALT_SEAT = ("Round {round}: {dealer} deals {size} cards to each player. Your hand: {hand}. "
              "Everyone passes {count} cards ({direction}).")
DEALT_OTHERS = "Round {round}: {dealer} deals {size} cards to each player. Everyone passes {count} cards ({direction})."
PASSED_OWN = "{player} passes {cards}."
PASSED_HIDDEN = "{player} has chosen the cards to pass, face down."
EXCHANGED_MINE = ("The passed cards are handed over ({direction}): {player} gives {given} to {taker} "
                  "and receives {received} from {giver}.")
EXCHANGED_ALL = "The passed cards are handed over ({direction}); everyone picks up the cards passed to them."
PLAYED = "{player} plays {card}."
TAKEN = "{player} takes trick {trick}: {cards}."
CHOSE_OTHERS = "{player} casts the spell on the others: each of them takes its fire points."
CHOSE_SELF = "{player} takes the spell's fire points off their own total."
SPELL_OTHERS = "Round {round}: {caster} casts the {spell}, and every other player takes {points} fire points."
SPELL_SELF = "Round {round}: {caster} casts the {spell} and takes {points} fire points off their own total."


def _scored_template(n: int) -> str:
    seats = ", ".join(f"{{player{i}}} {{points{i}}} (total {{total{i}}})" for i in range(1, n + 1))
    return f"Round {{round}} fire points: {seats}."


def _ended_templates(k: int) -> tuple[str, str]:
    names = [f"{{winner{i}}}" for i in range(1, k + 1)]
    if k == 1:
        who = f"{names[0]} wins"
    else:
        who = f"{', '.join(names[:-1])} and {names[-1]} share the win"
    start = f"Game over ({{why}}): {who} with {{score}} fire "
    return start + "point.", start + "points."


SCORED = {n: _scored_template(n) for n in SEAT_COUNTS}
ENDED = {k: _ended_templates(k) for k in range(1, max(SEAT_COUNTS) + 1)}


def move(state: State, seat: int, m: dict[str, Any]) -> Message:
    kind = m["type"]
    if kind == "pass_cards":
        to = pass_target(state.n, state.direction, seat)
        return Message(PASS, {"cards": piece(m["cards"]), "player": player(to), "direction": word(state.direction)})
    if kind == "play":
        return Message(PLAY if state.trick else LEAD, {"card": piece(m["card"])})
    if kind == "choose_spell":
        points = count(state.spell[2] if state.spell else 0)
        return Message(GIVE if m["choice"] == "others" else TAKE_OFF, {"points": points})
    return Message(SCORE, {"round": count(state.round)})


def _started(data: dict) -> Message:
    options = data["options"]
    if options.get("rounds"):
        return Message(STARTED_ROUNDS[0], {"rounds": count(options["rounds"])}, STARTED_ROUNDS[1], "rounds")
    return Message(STARTED_TARGET, {"target": count(options["target_score"])})


def _dealt(data: dict) -> Message:
    sizes = data.get("hand_sizes") or [len(h) for h in data.get("hands", [[]])]
    args = {"round": count(data["round"]), "dealer": player(data["dealer"]), "size": count(max(sizes)),
            "count": count(data["pass_count"]), "direction": word(data["pass_direction"])}
    if data.get("hand"):
        return Message(DEALT_SEAT, {**args, "hand": piece(data["hand"])})
    return Message(DEALT_OTHERS, args)


def _passed(data: dict) -> Message:
    if data.get("cards"):
        return Message(PASSED_OWN, {"player": player(data["seat"]), "cards": piece(data["cards"])})
    return Message(PASSED_HIDDEN, {"player": player(data["seat"])})


def _exchanged(data: dict) -> Message:
    """A seat sees the two passes it took part in (what it gave, what it got); others none."""
    passes, direction = data["passes"], word(data["direction"])
    if len(passes) != 2:
        return Message(EXCHANGED_ALL, {"direction": direction})
    given, got = passes if passes[0]["from"] == passes[1]["to"] else passes[::-1]
    return Message(EXCHANGED_MINE, {
        "direction": direction, "player": player(given["from"]), "given": piece(given["cards"]),
        "taker": player(given["to"]), "received": piece(got["cards"]), "giver": player(got["from"])})


def _scored(data: dict) -> Message:
    spell = data.get("spell")
    if spell:
        args = {"round": count(data["round"]), "caster": player(spell["caster"]),
                "spell": word(SPELLS[spell["kind"]]), "points": count(spell["points"])}
        return Message(SPELL_SELF if spell["choice"] == "self" else SPELL_OTHERS, args)
    args = {"round": count(data["round"])}
    for i, (points, total) in enumerate(zip(data["points"], data["totals"]), start=1):
        args |= {f"player{i}": player(i - 1), f"points{i}": count(points), f"total{i}": count(total)}
    return Message(SCORED[len(data["totals"])], args)


def _ended(winners: Sequence[int], scores: Sequence[int], reason: str) -> Message:
    singular, plural = ENDED[len(winners)]
    args = {f"winner{i}": player(s) for i, s in enumerate(winners, start=1)}
    args |= {"why": word(REASONS[reason]), "score": count(scores[winners[0]])}
    return Message(singular, args, plural, "score")


def event(kind: str, data: dict[str, Any], actor: object) -> Message:
    if kind == "game_started":
        return _started(data)
    if kind == "round_dealt":
        return _dealt(data)
    if kind == "cards_passed":
        return _passed(data)
    if kind == "cards_exchanged":
        return _exchanged(data)
    if kind == "card_played":
        return Message(PLAYED, {"player": player(data["seat"]), "card": piece(data["card"])})
    if kind == "trick_taken":
        return Message(TAKEN, {"player": player(data["winner"]), "trick": count(data["trick"]),
                               "cards": piece(data["cards"])})
    if kind == "spell_chosen":
        return Message(CHOSE_SELF if data["choice"] == "self" else CHOSE_OTHERS, {"player": player(data["seat"])})
    if kind == "round_scored":
        return _scored(data)
    return _ended(data["winners"], data["scores"], data["reason"])


def result(res: dict) -> Message:
    return _ended(res["winners"], res["scores"], res["reason"])


ENDED_FORMS = [form for forms in ENDED.values() for form in forms]

# What a card does (a tooltip's line, GET /game-types/witches/rules): the fire cards, the five
# special cards and the wizards; the other cards only take tricks.
RED_EFFECT = "A fire card: 1 fire point to whoever takes it in a trick (doubled by the Fire Witch)."
WIZARD_EFFECT = ("No colour, worth 0: may always be played, even if you could follow. Never wins a trick, "
                 "unless every card in it is a wizard (then the first one wins).")
EFFECTS: dict[str, str] = {
    **{card: RED_EFFECT for card in RED_CARDS if card != FIRE_WITCH},
    FIRE_WITCH: ("Doubles the points of the red cards in your tricks, to at most 15; scores nothing herself, "
                 "but is one of the 14 red cards a spell needs."),
    WATER_WITCH: ("5 fire points, unless her taker also has the Air Witch. With all 14 red cards: "
                  "the Water Spell (the Great Fire Spell with the Pygmy Queen)."),
    PYGMY_QUEEN: ("10 fire points (5 by option), unless her taker also has the Air Witch. With all 14 red "
                  "cards: the Pygmy Spell (the Great Fire Spell with the Water Witch)."),
    EARTH_WITCH: ("Takes 5 fire points off the round of whoever takes her, never below 0 "
                  "(with the variant option, what is left over comes off their total)."),
    AIR_WITCH: "Cancels the fire points of the Water Witch and the Pygmy Queen taken by the same player.",
    **{card: WIZARD_EFFECT for card in WIZARDS},
}

WORDS = GameWords(
    names=NAMES,
    move=move,
    event=event,
    result=result,
    moves={"pass_cards": [PASS], "play": [LEAD, PLAY], "choose_spell": [GIVE, TAKE_OFF], "score_round": [SCORE]},
    events={
        "game_started": [STARTED_TARGET, *STARTED_ROUNDS],
        "round_dealt": [DEALT_SEAT, DEALT_OTHERS],
        "cards_passed": [PASSED_OWN, PASSED_HIDDEN],
        "cards_exchanged": [EXCHANGED_MINE, EXCHANGED_ALL],
        "card_played": [PLAYED],
        "trick_taken": [TAKEN],
        "spell_chosen": [CHOSE_OTHERS, CHOSE_SELF],
        "round_scored": [*SCORED.values(), SPELL_OTHERS, SPELL_SELF],
        "game_ended": ENDED_FORMS,
    },
    results=ENDED_FORMS,
    # the colours: a refusal names the colour to follow (domain/witches/rules.py)
    vocabulary=(*DIRECTIONS, *SPELLS.values(), *REASONS.values(), *COLOURS),
    effects=EFFECTS,
)
