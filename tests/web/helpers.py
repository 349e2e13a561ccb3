"""What the browser tests share: waiting on the page, reading it, and a person's steps."""
from __future__ import annotations

import re
import time

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

QUICK_S = 1.0  # a wait's first second is asked every 50 ms (a page's answer), then every 200 ms
SLOW_POLL_S = 0.2


def wait(driver, condition, timeout=60, message=""):
    """`condition()`'s first true value (an element missing or stale counts as not yet, as in
    WebDriverWait); TimeoutException after `timeout` s. Long: waited out only on a failure; a
    loaded host can be three times slower than usual. Each ask is a round trip through chromedriver into the page (about 5 ms of CPU
    across chromium, the driver and this process): a wait on a bot's turn or a game's end, asked
    20 times a second, cost 0.1 CPU-s a second; after the first second it is asked 5 times
    (issue 48), later by at most 0.2 s."""
    started = time.monotonic()
    while True:
        try:
            value = condition()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None
        if value:
            return value
        waited = time.monotonic() - started
        if waited > timeout:
            raise TimeoutException(message)
        time.sleep(0.05 if waited < QUICK_S else SLOW_POLL_S)


# Waits in the page for `condition` (a JS expression, the script's own text: the pages' CSP allows
# no eval), asked at every change of the document (a MutationObserver) and each 250 ms besides;
# true, or false once `timeout_ms` have passed.
IN_PAGE = """
const [timeoutMs, done] = arguments;
const test = () => { try { return Boolean(%s); } catch { return false; } };
if (test()) return done(true);
const finish = (value) => { observer.disconnect(); clearInterval(timer); clearTimeout(limit); done(value); };
const observer = new MutationObserver(() => { if (test()) finish(true); });
observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
const timer = setInterval(() => { if (test()) finish(true); }, 250);
const limit = setTimeout(() => finish(false), timeoutMs);
"""


def wait_in_page(driver, condition: str, timeout=60, message="") -> None:
    """Until the page's `condition` (JS) holds: one WebDriver call for a wait of any length, where
    `wait` asks through chromedriver five times a second (about 5 ms of CPU each, issue 48). For
    the long waits on a page that changes by itself: a bot's turn, a game played live. A page
    that reloads meanwhile ends the call early: the condition is then asked again."""
    from selenium.common.exceptions import JavascriptException

    started, kept = time.monotonic(), driver.timeouts.script
    try:
        while True:
            left = timeout - (time.monotonic() - started)
            if left <= 0:
                raise TimeoutException(message)
            driver.set_script_timeout(left + 10)
            try:
                if driver.execute_async_script(IN_PAGE % condition, int(left * 1000)):
                    return
            except (JavascriptException, TimeoutException):
                time.sleep(SLOW_POLL_S)  # a navigation ended the script: ask again
    finally:
        driver.set_script_timeout(kept)


# The play page's line of whose turn it is (#turn), as `text_of` reads it, in a page's condition.
TURN_JS = "(document.querySelector('#turn')?.innerText || '').trim()"


def board_resized(driver, size: tuple[int, int], narrow: bool) -> None:
    """The window at `size`, once the board has been drawn again by itself for it (web/board.js's
    ResizeObserver: a phone turned, a window resized), narrow or not as asked: the same page
    checked at a second size without a second load (issue 48)."""
    driver.set_window_size(*size)
    wait(driver, lambda: driver.execute_script("const b = document.querySelector('#board svg');"
                                               " return !!b && b.classList.contains('narrow') === arguments[0]", narrow),
         message=f"the board drawn again at {size[0]}x{size[1]}")


def ask_presence_often(driver, base: str, every_ms: int = 1000) -> None:
    """This browser's play pages ask who is here every `every_ms` (web/presence.js's
    localStorage knob; 5 s without it): a test sees a seat arrive or leave without waiting out
    5 s (issue 48). Set on the server's origin (a JSON page: no page of the client's loaded)."""
    driver.get(f"{base}/health")
    driver.execute_script("localStorage.setItem('gameserver.presence-every-ms', arguments[0])", str(every_ms))


def text_of(driver, css):
    try:
        return driver.find_element(By.CSS_SELECTOR, css).text
    except StaleElementReferenceException:
        return ""


def shown_version(driver) -> int:
    """The game's version the play page holds (#version's data-version: a person is not shown it)."""
    try:
        return int(driver.find_element(By.ID, "version").get_attribute("data-version") or -1)
    except (StaleElementReferenceException, ValueError):
        return -1


def replay_at(driver) -> tuple[int, int]:
    """The replay's step: its version and the last one (#at's data: a person reads moves)."""
    try:
        at = driver.find_element(By.ID, "at")
        return int(at.get_attribute("data-version") or -1), int(at.get_attribute("data-last") or -1)
    except (StaleElementReferenceException, ValueError):
        return -1, -1


def create_in_lobby(driver, base, game_type, seats=None, options=None, opened=False):
    """Fills the lobby's form: `seats` are the seat choices ("me", "bot:greedy"...), or the
    form's defaults; `options` the integer options typed into their fields (name -> value).
    `opened`: the lobby is the page shown already (not loaded again: a load is about half a
    CPU-second of chromium's, issue 48)."""
    if not opened:
        driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"), message="game types listed")
    Select(driver.find_element(By.ID, "type")).select_by_value(game_type)
    if seats is not None:
        rows = driver.find_elements(By.CSS_SELECTOR, "#seats .seat")
        for _ in range(len(seats) - len(rows)):
            driver.find_element(By.ID, "add-seat").click()
        for select, choice in zip(driver.find_elements(By.CSS_SELECTOR, "#seats .seat"), seats):
            Select(select).select_by_value(choice)
    for name, value in (options or {}).items():
        field = driver.find_element(By.CSS_SELECTOR, f'#options [name="{name}"]')
        field.clear()
        field.send_keys(str(value))
    driver.find_element(By.ID, "create-btn").click()
    wait(driver, lambda: "/play/" in driver.current_url, message="the lobby opens the new game")
    wait(driver, lambda: shown_version(driver) > 0, message="the board is drawn")
    return driver.current_url.rsplit("/", 1)[1]


# The move button click_a_move clicks: the first enabled one whose text starts with the first of
# `prefer`'s words that one does, else the first enabled one; null when none is.
CHOSEN_MOVE = """
const prefer = arguments[0];
const buttons = [...document.querySelectorAll('#moves button.move')].filter((b) => !b.matches(':disabled'));
for (const word of prefer) {
  const chosen = buttons.find((b) => b.innerText.trim().startsWith(word));
  if (chosen) return chosen;
}
return buttons[0] || null;
"""


def click_a_move(driver, prefer=("Buy", "Take", "Reserve", "Return")) -> bool:
    """Clicks one legal move's button (a buy when there is one); False when there is none now.
    The button is chosen in the page, in one call: asked button by button (enabled? its text?),
    a Splendor turn's 30-odd buttons took some 60 WebDriver calls, about 0.5 s of a played
    game's second a turn (issue 48). The click itself is still WebDriver's, as a person's."""
    try:
        button = driver.execute_script(CHOSEN_MOVE, list(prefer))
        if button is None:
            return False
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        return True
    except (StaleElementReferenceException, ElementClickInterceptedException):
        return False


# The words a person sees: the visible text nodes of the page (the language switch's names of
# languages left out), joined.
SHOWN_TEXT = """
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode, parent = node.parentElement;
  if (!parent || parent.closest("#lang, script, style, [hidden], option") || !parent.getClientRects().length) continue;
  // a closed disclosure's content is not seen until it is opened
  if (!parent.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
  if (getComputedStyle(parent).visibility === "hidden") continue;
  out.push(node.textContent);
}
for (const select of document.querySelectorAll("select:not(#lang)")) {
  if (select.getClientRects().length) out.push(...[...select.options].map((o) => o.text));
}
return out.join(" \\n ");
"""


def shown_text(driver) -> str:
    return driver.execute_script(SHOWN_TEXT)


def english_words(driver, names=()) -> list[str]:
    """The words of three or more Latin letters a person sees, other than in `names`."""
    text = shown_text(driver)
    for name in names:
        text = text.replace(name, " ")
    return sorted(set(re.findall(r"[A-Za-z]{3,}", text)))


# People's names as the page marks them: a lobby list's seats one by one (`.who .seat-name`, read
# from their own elements: a name's menu `⋯` beside it is not part of it), and every other `.who`
# whole (the moderation page's names).
LISTED_NAMES = """
return [...document.querySelectorAll('.who')].flatMap((who) => {
  const seats = who.querySelectorAll('.seat-name');
  return seats.length ? [...seats].map((s) => s.textContent) : [who.textContent];
}).filter((name) => name.trim());
"""


def listed_names(driver) -> list[str]:
    return driver.execute_script(LISTED_NAMES)
