"""A person told to wait: a server with a tiny per-token budget (RATE_LIMIT for a short window)
answers a move `429 rate_limited` with `Retry-After`, and the page says how long to wait; and a
read refused so is read again after `Retry-After`, so the page catches up with a move it was told
of while refused. One server for both (it was one each, the first with an hour's window: a server's
start and stop, some 10 s and 4 CPU-s, issue 48)."""
from __future__ import annotations

import re
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.conftest import wait_for
from tests.web.conftest import WebServer, page_errors
from tests.web.helpers import click_a_move, create_in_lobby, text_of, wait

WINDOW_S = 8  # the server's rate window: windows are aligned to the clock (api/http/ratelimit.py)


@pytest.fixture(scope="module")
def limited_server(redis_url, browser_available):
    """A web server whose tokens may send 40 requests a window of WINDOW_S seconds; no webhook
    nor analysis workers (no test here sends a webhook or finishes a game)."""
    server = WebServer(redis_url, RATE_LIMIT="40", RATE_WINDOW_S=str(WINDOW_S), WEBHOOK_WORKERS="0", ANALYSIS_WORKERS="0")
    try:
        wait_for(server.up, timeout=60, interval=0.2)
        yield server
    finally:
        server.close()


def _window_left_at_least(seconds: float) -> None:
    """Sleeps into the next rate window when less than `seconds` of this one is left: a budget
    spent and then a refusal looked for, both inside one window."""
    left = WINDOW_S - time.time() % WINDOW_S
    if left < seconds:
        time.sleep(left + 0.05)


def test_the_page_says_how_long_to_wait(limited_server, browser):
    driver = browser
    base = limited_server.base
    game_id = create_in_lobby(driver, base, "splendor", ["me", "open"])  # nobody moves meanwhile: no bots
    wait(driver, lambda: text_of(driver, "#turn").startswith("Waiting for players"))
    token = driver.execute_script(f"return JSON.parse(localStorage.getItem('gameserver.games'))['{game_id}'].token")
    # somebody else fills the seat; the page's seat token then spends what is left of its budget
    joined = requests.post(f"{base}/games/{game_id}/seats/1/claim", json={"name": "Bob"})
    assert joined.status_code == 201
    wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "#moves button.move"),
         message="the game starts on the page")
    _window_left_at_least(5)  # the move below refused in the window its budget was spent in
    for _ in range(60):
        r = requests.get(f"{base}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        if r.status_code == 429:
            break
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    retry_after = int(r.headers["Retry-After"])
    assert click_a_move(driver)
    wait(driver, lambda: re.match(r"Too many requests: wait (\d+) s", text_of(driver, "#status")), message="the page says to wait")
    waited = int(re.match(r"Too many requests: wait (\d+) s", text_of(driver, "#status")).group(1))
    assert 0 < waited <= retry_after
    assert "error" in driver.find_element(By.ID, "status").get_attribute("class")
    assert [e for e in page_errors(driver) if "429" not in e] == []
    driver.get("about:blank")  # the page leaves before its server stops (no stream cut under it)


def test_a_refused_read_is_read_again_after_retry_after(limited_server, browser):
    """The other seat moves while the page's token has spent its budget: the page's read after
    the stream's event is refused (429, Retry-After), and the page reads again once the window
    has passed, so it shows its turn (before, it waited for an event that had already come)."""
    driver = browser
    base = limited_server.base
    game_id = create_in_lobby(driver, base, "splendor", ["me", "open"])
    wait(driver, lambda: text_of(driver, "#turn").startswith("Waiting for players"))
    token = driver.execute_script(f"return JSON.parse(localStorage.getItem('gameserver.games'))['{game_id}'].token")
    joined = requests.post(f"{base}/games/{game_id}/seats/1/claim", json={"name": "Bob"})
    assert joined.status_code == 201
    bob = {"Authorization": f"Bearer {joined.json()['token']}"}
    wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "#moves button.move"),
         message="the game starts on the page")
    assert click_a_move(driver)
    wait(driver, lambda: text_of(driver, "#turn") == "Waiting for Bob.", message="the page's move is in")
    for _ in range(200):  # the page's token spends what is left of its window (windows are
        # aligned to the clock: one may end mid-loop, and the next's 40 are spent then)
        if requests.get(f"{base}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).status_code == 429:
            break
    else:
        pytest.fail("the page's token was never refused")
    moves = requests.get(f"{base}/games/{game_id}/moves", headers=bob).json()
    posted = requests.post(f"{base}/games/{game_id}/moves", headers=bob,
                           json={"expected_version": moves["version"], "move": moves["moves"][0]})
    assert posted.status_code == 201
    wait(driver, lambda: text_of(driver, "#turn") == "Your turn.", timeout=45,
         message="the page reads the game again after Retry-After")
    driver.get("about:blank")
