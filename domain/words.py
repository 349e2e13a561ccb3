"""What a game says in words (issue 32): a move's label, an event's sentence, a result's, as
*messages*: an English template with named placeholders and typed arguments, after Board Game
Arena's model. A client can show the ready sentence (`text`), or the template and its arguments
to translate, style or light up the pieces named. The platform (api/words/messages.py) renders
them in the caller's language from the gettext catalogues; a game only says *what* happened.

A game's words (`GameDef.words`, a `GameWords`) are pure functions of what the viewer may see:
`event(type, data, actor)` is given the event's data as redacted for the viewer (and who caused
it: a seat, or "system"), so a hidden card is never named (the game says "a card"); `move(state,
seat, move)` is given the mover's own state and seat; `result(result)` the public result.

Arguments, each a dict with a `kind` (an enum the API documents):
- `player`: a seat, shown by its person's name (or "Seat 2", counting from 1), or a list of
  seats (`players`);
- `seat`: a seat as a number counting from 1 ("seat 2"; for rules that speak of positions);
- `piece`: one or more ids of the game's pieces (cards, tiles, nobles, races, powers, figures),
  shown by their names (`GameWords.names`, translated under the game's context);
- `place`: one or more ids of places on the board (regions, hexes, squares), shown by name; a
  place id that is a coordinate pair "q,r" (Fairy Tile's hexes) needs none: it shows "(q, r)";
- `count`: a number (a plural template chooses its form by it);
- `word`: one or more of the game's fixed English words (colours, directions), translated.
Lists are joined with ", ".
"""
from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

KINDS = ("player", "seat", "piece", "place", "count", "word")
COORDINATES = re.compile(r"^-?\d+,-?\d+$")


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def nth_seat(index: int) -> str:
    """A seat as an English sentence names it ("the second seat"), counting from 1 without a
    number that could be read as the API's 0-based `seat` (errors' details, which catalogues
    translate by their code)."""
    return f"the {ORDINALS[index]} seat" if 0 <= index < len(ORDINALS) else f"seat number {index + 1}"


def error_english(template: str, args: Mapping[str, Any]) -> str:
    """A refusal's template (MoveRejected) said in English: `word` arguments as they are,
    `seat` ones as `nth_seat` says them, numbers and texts as they are."""
    if not args:
        return template
    return template.format_map({name: _said_in_english(arg) for name, arg in args.items()})


def _said_in_english(arg: Any) -> str:
    if isinstance(arg, dict):
        if arg["kind"] == "seat":
            return nth_seat(arg["seat"])
        value = arg["value"]
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return str(arg)


def player(seat: int) -> dict:
    return {"kind": "player", "seat": int(seat)}


def players(seats: Sequence[int]) -> dict:
    """Several people in one argument ("Ann, Bo"): a `player` whose `seat` is a list."""
    return {"kind": "player", "seat": [int(s) for s in seats]}


def seat(index: int) -> dict:
    return {"kind": "seat", "seat": int(index)}


def piece(ids: str | Sequence[str]) -> dict:
    return {"kind": "piece", "id": ids if isinstance(ids, str) else list(ids)}


def place(ids: str | Sequence[str]) -> dict:
    return {"kind": "place", "id": ids if isinstance(ids, str) else list(ids)}


def count(n: int) -> dict:
    return {"kind": "count", "value": int(n)}


def word(english: str | Sequence[str]) -> dict:
    return {"kind": "word", "value": english if isinstance(english, str) else list(english)}


@dataclass(frozen=True)
class Message:
    """`template`: English with `{name}` placeholders, one per argument (the catalogue's msgid,
    under the game's context); `plural` (with `count`, the name of a `count` argument): the
    English plural form, chosen by that number through the language's plural rules."""

    template: str
    args: Mapping[str, dict] = field(default_factory=dict)
    plural: str | None = None
    count: str | None = None

    def placeholders(self) -> set[str]:
        forms = [self.template] + ([self.plural] if self.plural else [])
        return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}

    def refs(self) -> list[str]:
        """The ids of the pieces and places the message names (a client lights them on its board)."""
        found: list[str] = []
        for arg in self.args.values():
            if arg["kind"] in ("piece", "place"):
                ids = arg["id"] if isinstance(arg["id"], list) else [arg["id"]]
                found += [i for i in ids if i not in found]
        return found


@dataclass(frozen=True)
class GameWords:
    """A game's words. `names`: the English name of every piece and place id its messages may
    name (GET /game-types shows them all); `vocabulary`: its fixed English words (`word` args);
    `moves`, `events`: per move type (every one the game declares) and per event type (every
    one it emits), the English templates its messages of that type use (a plural's two forms
    both listed); `results`: those of its result's sentence. The tests find each one translated
    in every catalogue and each message using one declared for its type."""

    names: Mapping[str, str]
    move: Callable[[Any, int, dict], Message]
    event: Callable[[str, dict, Any], Message]
    result: Callable[[dict], Message]
    moves: Mapping[str, Sequence[str]]
    events: Mapping[str, Sequence[str]]
    results: Sequence[str]
    vocabulary: Sequence[str] = ()
    # A one-line effect for the pieces that have one (a race's, a power's, a card's, a special
    # tile's): what a tooltip says (GET /game-types/{game_type}/rules).
    effects: Mapping[str, str] = field(default_factory=dict)

    def texts(self) -> set[str]:
        """Every English text a catalogue translates: templates, names, words, effects."""
        return self.templates() | set(self.names.values()) | set(self.vocabulary) | set(self.effects.values())

    def templates(self) -> set[str]:
        return {t for group in (*self.moves.values(), *self.events.values(), self.results) for t in group}
