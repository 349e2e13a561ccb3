"""What Splendor says in words (issue 32): the label of every move, the sentence of every event
and of the result, as messages (domain/words.py) that the platform renders per language.

Development cards have no proper names, so a card is named by what a player sees on it: its
level, bonus colour, points and cost ("level 2 blue card (3 points; cost 2 white + 3 red)"; no
two cards share all four). A noble is named by its requirement ("noble (4 white + 4 blue)").
The three decks are places ("sp-deck-2", "level 2 deck"), so a blind reserve can light the deck
it draws from. Token amounts are vocabulary phrases ("2 white", "1 gold"): a payment or a
return lists any number of colours, and one `word` list says them all in any language.

Events are said from the data the viewer sees: another seat's blind reserve has no card in it,
so it is "the top card of the level 2 deck", never the card.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..words import GameWords, Message, count, piece, place, player, word
from .data import CARD_BY_ID, CARDS, COLORS, GOLD, GOLD_TOKENS, NOBLE_BY_ID, NOBLES, TOKEN_NAMES

if TYPE_CHECKING:
    from domain.contract import Move

    from .data import Card, Noble
    from .state import State

MAX_AMOUNT = 7  # the most tokens of one colour a message counts (a card costs at most 7)


# ---- names ------------------------------------------------------------------------------

def _cost(numbers: Sequence[int]) -> str:
    return " + ".join(f"{n} {c}" for c, n in zip(COLORS, numbers) if n)


def _card_name(card: Card) -> str:
    points = "1 point" if card.points == 1 else f"{card.points} points"
    return f"level {card.level} {COLORS[card.bonus]} card ({points}; cost {_cost(card.cost)})"


DECKS = {level: f"sp-deck-{level}" for level in (1, 2, 3)}
NAMES = {
    **{card.id: _card_name(card) for card in CARDS},
    **{noble.id: f"noble ({_cost(noble.requires)})" for noble in NOBLES},
    **{deck: f"level {level} deck" for level, deck in DECKS.items()},
}
AMOUNTS = [f"{n} {c}" for c in COLORS for n in range(1, MAX_AMOUNT + 1)] + \
          [f"{n} gold" for n in range(1, GOLD_TOKENS + 1)]
VOCABULARY = [*TOKEN_NAMES, *AMOUNTS]


def _amounts(tokens: dict) -> dict:
    """A sparse token map as one word list, in the canonical colour order ("2 white, 1 gold")."""
    return word([f"{tokens[c]} {c}" for c in TOKEN_NAMES if c in tokens])


# ---- moves ------------------------------------------------------------------------------

TAKE = ("Take {n} gem: {colors}", "Take {n} gems: {colors}")
TAKE_TWO = "Take 2 {color} gems"
RESERVE = {True: "Reserve the {card} and take 1 gold", False: "Reserve the {card}, with no gold left to take"}
RESERVE_BLIND = {True: "Reserve the top card of the {deck} unseen and take 1 gold",
                 False: "Reserve the top card of the {deck} unseen, with no gold left to take"}
BUY = {("market", True): "Buy the {card}, paying {payment}",
       ("market", False): "Buy the {card} for nothing: your bonuses cover it",
       ("reserve", True): "Buy your reserved {card}, paying {payment}",
       ("reserve", False): "Buy your reserved {card} for nothing: your bonuses cover it"}
RETURN = "Return {tokens}"
CHOOSE = "Have the {noble} visit you"
PASS = "Pass: no other action is possible"
SCORE = "Score the game"


def _take(state: State, seat: int, move: Move) -> Message:
    n = len(move["colors"])
    return Message(TAKE[0], {"n": count(n), "colors": word(move["colors"])}, plural=TAKE[1], count="n")


def _buy(state: State, seat: int, move: Move) -> Message:
    card = move["card"]
    source = "reserve" if CARD_BY_ID[card] in state.players[seat].reserved else "market"
    paying = bool(move["payment"])
    args = {"card": piece(card), **({"payment": _amounts(move["payment"])} if paying else {})}
    return Message(BUY[source, paying], args)


MOVES: dict[str, Callable[[State, int, Move], Message]] = {
    "take_gems": _take,
    "take_two": lambda state, seat, move: Message(TAKE_TWO, {"color": word(move["color"])}),
    "reserve": lambda state, seat, move: Message(RESERVE[state.supply[GOLD] > 0], {"card": piece(move["card"])}),
    "reserve_blind": lambda state, seat, move: Message(RESERVE_BLIND[state.supply[GOLD] > 0],
                                                       {"deck": place(DECKS[move["level"]])}),
    "buy": _buy,
    "return_tokens": lambda state, seat, move: Message(RETURN, {"tokens": _amounts(move["tokens"])}),
    "choose_noble": lambda state, seat, move: Message(CHOOSE, {"noble": piece(move["noble"])}),
    "pass": lambda state, seat, move: Message(PASS),
    "score_game": lambda state, seat, move: Message(SCORE),
}


def say_move(state: State, seat: int, move: Move) -> Message:
    return MOVES[move["type"]](state, seat, move)


# ---- results (also the sentence of game_scored) -------------------------------------------

WINS = {  # per number of winners: (singular, plural) by the points
    1: ("{first} wins with {points} point", "{first} wins with {points} points"),
    2: ("{first} and {second} share the win with {points} point each",
        "{first} and {second} share the win with {points} points each"),
    3: ("{first}, {second} and {third} share the win with {points} point each",
        "{first}, {second} and {third} share the win with {points} points each"),
    4: ("{first}, {second}, {third} and {fourth} share the win with {points} point each",
        "{first}, {second}, {third} and {fourth} share the win with {points} points each"),
}
ON_FEWER_CARDS = ("{first} wins with {points} point, having bought fewer cards than those tied with them",
                  "{first} wins with {points} points, having bought fewer cards than those tied with them")
BLOCKED = "Nobody can act any more. "
ORDINALS = ("first", "second", "third", "fourth")


def _ended(forms: tuple, blocked: bool) -> tuple:
    return tuple(BLOCKED + form for form in forms) if blocked else forms


def say_result(result: dict) -> Message:
    winners = result["winners"]
    forms = ON_FEWER_CARDS if result["tie_break"] == "fewest_cards" else WINS[len(winners)]
    singular, plural = _ended(forms, result["reason"] == "blocked")
    args = {name: player(seat) for name, seat in zip(ORDINALS, winners)}
    args["points"] = count(result["scores"][winners[0]])
    return Message(singular, args, plural=plural, count="points")


RESULTS = [form for blocked in (False, True) for forms in (*WINS.values(), ON_FEWER_CARDS)
           for form in _ended(forms, blocked)]


# ---- events -----------------------------------------------------------------------------

STARTED = {False: "The game begins for {n} players, with {gems} gems of each colour and {gold} gold. "
                  "Nobles: {nobles}. Face-up cards: {cards}.",
           True: "The game begins for {n} players, with {gems} gems of each colour and {gold} gold; "
                 "gems of different colours are only ever taken 3 at a time. Nobles: {nobles}. Face-up cards: {cards}."}
TOOK = ("{player} takes {n} gem: {colors}", "{player} takes {n} gems: {colors}")
TOOK_TWO = "{player} takes 2 {color} gems"
GOLD_SAID = {1: "and takes 1 gold", 0: "with no gold left to take"}
RESERVED_FACE_UP = {(gold, refilled): f"{{player}} reserves the {{card}} {said}; "
                    + ("the {refill} takes its place" if refilled else "its place stays empty")
                    for gold, said in GOLD_SAID.items() for refilled in (True, False)}
RESERVED_SEEN = {1: "{player} reserves the top card of the {deck}, the {card}, and takes 1 gold",
                 0: "{player} reserves the top card of the {deck}, the {card}, with no gold left to take"}
RESERVED_UNSEEN = {gold: f"{{player}} reserves the top card of the {{deck}} face down {said}"
                   for gold, said in GOLD_SAID.items()}
PAID = {True: ", paying {payment}", False: " for nothing"}
BOUGHT_FACE_UP = {(paying, refilled): f"{{player}} buys the {{card}}{said}; "
                  + ("the {refill} takes its place" if refilled else "its place stays empty")
                  for paying, said in PAID.items() for refilled in (True, False)}
BOUGHT_RESERVED = {paying: f"{{player}} buys the reserved {{card}}{said}" for paying, said in PAID.items()}
RETURNED = "{player} returns {tokens}"
VISITED = ("The {noble} visits {player}: {points} point", "The {noble} visits {player}: {points} points")
PASSED = "{player} passes: no action is possible"


def _started(data: dict[str, Any], actor: object) -> Message:
    supply = data["supply"]
    args = {"n": count(data["n_seats"]), "gems": count(supply["white"]), "gold": count(supply["gold"]),
            "nobles": piece(data["nobles"]), "cards": piece([c for row in data["market"] for c in row])}
    return Message(STARTED[bool(data["options"]["strict_take_three"])], args)


def _taken(data: dict[str, Any], actor: object) -> Message:
    tokens, who = data["tokens"], player(data["seat"])
    if len(tokens) == 1 and 2 in tokens.values():
        return Message(TOOK_TWO, {"player": who, "color": word(next(iter(tokens)))})
    colors = [c for c in TOKEN_NAMES if c in tokens]
    return Message(TOOK[0], {"player": who, "n": count(len(colors)), "colors": word(colors)},
                   plural=TOOK[1], count="n")


def _refill(data: dict[str, Any], args: dict[str, Any]) -> bool:
    if data.get("refill"):
        args["refill"] = piece(data["refill"])
    return "refill" in args


def _reserved(data: dict[str, Any], actor: object) -> Message:
    args, gold = {"player": player(data["seat"])}, data["gold"]
    if data["source"] == "market":
        args["card"] = piece(data["card"])
        return Message(RESERVED_FACE_UP[gold, _refill(data, args)], args)
    args["deck"] = place(DECKS[data["level"]])
    if "card" not in data:  # another seat's blind reserve: the card is not shown
        return Message(RESERVED_UNSEEN[gold], args)
    args["card"] = piece(data["card"])
    return Message(RESERVED_SEEN[gold], args)


def _bought(data: dict[str, Any], actor: object) -> Message:
    args = {"player": player(data["seat"]), "card": piece(data["card"])}
    paying = bool(data["payment"])
    if paying:
        args["payment"] = _amounts(data["payment"])
    if data["source"] == "reserve":
        return Message(BOUGHT_RESERVED[paying], args)
    return Message(BOUGHT_FACE_UP[paying, _refill(data, args)], args)


def _visited(data: dict[str, Any], actor: object) -> Message:
    points = NOBLES[NOBLE_BY_ID[data["noble"]]].points
    args = {"noble": piece(data["noble"]), "player": player(data["seat"]), "points": count(points)}
    return Message(VISITED[0], args, plural=VISITED[1], count="points")


EVENTS: dict[str, Callable[[dict[str, Any], object], Message]] = {
    "game_started": _started,
    "gems_taken": _taken,
    "card_reserved": _reserved,
    "card_bought": _bought,
    "tokens_returned": lambda data, actor: Message(RETURNED, {"player": player(data["seat"]),
                                                              "tokens": _amounts(data["tokens"])}),
    "noble_visited": _visited,
    "turn_passed": lambda data, actor: Message(PASSED, {"player": player(data["seat"])}),
    "game_scored": lambda data, actor: say_result(data),
}


def say_event(kind: str, data: dict[str, Any], actor: object) -> Message:
    return EVENTS[kind](data, actor)


# ---- effects (a tooltip's line per card and noble) ------------------------------------------

def _points(n: int) -> str:
    return "No points" if n == 0 else "Worth 1 point" if n == 1 else f"Worth {n} points"


def _card_effect(card: Card) -> str:
    color = COLORS[card.bonus]
    return (f"A lasting {color} bonus: 1 {color} off the cost of every card you buy after it; it also counts "
            f"towards nobles. {_points(card.points)}.")


def _requirement(numbers: Sequence[int]) -> str:
    parts = [f"{n} {c}" for c, n in zip(COLORS, numbers) if n]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _noble_effect(noble: Noble) -> str:
    return (f"Visits you at the end of a turn once your bought cards give {_requirement(noble.requires)} "
            f"bonuses (tokens never count): {noble.points} points.")


EFFECTS: dict[str, str] = {
    **{card.id: _card_effect(card) for card in CARDS},
    **{noble.id: _noble_effect(noble) for noble in NOBLES},
}


WORDS = GameWords(
    names=NAMES,
    move=say_move,
    event=say_event,
    result=say_result,
    moves={"take_gems": TAKE, "take_two": [TAKE_TWO], "reserve": list(RESERVE.values()),
           "reserve_blind": list(RESERVE_BLIND.values()), "buy": list(BUY.values()),
           "return_tokens": [RETURN], "choose_noble": [CHOOSE], "pass": [PASS], "score_game": [SCORE]},
    events={"game_started": list(STARTED.values()),
            "gems_taken": [*TOOK, TOOK_TWO],
            "card_reserved": [*RESERVED_FACE_UP.values(), *RESERVED_SEEN.values(), *RESERVED_UNSEEN.values()],
            "card_bought": [*BOUGHT_FACE_UP.values(), *BOUGHT_RESERVED.values()],
            "tokens_returned": [RETURNED],
            "noble_visited": list(VISITED),
            "turn_passed": [PASSED],
            "game_scored": RESULTS},
    results=RESULTS,
    vocabulary=VOCABULARY,
    effects=EFFECTS,
)
