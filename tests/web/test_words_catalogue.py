"""The client's own words (web/i18n.js): every sentence a page script or page asks for in
English has its Korean, and every Korean sentence keeps the English one's {placeholders}.
(Read from the files themselves: no browser needed.)"""
from __future__ import annotations

import re

from tests.conftest import ROOT

WEB = ROOT / "web"
MINE = ["api.js", "account.js", "analysis.js", "play.js", "lobby.js", "replay.js", "events.js", "rules.js", "presence.js", "i18n.js", "ratings.js", "social.js", "chat.js", "person.js", "messages.js", "tournaments.js",
        "board.js", "moves.js", "svg.js", *[f"boards/{p.name}" for p in sorted((ROOT / "web" / "boards").glob("*.js"))]]
STRING = r'"((?:[^"\\]|\\.)*)"'


def _korean() -> dict[str, str]:
    source = (WEB / "i18n.js").read_text(encoding="utf-8")
    block = source[source.index("const KO = {"):source.index("};", source.index("const KO = {"))]
    return dict(re.findall(STRING + r":\s*" + STRING, block))


def _asked() -> set[str]:
    asked = set()
    for name in MINE:
        source = (WEB / name).read_text(encoding="utf-8")
        # t("...") and t(cond ? "..." : "..."), a string read whole (its parentheses, its ", {")
        for call in re.finditer(r"\bt\(((?:[^()\"]|" + STRING + r")*?)(?:,\s*\{|\))", source):
            said = re.sub(r"[!=]==\s*" + STRING, "", call.group(1))  # a condition's value (f === "dragon") is no sentence
            asked.update(x for x in re.findall(STRING, said) if not x.startswith("#"))  # not t(EMPTY["#list"])
    for page in WEB.glob("*.html"):
        asked.update(re.findall(r'data-i18n(?:-label|-title)?="([^"]*)"', page.read_text(encoding="utf-8")))
    return asked


def test_every_sentence_has_its_korean():
    korean, asked = _korean(), _asked()
    assert len(asked) > 150
    assert sorted(asked - set(korean)) == []


def test_placeholders_are_kept():
    for english, korean in _korean().items():
        assert set(re.findall(r"\{(\w+)\}", english)) == set(re.findall(r"\{(\w+)\}", korean)), english
