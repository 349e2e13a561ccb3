"""The client as an installable app (issue 35): the manifest and the service worker are served
at the root with their types and headers, the worker registers for every page, and with the
network gone the lobby's shell still opens from its cache and says the server cannot be
reached (the API is never answered from the cache: a request to it fails as it is)."""
from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.conftest import _running_driver
from tests.web.helpers import text_of, wait


def test_manifest_and_worker_are_served(web_server):
    base = web_server.base
    manifest = requests.get(base + "/manifest.webmanifest", timeout=5)
    assert manifest.status_code == 200 and manifest.headers["Content-Type"].startswith("application/manifest+json")
    icons = manifest.json()["icons"]
    assert {i["sizes"] for i in icons} >= {"192x192", "512x512"}
    for icon in icons:
        png = requests.get(base + icon["src"], timeout=5)
        assert png.status_code == 200 and png.headers["Content-Type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    worker = requests.get(base + "/sw.js", timeout=5)
    assert worker.status_code == 200 and worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Service-Worker-Allowed"] == "/" and worker.headers["Cache-Control"] == "no-cache"
    assert 'importScripts("/sw-push.js")' in worker.text  # the push helper's part, when there is one
    page = requests.get(base + "/", headers={"Accept": "text/html"}, timeout=5)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text


@pytest.mark.browser
def test_the_shell_opens_offline_and_says_so(web_server, browser_available):
    base = web_server.base
    steps = _running_driver()
    driver = next(steps)
    try:
        driver.get(base + "/")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"), message="the lobby online")
        scope = driver.execute_async_script(
            "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => done(r.scope));")
        assert scope == base + "/"
        # it activated, also where /sw-push.js is missing (its import is guarded)
        assert requests.get(base + "/sw-push.js", timeout=5).status_code in (200, 404)
        assert driver.execute_async_script(
            "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => done(r.active.state));") in ("activating", "activated")
        # the worker has cached the shell once it is active; then the network goes away
        wait(driver, lambda: driver.execute_async_script(
            "const done = arguments[0]; caches.open('gameserver-shell-v1').then((c) => c.match('/web/lobby.js')).then((r) => done(!!r));"),
            message="the shell is cached")
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                                   "downloadThroughput": -1, "uploadThroughput": -1})
        try:
            driver.get(base + "/")
            wait(driver, lambda: text_of(driver, "#new-h") == "New game", message="the lobby's shell opens offline")
            wait(driver, lambda: text_of(driver, "#status") == "You are offline: try again when the network is back.",
                 message="and says the device is offline")
            stale = driver.execute_async_script(
                "const done = arguments[0]; fetch('/game-types').then(() => done('answered'), () => done('failed'));")
            assert stale == "failed"  # no API answer from the cache
            driver.get(base + "/play/somegame1")
            wait(driver, lambda: text_of(driver, "#status") == "You are offline: the page reconnects when the network is back.",
                 message="a play page offline says it once")
        finally:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                       "downloadThroughput": -1, "uploadThroughput": -1})
    finally:
        steps.close()
