"""The replay of a game that went through the lobby (issue 28): its versions while it waited
show its seats, the later ones its board; and a replay whose requests fail says so instead of
sitting on "Loading…"."""
from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.web.conftest import page_errors
from tests.web.helpers import replay_at, text_of, wait


def _resigned_lobby_game(base) -> tuple[str, int]:
    """Created with `{"me": true}` and `{"open": true}`, seat 1 claimed, then resigned."""
    ann, bob = (requests.post(f"{base}/players", json={"name": n}).json()["key"] for n in ("Ann", "Bob"))
    created = requests.post(f"{base}/games", json={"type": "witches", "seats": [{"me": True}, {"open": True}, {"open": True}]},
                            headers={"Authorization": f"Bearer {ann}"}).json()
    for seat, key in ((1, bob), (2, None)):
        r = requests.post(f"{base}/games/{created['id']}/seats/{seat}/claim", json=None if key else {"name": "Cy"},
                          headers={"Authorization": f"Bearer {key}"} if key else {})
        assert r.status_code == 201, r.text
    r = requests.post(f"{base}/games/{created['id']}/resign", headers={"Authorization": f"Bearer {bob}"})
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    return created["id"], r.json()["version"]


def test_a_lobby_game_replays_from_its_first_version(web_server, browser):
    gid, final = _resigned_lobby_game(web_server.base)
    driver = browser
    driver.get(f"{web_server.base}/replay/{gid}#v=1")
    wait(driver, lambda: replay_at(driver) == (1, final), message="the replay opens at version 1")
    wait(driver, lambda: "Waiting for players: 2 free seats." in text_of(driver, "#board"), message="the waiting seats")
    wait(driver, lambda: text_of(driver, "#title") == "Replay · Witches", message="the game's title, not its id")
    driver.find_element(By.ID, "last").click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#board svg"), message="the board at the end")
    assert text_of(driver, "#status") == ""
    assert page_errors(driver) == []


def test_a_replay_whose_request_fails_says_so(web_server, browser):
    gid, _ = _resigned_lobby_game(web_server.base)
    driver = browser
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/state?version=*"]})
    try:
        driver.get(f"{web_server.base}/replay/{gid}")
        wait(driver, lambda: text_of(driver, "#status") == "The server cannot be reached.", message="the failure is said")
        assert text_of(driver, "#title") == "Replay" and gid not in text_of(driver, "main")  # no raw id
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    page_errors(driver)  # the blocked requests are logged as errors: not this test's concern
