"""The web client in a real browser: Debian's chromium, headless, driven by Selenium through
chromium-driver, against `python app.py`.

The server runs without turn workers of its own; the tests start and stop real RQ workers on
its queue, so a page can be open on a game before its bots move (and watch them move live)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections import deque

import pytest
import requests

from tests.conftest import ROOT, Workers, _free_port, wait_for

WINDOW = (1280, 1100)  # every shared chromium's window, at its start and at each module's
SCREENSHOTS = ROOT / "var" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
# Why each flag (issue 48 measured chromium's CPU for each candidate: docs/testing.md, "chromium's
# flags, again"). Measured and not taken, none cut chromium's CPU beyond the noise (chromium 156,
# 2026-12-06): `--headless=old` (gone from this chromium: the same new headless), site isolation off
# (`--disable-site-isolation-trials`, `--disable-features=IsolateOrigins,site-per-process`),
# Puppeteer's `--disable-features=` list (Translate, OptimizationHints, MediaRouter, BackForwardCache,
# PaintHolding...), `--renderer-process-limit=1`, `--process-per-site`, `--in-process-gpu` (more),
# `--disable-gpu-compositing`, `--disable-software-rasterizer`, `--num-raster-threads=1`,
# `--disable-extensions`, `--mute-audio`, renderer backgrounding and IPC flooding protection off,
# chromium's own binary without Debian's wrapper script, and chromium's log (`--enable-logging=stderr
# --log-level=0`, which Selenium's `--enable-chrome-logs` asks chromedriver for) dropped. Chromium's
# CPU is its page loads and the WebDriver calls into the page, not what these flags switch off.
FLAGS = (
    "--headless",  # no display on a test host; chromium 156's only headless mode (the "new" one)
    "--no-sandbox",  # the tests run as root in a container, where chromium's sandbox refuses to start
    "--disable-gpu",  # no GPU: software compositing, without probing for one
    # no network but the test server's 127.0.0.1: no QUIC probing, no first-run pages, no
    # background fetches (safe browsing lists, variations), component or sync updates
    "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # a container's /dev/shm is small: shared memory in /tmp, no crash
    # --force-prefers-reduced-motion: the boards' CSS animations (a picked piece, the last move's
    # outline drawn in over 0.6 s: web/boards.css) are off, as for a person who asks for less motion.
    # Every bot move a page follows ran 0.6 s of SVG repaints in software; watching five bot games
    # live, chromium's CPU went 15.7 to 14.0 s (issue 48). No test checks the animation itself.
    "--force-prefers-reduced-motion",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",  # the layout the tests' screenshots and checks expect
)


def _browser_missing() -> str | None:
    for path in (CHROMIUM, DRIVER):
        if not os.path.exists(path):
            return f"{path} is missing (apt-get install -y chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (requirements-dev.txt)"
    return None


@pytest.fixture(scope="session")
def browser_available():
    missing = _browser_missing()
    if missing:
        if os.environ.get("REQUIRE_BROWSER") == "1":  # .ci/run: never skipped on CI
            pytest.fail(missing)
        pytest.skip(missing)


class WebServer:
    """`python app.py` with no turn workers; `workers` plays its bots when started."""

    def __init__(self, redis_url: str, **env):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.prefix = f"web{uuid.uuid4().hex[:6]}:"
        queue = f"{self.prefix}turns"
        self.env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(self.port), "HOST": "127.0.0.1",
                    "KEY_PREFIX": self.prefix, "TURN_QUEUE": queue, "WEB_WORKERS": "2", "TURN_WORKERS": "0",
                    "ANALYSIS_QUEUE": f"{self.prefix}analysis",
                    # its own webhook (and push) queue: another server's worker would take its
                    # jobs and read them under the wrong KEY_PREFIX
                    "WEBHOOK_QUEUE": f"{self.prefix}webhooks",
                    # a finished game stays in Redis an hour, not 5 minutes: the rematch test asks for
                    # one of a game that ended minutes of other tests before (archived: 409
                    # game_archived, as it should; on a slow host it was)
                    "ARCHIVE_AFTER_S": "3600",
                    # no per-token budget to meet, as the other servers of the suite (tests/web/
                    # test_limits.py sets its own): the play page spends some ten requests of its
                    # seat's token on each round of a game against a bot, and test_browser.py's
                    # Splendor game, clicked at two rounds a second, spent the default 100 per 10 s
                    # and was answered 429 (issue 48)
                    "RATE_LIMIT": "1000000",
                    # its stop does not wait 5 s for the live streams of the pages left open
                    # (gunicorn's graceful timeout: app.py's GRACEFUL_TIMEOUT_S; issue 48)
                    "GRACEFUL_TIMEOUT_S": "1",
                    "PYTHONPATH": str(ROOT), "LOG_LEVEL": "INFO", "ALLOW_CLIENT_SEEDS": "0", **env}
        self.workers = Workers(redis_url, self.prefix, queue)
        # its log (INFO: its processes' starts, warnings, tracebacks) is kept; a failing web test's
        # report shows its end
        self.log = tempfile.NamedTemporaryFile(prefix="web-server-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=self.env,
                                     stdout=self.log, stderr=subprocess.STDOUT)

    def log_tail(self, lines: int = 40) -> str:
        with open(self.log.name, errors="replace") as f:
            return "".join(deque(f, maxlen=lines))

    def up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"app.py exited with {self.proc.returncode}")
        try:
            return requests.get(f"{self.base}/health", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def start_bots(self):
        self.workers.start("worker")

    def stop_bots(self):
        self.workers.stop()

    def close(self):
        self.workers.stop()
        self.proc.terminate()
        self.proc.wait(timeout=20)
        self.log.close()
        os.unlink(self.log.name)


_SERVERS: list[WebServer] = []


@pytest.fixture(scope="session")
def web_server(redis_url, browser_available):
    server = WebServer(redis_url)
    _SERVERS.append(server)
    try:
        wait_for(server.up, timeout=120, interval=0.2)
        yield server
    finally:
        _SERVERS.remove(server)
        server.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing web test's report ends with the server's last log lines (what it answered, a
    traceback), so a failure on CI can be read without the machine."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for server in _SERVERS:
            report.sections.append((f"web server log (tail): {server.base}", server.log_tail()))


def _driver(lang: str | None = None):
    """A headless chromium with a profile of its own (its own localStorage: another person);
    `lang`: the browser's language (navigator.languages, Accept-Language), else Chromium's."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if lang:
        options.add_argument(f"--lang={lang}")
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.implicitly_wait(0)
    return driver, profile


def _running_driver(lang: str | None = None):
    driver, profile = _driver(lang)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


_SHARED_DRIVERS: list = []  # the session's chromium (per xdist worker), shared by its modules


@pytest.fixture(scope="session")
def browser(browser_available):
    for driver in _running_driver():
        _SHARED_DRIVERS.append(driver)
        try:
            yield driver
        finally:
            _SHARED_DRIVERS.remove(driver)


@pytest.fixture(scope="module", autouse=True)
def _each_module_starts_with_a_clean_browser():
    """The session's chromium and app.py are shared by every module a worker runs (issue 48), so
    each module starts with none of the storage an earlier one left on the server's origin (a
    chosen language, a player, a kept board): a test must not pass or fail by which modules ran
    before it (an axe check once ran in Korean after a Korean page's module had chosen it)."""
    from selenium.common.exceptions import WebDriverException

    for driver in list(_SHARED_DRIVERS):
        if not _SERVERS:  # no session server on this worker yet: the page an earlier module left
            try:  # open (its own server stopped) leaves, or its retries fill this module's log
                driver.get("about:blank")
            except WebDriverException:
                pass
        for server in list(_SERVERS):
            try:
                driver.get(f"{server.base}/health")
                driver.execute_script("localStorage.clear(); sessionStorage.clear();")
                driver.delete_all_cookies()
            except WebDriverException:
                pass  # a browser or server gone: the next module's own fixtures say so
        try:
            driver.set_window_size(*WINDOW)  # the size it was started at, whatever a module left
            driver.get_log("browser")  # read and dropped: an earlier module's errors (its own server
        except WebDriverException:  # stopped under an open page) are not this module's
            pass
    yield


@pytest.fixture(scope="module")
def korean(browser_available):
    """A chromium whose language is Korean (a person in Korea opening the pages)."""
    yield from _running_driver("ko")


@pytest.fixture(scope="module")
def second_browser(browser_available):
    """A second person: another chromium, another profile."""
    yield from _running_driver()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def page_errors(driver) -> list[str]:
    """The console's errors since the last call (a script that throws fails the test)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
            and "favicon" not in entry["message"]]
