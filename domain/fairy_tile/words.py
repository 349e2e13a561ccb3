"""What Fairy Tile says in words (issue 32): the labels of its moves, the sentences of its events
and of its result, as messages (domain/words.py) the platform renders in the reader's language.

Pieces are named as a person calls them: a figure by its name ("Princess"), a story card by its
title, a tile by its face. A kingdom tile is double-sided and the side that came up is the one
laid, so the name belongs to a face: the piece id of a face is "<tile id>:<side>"
("ft-tile-7:a", the tile and side of the view's `next_tile` / `laid_tiles`), named by its
terrains ("forest-mountain-plain tile with a river"). Hexes are coordinate places "q,r",
shown "(q, r)". A tile's placement is said hex by hex ("forest on (1, 2), ..."), which tells
its rotation better than a number.

Everything said comes from what the viewer sees: a card drawn by another player is "a card".
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from domain.words import GameWords, Message, count, piece, place, player, word

from .data import CARDS
from .hexgrid import DIR_NAMES
from .movement import MOVERS
from .tiles import KINGDOM_TILES, face, placed_hexes

if TYPE_CHECKING:
    from collections.abc import Collection

    from domain.contract import Move

    from .state import State

DIRECTIONS = dict(zip(DIR_NAMES, ("east", "south-east", "south-west", "west", "north-west", "north-east")))
TERRAIN_WORDS = ("plain", "forest", "mountain", "castle")
RIVER_WORDS = tuple(f"{t} with a river" for t in TERRAIN_WORDS)


def face_id(tile: str, side: str) -> str:
    return f"{tile}:{side}"


def _face_name(tile: str, side: str) -> str:
    cells = face(tile, side)
    name = "-".join(c["terrain"] for c in cells) + " tile"
    return name + " with a river" if any(c["river"] for c in cells) else name


NAMES = {
    "princess": "Princess", "knight": "Knight", "dragon": "Dragon",
    **{cid: card["title"] for cid, card in CARDS.items()},
    **{face_id(t, s): _face_name(t, s) for t in KINGDOM_TILES for s in ("a", "b")},
}


def _hex(h: Sequence[int]) -> dict[str, Any]:
    return place(f"{h[0]},{h[1]}")


def _terrain(terrain: str, rivers: Collection[int]) -> str:
    return f"{terrain} with a river" if rivers else terrain


def _players(seats: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """"{p1}", "{p1} and {p2}", "{p1}, {p2} and {p3}" ... and their player args."""
    keys = [f"p{i + 1}" for i in range(len(seats))]
    marks = [f"{{{k}}}" for k in keys]
    text = marks[0] if len(marks) == 1 else ", ".join(marks[:-1]) + " and " + marks[-1]
    return text, {k: player(s) for k, s in zip(keys, seats)}


# --- moves -------------------------------------------------------------------------------------

M_STEP = "Move the {figure} to {to}"
M_PRINCESS_JUMP = "Move the {figure} to {to} by way of the castle at {via}"
M_KNIGHT = "Move the {figure} to {to} through {via}"
M_DRAGON = "Fly the {figure} {direction} to {to}"
M_LAY = "Lay the {tile}: {t1} on {h1}, {t2} on {h2}, {t3} on {h3}"
M_TURN = "Turn the page: put “{card}” under your book, draw the next card and make your magic token active"
M_FINISH = "End your turn after one adventure, keeping your magic token"


def _figure_label(state: State, move: Move) -> Message:
    figure = move["figure"]
    if figure == "dragon":
        at = state.position("dragon")
        to = next(to for d, to, _, _ in MOVERS["dragon"](state.kingdom, at) if DIR_NAMES[d] == move["direction"])
        return Message(M_DRAGON, {"figure": piece(figure), "direction": word(DIRECTIONS[move["direction"]]),
                                  "to": _hex(to)})
    args = {"figure": piece(figure), "to": _hex(move["to"])}
    if "via" not in move:
        return Message(M_STEP, args)
    return Message(M_KNIGHT if figure == "knight" else M_PRINCESS_JUMP, {**args, "via": _hex(move["via"])})


def _placement(tile: str, side: str, at: Sequence[int], rotation: int) -> dict[str, Any]:
    """The args naming a laid tile and which terrain goes on which hex."""
    args = {"tile": piece(face_id(tile, side))}
    for i, (h, terrain, rivers, _) in enumerate(placed_hexes(tile, side, tuple(at), rotation), 1):
        args[f"t{i}"], args[f"h{i}"] = word(_terrain(terrain, rivers)), _hex(h)
    return args


def move(state: State, seat: int, move: Move) -> Message:
    kind = move["type"]
    if kind == "move":
        return _figure_label(state, move)
    if kind == "lay_tile":
        tile, side = state.pile[0]
        return Message(M_LAY, _placement(tile, side, move["at"], move["rotation"]))
    if kind == "turn_page":
        return Message(M_TURN, {"card": piece(state.seats[seat].hand)})
    return Message(M_FINISH)


MOVES = {
    "move": [M_STEP, M_PRINCESS_JUMP, M_KNIGHT, M_DRAGON],
    "lay_tile": [M_LAY],
    "turn_page": [M_TURN],
    "finish": [M_FINISH],
}

# --- events ------------------------------------------------------------------------------------

E_SET_UP = ("The story begins: each player has a story book of {n} cards, "
            "and the {tile} lies on top of the pile of {tiles} kingdom tiles")
E_SET_UP_HAND = E_SET_UP + "; your first card is “{card}”"
E_MOVED = "{player} moved the {figure} from {from} to {to}"
E_MOVED_CASTLE = "{player} moved the {figure} from {from} to {to}, passing a castle"
E_LAID = "{player} laid the {tile}: {t1} on {h1}, {t2} on {h2}, {t3} on {h3}; next on the pile: the {next}"
E_LAID_LAST = "{player} laid the {tile}: {t1} on {h1}, {t2} on {h2}, {t3} on {h3}; the pile is now empty"
E_MAGIC = "{player} turns their magic token over for a second adventure"
E_TOLD = "{player} tells the story “{card}”"
E_TOLD_DREW = "{player} tells the story “{card}” and draws “{drawn}”"
E_TOLD_LAST = "{player} tells the story “{card}”, the last card of their book"
E_PAGE = "{player} turns the page: their card goes under their book, they draw a card and their magic token is active"
E_PAGE_DREW = ("{player} turns the page: their card goes under their book, "
               "they draw “{drawn}” and their magic token is active")
E_OUT = "{player} is out: their last card can no longer be told"
E_TURN = "{player}'s turn is over; now it is {next}'s turn"
E_BOOK_DONE = "{p1} has told their whole story book and wins"
E_ALL_OUT = "Nobody can finish their story: the game ends without a winner"
E_LIMIT = ["The round limit is reached: {p1} wins",
           *[f"The round limit is reached: {_players(range(k))[0]} share the win" for k in (2, 3, 4)]]


def _set_up(data: dict[str, Any]) -> Message:
    if "books" in data:  # the unredacted event
        n, tiles, top = len(data["books"][0]), len(data["pile"]), data["pile"][0]
    else:
        n, tiles, top = data["book_sizes"][0] + 1, data["pile_size"], data["next_tile"]
    args = {"n": count(n), "tiles": count(tiles), "tile": piece(face_id(*top))}
    if data.get("hand"):
        return Message(E_SET_UP_HAND, {**args, "card": piece(data["hand"])})
    return Message(E_SET_UP, args)


def _moved(data: dict[str, Any]) -> Message:
    args = {"player": player(data["seat"]), "figure": piece(data["figure"]),
            "from": _hex(data["from"]), "to": _hex(data["to"])}
    return Message(E_MOVED_CASTLE if data["passed_castle"] else E_MOVED, args)


def _laid(data: dict[str, Any]) -> Message:
    args = {"player": player(data["seat"]), **_placement(data["tile"], data["side"], data["at"], data["rotation"])}
    if data.get("next_tile"):
        return Message(E_LAID, {**args, "next": piece(face_id(*data["next_tile"]))})
    return Message(E_LAID_LAST, args)


def _told(data: dict[str, Any]) -> Message:
    args = {"player": player(data["seat"]), "card": piece(data["card"])}
    if "drawn" not in data:  # another player's draw: not seen
        return Message(E_TOLD, args)
    if data["drawn"] is None:
        return Message(E_TOLD_LAST, args)
    return Message(E_TOLD_DREW, {**args, "drawn": piece(data["drawn"])})


def _page(data: dict[str, Any]) -> Message:
    if data.get("drawn"):
        return Message(E_PAGE_DREW, {"player": player(data["seat"]), "drawn": piece(data["drawn"])})
    return Message(E_PAGE, {"player": player(data["seat"])})


def _ended(data: dict[str, Any]) -> Message:
    winners = data["winners"]
    if data["reason"] == "book_finished":
        return Message(E_BOOK_DONE, {"p1": player(winners[0])})
    if not winners:
        return Message(E_ALL_OUT)
    return Message(E_LIMIT[len(winners) - 1], _players(winners)[1])


def event(kind: str, data: dict[str, Any], actor: object) -> Message:
    one = {"player": player(data["seat"])} if "seat" in data else {}
    if kind == "magic_used":
        return Message(E_MAGIC, one)
    if kind == "player_out":
        return Message(E_OUT, one)
    if kind == "turn_ended":
        return Message(E_TURN, {**one, "next": player(data["next"])})
    return _EVENTS[kind](data)


_EVENTS = {"game_set_up": _set_up, "figure_moved": _moved, "tile_laid": _laid, "card_told": _told,
           "page_turned": _page, "game_ended": _ended}

EVENTS = {
    "game_set_up": [E_SET_UP, E_SET_UP_HAND],
    "figure_moved": [E_MOVED, E_MOVED_CASTLE],
    "tile_laid": [E_LAID, E_LAID_LAST],
    "magic_used": [E_MAGIC],
    "card_told": [E_TOLD, E_TOLD_DREW, E_TOLD_LAST],
    "page_turned": [E_PAGE, E_PAGE_DREW],
    "player_out": [E_OUT],
    "turn_ended": [E_TURN],
    "game_ended": [E_BOOK_DONE, E_ALL_OUT, *E_LIMIT],
}

# --- result ------------------------------------------------------------------------------------

R_BOOK_DONE = "{p1} wins, having told all {n} cards of their story book"
R_ALL_OUT = "Nobody wins: every player is caught in a never-ending story"
R_LIMIT = [(f"{who} {verb} at the round limit with {{n}} told card{each}",
            f"{who} {verb} at the round limit with {{n}} told cards{each}")
           for who, verb, each in [("{p1}", "wins", "")]
           + [(_players(range(k))[0], "share the win", " each") for k in (2, 3, 4)]]


def result(res: dict) -> Message:
    winners = res["winners"]
    if not winners:
        return Message(R_ALL_OUT)
    n = count(res["scores"][winners[0]])
    if res["reason"] == "book_finished":
        return Message(R_BOOK_DONE, {"p1": player(winners[0]), "n": n})
    one, many = R_LIMIT[len(winners) - 1]
    return Message(one, {**_players(winners)[1], "n": n}, plural=many, count="n")


# --- effects -----------------------------------------------------------------------------------

# What a tooltip says of a figure (how it moves) and of a story card (its condition: what must be
# true at the end of the teller's turn).
EFFECTS: dict[str, str] = {
    "princess": "Moves 1 step to an adjacent hex; with that step she may jump from a castle to any other "
                "castle (step onto a castle then jump, or jump then step).",
    "knight": "Moves exactly 2 steps through the kingdom, ending 2 hexes away: never where he began nor next to it.",
    "dragon": "Flies straight in one of the 6 directions to the last hex before a gap or the kingdom's edge, "
              "never stopping midway.",
    "ft-card-1": "The Princess passes a castle: this turn she arrives at or moves through a castle.",
    "ft-card-2": "The Dragon arrives on a big mountain (3 or more connected mountain hexes).",
    "ft-card-3": "The Princess arrives in a big forest (3 or more connected forest hexes).",
    "ft-card-4": "The Knight sees 3 forests in a line: 3 forest hexes on one of his lines of sight, "
                 "his own hex included.",
    "ft-card-5": "The Princess and the Knight meet in a forest.",
    "ft-card-6": "The Princess arrives on a hex with a river.",
    "ft-card-7": "The Dragon passes a castle: this turn he lands on or flies over a castle.",
    "ft-card-8": "The Dragon sees a big plain (3 or more connected plain hexes).",
    "ft-card-9": "The Knight arrives at a castle.",
    "ft-card-10": "The Princess and the Knight meet on a plain.",
    "ft-card-11": "The Dragon sees the Knight.",
    "ft-card-12": "The Princess sees the Dragon.",
    "ft-card-13": "The Dragon arrives on a big river (a river course of 5 or more hexes).",
    "ft-card-14": "The Princess and the Dragon meet on a mountain.",
    "ft-card-15": "The Knight sees both the Dragon and the Princess (not necessarily on one line).",
    "ft-card-16": "The Dragon arrives at a castle and sees the Princess or the Knight.",
    "ft-card-17": "The Knight arrives on a big plain (3 or more connected plain hexes).",
    "ft-card-18": "The Knight arrives on a big mountain (3 or more connected mountain hexes).",
    "ft-card-19": "The Princess sees 3 mountains in a line: 3 mountain hexes on one of her lines of sight, "
                  "her own hex included.",
    "ft-card-20": "The Princess arrives on a hex with a river or on a big plain.",
    "ft-card-21": "The Dragon sees a big forest and the Princess.",
    "ft-card-22": "The Knight arrives on a hex with a river.",
    "ft-card-23": "The Dragon arrives on a mountain and sees a castle.",
    "ft-card-24": "The Dragon sees 3 plains in a line: 3 plain hexes on one of his lines of sight, "
                  "his own hex included.",
    "ft-card-25": "The Knight passes a castle: this turn he moves through or ends on a castle.",
    "ft-card-26": "The Princess arrives at a castle.",
    "ft-card-27": "The Knight sees a big river (a river course of 5 or more hexes).",
    "ft-card-28": "The Knight and the Dragon meet on a mountain.",
    "ft-card-29": "The Knight and the Dragon meet anywhere, and the Knight sees a big river.",
    "ft-card-30": "The Dragon arrives in a forest and sees the Knight.",
    "ft-card-31": "The Dragon passes a castle and, where he ends, sees the Princess.",
    "ft-card-32": "The Princess sees both the Knight and the Dragon.",
    "ft-card-33": "The Dragon and the Princess meet on a plain.",
    "ft-card-34": "The Knight arrives on a plain and sees the Dragon.",
    "ft-card-35": "The Princess arrives at a castle and sees a river.",
    "ft-card-36": "The Princess and the Knight meet at a castle.",
}


WORDS = GameWords(
    names=NAMES,
    move=move,
    event=event,
    result=result,
    moves=MOVES,
    events=EVENTS,
    results=[R_BOOK_DONE, R_ALL_OUT, *[form for pair in R_LIMIT for form in pair]],
    vocabulary=(*DIRECTIONS.values(), *TERRAIN_WORDS, *RIVER_WORDS),
    effects=EFFECTS,
)
