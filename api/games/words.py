"""A game's words in the answers (issue 32): legal moves' labels and refs, events' sentences,
the result's, each in the caller's language (the HTTP edge negotiates it; this says it).

- A legal move's words go *beside* it (`labels[i]` for `moves[i]`: `label`, `refs`), so that a
  listed move stays sendable as is.
- An event gets `text` and `message` ({"template", "args"}) from the event as the viewer sees
  it (presenting.present has redacted it first): a hidden card is never named, in words either.
- A game the platform ended (abandoned, aborted, left by a seat) is told in the platform's words.
- People are named by their names; bots by their level, numbered when two share one ("Careful
  bot 1", "Careful bot 2"); a free seat as "Seat 2".
Flask-free."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from api.games.repository import Game
from api.platform import events as platform
from api.words import notices, translate
from api.words.messages import PLATFORM, Speaker
from domain.contract import is_seat
from domain.words import Message, count, player, players, seat

BOT_LEVELS = ("careful", "expert", "greedy", "random", "storyteller")  # every game's bot level, as a word
# The platform's own events, one template (or a pick of them) each.
PLATFORM_TEMPLATES = {
    platform.CREATED: ("A game for {n} seats was created.",),
    platform.SEAT_CLAIMED: ("{player} took a seat.",),
    platform.SEAT_LEFT: ("{seat} is free again.",),
    platform.STARTED: ("Every seat is taken: the game begins.",),
    platform.REMATCH: ("A rematch was created.",),
    platform.TIMED_OUT: ("{player} ran out of time.",),
    platform.TAKEN_BY_BOT: ("A bot plays for {player} now.",),
    platform.RETURNED: ("{player} is back.",),
    platform.RESIGNED: ("{player} resigned.",),
    platform.ABORTED: ("The game was called off: no one moved after the start.",),
    platform.ABANDONED: ("The game was abandoned: no one moved for too long.",
                         "The game was abandoned: its seats were never all taken."),
    platform.CLOCK_PAUSED: ("{player} is on vacation: their clock is stopped.",
                            "Everyone agreed: the game is paused, its clocks stopped."),
    platform.CLOCK_RESUMED: ("{player} is back from vacation: their clock runs again.",
                             "{player} resumed the game: the clocks run again."),
    platform.PAUSE_AGREED: ("{player} agreed to pause the game.",),
    platform.PAUSE_WITHDRAWN: ("{player} would rather not pause the game.",),
}
BOT_NAMES = ("{level} bot", "{level} bot {n}")
RESIGNED_RESULT = "{left} left the game: {winners} won."


def speaker(game: Game, lang: str) -> Speaker | None:
    """The game's speaker in `lang`; None for a game that has no words. Made once per game type,
    language and seats (a platform state's seats tuple, which a seat's change replaces): every
    move's answer says its events with one, and making it (the seats' names) was a fifth of
    that (issue 57). At most SPEAKERS_KEPT, cleared when full."""
    words = game.definition.words
    if words is None:
        return None
    seats = game.seats
    key = (game.definition.name, lang, id(seats))
    held = _speakers.get(key)
    if held is not None and held[0] is seats and held[1].names is words.names:  # the tuple is held: its id not reused
        return held[1]
    said = Speaker(game.definition.name, words.names, lang, seat_names(game, lang))
    if len(_speakers) >= SPEAKERS_KEPT:
        _speakers.clear()
    _speakers[key] = (seats, said)
    return said


_speakers: dict[tuple[str, str, int], tuple[tuple[Any, ...], Speaker]] = {}
SPEAKERS_KEPT = 4096


def seat_names(game: Game, lang: str) -> list[str | None]:
    """Who sits where, as sentences name them: a person by name, a bot by its level (numbered
    when two share it), a free seat None (the speaker says "Seat 2")."""
    levels = Counter(s["bot"] for s in game.seats if s["bot"] is not None)
    nth: Counter[str] = Counter()
    names: list[str | None] = []
    for s in game.seats:
        if s["bot"] is None:
            names.append(s["name"])
            continue
        nth[s["bot"]] += 1
        level = translate(lang, PLATFORM, s["bot"].capitalize())
        if levels[s["bot"]] == 1:
            names.append(translate(lang, PLATFORM, BOT_NAMES[0]).format(level=level))
        else:
            names.append(translate(lang, PLATFORM, BOT_NAMES[1]).format(level=level, n=nth[s["bot"]]))
    return names


def labels(game: Game, lang: str, seat_: int, moves: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The words of each legal move (in the moves' order): {"label", "refs"}."""
    said, words = speaker(game, lang), game.definition.words
    if said is None or words is None:
        return None
    out = []
    for move in moves:
        message = words.move(game.state, seat_, move)
        out.append({"label": said.text(message), "refs": message.refs()})
    return out


def say_events(game: Game, lang: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The presented events, each with its `text` and `message` (in place, and returned)."""
    said = speaker(game, lang)
    if said is None:
        return events
    for event in events:
        message = event_message(game, event)
        if message is None:
            continue
        context = PLATFORM if event["type"] in platform.PLATFORM_EVENTS else game.definition.name
        event["text"], event["message"] = _in(said, context).say(message)
    return events


def event_message(game: Game, event: dict[str, Any]) -> Message | None:
    data, type_, words = event["data"], event["type"], game.definition.words
    if type_ in platform.PLATFORM_EVENTS:
        return platform_message(type_, data, event.get("actor"))
    return words.event(type_, data, event.get("actor")) if words is not None else None


def platform_message(type_: str, data: dict[str, Any], actor: object) -> Message:
    templates = PLATFORM_TEMPLATES[type_]
    if type_ == platform.CREATED:
        return Message(templates[0], {"n": count(len(data.get("seats", ())))})
    if type_ == platform.SEAT_LEFT:
        return Message(templates[0], {"seat": seat(data["seat"])})
    if type_ == platform.ABANDONED:
        waited = str(data.get("reason", "")).startswith("nobody took")  # workers/abandon.py's
        return Message(templates[1] if waited else templates[0])
    if type_ in (platform.STARTED, platform.REMATCH, platform.ABORTED):
        return Message(templates[0])
    if type_ in (platform.CLOCK_PAUSED, platform.CLOCK_RESUMED):
        if data.get("reason") == platform.VACATION:
            return Message(templates[0], {"player": player((data.get("seats") or [0])[0])})
        if type_ == platform.CLOCK_PAUSED:
            return Message(templates[1])
        return Message(templates[1], {"player": player(data.get("seat", 0))})
    who = data.get("seat", actor)
    return Message(templates[0], {"player": player(who if is_seat(who) else 0)})


def result(game: Game, lang: str) -> dict[str, Any] | None:
    """The finished game's result as a sentence: {"text", "message"}."""
    said, words = speaker(game, lang), game.definition.words
    if said is None or words is None or not game.finished or game.result is None:
        return None
    text, message = _in(said, PLATFORM).say(ended) if (ended := platform_result(game.result)) else \
        said.say(words.result(game.result))
    return {"text": text, "message": message}


def platform_result(result: dict[str, Any]) -> Message | None:
    """The sentence of a game the platform ended (abandoned, aborted, left: PlatformResult)."""
    outcome = result.get("outcome")
    if outcome == "resigned":
        return Message(RESIGNED_RESULT, {"left": players(result.get("resigned", [])),
                                         "winners": players(result.get("winners", []))})
    if outcome == "aborted":
        return Message(PLATFORM_TEMPLATES[platform.ABORTED][0])
    if outcome == "abandoned":
        return platform_message(platform.ABANDONED, result, None)
    return None


def _in(said: Speaker, context: str) -> Speaker:
    """The same speaker, its templates looked up under `context` (the platform's own events)."""
    if context == said.game:
        return said
    return Speaker(said.game, said.names, said.lang, said.seat_names, context)


def platform_templates() -> set[str]:
    """Every English text of the platform's words (the catalogue test's)."""
    return {t for group in PLATFORM_TEMPLATES.values() for t in group} | set(BOT_NAMES) | \
        {level.capitalize() for level in BOT_LEVELS} | {RESIGNED_RESULT} | notices.every_text()

