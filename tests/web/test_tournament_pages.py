"""The tournaments' pages in a real browser (issue 52), on a phone (390x844) at `en` and `ko`:
the list's form makes a tournament where the person plays a bot (the page opens on its
`links.web`, the table's game a link to play), a person joins and withdraws from an upcoming
one, and the page follows the tournament's live stream (another player's entry, a result
adjusted: the standings change without a reload). Each page is checked as issue 55 asks
(nothing wider than the screen, no text under 12 px, no control under 24 px, axe-core clean,
no English at `ko` outside names)."""
from __future__ import annotations

import json
import time

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.api.helpers import auth
from tests.web.helpers import text_of, wait
from tests.web.test_social_pages import _as, _checked, _people

FIRST_LINK = "const a = document.querySelector('#tables li a'); return a && [a.href, a.textContent]"  # read at once: the stream re-renders


def _rows(driver):
    return driver.execute_script("return [...document.querySelectorAll('#standings tbody tr')].map((r) => r.dataset.entrant)")


def test_the_form_makes_a_tournament_against_a_bot_and_its_page_shows_the_table(web_server, browser):
    base, driver = web_server.base, browser
    (ann,) = _people(base, "Ann")
    _as(driver, base, ann, "en")
    try:
        driver.get(base + "/")
        wait(driver, lambda: driver.find_elements(By.ID, "tournaments-link"), message="the lobby links the tournaments")
        driver.find_element(By.ID, "tournaments-link").click()
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#t-type option[value=splendor]") and text_of(driver, "#running"))
        _checked(driver, "en", page="tournaments")
        Select(driver.find_element(By.ID, "t-type")).select_by_value("splendor")
        Select(driver.find_element(By.ID, "t-format")).select_by_value("swiss")
        rounds = driver.find_element(By.ID, "t-rounds")
        rounds.clear()
        rounds.send_keys("2")
        assert driver.find_element(By.ID, "t-me").is_selected()  # the person plays: a bot makes the table
        assert driver.find_element(By.CSS_SELECTOR, "#t-bots input").get_attribute("value") == "1"
        driver.find_element(By.ID, "create-tournament").click()
        wait(driver, lambda: "/tournament/" in driver.current_url, message="the page of the new tournament (links.web)")
        tid = driver.current_url.rsplit("/", 1)[1]
        wait(driver, lambda: len(_rows(driver)) == 2 and driver.find_elements(By.CSS_SELECTOR, "#tables li a"))
        assert f"player:{ann['id']}" in _rows(driver)
        game_id = requests.get(f"{base}/tournaments/{tid}", timeout=5).json()["rounds"][0]["tables"][0]["game_id"]
        assert driver.execute_script(FIRST_LINK) == [f"{base}/play/{game_id}", "Play your game"]
        assert text_of(driver, "#countdown") == "Round 1 of 2."
        rules = text_of(driver, "#rules")
        assert "2 rounds" in rules and "Ties are broken by: Buchholz" in rules and "{" not in rules
        assert [h.text for h in driver.find_elements(By.CSS_SELECTOR, "#standings th")][:3] == ["#", "Player", "Points"]
        _checked(driver, "en", page="tournament")
        season = requests.get(f"{base}/seasons/splendor", timeout=5).json()["current"]
        assert driver.find_element(By.ID, "season-link").get_attribute("href") == f"{base}/leaderboard/splendor?season={season}"
        # the list shows it running, filtered by its game
        driver.get(base + "/web/tournaments.html?type=splendor")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#running li[data-id="{tid}"] a'))
        # "now" with bots enough for a table: the person enters before the first round, not late
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#t-bots input"))
        bots = driver.find_element(By.CSS_SELECTOR, "#t-bots input")
        bots.clear()
        bots.send_keys("3")
        driver.find_element(By.ID, "create-tournament").click()
        wait(driver, lambda: "/tournament/" in driver.current_url and len(_rows(driver)) == 4, message="four entrants")
        other = driver.current_url.rsplit("/", 1)[1]
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#tables li a"), message="the first round, paired live")
        kinds = [json.loads(line)["type"] for line in requests.get(f"{base}/tournaments/{other}/events", timeout=5).text.splitlines()]
        assert kinds[:6] == ["tournament_created"] + ["entrant_entered"] * 4 + ["round_paired"], kinds
    finally:
        driver.set_window_size(1280, 1100)


def test_join_withdraw_and_the_live_stream_at_ko(web_server, browser):
    base, driver = web_server.base, browser
    org, bo, cy = _people(base, "Org", "보라", "Cyd")
    made = requests.post(f"{base}/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 1, "start": int(time.time() * 1000) + 3_600_000,
                                                       "entrants": [{"bot": "random"}, {"bot": "greedy"}]}, headers=auth(org["key"]), timeout=10)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    _as(driver, base, bo, "ko")
    try:
        driver.get(made.json()["links"]["web"])
        wait(driver, lambda: len(_rows(driver)) == 2 and driver.find_elements(By.ID, "join"), message="the standings and Join")
        assert "뒤에 시작합니다" in text_of(driver, "#countdown")
        _checked(driver, "ko", names=("Org", "보라"), page="tournament-upcoming")
        driver.execute_script("document.querySelector('#join').click()")  # at once: the stream re-renders the buttons
        wait(driver, lambda: f"player:{bo['id']}" in _rows(driver) and driver.find_elements(By.ID, "withdraw"))
        assert text_of(driver, "#status") == "토너먼트에 참가했습니다."
        driver.execute_script("document.querySelector('#withdraw').click()")
        wait(driver, lambda: text_of(driver, "#status") == "토너먼트에서 기권했습니다.")
        assert requests.get(f"{base}/tournaments/{tid}", timeout=5).json()["entrants"] == 2
        # another player's entry arrives by the stream: no reload
        driver.execute_script("window.notReloaded = true")
        wait(driver, lambda: text_of(driver, "#live") == "실시간", message="the stream is open")
        requests.post(f"{base}/tournaments/{tid}/join", headers=auth(cy["key"]), timeout=10).raise_for_status()
        wait(driver, lambda: f"player:{cy['id']}" in _rows(driver), timeout=20, message="the entry, live")
        assert driver.execute_script("return window.notReloaded") is True
        _checked(driver, "ko", names=("Org", "보라", "Cyd"), page="tournament-joined")
    finally:
        driver.set_window_size(1280, 1100)


def test_a_result_adjusted_moves_the_standings_live(web_server, browser):
    """An all-bot tournament (no workers: its games wait): its table's links watch the game; the
    organiser sets the table's result and the page's points follow without a reload."""
    base, driver = web_server.base, browser
    (org,) = _people(base, "Org")
    made = requests.post(f"{base}/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 1,
                                                       "entrants": [{"bot": "random"}, {"bot": "greedy"}]}, headers=auth(org["key"]), timeout=10).json()
    table = made["rounds"][0]["tables"][0]
    _as(driver, base, org, "en")
    try:
        driver.get(f"{base}/tournament/{made['id']}")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#tables li a") and text_of(driver, "#live") == "live")
        assert driver.execute_script(FIRST_LINK) == [f"{base}/play/{table['game_id']}", "watch"]
        driver.execute_script("window.notReloaded = true")
        winner, loser = table["seats"]
        r = requests.post(f"{base}/tournaments/{made['id']}/adjustments", json={"kind": "set_result", "round": 1, "table": 1,
                                                                                "places": {winner: 1, loser: 2}, "reason": "test"},
                          headers=auth(org["key"]), timeout=10)
        assert r.status_code == 200, r.text
        points = "return [...document.querySelectorAll('#standings tbody tr')].map((r) => [r.dataset.entrant, r.querySelector('.points').textContent])"
        expected = [[s["entrant"], f"{s['points']:g}"] for s in r.json()["standings"]]
        assert expected[0][1] != "0"
        wait(driver, lambda: driver.execute_script(points) == expected, timeout=20, message="the standings, live")
        assert driver.execute_script("return window.notReloaded") is True
    finally:
        driver.set_window_size(1280, 1100)


def test_the_list_pages_with_more_until_every_tournament_is_shown(web_server, browser):
    """More than a page (20) of upcoming Witches tournaments: the list shows 20 and a More button,
    which fetches the next page (`next`) until none is left, each tournament once."""
    base, driver = web_server.base, browser
    (ann,) = _people(base, "Ann")
    later = int(time.time() * 1000) + 3_600_000
    made = []
    for n in range(22):
        r = requests.post(f"{base}/tournaments", json={"type": "witches", "format": "swiss", "rounds": 1, "seats": 3,
                                                       "start": later + n}, headers=auth(ann["key"]), timeout=10)
        assert r.status_code == 201, r.text
        made.append(r.json()["id"])
    _as(driver, base, ann, "en")
    try:
        driver.get(base + "/web/tournaments.html?type=witches")
        shown = "return [...document.querySelectorAll('#upcoming li[data-id]')].map((li) => li.dataset.id)"
        wait(driver, lambda: len(driver.execute_script(shown)) == 20, message="the first page")
        while more := driver.find_elements(By.CSS_SELECTOR, "#upcoming button.more"):
            before = len(driver.execute_script(shown))
            more[0].click()
            wait(driver, lambda: len(driver.execute_script(shown)) > before, message="the next page appended")
        ids = driver.execute_script(shown)
        assert len(ids) == len(set(ids)) and set(made) <= set(ids)
        assert [i for i in ids if i in made] == made[::-1]  # the newest first
    finally:
        driver.set_window_size(1280, 1100)
