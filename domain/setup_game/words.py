"""SetUp in words (issue 32): the names of its tiles and squares, a label for each legal move,
a sentence for each event and for the result (domain/words.py; Korean in setup.po).

Tiles are named by suit and number ("heart 7"), squares by where a person finds them on the
board as drawn (web/boards/setup.js: north at the top): the four common squares in the middle
("top-left common square") and each side's two bonus squares ("left north bonus square").
A play's label pairs each tile with its square, so it has one template per number of tiles
(1 to 8). Points need no plural forms: a set has at least 2 tiles, and the finish is 23 or more.
Events are said from the data as the viewer sees it: another seat's drawn or swapped tiles
are null there, so they are counted ("drew 2 tiles"), never named.
"""
from __future__ import annotations

from domain.contract import Actor
from domain.words import GameWords, Message, count, piece, place, player

from .data import NUMBER, SQUARE_IDS, SUIT, SUITS, TILE_IDS
from .plays import check_play, parse_place
from .state import State

SQUARES = {
    "C1": "top-left common square", "C2": "top-right common square",
    "C3": "bottom-left common square", "C4": "bottom-right common square",
    "N1": "left north bonus square", "N2": "right north bonus square",
    "W1": "upper west bonus square", "W2": "lower west bonus square",
    "E1": "upper east bonus square", "E2": "lower east bonus square",
    "S1": "left south bonus square", "S2": "right south bonus square",
}
assert set(SQUARES) == set(SQUARE_IDS), "a name for every square of components.json"

NAMES = {**{t: f"{SUITS[SUIT[i]]} {NUMBER[i]}" for i, t in enumerate(TILE_IDS)}, **SQUARES}
MAX_TILES = 8


def _play_template(k: int) -> str:
    pairs = [f"{{tile{i}}} on the {{square{i}}}" for i in range(1, k + 1)]
    listed = pairs[0] if k == 1 else ", ".join(pairs[:-1]) + " and " + pairs[-1]
    return f"Make a set: {listed}, for {{n}} points"


PLAY = {k: _play_template(k) for k in range(1, MAX_TILES + 1)}
SWAP = "Swap {tiles} for tiles from the bag"
PASS = "Pass (you can neither make a set nor swap)"


def move(state: State, seat: int, mv: dict) -> Message:
    if mv["type"] == "swap":
        return Message(SWAP, {"tiles": piece(mv["tiles"])})
    if mv["type"] == "pass":
        return Message(PASS)
    points = check_play(state, seat, parse_place(mv["place"])).points
    args = {"n": count(points)}
    for i, (square, tile) in enumerate(mv["place"].items(), start=1):
        args[f"tile{i}"], args[f"square{i}"] = piece(tile), place(square)
    return Message(PLAY[len(mv["place"])], args)


# --- events ---------------------------------------------------------------------------------
SETUP = ("SetUp begins with {n} players: {board} on the board and {market} in the market; "
         "the first to {goal} points wins")
SETUP_TEAMS = ("Team game: {a1} and {a2} against {b1} and {b2}; {board} on the board and {market} "
               "in the market; the game ends when someone reaches {goal} points")
SCORED = "{player} scored {n} points by placing {tiles} (scoring tiles: {set})"
# per number of other players who get bonus points: "...; bonus: {p1} +{b1}, {p2} +{b2}"
SET_MADE = {k: SCORED + ("; bonus: " + ", ".join(f"{{p{i}}} +{{b{i}}}" for i in range(1, k + 1)) if k else "")
            for k in range(4)}
DREW_MARKET = "Drawn for the market: {tiles}"
DREW_SEEN = "{player} drew {tiles}"
DREW_HIDDEN = ("{player} drew {n} tile", "{player} drew {n} tiles")
REFILLED = ("The bag is empty: {n} covered tile goes back into it",
            "The bag is empty: {n} covered tiles go back into it")
SWAPPED_SEEN = "{player} put {tiles} back into the bag"
SWAPPED_HIDDEN = ("{player} put {n} tile back into the bag", "{player} put {n} tiles back into the bag")
PASSED = "{player} passed: no set and no swap was possible"
NEXT_TURN = "It is {player}'s turn"

# --- the end (the game_ended event and the result say the same) -------------------------------
WON = {
    "none": "{winner} reached the finish and wins with {n} points",
    "highest_score": "{winner} wins with {n} points, the highest score of those who reached the finish",
    "player_whose_turn": "{winner} wins with {n} points: tied at the top, it was their turn",
}
SHARED = {
    2: "{winner1} and {winner2} share the win with {n} points each",
    3: "{winner1}, {winner2} and {winner3} share the win with {n} points each",
}
TEAM_WON = {
    "lowest_score_loses": "{winner1} and {winner2} win as a team: the other team has the lowest score",
    "highest_score": "{winner1} and {winner2} win as a team: the lowest score was tied between the "
                     "teams, and they have the highest score",
    "team_that_placed_last": "{winner1} and {winner2} win as a team: the lowest and the highest scores "
                             "were tied between the teams, and their team placed last",
}
NOT_OVER = "The game is not over yet"


def _plural(forms: tuple, args: dict) -> Message:
    return Message(forms[0], args, plural=forms[1], count="n")


def _tiles(tiles: list) -> bool:
    """Whether the viewer sees these tiles (another seat's are null)."""
    return bool(tiles) and all(t is not None for t in tiles)


def _setup(d: dict) -> Message:
    args = {"board": piece(list(d["board"].values())), "market": piece(d["market"]), "goal": count(d["goal"])}
    if d["teams"]:
        return Message(SETUP_TEAMS, {**args, "a1": player(0), "a2": player(1), "b1": player(2), "b2": player(3)})
    return Message(SETUP, {**args, "n": count(d["seats"])})


def _set_made(d: dict) -> Message:
    args = {"player": player(d["seat"]), "tiles": piece(list(d["place"].values())),
            "set": piece(d["set_tiles"]), "n": count(d["points"])}
    gainers = [(s, b) for s, b in enumerate(d["bonus"]) if b]
    for i, (s, b) in enumerate(gainers, start=1):
        args[f"p{i}"], args[f"b{i}"] = player(s), count(b)
    return Message(SET_MADE[len(gainers)], args)


def _drew(d: dict) -> Message:
    if d["to"] == "market":
        return Message(DREW_MARKET, {"tiles": piece(d["tiles"])})
    who = player(d["seat"])
    if _tiles(d["tiles"]):
        return Message(DREW_SEEN, {"player": who, "tiles": piece(d["tiles"])})
    return _plural(DREW_HIDDEN, {"player": who, "n": count(len(d["tiles"]))})


def _swapped(d: dict) -> Message:
    who = player(d["seat"])
    if _tiles(d["tiles"]):
        return Message(SWAPPED_SEEN, {"player": who, "tiles": piece(d["tiles"])})
    return _plural(SWAPPED_HIDDEN, {"player": who, "n": count(len(d["tiles"]))})


def _outcome(d: dict) -> Message:
    """Who won and why, from the game_ended event or the result (the same fields)."""
    winners, scores = d["winners"], d["scores"]
    wins = {f"winner{i}": player(s) for i, s in enumerate(winners, start=1)}
    if "winning_team" in d:
        return Message(TEAM_WON[d["tie_break"]], wins)
    top = count(scores[winners[0]])
    if d["tie_break"] == "shared":
        return Message(SHARED[len(winners)], {**wins, "n": top})
    return Message(WON[d["tie_break"]], {"winner": player(winners[0]), "n": top})


_EVENTS = {
    "setup": _setup,
    "set_made": _set_made,
    "drew": _drew,
    "bag_refilled": lambda d: _plural(REFILLED, {"n": count(d["count"])}),
    "swapped": _swapped,
    "passed": lambda d: Message(PASSED, {"player": player(d["seat"])}),
    "next_turn": lambda d: Message(NEXT_TURN, {"player": player(d["seat"])}),
    "game_ended": _outcome,
}


def event(kind: str, data: dict, actor: Actor) -> Message:
    return _EVENTS[kind](data)


def result(res: dict | None) -> Message:
    return Message(NOT_OVER) if res is None else _outcome(res)


OUTCOMES = [*WON.values(), *SHARED.values(), *TEAM_WON.values()]

# --- effects: what a tooltip says of a square (a tile has none: it is its suit and number) ---
COMMON_EFFECT = "Common square: any player may place a tile here, covering the one already there."
SIDE_EFFECTS = {
    "S": "Seat 1's bonus square (south): only Seat 1 may place here, and gets 1 point when another "
         "player scores a set with its top tile.",
    "W": "Seat 2's bonus square (west): only Seat 2 may place here, and gets 1 point when another "
         "player scores a set with its top tile.",
    "N": "Seat 3's bonus square (north): only Seat 3 may place here, and gets 1 point when another "
         "player scores a set with its top tile. Common with 2 players.",
    "E": "Seat 4's bonus square (east): only Seat 4 may place here, and gets 1 point when another "
         "player scores a set with its top tile. Common with 2 or 3 players.",
}
EFFECTS: dict[str, str] = {q: COMMON_EFFECT if q[0] == "C" else SIDE_EFFECTS[q[0]] for q in SQUARES}

WORDS = GameWords(
    names=NAMES,
    move=move,
    event=event,
    result=result,
    moves={"play": list(PLAY.values()), "swap": [SWAP], "pass": [PASS]},
    events={
        "setup": [SETUP, SETUP_TEAMS],
        "set_made": list(SET_MADE.values()),
        "drew": [DREW_MARKET, DREW_SEEN, *DREW_HIDDEN],
        "bag_refilled": list(REFILLED),
        "swapped": [SWAPPED_SEEN, *SWAPPED_HIDDEN],
        "passed": [PASSED],
        "next_turn": [NEXT_TURN],
        "game_ended": OUTCOMES,
    },
    results=[*OUTCOMES, NOT_OVER],
    vocabulary=(),
    effects=EFFECTS,
)
