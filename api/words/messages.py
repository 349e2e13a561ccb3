"""A game's messages (domain/words.py) in a language: the sentence (`text`) and the message as
the API shows it (`{"template", "args"}`: the template in the language, each argument with its
`text` in the language beside its kind and id), so that a client may show the sentence as is,
or lay out the template itself. Templates and names are looked up under the game's type as
context; a template or name a catalogue lacks is said in English. Flask-free."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.words import DEFAULT, particles, translate, translate_plural
from domain.words import COORDINATES, Message

LIST_SEPARATOR = {"ko": ", ", DEFAULT: ", "}
PLATFORM = "platform"  # the catalogues' context of the platform's own words (seats, bots, its events)


class Speaker:
    """Says one game's messages in one language. `seat_names`: who sits at each seat (None for
    a seat no person named: "Seat 2"), as anyone may see them. `context`: where its templates
    are looked up, when not the game's (the platform's own messages about a game); names and
    words are always the game's."""

    def __init__(self, game_type: str, names: Mapping[str, str], lang: str, seat_names: Sequence[str | None],
                 context: str | None = None):
        self.game, self.names, self.lang, self.seat_names = game_type, names, lang, list(seat_names)
        self.context = context or game_type
        self._said: dict[str, str] = {}  # piece and place ids as said in `lang` (a speaker is kept: words.speaker)

    def say(self, message: Message) -> tuple[str, dict[str, Any]]:
        """(the sentence, the message as shown)."""
        args = {name: self._arg(arg) for name, arg in message.args.items()}
        template = self._template(message)
        text = particles(template.format_map({name: arg["text"] for name, arg in args.items()}))
        return text, {"template": template, "args": args}

    def text(self, message: Message) -> str:
        """The sentence alone (a legal move's label): say()'s first half, without making the
        shown message's arguments."""
        said = self._template(message).format_map({name: self._text(arg) for name, arg in message.args.items()})
        return particles(said)

    def _template(self, message: Message) -> str:
        if message.plural is not None and message.count is not None:
            n = int(message.args[message.count]["value"])
            return translate_plural(self.lang, self.context, message.template, message.plural, n)
        return translate(self.lang, self.context, message.template)

    def _arg(self, arg: dict[str, Any]) -> dict[str, Any]:
        return {**arg, "text": self._text(arg)}

    def _text(self, arg: dict[str, Any]) -> str:
        kind = arg["kind"]
        if kind == "piece" or kind == "place":
            ids = arg["id"]
            if isinstance(ids, list):
                return self._joined([self._name(v) for v in ids])
            return self._name(ids)  # one: as joined alone
        if kind == "player":
            seats = arg["seat"] if isinstance(arg["seat"], list) else [arg["seat"]]
            return self._joined([self.player(s) for s in seats])
        if kind == "seat":
            return self.seat(arg["seat"])
        if kind == "count":
            return str(arg["value"])
        values = arg["value"]
        if isinstance(values, list):
            return self._joined([translate(self.lang, self.game, v) for v in values])
        return translate(self.lang, self.game, values)

    def _joined(self, said: list[str]) -> str:
        return LIST_SEPARATOR.get(self.lang, ", ").join(said)

    def _name(self, id_: str) -> str:
        said = self._said.get(id_)
        if said is None:
            said = self._said[id_] = self._named(id_)
        return said

    def _named(self, id_: str) -> str:
        english = self.names.get(id_)
        if english is not None:
            return translate(self.lang, self.game, english)
        return "({})".format(", ".join(id_.split(","))) if COORDINATES.match(id_) else id_

    def player(self, index: int) -> str:
        name = self.seat_names[index] if 0 <= index < len(self.seat_names) else None
        return name if name else self.seat(index)

    def seat(self, index: int) -> str:
        return translate(self.lang, PLATFORM, "Seat {n}").format(n=index + 1)
