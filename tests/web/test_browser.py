"""A person's paths through the web client, clicked in headless chromium against `python app.py`:
create a Splendor game against a bot in the lobby and play it to the end, replay it, and watch
a bot-only game of each hosted type update live. Each board is saved under var/screenshots/."""
from __future__ import annotations

import json
import re
import time

import pytest
import requests
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from domain import registry
from tests.api.helpers import short_options
from tests.conftest import wait_for
from tests.web.conftest import page_errors
from tests.web.helpers import (
    TURN_JS,
    click_a_move,
    create_in_lobby,
    replay_at,
    shown_version,
    text_of,
    wait,
    wait_in_page,
)

TYPES = ["splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"]


# The late position the page takes over at, at the seat's turn: the leader has this many points.
# Never later: a turn gains at most 8 (a 5-point card and a noble), so from 6 nobody reaches the
# end's 15 and the game waits for the seat's next turn. (Clicked from the start, a Splendor game
# was some 25 clicks, each drawn again; the most of the file's CPU: issue 48.)
LATE_POINTS = 7
# The moves the page clicks at the end, by kind: a buy, else gems, else whatever is left (a
# return, a noble).
LATE_KINDS = ("buy", "take_gems", "take_two")


def _points(view: dict) -> dict[str, int]:
    """The points of each card a seat may buy now (the market's, its reserved ones shown)."""
    cards = [c for row in view["market"] for c in row if c] + [c for p in view["players"] for c in p["reserved"] if not c.get("hidden")]
    return {c["id"]: c["points"] for c in cards}


def _late_by_api(base: str, game_id: str, token: str, seat: int) -> int:
    """The seat's moves sent through the API while the bot answers (the buy worth most, else
    gems, else the first offered), until the leader has LATE_POINTS; the moves sent."""
    key = {"Authorization": f"Bearer {token}"}
    for sent in range(200):
        game = wait_for(lambda: (g := requests.get(f"{base}/games/{game_id}", headers=key, timeout=5).json())
                        ["status"] != "active" or seat in g["to_act"] and g, timeout=120, interval=0.05)
        assert game["status"] == "active", f"the game ended after {sent} moves sent through the API"
        if max(p["points"] for p in game["view"]["players"]) >= LATE_POINTS:
            return sent
        moves = requests.get(f"{base}/games/{game_id}/moves", headers=key, timeout=5).json()["moves"]
        worth = _points(game["view"])
        buys = sorted((m for m in moves if m["type"] == "buy"), key=lambda m: -worth.get(m["card"], 0))
        move = (buys or [m for m in moves if m["type"] == "take_gems"] or moves)[0]
        r = requests.post(f"{base}/games/{game_id}/moves", json={"expected_version": game["version"], "move": move},
                          headers={**key, "Idempotency-Key": f"{game_id}-{game['version']}"}, timeout=5)
        assert r.status_code == 201, r.text
    raise AssertionError(f"not {LATE_POINTS} points after 200 moves")


# The enabled move button of the first of the kinds given (data-move's type), else the first
# enabled one; null when none is.
MOVE_OF_KIND = """
const buttons = [...document.querySelectorAll('#moves button.move')].filter((b) => !b.matches(':disabled'));
for (const kind of arguments[0]) {
  const chosen = buttons.find((b) => JSON.parse(b.dataset.move).type === kind);
  if (chosen) return chosen;
}
return buttons[0] || null;
"""


def _click_a_kind(driver, kinds) -> str | None:
    """Clicks a move of the first of `kinds` offered (else any); its kind, or None when none is."""
    try:
        button = driver.execute_script(MOVE_OF_KIND, list(kinds))
        if button is None:
            return None
        kind = json.loads(button.get_attribute("data-move"))["type"]
        if not button.is_displayed():  # its kind's group is closed (many moves): a person opens it
            driver.execute_script("arguments[0].closest('details').querySelector('summary').scrollIntoView({block: 'center'})", button)
            button.find_element(By.XPATH, "ancestor::details/summary").click()
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        return kind
    except (StaleElementReferenceException, ElementClickInterceptedException):
        return None


@pytest.fixture(scope="module")
def splendor_game(web_server, browser, screenshots):
    """A Splendor game created in the lobby (me against the greedy bot): its first move chosen
    on the board and played from the keyboard, a reserve clicked, its middle played through the
    API with the page away, its end by clicking moves (buys first) on the page reopened."""
    driver = browser
    web_server.start_bots()
    try:
        game_id = create_in_lobby(driver, web_server.base, "splendor")
        wait(driver, lambda: "You play" in text_of(driver, "#who"))
        # the board narrows the moves: clicking the supply's red gems leaves the moves taking red
        wait(driver, lambda: text_of(driver, "#turn") == "Your turn.")
        total = len(driver.find_elements(By.CSS_SELECTOR, "#moves button.move"))
        red = driver.find_element(By.CSS_SELECTOR, '#board [data-ref="red"]')
        red.click()
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, '#board [data-ref="red"]').get_attribute("aria-pressed") == "true")
        narrowed = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
        assert 0 < len(narrowed) < total
        assert all("red" in b.text for b in narrowed)
        driver.find_element(By.ID, "board").screenshot(str(screenshots / "splendor-play-start.png"))
        first_version = shown_version(driver)
        # the keyboard does the same: Enter on the focused gem unselects it, a move plays on Enter
        driver.execute_script('document.querySelector(\'#board [data-ref="red"]\').focus()')
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#moves button.move")) == total)
        assert driver.switch_to.active_element.get_attribute("data-ref") == "red"  # focus stays
        move = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")[0]
        driver.execute_script("arguments[0].focus()", move)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(driver, lambda: shown_version(driver) > first_version, message="the move sent from the keyboard")
        # a reserve clicked (no other test clicks one): its kind's group may be closed, as a person finds it
        wait(driver, lambda: text_of(driver, "#turn") == "Your turn.", message="my second turn")
        before = shown_version(driver)
        assert _click_a_kind(driver, ("reserve",)) == "reserve"
        wait(driver, lambda: shown_version(driver) > before, message="the reserve played")
        # the game's middle through the API, the page away (nothing drawn meanwhile); the seat's
        # token is the one the lobby kept for this browser
        seat, token = driver.execute_script(f"const g = JSON.parse(localStorage.getItem('gameserver.games'))['{game_id}'];"
                                            " return [g.seat, g.token]")
        driver.get(web_server.base + "/health")
        sent = _late_by_api(web_server.base, game_id, token, seat)
        driver.get(f"{web_server.base}/play/{game_id}")
        wait(driver, lambda: text_of(driver, "#turn") == "Your turn.", message="the page reopened on the late game")
        # generous: only a failure waits it out, and a slow host's bot takes seconds a turn
        clicked, deadline = [], time.monotonic() + 600
        while not text_of(driver, "#turn").startswith("Game over"):
            assert time.monotonic() < deadline, f"not over after {clicked}: {text_of(driver, '#turn')}"
            before = shown_version(driver)
            if text_of(driver, "#turn") == "Your turn." and (kind := _click_a_kind(driver, LATE_KINDS)):
                clicked.append(kind)
                wait(driver, lambda: shown_version(driver) > before or text_of(driver, "#status").startswith(("Someone", "It is not", "The game moved on")),
                     message=f"the move is answered (status: {text_of(driver, '#status')})")
            else:  # the bot's turn: seconds on a loaded host
                wait_in_page(driver, f"{TURN_JS} === 'Your turn.' || {TURN_JS}.startsWith('Game over')", timeout=120,
                             message="the bot's turn ends")
        assert clicked, "the game's end reached by clicks"
        assert sent >= 5 and shown_version(driver) > first_version + 2 * (sent + len(clicked))
        assert re.search(r"Won by .+", text_of(driver, "#turn"))
        assert not driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
        assert page_errors(driver) == []
        driver.find_element(By.ID, "board").screenshot(str(screenshots / "splendor-play-end.png"))
        return game_id, shown_version(driver)
    finally:
        web_server.stop_bots()


def test_play_splendor_against_a_bot_to_the_end(splendor_game, browser):
    game_id, final = splendor_game
    events = browser.find_elements(By.CSS_SELECTOR, "#events li")
    assert events and events[0].text.startswith(f"{final}.")  # the newest event first: the scoring
    assert browser.find_element(By.ID, "replay-link").is_displayed()


def test_replay_to_version_10_and_back(splendor_game, web_server, browser, screenshots):
    game_id, final = splendor_game
    driver = browser
    # the lobby lists the finished game this browser played, with its replay
    driver.get(web_server.base + "/")
    link = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#done-games li[data-game="{game_id}"] a[href="/replay/{game_id}"]'),
                message="the lobby lists the finished game")[0]
    link.click()
    wait(driver, lambda: replay_at(driver) == (2, final), message="the replay starts at the setup")
    for v in range(3, 11):
        driver.find_element(By.ID, "next").click()
        wait(driver, lambda: replay_at(driver) == (v, final))
    wait(driver, lambda: driver.execute_script("return location.hash") == "#v=10")
    wait(driver, lambda: text_of(driver, "#step").startswith("10."), message="the step's event is shown")
    assert driver.find_element(By.ID, "slider").get_attribute("value") == "10"
    driver.find_element(By.ID, "board").screenshot(str(screenshots / "splendor-replay-v10.png"))
    board_at_10 = driver.find_element(By.CSS_SELECTOR, "#board svg").get_attribute("outerHTML")
    # back with the keyboard, then to the start with the button
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait(driver, lambda: replay_at(driver) == (9, final))
    driver.find_element(By.ID, "first").click()
    wait(driver, lambda: replay_at(driver) == (2, final))
    wait(driver, lambda: driver.execute_script("return location.hash") == "#v=2")
    # a link to a version opens it
    driver.get(f"{web_server.base}/replay/{game_id}#v=10")
    wait(driver, lambda: replay_at(driver) == (10, final))
    wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, "#board svg").get_attribute("outerHTML") == board_at_10)
    # play at the fastest speed runs to the end and stops there: from a few moves before it (a
    # link within the page: no reload), not from move 10 (a Splendor game's 50 more steps were
    # 8 s of redrawing the board: issue 48)
    driver.execute_script("location.hash = arguments[0]", f"#v={final - 4}")
    wait(driver, lambda: replay_at(driver) == (final - 4, final), message="the hash's version is shown")
    Select(driver.find_element(By.ID, "speed")).select_by_value("150")
    driver.find_element(By.ID, "play").click()
    wait(driver, lambda: replay_at(driver) == (final, final), timeout=60)
    wait(driver, lambda: driver.find_element(By.ID, "play").get_attribute("aria-label") == "Play")
    assert "Game over" in text_of(driver, "#step")
    assert page_errors(driver) == []


@pytest.mark.parametrize("game_type", TYPES)
def test_watch_a_bot_only_game_live(game_type, web_server, browser, screenshots):
    driver = browser
    web_server.stop_bots()  # the page opens on the game before its bots move
    default_bots = None
    driver.get(web_server.base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"))
    Select(driver.find_element(By.ID, "type")).select_by_value(game_type)
    default_bots = [o.get_attribute("value") for o in Select(driver.find_elements(By.CSS_SELECTOR, "#seats .seat")[0]).options][-1]
    seats = len(driver.find_elements(By.CSS_SELECTOR, "#seats .seat"))
    # The longer games shortened in the lobby's options (one round of Witches, 20 of Fairy Tile):
    # the page's live end is the same for a short game, and the form's options are typed.
    create_in_lobby(driver, web_server.base, game_type, [default_bots] * max(seats, 3 if game_type == "witches" else 2),
                    options=short_options(registry.get(game_type)), opened=True)
    wait(driver, lambda: text_of(driver, "#who") == "You are watching.")
    wait(driver, lambda: text_of(driver, "#live") == "live", message="the stream is open")
    start = shown_version(driver)
    driver.execute_script("window.__sameDocument = true")  # no reload may bring what follows
    driver.find_element(By.ID, "board").screenshot(str(screenshots / f"{game_type}-watch-start.png"))
    web_server.start_bots()
    try:
        wait(driver, lambda: shown_version(driver) > start + 5, message="the bots' moves arrive")
        wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#events li")) > 3)
        driver.find_element(By.ID, "board").screenshot(str(screenshots / f"{game_type}-watch-live.png"))
        wait_in_page(driver, "document.querySelector('#live')?.innerText.trim() === 'finished'", timeout=300,
                     message="the game ends live")
        wait(driver, lambda: text_of(driver, "#turn").startswith("Game over"))
    finally:
        web_server.stop_bots()
    assert driver.execute_script("return window.__sameDocument") is True
    final = shown_version(driver)
    assert text_of(driver, "#events li:first-child").startswith(f"{final}.")
    driver.find_element(By.ID, "board").screenshot(str(screenshots / f"{game_type}-watch-end.png"))
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg [data-ref]"), "the board's pieces are drawn"
    assert page_errors(driver) == []


def test_a_phone_sized_screen(splendor_game, web_server, browser, screenshots):
    """At 390 px wide the lobby and the board fit the screen: nothing scrolls sideways."""
    game_id, _ = splendor_game
    driver = browser
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    try:
        for path in ("/", f"/play/{game_id}", f"/replay/{game_id}#v=10"):
            driver.get(web_server.base + path)
            wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#board svg, #type option"))
            overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} scrolls sideways by {overflow} px"
        driver.save_screenshot(str(screenshots / "phone-replay.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])


def test_a_stale_board_is_told_and_refreshed(web_server, browser):
    """A move sent from a board another client has overtaken answers 409: the page says so in
    a sentence and draws the game as it is now. (The page's stream is blocked with the DevTools
    protocol meanwhile, so its board is surely stale.)"""
    import requests

    driver = browser
    web_server.start_bots()
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/stream?*"]})  # no live updates
        game_id = create_in_lobby(driver, web_server.base, "splendor", ["me", "bot:random"])
        wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "#moves button.move"))
        stale = shown_version(driver)
        token = driver.execute_script(f"return JSON.parse(localStorage.getItem('gameserver.games'))['{game_id}'].token")
        base = web_server.base
        try:
            moves = requests.get(f"{base}/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"}).json()["moves"]
            sent = requests.post(f"{base}/games/{game_id}/moves", json={"expected_version": stale, "move": moves[0]},
                                 headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "other-client"})
            assert sent.status_code == 201
            assert shown_version(driver) == stale  # the page has not seen it
            assert click_a_move(driver)
            wait(driver, lambda: text_of(driver, "#status").startswith("Someone moved first"), message="the conflict is told")
        finally:
            driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        wait(driver, lambda: shown_version(driver) > stale, message="the board is refreshed")
        assert [e for e in page_errors(driver) if "ERR_BLOCKED" not in e and "stream?" not in e and "409 (CONFLICT)" not in e] == []
    finally:
        web_server.stop_bots()


def test_fairy_tile_moves_chosen_by_kind(web_server, browser, screenshots):
    """Fairy Tile's summary is the first choice (a figure to move, or the tile to lay): it leaves
    that kind's moves and lights the hexes they use; a hex then leaves the moves using it."""
    import json

    driver = browser
    web_server.start_bots()
    try:
        create_in_lobby(driver, web_server.base, "fairy-tile", ["me", "bot:random"])
        wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "#kinds .kind"),
             timeout=30, message="my turn, with the summary's kinds")
        total = int(re.search(r"of (\d+) moves", text_of(driver, "#move-count")).group(1))
        kinds = [b.get_attribute("data-kind") for b in driver.find_elements(By.CSS_SELECTOR, "#kinds .kind")]
        kind = next(k for k in ("princess", "knight", "lay_tile") if k in kinds)
        # chosen from the keyboard: Enter on the focused button, which keeps the focus
        driver.execute_script("arguments[0].focus()", driver.find_element(By.CSS_SELECTOR, f'#kinds [data-kind="{kind}"]'))
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(driver, lambda: driver.find_element(By.CSS_SELECTOR, f'#kinds [data-kind="{kind}"]').get_attribute("aria-pressed") == "true")
        assert driver.switch_to.active_element.get_attribute("data-kind") == kind
        moves = [json.loads(b.get_attribute("data-move")) for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")]
        kept = int(re.search(r"^(\d+) of", text_of(driver, "#move-count")).group(1))
        assert 0 < kept < total and all(m.get("figure", m["type"]) == kind for m in moves)
        lit = [n.get_attribute("data-ref") for n in driver.find_elements(By.CSS_SELECTOR, "#board [data-ref].can")]
        assert lit and all(re.fullmatch(r"-?\d+,-?\d+", ref) for ref in lit), lit  # hexes only
        driver.find_element(By.CSS_SELECTOR, f'#board [data-ref="{lit[0]}"]').click()
        q, r = map(int, lit[0].split(","))
        wait(driver, lambda: 0 < len(driver.find_elements(By.CSS_SELECTOR, "#moves button.move")) <= kept)
        for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move"):
            m = json.loads(b.get_attribute("data-move"))
            assert [q, r] in (m.get("to"), m.get("via"), m.get("at")), m
        driver.find_element(By.ID, "board").screenshot(str(screenshots / "fairy-tile-choose.png"))
        before = shown_version(driver)
        assert click_a_move(driver)
        wait(driver, lambda: shown_version(driver) > before, message="the chosen move is played")
        assert page_errors(driver) == []
    finally:
        web_server.stop_bots()


def test_a_rematch_seats_the_player_again(splendor_game, web_server, browser):
    """After the replay tests (a rematch appends to the finished game's history)."""
    game_id, _ = splendor_game
    browser.get(f"{web_server.base}/play/{game_id}")
    wait(browser, lambda: browser.find_elements(By.ID, "rematch"), message="the finished game offers a rematch")[0].click()
    wait(browser, lambda: "/play/" in browser.current_url and not browser.current_url.endswith(game_id), message="the rematch opens")
    wait(browser, lambda: text_of(browser, "#who").startswith("You play"), message="seated in the rematch")
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#board svg [data-ref]"))  # every seat taken: dealt
    browser.get(f"{web_server.base}/play/{game_id}")
    wait(browser, lambda: browser.find_elements(By.ID, "rematch-link"), message="the old game links the rematch")
    assert page_errors(browser) == []


def test_resign_from_the_page(web_server, browser, screenshots):
    """The seat's own controls: Resign ends a two-seat game, and the page says who left and who won."""
    driver = browser
    create_in_lobby(driver, web_server.base, "splendor", ["me", "bot:random"])
    wait(driver, lambda: not driver.find_element(By.ID, "seat-section").get_attribute("hidden"),
         message="the seat's controls are shown")
    driver.execute_script("window.confirm = () => true;")
    resign = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#seat-controls button") if b.text == "Resign")
    resign.click()
    wait(driver, lambda: "left the game" in text_of(driver, "#turn"), message="the resignation is told")
    assert "Won by" in text_of(driver, "#turn")
    assert driver.find_element(By.ID, "seat-section").get_attribute("hidden")
    driver.save_screenshot(str(screenshots / "resigned.png"))
    assert page_errors(driver) == []
