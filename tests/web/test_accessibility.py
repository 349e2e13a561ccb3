"""axe-core (vendored under tests/web/vendor/axe-core, injected by the test, never served) on
the lobby, a seat's play page of each game, the replay, a profile and a leaderboard: no serious
or critical violation."""
from __future__ import annotations

from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.helpers import text_of, wait

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
TYPES = {"splendor": 2, "witches": 3, "setup": 2, "fairy-tile": 2, "smallworld-of-warcraft": 2}
RUN = """const done = arguments[0];
axe.run(document, {resultTypes: ["violations"]}).then((r) => done(r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))),
  (e) => done([{id: "axe failed", help: String(e)}]));"""


def _violations(driver) -> list:
    driver.execute_script(AXE)
    driver.set_script_timeout(60)
    return driver.execute_async_script(RUN)


@pytest.fixture(scope="module")
def seated(web_server):
    """A player, and per game type a game where it sits beside bots (nobody moves: no workers)."""
    base = web_server.base
    player = requests.post(f"{base}/players", json={"name": "Ada"}, timeout=5).json()
    games = {}
    for game_type, seats in TYPES.items():
        bots = requests.get(f"{base}/game-types", timeout=5).json()["game_types"]
        bot = next(t["bots"][0] for t in bots if t["type"] == game_type)
        made = requests.post(f"{base}/games", json={"type": game_type, "seats": [{"me": True}] + [{"bot": bot}] * (seats - 1), "private": True},
                             headers={"Authorization": f"Bearer {player['key']}"}, timeout=5).json()
        games[game_type] = (made["id"], next(s["token"] for s in made["seats"] if s.get("token")))
    return player, games


def test_the_lobby_and_the_ratings_pages(web_server, browser, seated):
    base, driver = web_server.base, browser
    player, _ = seated
    found = {}
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option") and driver.find_elements(By.CSS_SELECTOR, "#types li"))
    found["lobby"] = _violations(driver)
    driver.get(f"{base}/leaderboard/splendor")
    wait(driver, lambda: text_of(driver, "#title").startswith("Leaderboard"))
    found["leaderboard"] = _violations(driver)
    driver.get(f"{base}/profile/{player['id']}")
    wait(driver, lambda: text_of(driver, "#title") != "Player" or text_of(driver, "#status"))
    found["profile"] = _violations(driver)
    assert found == {page: [] for page in found}, found


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("game_type", list(TYPES))
def test_a_play_page_and_its_replay(game_type, lang, web_server, browser, seated):
    """In both languages: a piece's name holds the text it shows (axe's label-content-name-mismatch
    once found Korean names without a card's number, a square's short name or a combo's coins)."""
    base, driver = web_server.base, browser
    driver.get(f"{base}/health")
    driver.execute_script("localStorage.setItem('gameserver.lang', arguments[0])", lang)
    gid, token = seated[1][game_type]
    driver.get(f"{base}/play/{gid}#token={token}")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#board svg") and driver.find_elements(By.CSS_SELECTOR, "#rules-box"),
         message="the board and the rules drawn")
    found = {"play": _violations(driver)}
    if game_type == "splendor":
        driver.get(f"{base}/replay/{gid}")
        wait(driver, lambda: text_of(driver, "#at"))  # "move 0 of 3", "3수 중 ..."
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#board svg, #board .waiting"))
        found["replay"] = _violations(driver)
    assert found == {page: [] for page in found}, found
