"""The words people read, in their language (issue 32): message catalogues per language in
gettext's `.po` format (`locales/<lang>/LC_MESSAGES/messages.po`: what translators' tools read
and write), loaded through babel. Adding a language is adding its file. The English texts the
games and the platform declare are the message ids; each game's are under its type's name as
context (`msgctxt`), so two games may say the same English differently. English is the default
and needs no entries; a text a catalogue lacks is answered in English.

Flask-free: the HTTP edge negotiates the language (api/http/languages.py) and the application
asks `translate(lang, context, text)`."""
from __future__ import annotations

import functools
import io
from pathlib import Path

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
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT or not path.exists():
        return NullTranslations()
    with path.open("rb") as f:
        parsed = read_po(f, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, parsed)
    compiled.seek(0)
    return Translations(compiled)


def translate(lang: str, context: str, text: str) -> str:
    """`text` in `lang` (the English itself when the catalogue has no entry)."""
    if lang == DEFAULT or not text:
        return text
    return str(catalogue(lang).pgettext(context, text))


def error_sentence(lang: str, code: str) -> str | None:
    """A problem's `detail` in `lang`, by its stable code (context "error"); None when the
    catalogue has none (the English detail stands)."""
    if lang == DEFAULT:
        return None
    said = str(catalogue(lang).pgettext("error", code))
    return said if said != code else None


def entries(lang: str) -> set[tuple[str, str]]:
    """(context, English) of every translated entry of a language's catalogue (the tests')."""
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return {(m.context or "", str(m.id)) for m in read_po(f, locale=lang) if m.id and m.string}
