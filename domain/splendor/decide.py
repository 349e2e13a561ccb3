"""decide: checks a move from an untrusted client and returns the events it causes.

Every path either returns events or raises MoveRejected with a stable code. Moves must have
exactly the canonical shape `legal_moves` lists (see moves.py), so a move is accepted if and
only if it is listed. After the action event, when exactly one noble qualifies and the turn
is not waiting for returned tokens, `noble_visited` follows at once (it cannot be refused).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from ..contract import SYSTEM, MoveRejected, is_seat
from ..words import seat as seat_arg
from ..words import word
from .data import (
    CARD_BY_ID,
    CARD_IDS,
    CARDS,
    COLOR_INDEX,
    COLORS,
    GOLD,
    NOBLE_BY_ID,
    NOBLE_IDS,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    TOKEN_NAMES,
    sparse_tokens,
)
from .moves import PASS, play_moves, take_gem_choices
from .rules import outcome
from .state import NOBLE, OVER, PLAY, RETURN, SCORE, State, qualifying_nobles

if TYPE_CHECKING:
    import random

    from domain.contract import Actor, Event, Move


def _reject(code: str, template: str, **args: Any) -> NoReturn:
    """Refuses with `template` (its placeholders filled by `args`: MoveRejected)."""
    raise MoveRejected(code, template, args=args)


def _quote(value: object) -> str:
    """A client's value quoted in a message, cut short (it may be anything, of any size)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _shape(move: Move, **fields: type) -> None:
    """The move has exactly these keys ("type" plus `fields`) with values of these types."""
    if set(move) != {"type", *fields}:
        if not fields:
            _reject("invalid_move", "A {move} move takes no field but type.", move=move["type"])
        _reject("invalid_move", "A {move} move takes exactly: type, {fields}.", move=move["type"],
                fields=", ".join(sorted(fields)))
    for name, kind in fields.items():
        value = move[name]
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            _reject("invalid_move", "The field {field} must be a whole number.", field=name)
        if not isinstance(value, kind):
            _reject("invalid_move", "The field {field} has the wrong type.", field=name)


def _token_map(value: object, what: str) -> tuple[int, ...]:
    """A sparse {colour: positive int} map as a 6-slot tuple; anything else is invalid_move."""
    if not isinstance(value, dict):
        _reject("invalid_move", "The {field} must be a map from token colour to a number.", field=what)
    counts = [0] * 6
    for name, n in value.items():
        if name not in COLOR_INDEX:
            _reject("invalid_move", "{value} is not a token colour (white, blue, green, red, black, gold).",
                    value=_quote(name))
        if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n > 99:
            _reject("invalid_move", "The {field} lists each colour with a positive number; leave out colours you "
                    "do not use.", field=what)
        counts[COLOR_INDEX[name]] = n
    return tuple(counts)


def _take_gems(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, colors=list)
    colors = move["colors"]
    if not all(isinstance(c, str) for c in colors):
        _reject("invalid_move", "colors must be a list of colour names.")
    if "gold" in colors:
        _reject("illegal_move", "Gold can only be gained by reserving a card.")
    if any(c not in COLORS for c in colors) or len(set(colors)) != len(colors):
        _reject("invalid_move", "Name distinct gem colours: white, blue, green, red, black.")
    if colors not in take_gem_choices(state):
        for c in colors:
            if state.supply[COLOR_INDEX[c]] == 0:
                _reject("not_enough_gems", "There is no {color} gem left in the supply.", color=word(c))
        if len(colors) != 3:
            _reject("illegal_move", "Take 3 gems of different colours (fewer only when fewer than 3 colours "
                    "are left and the game allows it, and then one of each colour left).")
        _reject("invalid_move", "List the colours in the order white, blue, green, red, black.")
    return [{"type": "gems_taken", "seat": seat, "tokens": {c: 1 for c in colors}}]


def _take_two(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, color=str)
    color = move["color"]
    if color not in COLORS:
        _reject("invalid_move", "{value} is not a gem colour (gold cannot be taken).", value=_quote(color))
    if state.supply[COLOR_INDEX[color]] < 4:
        _reject("not_enough_gems", "Taking 2 {color} gems needs at least 4 of them in the supply.", color=word(color))
    return [{"type": "gems_taken", "seat": seat, "tokens": {color: 2}}]


def _check_reserve_limit(state: State, seat: int) -> None:
    if len(state.players[seat].reserved) >= RESERVE_LIMIT:
        _reject("reserve_limit", "You already hold {n} reserved cards: buy one before reserving again.",
                n=RESERVE_LIMIT)


def _gold_for(state: State) -> int:
    return 1 if state.supply[GOLD] > 0 else 0


def _refill(state: State, level: int) -> str | None:
    deck = state.decks[level - 1]
    return CARD_IDS[deck[0]] if deck else None


def _reserve(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, card=str)
    card = CARD_BY_ID.get(move["card"])
    if card is None or card not in state.market[CARDS[card].level - 1]:
        _reject("card_not_available", "That card is not face up on the table.")
    _check_reserve_limit(state, seat)
    level = CARDS[card].level
    return [{"type": "card_reserved", "seat": seat, "card": CARD_IDS[card], "level": level,
             "source": "market", "gold": _gold_for(state), "refill": _refill(state, level)}]


def _reserve_blind(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, level=int)
    level = move["level"]
    if level not in (1, 2, 3):
        _reject("invalid_move", "The level is 1, 2 or 3.")
    if not state.decks[level - 1]:
        _reject("deck_empty", "The level {level} deck is empty.", level=level)
    _check_reserve_limit(state, seat)
    return [{"type": "card_reserved", "seat": seat, "card": CARD_IDS[state.decks[level - 1][0]],
             "level": level, "source": "deck", "gold": _gold_for(state), "refill": None}]


def _buy(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, card=str, payment=dict)
    card = CARD_BY_ID.get(move["card"])
    player = state.players[seat]
    if card is not None and card in player.reserved:
        source = "reserve"
    elif card is not None and card in state.market[CARDS[card].level - 1]:
        source = "market"
    else:
        _reject("card_not_available", "You can buy a face-up card or one of your own reserved cards only.")
    paid = _token_map(move["payment"], "payment")
    need = tuple(max(0, c - b) for c, b in zip(CARDS[card].cost, player.bonuses))
    for i in range(6):
        if paid[i] > player.tokens[i]:
            _reject("cannot_afford", "You do not have {n} {color} tokens.", n=paid[i], color=word(TOKEN_NAMES[i]))
    for i in range(5):
        if paid[i] > need[i]:
            _reject("wrong_payment", "The card needs only {n} {color} after your bonuses.", n=need[i],
                    color=word(COLORS[i]))
    gold_needed = sum(need) - sum(paid[:5])
    if paid[GOLD] > gold_needed:
        _reject("wrong_payment", "You pay more gold than the card needs.")
    if paid[GOLD] < gold_needed:
        _reject("cannot_afford", "The payment does not cover the card's cost after your bonuses.")
    refill = _refill(state, CARDS[card].level) if source == "market" else None
    return [{"type": "card_bought", "seat": seat, "card": CARD_IDS[card], "source": source,
             "payment": sparse_tokens(paid), "points": CARDS[card].points, "refill": refill}]


def _pass(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move)
    if play_moves(state, seat) != [PASS]:
        _reject("illegal_move", "You can still act: pass is allowed only when no other action is possible.")
    return [{"type": "turn_passed", "seat": seat}]


def _return_tokens(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, tokens=dict)
    back = _token_map(move["tokens"], "tokens")
    player = state.players[seat]
    if any(b > t for b, t in zip(back, player.tokens)):
        _reject("illegal_move", "You cannot return tokens you do not hold.")
    excess = sum(player.tokens) - TOKEN_LIMIT
    if sum(back) != excess:
        _reject("wrong_return", "Return exactly {n} token(s) to keep {limit}.", n=excess, limit=TOKEN_LIMIT)
    return [{"type": "tokens_returned", "seat": seat, "tokens": sparse_tokens(back)}]


def _choose_noble(state: State, seat: int, move: Move) -> list[Event]:
    _shape(move, noble=str)
    noble = NOBLE_BY_ID.get(move["noble"])
    if noble is None or noble not in qualifying_nobles(state.players[seat].bonuses, state.nobles):
        _reject("illegal_move", "That noble is not on the table or your bonuses do not meet its requirement.")
    return [{"type": "noble_visited", "seat": seat, "noble": NOBLE_IDS[noble]}]


PLAY_ACTIONS = {"take_gems": _take_gems, "take_two": _take_two, "reserve": _reserve,
                "reserve_blind": _reserve_blind, "buy": _buy, "pass": _pass}
PHASE_ACTIONS = {PLAY: PLAY_ACTIONS, RETURN: {"return_tokens": _return_tokens},
                 NOBLE: {"choose_noble": _choose_noble}}
ALL_TYPES = set(PLAY_ACTIONS) | {"return_tokens", "choose_noble", "score_game"}
def _auto_noble(state: State, seat: int, events: list) -> list:
    """Appends the one noble that must visit when the action ends the turn with exactly one
    qualifying (several: the seat chooses; over 10 tokens: returning comes first). Computed
    from the event rather than by evolving it: this runs on every move."""
    event = events[-1]
    kind = event["type"]
    if kind == "noble_visited":
        return events
    player = state.players[seat]
    bonuses = list(player.bonuses)
    total = sum(player.tokens)
    if kind == "gems_taken":
        total += sum(event["tokens"].values())
    elif kind == "card_reserved":
        total += event["gold"]
    elif kind == "card_bought":
        total -= sum(event["payment"].values())
        bonuses[CARDS[CARD_BY_ID[event["card"]]].bonus] += 1
    elif kind == "tokens_returned":
        total -= sum(event["tokens"].values())
    if total > TOKEN_LIMIT:
        return events
    nobles = qualifying_nobles(bonuses, state.nobles)
    if len(nobles) == 1:
        events.append({"type": "noble_visited", "seat": seat, "noble": NOBLE_IDS[nobles[0]]})
    return events


def decide(state: State, actor: Actor, move: Move, rng: random.Random | None = None) -> list[Event]:
    if state.phase == OVER:
        _reject("game_over", "The game is over.")
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        _reject("invalid_move", "A move is a JSON object with a string field \"type\".")
    kind = move["type"]
    if kind not in ALL_TYPES:
        _reject("unknown_move_type", "There is no move called {value} in Splendor.", value=_quote(kind))
    if state.phase == SCORE:
        if actor != SYSTEM:
            _reject("not_your_turn", "The game is over and waits to be scored.")
        if kind != "score_game" or set(move) != {"type"}:
            _reject("invalid_move", "The only move now is {\"type\": \"score_game\"}.")
        return [{"type": "game_scored", **outcome(state)}]
    if not is_seat(actor) or actor != state.seat:
        _reject("not_your_turn", "It is {seat}'s turn.", seat=seat_arg(state.seat))
    handler = PHASE_ACTIONS[state.phase].get(kind)
    if handler is None:
        if state.phase == RETURN:
            _reject("must_return_tokens", "You hold more than 10 tokens: return tokens first.")
        if state.phase == NOBLE:
            _reject("must_choose_noble", "Several nobles want to visit you: choose one first.")
        _reject("illegal_move", "A {move} move is not possible now.", move=kind)
    return _auto_noble(state, actor, handler(state, actor, move))
