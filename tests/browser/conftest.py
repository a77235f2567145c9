"""End-to-end fixtures: the built ``_site/`` served on a free local port, and headless
Chromium (Debian's, or as ``tools/find_chromium.py`` finds it) driven by Playwright.

Every page records requests, console errors and page errors; a test fails on any
request to another origin and on any console error.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

# The engine shares two cores with its snapshot maker on a first visit: give it time.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).parent))

import find_chromium  # noqa: E402
import serve  # noqa: E402

SITE = ROOT / "_site"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    if not (SITE / "index.html").exists():
        pytest.fail("_site/ is not built: run `make site` (make test does)")
    server = serve.serve(SITE, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    path = find_chromium.find()
    if path is None:
        pytest.fail("No Chromium: set $CHROMIUM or install Debian's chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=FLAGS)
        yield b
        b.close()


#: Every CSP violation becomes a console error, which fails the test (Watched).
REPORT_CSP = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));"""


class Watched:
    """A page and what it did: requests to other origins, console errors, CSP violations."""

    def __init__(self, page: Any, origin: str) -> None:
        self.page = page
        self.foreign: list[str] = []
        self.errors: list[str] = []
        page.add_init_script(REPORT_CSP)
        page.context.on("request", self._request(origin))  # the page and its workers
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _request(self, origin: str) -> Any:
        def seen(request: Any) -> None:
            url = request.url
            if not (url.startswith(origin) or url.startswith("blob:" + origin) or url.startswith("data:")):
                self.foreign.append(url)

        return seen

    def assert_clean(self) -> None:
        assert self.foreign == [], f"requests to other origins: {self.foreign}"
        assert self.errors == [], f"console errors: {self.errors}"


def wait_ready(page: Any, timeout: float = 60_000) -> None:
    """Until the engine is ready. A locator, not ``wait_for_function``: that one evaluates
    its text with ``eval``, which the page's CSP forbids (as it should)."""
    from playwright.sync_api import expect

    expect(page.locator("html")).to_have_attribute("data-engine", "ready", timeout=timeout)


def _phone(browser: Any, site_url: str, **options: Any) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, **options)
    page = context.new_page()
    watched = Watched(page, site_url.rstrip("/"))
    page.goto(site_url)
    wait_ready(page)
    yield watched
    context.close()


@pytest.fixture
def phone(browser: Any, site_url: str) -> Iterator[Watched]:
    """A fresh profile at 390×844, on the page, with the engine ready."""
    yield from _phone(browser, site_url)


@pytest.fixture
def phone_without_sw(browser: Any, site_url: str) -> Iterator[Watched]:
    """The same, with service workers blocked: for tests that change what the server
    sends (a fault injected in bridge.py), which a service worker's cache would hide."""
    yield from _phone(browser, site_url, service_workers="block")
