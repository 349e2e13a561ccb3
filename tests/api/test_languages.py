"""The answer's language (issue 32, its first part): negotiated from `?lang=` and
`Accept-Language`, said in `Content-Language` and `Vary`; the hosted games' descriptions
(GET /game-types) in Korean and English from gettext catalogues read through babel, every text
of every game translated and no entry left behind when an English text changes."""
from __future__ import annotations

import pkgutil
import re
from importlib import import_module
from pathlib import Path

import pytest

import domain
from api.errors import Code
from api.http.meta import describe_type
from api.words import entries, languages
from api.words.game_types import texts
from domain.contract import GameDef
from tests.contract.error_templates import sites


def _domain_games() -> list[GameDef]:
    """Every game of a package under domain/ (the hosted games; the tests' extra ones apart)."""
    found = []
    for module in pkgutil.iter_modules([str(Path(domain.__file__).parent)]):
        game = getattr(import_module(f"domain.{module.name}"), "GAME", None) if module.ispkg else None
        if isinstance(game, GameDef):
            found.append(game)
    assert len(found) >= 5
    return found


def test_korean_and_english_are_served():
    assert languages() == ("en", "ko")


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_text_of_every_game_type_has_a_translation_and_none_is_stale(lang):
    games = _domain_games()
    wanted = {(g.name, text) for g in games for text in texts(describe_type(g)) if text}
    have = {(context, text) for context, text in entries(lang) if context in {g.name for g in games}}
    assert not wanted - have, f"untranslated in {lang}: {sorted(wanted - have)[:5]}"
    assert not have - wanted, f"stale entries in {lang} (their English changed?): {sorted(have - wanted)[:5]}"


@pytest.mark.parametrize("header, expected", [
    ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
    ("en;q=0.8, ko", "ko"),
    ("ko;q=0.2, en;q=0.9", "en"),
    ("fr-CH, fr;q=0.9", "en"),
    (None, "en"),
])
def test_accept_language_is_weighed(client, header, expected):
    r = client.get("/game-types", headers={"Accept-Language": header} if header else {})
    assert r.status_code == 200 and r.headers["Content-Language"] == expected
    assert "Accept-Language" in r.headers["Vary"]
    titles = [t["title"] for t in r.get_json()["game_types"][:5]]
    assert titles == (["스플렌더", "위치스", "세트업", "페어리 타일", "스몰 월드 오브 워크래프트"] if expected == "ko" else
                      ["Splendor", "Witches", "SetUp", "Fairy Tile", "Small World of Warcraft"])


def test_lang_overrides_the_header_and_a_language_not_served_is_refused(client):
    r = client.get("/game-types?lang=ko", headers={"Accept-Language": "en"})
    splendor = r.get_json()["game_types"][0]
    assert r.headers["Content-Language"] == "ko" and splendor["move_types"]["take_two"].startswith("공급처에")
    assert splendor["type"] == "splendor" and "take_two" in splendor["move_types"]  # ids stay as they are
    assert splendor["options"][0]["name"] == "strict_take_three"
    r = client.get("/game-types?lang=fr")
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    assert "lang" in r.get_json()["details"]["fields"]


def test_answers_without_words_in_the_language_say_english(client):
    r = client.get("/health", headers={"Accept-Language": "ko"})
    assert r.headers["Content-Language"] == "en" and "Accept-Language" in r.headers["Vary"]
    game = client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}).get_json()
    r = client.get(f"/games/{game['id']}/moves?seat=0&lang=ko", headers={"Authorization": f"Bearer {game['table_token']}"})
    assert r.status_code == 200  # ?lang= is taken by every operation, not refused as unknown


def _game_codes() -> set[str]:
    """The refusal codes the games raise (MoveRejected's first argument, by their sources)."""
    root = Path(domain.__file__).parent
    found = set()
    for path in root.rglob("*.py"):
        found |= set(re.findall(r'(?:MoveRejected|_reject|InvalidOptions)\(\s*"([a-z_]+)"', path.read_text()))
    assert {"not_your_turn", "cannot_afford", "must_follow_suit"} <= found
    return found


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_every_error_code_has_its_sentence_and_none_is_stale(lang):
    templates = {s.template for s in sites() if s.template}  # the games' refusals (tests/contract/test_error_words.py)
    wanted = {c.value for c in Code} | _game_codes() | templates
    have = {text for context, text in entries(lang) if context == "error"}
    assert not wanted - have, f"codes without a sentence in {lang}: {sorted(wanted - have)}"
    assert not have - wanted, f"sentences of codes no longer raised: {sorted(have - wanted)}"


def test_an_error_is_said_in_the_callers_language_its_code_unchanged(client):
    r = client.get("/games/nosuchgame12", headers={"Accept-Language": "ko-KR"})
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_game")
    assert r.get_json()["detail"] == "그런 게임이 없습니다." and r.headers["Content-Language"] == "ko"
    r = client.get("/games/nosuchgame12")
    assert r.get_json()["detail"] == "There is no game 'nosuchgame12'." and r.headers["Content-Language"] == "en"
    # a game's own refusal: a move out of turn, in Korean
    game = client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}).get_json()
    listed = client.get(f"/games/{game['id']}/moves?seat=0", headers={"Authorization": f"Bearer {game['table_token']}"})
    r = client.post(f"/games/{game['id']}/moves?seat=1&lang=ko", headers={"Authorization": f"Bearer {game['table_token']}"},
                    json={"expected_version": listed.get_json()["version"], "move": listed.get_json()["moves"][0]})
    assert r.status_code == 422 and r.get_json()["code"] == "not_your_turn", r.get_json()
    assert r.get_json()["detail"] == "지금은 1번 자리 차례입니다."  # its details too: whose turn it is
