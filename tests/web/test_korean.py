"""Korean (issue 35): a Chromium whose profile asks for `ko` reads the lobby, a seat's play page
and the replay in Korean: the client's own words (web/i18n.js) and the API's (game titles,
events, rules, asked with Accept-Language and the stream's ?lang=), with <html lang="ko">; the
language switch turns the pages to English and is remembered."""
from __future__ import annotations

import re

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import page_errors
from tests.web.helpers import text_of, wait

# The tier (tests/tiers.py): `korean` drives a browser.
pytestmark = pytest.mark.browser




def _ko(base, path):
    return requests.get(base + path, headers={"Accept-Language": "ko"}, timeout=5).json()


def test_lobby_play_and_replay_in_korean(web_server, korean, screenshots):
    base, driver = web_server.base, korean
    assert driver.execute_script("return navigator.languages[0]").startswith("ko")
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"), message="the game types")
    assert driver.execute_script("return document.documentElement.lang") == "ko"
    assert text_of(driver, "#new-h") == "새 게임" and text_of(driver, "#create-btn") == "게임 만들기"
    titles = {t["type"]: t["title"] for t in _ko(base, "/game-types")["game_types"]}
    shown = {o.get_attribute("value"): o.text for o in driver.find_elements(By.CSS_SELECTOR, "#type option")}
    assert shown == titles and shown["splendor"] != "Splendor", shown  # the API's Korean titles
    driver.save_screenshot(str(screenshots / "lobby-ko.png"))
    name = driver.find_element(By.ID, "name").get_attribute("value")
    assert name and name not in ("Me", "나"), name  # a friendly made-up name, not "Me"

    player = requests.post(f"{base}/players", json={"name": "민지"}, timeout=5).json()
    game = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}], "private": True},
                         headers={"Authorization": f"Bearer {player['key']}"}, timeout=5).json()
    token = next(s["token"] for s in game["seats"] if s.get("token"))
    driver.get(f"{base}/play/{game['id']}#token={token}")
    wait(driver, lambda: text_of(driver, "#turn") == "내 차례입니다.", message="the play page in Korean")
    assert driver.execute_script("return document.documentElement.lang") == "ko"
    assert text_of(driver, "#moves-h") == "내 수"
    wait(driver, lambda: text_of(driver, "#live") == "실시간", message="the stream is open, said in Korean")
    events = _ko(base, f"/games/{game['id']}/events")["events"]
    wait(driver, lambda: text_of(driver, "#events li:last-child") == f"{events[0]['version']}. {events[0]['text']}")
    assert re.search("[가-힣]", events[-1]["text"])  # the API's sentence, in Korean
    moves = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")]
    assert moves and all(re.search("[가-힣]", m) for m in moves[:5]), moves[:5]  # the API's move labels
    driver.find_element(By.CSS_SELECTOR, "#rules-box summary").click()
    assert re.search("[가-힣]", text_of(driver, "#rules-box .rules-text"))
    driver.save_screenshot(str(screenshots / "splendor-play-ko.png"))

    driver.get(f"{base}/replay/{game['id']}")
    wait(driver, lambda: re.fullmatch(r"\d+수 중 \d+수째", text_of(driver, "#at")), message="the replay in Korean")
    assert text_of(driver, "#list-h") == "이벤트" and text_of(driver, "#title").startswith("다시 보기")
    assert page_errors(driver) == []


def test_the_language_switch_is_remembered(web_server, korean):
    base, driver = web_server.base, korean
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"))
    Select(driver.find_element(By.ID, "lang")).select_by_value("en")
    wait(driver, lambda: text_of(driver, "#new-h") == "New game", message="the page in English")
    assert driver.execute_script("return document.documentElement.lang") == "en"
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#type option[value="splendor"]'))
    assert text_of(driver, '#type option[value="splendor"]') == "Splendor"  # the API asked in English too
    driver.get(base + "/leaderboard/splendor")
    wait(driver, lambda: text_of(driver, ".home") == "← Lobby")
    assert driver.execute_script("return localStorage.getItem('gameserver.lang')") == "en"
    Select(driver.find_element(By.ID, "lang")).select_by_value("ko")
    wait(driver, lambda: text_of(driver, ".home") == "← 로비", message="back to Korean")
    title = next(g["title"] for g in _ko(base, "/game-types")["game_types"] if g["type"] == "splendor")
    wait(driver, lambda: text_of(driver, "#title") == f"순위표: {title}", message="the leaderboard's own words, the game's title")
    assert page_errors(driver) == []
