"""The replay page's analysis (issue 34), in headless chromium against `python app.py` (its own
analysis worker): a player of a finished game asks for it with the button, the curve (SVG, one
line per person) and the marks are drawn once the worker is done; a spectator sees the same
drawing and no button."""
from __future__ import annotations

import json

import requests
from selenium.webdriver.common.by import By

from tests.conftest import wait_for
from tests.web.conftest import page_errors
from tests.web.helpers import wait


def _view(base: str, gid: str, key: dict) -> dict:
    r = requests.get(f"{base}/games/{gid}", headers=key)
    assert r.status_code == 200, f"GET /games/{gid}: {r.status_code} {r.text[:500]}"
    return r.json()


def _finished_game(base: str) -> tuple[str, dict]:
    """A Splendor game where a person (a player) made moves, then resigned."""
    ann = requests.post(f"{base}/players", json={"name": "Ann"}).json()
    key = {"Authorization": f"Bearer {ann['key']}"}
    game = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]},
                         headers=key).json()
    gid = game["id"]
    for _ in range(3):
        seen = wait_for(lambda: (g := _view(base, gid, key))["to_act"] == [0] and g)
        moves = requests.get(f"{base}/games/{gid}/moves", headers=key).json()["moves"]
        r = requests.post(f"{base}/games/{gid}/moves", json={"expected_version": seen["version"], "move": moves[0]},
                          headers={**key, "Idempotency-Key": f"{gid}-{seen['version']}"})
        assert r.status_code == 201, r.text
    assert requests.post(f"{base}/games/{gid}/resign", headers=key).status_code == 200
    return gid, ann


def test_a_player_asks_for_the_analysis_and_everyone_sees_its_curve(web_server, browser, screenshots):
    driver = browser
    web_server.start_bots()
    try:
        gid, ann = _finished_game(web_server.base)
    finally:
        web_server.stop_bots()
    driver.get(f"{web_server.base}/")
    driver.execute_script("localStorage.setItem('gameserver.player', arguments[0])",
                          json.dumps({"id": ann["id"], "name": ann["name"], "key": ann["key"]}))
    driver.get(f"{web_server.base}/replay/{gid}")
    button = wait(driver, lambda: driver.find_elements(By.ID, "request-analysis"), message="the request button")[0]
    button.click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#analysis svg.analysis-curve polyline"),
         timeout=240, message="the curve, once the worker is done")
    assert driver.find_elements(By.CSS_SELECTOR, '#analysis polyline[data-seat="0"]')
    assert not driver.find_elements(By.CSS_SELECTOR, '#analysis polyline[data-seat="1"]'), "a bot's curve"
    done = requests.get(f"{web_server.base}/games/{gid}/analysis").json()
    marks = driver.find_elements(By.CSS_SELECTOR, "#analysis .analysis-mark")
    assert sorted(int(m.get_attribute("data-version")) for m in marks) == done["marked"]
    listed = driver.find_elements(By.CSS_SELECTOR, "#analysis .analysis-marks a")
    assert [a.get_attribute("href").rsplit("#v=", 1)[1] for a in listed] == [str(v) for v in done["marked"]]
    driver.execute_script("document.getElementById('analysis').scrollIntoView()")
    driver.find_element(By.ID, "analysis").screenshot(str(screenshots / "splendor-analysis.png"))
    assert page_errors(driver) == []
    # A spectator (no player in this browser): the same curve, no button.
    driver.execute_script("localStorage.clear()")
    driver.get(f"{web_server.base}/replay/{gid}")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#analysis svg.analysis-curve polyline"))
    assert not driver.find_elements(By.ID, "request-analysis")
    assert page_errors(driver) == []

