"""Every game says its moves, events and results in words, in every language (issue 32).

Per game: its words declare a template for every move type it declares; seeded playouts (each
configuration, bots at some seats) label every legal move of a sample of states and say every
event as each seat and a spectator see it, in every language, and find: each message using a
template declared for its type, with exactly the arguments its placeholders name, each of a
known kind, each piece or place id named; no placeholder left and no raw id in any sentence; no
other seat's secret in the words either (text or arguments); every template, name and word
translated in every catalogue, and no stale entry in a game's catalogue. And the platform's own
words (its events' sentences, bots' names) are translated too."""
from __future__ import annotations

import json
import random
import re

import pytest

from api.games.words import BOT_LEVELS, platform_templates
from api.words import entries, languages
from api.words.messages import Speaker
from domain import registry
from domain.contract import SPECTATOR, SYSTEM, is_seat
from domain.play import fold
from domain.words import COORDINATES, KINDS, Message
from tests.api.test_languages import _domain_games
from tests.contract.test_game_contract import CASES, _choose, _options

RAW_ID = re.compile(r"\b(sp|su|ft|wi)-|\bL\d+[a-z]?-\d|\{|\}")
LABELLED_PER_STATE = 30
HOSTED = {g.name for g in _domain_games()}  # the tests' own games (high-card) say nothing
GAMES = [pytest.param(g, id=g.name) for g in registry.all_games() if g.name in HOSTED]
SAID = [case for case in CASES if case.values[0].name in HOSTED]


def _speakers(game, n):
    names = dict(game.words.names)
    return [Speaker(game.name, names, lang, [f"P{i + 1}" for i in range(n)]) for lang in languages()]


def _check(game, message, declared: set[str], speakers, where: str, hidden=(), spoken=None):
    """Checks a message; `spoken`, a playout's set of messages already checked whole: a message
    met again (a move's label at the next state, an event as the next viewer sees it) has its
    secrets checked again, its shape and sentences not (a playout meets each about ten times)."""
    assert isinstance(message, Message), f"{where}: {message!r} is not a Message"
    assert message.template in declared, f"{where}: template {message.template!r} is not declared for it"
    args = json.dumps(message.args, sort_keys=True)
    for token in hidden:
        assert json.dumps(token) not in args, f"{where}: the words name {token}, a secret of another seat"
    if spoken is not None:
        key = (message.template, message.plural, message.count, args)
        if key in spoken:
            return
        spoken.add(key)
    if message.plural is not None:
        assert message.plural in declared and message.args[message.count]["kind"] == "count", where
    assert message.placeholders() == set(message.args), f"{where}: {message.template!r} against {set(message.args)}"
    for name, arg in message.args.items():
        assert arg["kind"] in KINDS, f"{where}: argument {name} of kind {arg['kind']!r}"
        if arg["kind"] in ("piece", "place"):
            ids = arg["id"] if isinstance(arg["id"], list) else [arg["id"]]
            missing = [i for i in ids if i not in game.words.names and not COORDINATES.match(i)]
            assert not missing, f"{where}: {missing} have no name"
        if arg["kind"] == "word":
            values = arg["value"] if isinstance(arg["value"], list) else [arg["value"]]
            assert set(values) <= set(game.words.vocabulary), f"{where}: {values} not in the vocabulary"
    for speaker in speakers:
        text = speaker.text(message)
        assert text.strip() and not RAW_ID.search(text), f"{where} ({speaker.lang}): {text!r}"


def _play_and_say(game, n, options, seed, bots):
    rng = random.Random(seed)
    speakers = _speakers(game, n)
    words = game.words
    events = game.setup(_options(game, options), n, random.Random(seed))
    state = fold(game, events)
    said, labelled = set(), set()
    spoken: set = set()

    def say(batch, state, actor):
        secrets = game.secrets(state)
        for viewer in [*range(n), SPECTATOR]:
            hidden = [t for t, allowed in secrets.items() if viewer not in allowed]
            for e in batch:
                shown = game.redact(e, viewer)
                declared = set(words.events.get(e["type"], ()))
                assert declared, f"{game.name}: event type {e['type']} has no template"
                _check(game, words.event(e["type"], shown, actor), declared, speakers, f"event {e['type']}", hidden,
                       spoken)
                said.add(e["type"])

    say(events, state, SYSTEM)
    while actors := game.actors(state):
        actor = rng.choice(actors)
        moves = None  # listed once (a Witches pass lists 4,845): _choose takes them
        if is_seat(actor):
            moves = game.legal_moves(state, actor)
            for move in rng.sample(moves, min(LABELLED_PER_STATE, len(moves))):
                declared = set(words.moves.get(move["type"], ()))
                _check(game, words.move(state, actor, move), declared, speakers, f"move {move['type']}", (), spoken)
                labelled.add(move["type"])
        move = _choose(game, state, actor, rng, bots, moves)
        new = game.decide(state, actor, move, rng)
        state = fold(game, new, state)
        say(new, state, actor)
    _check(game, words.result(game.result(state)), set(words.results), speakers, "result")
    return said, labelled


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_move_type_has_templates(game):
    assert game.words is not None, f"{game.name} says nothing in words"
    assert set(game.words.moves) == set(game.move_types), "a template list for each move type, no other"
    assert all(game.words.moves.values()) and game.words.results


@pytest.mark.parametrize("game,n,options", SAID)
def test_playouts_say_every_move_and_event_in_every_language(game, n, options):
    bots = {0: list(game.bots)[1]}  # the heuristic level (weakest first): not a search, which is slow
    said, labelled = set(), set()
    for seed in range(2):
        s, m = _play_and_say(game, n, options, seed, bots)
        said, labelled = said | s, labelled | m
    assert labelled, "no move was labelled"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_template_name_and_word_is_translated(game, lang):
    words = game.words
    have = {text for context, text in entries(lang, game.name) if context == game.name}
    wanted = words.texts()
    assert set(words.effects) <= set(words.names), "an effect for a piece with no name"
    missing = sorted(wanted - have)
    assert not missing, f"{lang}/{game.name}.po lacks {len(missing)}: {missing[:10]}"
    stale = sorted(have - wanted)
    assert not stale, f"{lang}/{game.name}.po has entries no message uses: {stale[:10]}"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_the_platforms_words_are_translated(lang):
    have = {text for context, text in entries(lang) if context == "platform"}
    wanted = platform_templates() | {"Seat {n}"}
    assert not wanted - have, f"untranslated in {lang}: {sorted(wanted - have)}"
    assert not have - wanted, f"stale in {lang}: {sorted(have - wanted)}"


def test_every_bot_level_has_a_name():
    assert {level for g in _domain_games() for level in g.bots} <= set(BOT_LEVELS)



def _korean_texts(path):
    from babel.messages.pofile import read_po
    with path.open("rb") as f:
        for m in read_po(f, locale="ko"):
            if m.id:
                yield from (m.string if isinstance(m.string, tuple) else (m.string,))


NAME_THEN_HONORIFIC = re.compile(r"\}님")


def test_korean_spaces_the_honorific_after_every_name():
    # "{player}님이" with the name 하나 reads "하나님이" (God): a name is followed by " 님", in
    # every game's texts and the platform's (issue 49, item 12).
    from api.words import LOCALES
    files = {p.stem: p for p in (LOCALES / "ko" / "LC_MESSAGES").glob("*.po")}
    assert HOSTED | {"messages"} <= set(files), "a Korean catalogue for each of the five games"
    for name, path in sorted(files.items()):
        glued = [t for t in _korean_texts(path) if NAME_THEN_HONORIFIC.search(t)]
        assert not glued, f"ko/{name}.po: {len(glued)} names glued to 님, e.g. {glued[:2]}"
    web = (LOCALES.parents[2] / "web" / "i18n.js").read_text()
    assert not NAME_THEN_HONORIFIC.search(web)


@pytest.mark.parametrize("game", GAMES)
def test_a_korean_sentence_about_hana_never_reads_god(game):
    from api.words import translate
    speaker = Speaker(game.name, dict(game.words.names), "ko", ["하나", "민준", "하나", "민준", "하나", "민준"])
    said = [speaker.text(Message(t, {name: {"kind": "player", "seat": 0} for name in Message(t).placeholders()}))
            for t in game.words.templates() if "{player}" in t and "님" in translate("ko", game.name, t)]
    assert said and not [s for s in said if "하나님" in s], [s for s in said if "하나님" in s][:2]
