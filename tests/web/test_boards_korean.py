"""The boards in Korean (issue 35): a seat's play page of each of the five games, with the page's
language switch on `ko`, at desktop and phone size, draws no English of its own: no text of the
board (its SVG's texts and tooltips, the bar above it, its text alternative) holds a word of three
Latin letters or more. The pieces' names are the server's (GET /game-types `pieces`, rules'
effects), the captions the client's (web/i18n.js). The same page in English still speaks English.
Screenshots: var/screenshots/board-ko-<game>-<size>.png."""
from __future__ import annotations

import re

import pytest
import requests
from selenium.common.exceptions import WebDriverException

from tests.web.conftest import page_errors
from tests.web.helpers import wait

TYPES = ["splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
SEATS = {"witches": 3}
# The one English word allowed: the bots' level, "random", in their seats' names ("random (봇)"):
# an id of the API (GET /game-types `bots`) that api.js's seatName shows as it is, page-wide.
ALLOWED = {"random"}
LANG = "gameserver.lang"  # web/i18n.js: the switch's choice, kept in localStorage

# Every text node under the board (SVG <text> and <title>, the bar, the details), and every
# aria-label there: what a person reads or hears.
TEXTS = """
const board = document.querySelector('#board'), out = [];
const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim()) out.push(n.textContent.trim());
for (const el of board.querySelectorAll('[aria-label]')) out.push(el.getAttribute('aria-label'));
return out;
"""
ENGLISH = re.compile(r"[A-Za-z]{3,}")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _game(base, game_type) -> tuple[str, str]:
    """A game of `game_type`: 민지 in seat 0 against random bots; its id and 민지's seat token."""
    seats = [{"name": "민지"}] + [{"bot": "random"}] * (SEATS.get(game_type, 2) - 1)
    r = requests.post(f"{base}/games", json={"type": game_type, "seats": seats}, timeout=5)
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = body.get("tokens") or [s.get("token") for s in body.get("seats", []) if s.get("token")]
    return body["id"], tokens[0] if isinstance(tokens, list) else next(iter(tokens.values()))


def _english_words(texts: list[str]) -> list[str]:
    return sorted({w for line in texts for w in ENGLISH.findall(line)} - ALLOWED)


def _open(driver, base, game_id, token, lang):
    driver.get(f"{base}/")
    driver.execute_script(f"localStorage.setItem('{LANG}', arguments[0])", lang)
    driver.get(f"{base}/play/{game_id}#token={token}")
    assert driver.execute_script("return document.documentElement.lang") == lang
    wait(driver, lambda: driver.execute_script("return !!document.querySelector('#board svg')"), message="the board")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_type", TYPES)
def test_the_board_in_korean_then_english(web_server, browser, screenshots, game_type, size):
    driver, base = browser, web_server.base
    old = driver.get_window_size()
    driver.set_window_size(*SIZES[size])
    try:
        game_id, token = _game(base, game_type)
        _open(driver, base, game_id, token, "ko")
        # the board is drawn again once the pieces' names are read: wait for it (and the bar)
        try:
            wait(driver, lambda: not _english_words(driver.execute_script(TEXTS)), timeout=10)
        except WebDriverException:
            pass
        texts = driver.execute_script(TEXTS)
        assert _english_words(texts) == [], [t for t in texts if set(ENGLISH.findall(t)) - ALLOWED][:12]
        assert sum(bool(HANGUL.search(t)) for t in texts) >= 5, texts[:20]
        driver.execute_script("arguments[0].scrollIntoView()", driver.find_element("css selector", "#board"))
        driver.save_screenshot(str(screenshots / f"board-ko-{game_type}-{size}.png"))
        assert page_errors(driver) == []

        _open(driver, base, game_id, token, "en")  # the switch back: the same board in English
        wait(driver, lambda: len(_english_words(driver.execute_script(TEXTS))) >= 5, message="English on the board")
        texts = driver.execute_script(TEXTS)
        assert not [t for t in texts if HANGUL.search(t.replace("민지", ""))], [t for t in texts if HANGUL.search(t)][:12]
        assert page_errors(driver) == []
    finally:
        driver.execute_script(f"localStorage.removeItem('{LANG}')")
        driver.set_window_size(old["width"], old["height"])
