"""The boards in Korean (issue 35): a seat's play page of each of the five games, with the page's
language switch on `ko`, at desktop and phone size, draws no English of its own: no text of the
board (its SVG's texts and tooltips, the bar above it, its text alternative) holds a word of three
Latin letters or more, before and after a move. The pieces' names are the server's (GET /game-types `pieces`, rules'
effects), the captions the client's (web/i18n.js). The same page in English still speaks English.
Screenshots: var/screenshots/board-ko-<game>-<size>.png."""
from __future__ import annotations

import re
import time

import pytest
import requests
from selenium.common.exceptions import WebDriverException

from tests.web.conftest import page_errors
from tests.web.helpers import TURN_JS, board_resized, wait, wait_in_page

TYPES = ["splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
SEATS = {"witches": 3}
# No English word is allowed: even the bots' levels are named in Korean (GET /game-types
# `bot_names`: "무작위 (봇)"), not by their ids.
ALLOWED: set = set()
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


def _my_moves(base, game_id, token, n=2):
    """`n` of my moves sent through the API (the bots answer): the board then shows a later state."""
    key = {"Authorization": f"Bearer {token}"}
    for _ in range(n):
        def mine():
            game = requests.get(f"{base}/games/{game_id}", headers=key, timeout=5).json()
            return game["status"] == "active" and game["to_act"] == [0] and game
        game = wait_until(mine)
        moves = requests.get(f"{base}/games/{game_id}/moves", headers=key, timeout=5).json()["moves"]
        r = requests.post(f"{base}/games/{game_id}/moves", json={"expected_version": game["version"], "move": moves[0]},
                          headers={**key, "Idempotency-Key": f"{game_id}-{game['version']}"}, timeout=5)
        assert r.status_code == 201, r.text
    again = wait_until(lambda: (g := requests.get(f"{base}/games/{game_id}", headers=key, timeout=5).json())["to_act"] == [0] and g)
    return again["version"]


def wait_until(condition, timeout=120):  # waited out only on a failure (a bot's turn on a slow host)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if result := condition():
            return result
        time.sleep(0.2)
    raise AssertionError("timed out")


def _no_english(driver) -> list[str]:
    """The board's texts once drawn in the pieces' names (a moment after the first drawing),
    and those of them holding English."""
    try:
        wait(driver, lambda: not _english_words(driver.execute_script(TEXTS)), timeout=30)
    except WebDriverException:
        pass
    texts = driver.execute_script(TEXTS)
    assert sum(bool(HANGUL.search(t)) for t in texts) >= 5, texts[:20]
    return [t for t in texts if set(ENGLISH.findall(t)) - ALLOWED][:12]


def _open(driver, base, game_id, token, lang):
    driver.get(f"{base}/health")  # the origin, to set its storage (no page to draw: it was the lobby, issue 48)
    driver.execute_script(f"localStorage.setItem('{LANG}', arguments[0])", lang)
    driver.get(f"{base}/play/{game_id}#token={token}")
    assert driver.execute_script("return document.documentElement.lang") == lang
    wait(driver, lambda: driver.execute_script("return !!document.querySelector('#board svg')"), message="the board")


@pytest.fixture(scope="module")
def bots(web_server):
    """The server's bots, playing for the whole module, as test_board_play.py's: started per test,
    each of the ten starts was a worker process's boot and each stop its end (issue 48). A game's
    first board is still read before any move of 민지's; in Witches, whose seats all pass at once,
    it may be read after the bots' passes."""
    web_server.start_bots()
    try:
        yield
    finally:
        web_server.stop_bots()


def _korean_at_both_sizes(driver, screenshots, game_type, later: bool) -> None:
    """No English on the board as it is at the size the window has, then at the other one."""
    sizes = ("phone", "desktop") if later else ("desktop", "phone")
    for i, size in enumerate(sizes):
        if i:
            board_resized(driver, SIZES[size], size == "phone")
        assert _no_english(driver) == [], size
        if later:
            driver.execute_script("arguments[0].scrollIntoView()", driver.find_element("css selector", "#board"))
            driver.save_screenshot(str(screenshots / f"board-ko-{game_type}-{size}.png"))


@pytest.mark.parametrize("game_type", TYPES)
def test_the_board_in_korean_then_english(web_server, bots, browser, screenshots, game_type):
    """At both sizes, on one page: opened at a desktop's, drawn again at a phone's, before and after
    two moves of mine; then the page in English. (Until issue 48 each size was a test of its own,
    with its own game: twice the games, moves and page loads for the same drawings.)"""
    driver, base = browser, web_server.base
    old = driver.get_window_size()
    driver.set_window_size(*SIZES["desktop"])
    try:
        game_id, token = _game(base, game_type)
        _open(driver, base, game_id, token, "ko")
        _korean_at_both_sizes(driver, screenshots, game_type, later=False)
        # a later state too (two moves of mine, the bots' answers): a trick, races on the map...
        version = _my_moves(base, game_id, token)
        wait_in_page(driver, f"document.querySelector('#version')?.dataset.version === '{version}' && {TURN_JS} === '내 차례입니다.'"
                     " && !!document.querySelector('#board .board-bar:not([hidden])')", timeout=30, message="my turn again")
        _korean_at_both_sizes(driver, screenshots, game_type, later=True)
        assert page_errors(driver) == []

        _open(driver, base, game_id, token, "en")  # the switch back: the same board in English
        for size in ("desktop", "phone"):
            board_resized(driver, SIZES[size], size == "phone")
            wait(driver, lambda: len(_english_words(driver.execute_script(TEXTS))) >= 5, message=f"English on the board ({size})")
            texts = driver.execute_script(TEXTS)
            assert not [t for t in texts if HANGUL.search(t.replace("민지", ""))], [t for t in texts if HANGUL.search(t)][:12]
        assert page_errors(driver) == []
    finally:
        driver.execute_script(f"localStorage.removeItem('{LANG}')")
        driver.set_window_size(old["width"], old["height"])
