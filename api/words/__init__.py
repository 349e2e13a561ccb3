"""The words people read, in their language (issue 32): message catalogues per language in
gettext's `.po` format (`locales/<lang>/LC_MESSAGES/*.po`: what translators' tools read and
write; `messages.po` the platform's and the game types', `<game>.po` each game's moves, events
and pieces), loaded through babel into one catalogue a language. Adding a language is adding
its files. The English texts the
games and the platform declare are the message ids; each game's are under its type's name as
context (`msgctxt`), so two games may say the same English differently. English is the default
and needs no entries; a text a catalogue lacks is answered in English.

Flask-free: the HTTP edge negotiates the language (api/http/languages.py) and the application
asks `translate(lang, context, text)`."""
from __future__ import annotations

import functools
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = Path(__file__).resolve().parent / "locales"
DEFAULT = "en"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages served, the default first (each a directory with its catalogue)."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob("*/LC_MESSAGES/messages.po"))
    return (DEFAULT, *[lang for lang in found if lang != DEFAULT])


@functools.cache
def catalogue(lang: str) -> NullTranslations:
    """The language's compiled catalogue (read from its .po once a process)."""
    paths = sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po"))
    if lang == DEFAULT or not paths:
        return NullTranslations()
    parsed = None
    for path in paths:  # one catalogue of all the language's files (their contexts never meet)
        with path.open("rb") as f:
            read = read_po(f, locale=lang)
        if parsed is None:
            parsed = read
            continue
        for m in read:
            if m.id:
                parsed.add(m.id, m.string, context=m.context)
    assert parsed is not None  # paths is not empty
    compiled = io.BytesIO()
    write_mo(compiled, parsed)
    compiled.seek(0)
    return Translations(compiled)


# A Korean particle written in both forms after a word ("{card}을(를)", "{after}(으)로"): the one
# the word takes, by its last syllable (particles). Between the word's last letter and the
# particle may stand a closing quote or bracket ("고수 (봇)을" counts 봇).
_PARTICLES = {"을(를)": ("을", "를"), "를(을)": ("을", "를"), "이(가)": ("이", "가"), "가(이)": ("이", "가"),
              "은(는)": ("은", "는"), "는(은)": ("은", "는"), "과(와)": ("과", "와"), "와(과)": ("과", "와"),
              "(으)로": ("으로", "로")}
_DUAL = re.compile(r"([가-힣0-9A-Za-z])([^가-힣0-9A-Za-z\s]*)(" + "|".join(re.escape(p) for p in _PARTICLES) + ")")
_DIGIT_FINAL = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}  # 영 일 이 삼 ...
_RIEUL = 8  # ㄹ's index among the final consonants: 로, not 으로


def _final(letter: str) -> int:
    """The final consonant's index of the letter as read in Korean (0: none)."""
    if "가" <= letter <= "힣":
        return (ord(letter) - 0xAC00) % 28
    if letter.isdigit():
        return _DIGIT_FINAL[letter]
    # a Latin word as Korean reads it: m, n (and ng) end in a final consonant, l in ㄹ, the rest
    # in a vowel ("gold" is 골드, "Ann" 앤)
    return _RIEUL if letter.lower() == "l" else 1 if letter.lower() in "mn" else 0


def particle(word: str, pair: str) -> str:
    """The particle of `pair` ("을(를)", "(으)로"...) that `word` takes."""
    with_final, without = _PARTICLES[pair]
    letters = [c for c in word if "가" <= c <= "힣" or c.isascii() and c.isalnum()]
    final = _final(letters[-1]) if letters else 0
    if with_final == "으로":
        return "으로" if final and final != _RIEUL else "로"
    return with_final if final else without


def particles(text: str) -> str:
    """`text` with every particle written in both forms chosen (never "을(를)" shown)."""
    if "(" not in text or text.isascii():  # every form written both ways has a "(" and Hangul
        return text
    return _DUAL.sub(lambda m: m.group(1) + m.group(2) + particle(m.group(1), m.group(3)), text)


def translate(lang: str, context: str, text: str) -> str:
    """`text` in `lang` (the English itself when the catalogue has no entry)."""
    if lang == DEFAULT or not text:
        return text
    return str(catalogue(lang).pgettext(context, text))


def translate_plural(lang: str, context: str, singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for the number `n` in `lang`, by its plural rules."""
    if lang == DEFAULT:  # English has no catalogue: its NullTranslations' rule, without the look-up
        return singular if n == 1 else plural
    return str(catalogue(lang).npgettext(context, singular, plural, n))


@dataclass(frozen=True)
class Wording:
    """A game's refusal as its words say it (domain.contract.MoveRejected): the English
    `template`, its `args`, and the game whose words and names the arguments are."""
    template: str
    args: Mapping[str, Any]
    game: str

    @classmethod
    def of(cls, rejected: Any, game: str) -> Wording:
        return cls(rejected.template, rejected.values, game)

    def arg_text(self, lang: str, arg: Any) -> str:
        """One argument in `lang`: a `word` translated under the game, a `seat` as the platform
        names seats ("Seat {n}"), a number or a text as it is."""
        if isinstance(arg, dict):
            if arg["kind"] == "seat":
                return translate(lang, "platform", "Seat {n}").format(n=int(arg["seat"]) + 1)
            values = arg["value"] if isinstance(arg["value"], list) else [arg["value"]]
            return ", ".join(translate(lang, self.game, str(v)) if arg["kind"] == "word" else str(v) for v in values)
        return str(arg)


def error_sentence(lang: str, code: str, wording: Wording | None = None) -> str | None:
    """A problem's `detail` in `lang`: a game's refusal by its template (context "error"), every
    argument filled in, else by its stable code; None when the catalogue has neither (the English
    detail stands)."""
    if lang == DEFAULT:
        return None
    if wording is not None:
        said = str(catalogue(lang).pgettext("error", wording.template))
        if said != wording.template:
            if not wording.args:
                return said
            return particles(said.format_map({name: wording.arg_text(lang, arg) for name, arg in wording.args.items()}))
    said = str(catalogue(lang).pgettext("error", code))
    return said if said != code else None


def entries(lang: str, domain: str = "messages") -> set[tuple[str, str]]:
    """(context, English) of every translated entry of one of a language's files (the tests';
    a plural entry gives both its English forms)."""
    path = LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return set()
    with path.open("rb") as f:
        found = set()
        for m in read_po(f, locale=lang):
            forms = m.id if isinstance(m.id, tuple) else (m.id,)
            said = m.string if isinstance(m.string, tuple) else (m.string,)
            if m.id and all(said):
                found |= {(m.context or "", str(form)) for form in forms}
        return found
