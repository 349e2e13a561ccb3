"""The chat's word filter (issue 53): English and Korean word lists (CHAT_WORDS_EN,
CHAT_WORDS_KO: comma-separated, each replacing its default list; a list set to "-" is empty),
applied to a message before it is stored. A word found is masked (each of its characters but
spaces an `*`) and counted (the count per player is moderation's signal: api/chat/service.py).

English words match whole words, any case. Korean words match inside a longer word (Korean
attaches its particles: "씨발놈아"), with spaces, punctuation or digits between their syllables
too ("씨 발", "씨1발"). Pure: no I/O."""
from __future__ import annotations

import re
from collections.abc import Iterable

DEFAULT_EN = ("fuck", "fucking", "shit", "bitch", "asshole", "cunt", "motherfucker", "retard", "faggot")
DEFAULT_KO = ("씨발", "시발", "씨바", "병신", "개새끼", "새끼", "좆", "지랄", "존나", "미친놈", "미친년", "닥쳐")
MASK = "*"


def word_list(raw: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A setting's list: "" the default, "-" none, else its comma-separated words."""
    if not raw.strip():
        return default
    if raw.strip() == "-":
        return ()
    return tuple(w.strip() for w in raw.split(",") if w.strip())


class WordFilter:
    def __init__(self, english: Iterable[str] = DEFAULT_EN, korean: Iterable[str] = DEFAULT_KO) -> None:
        parts = [r"\b" + re.escape(w) + r"\b" for w in sorted(set(english), key=len, reverse=True) if w]
        gap = r"[\s\W\d_]{0,3}"
        parts += [gap.join(re.escape(c) for c in w) for w in sorted(set(korean), key=len, reverse=True) if w]
        self.pattern = re.compile("|".join(parts), re.IGNORECASE) if parts else None

    def apply(self, text: str) -> tuple[str, int]:
        """The text with every listed word masked, and how many were found."""
        if self.pattern is None:
            return text, 0
        found = 0

        def mask(m: re.Match[str]) -> str:
            nonlocal found
            found += 1
            return "".join(c if c.isspace() else MASK for c in m.group(0))

        return self.pattern.sub(mask, text), found
