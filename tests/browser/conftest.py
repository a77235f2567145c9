"""End-to-end fixtures: the built ``_site/`` served on a free local port, one headless
Chromium per session (Debian's, or as ``tools/find_chromium.py`` finds it) driven by
Playwright, and one way to open a phone on the page: ``new_phone`` (``phone`` and ``fight``
are its usual calls).

Every page records requests, console errors and page errors; a test fails on any
request to another origin and on any console error (``Watched.assert_clean``).

Playwright is imported here and in the test modules; ``tests/conftest.py`` leaves this
folder out when Playwright is not installed, so ``pytest -m "not browser"`` runs without it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

# A first visit's engine boots, installs the wheel and makes its snapshot on a shared machine: give it time.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).parent))

import find_chromium  # noqa: E402
import serve  # noqa: E402

from tests.fuzz import fight as fight_log  # noqa: E402

SITE = ROOT / "_site"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


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
    """A page and what it did: every request, those to other origins, console errors
    (CSP violations included)."""

    def __init__(self, page: Any, origin: str) -> None:
        self.page = page
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.logged: list[tuple[str, str]] = []  # each console error and the URL it came from
        page.add_init_script(REPORT_CSP)
        page.context.on("request", self._request(origin))  # the page and its workers
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.logged.append((str(e), "")))

    @property
    def errors(self) -> list[str]:
        """The console errors' texts."""
        return [text for text, _ in self.logged]

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.logged.append((message.text, message.location.get("url", "")))

    def forgive(self, url: re.Pattern[str]) -> None:
        """Drop the console errors about ``url`` (a request a test aborts on purpose):
        Chromium's « Failed to load resource » names the URL in its location, not its text."""
        self.logged = [(text, source) for text, source in self.logged if not (url.search(source) or url.search(text))]

    def _request(self, origin: str) -> Any:
        def seen(request: Any) -> None:
            url = request.url
            self.requests.append(url)
            if not (url.startswith(origin) or url.startswith("blob:" + origin) or url.startswith("data:")):
                self.foreign.append(url)

        return seen

    def assert_clean(self) -> None:
        assert self.foreign == [], f"requests to other origins: {self.foreign}"
        assert self.errors == [], f"console errors: {self.errors}"


def wait_ready(page: Any, timeout: float = 60_000) -> None:
    """Until the engine is ready. A locator, not ``wait_for_function``: that one evaluates
    its text with ``eval``, which the page's CSP forbids (as it should)."""
    expect(page.locator("html")).to_have_attribute("data-engine", "ready", timeout=timeout)


def save_text(commands: list[dict[str, Any]]) -> str:
    """A save as the autosave writes it (format 2, no board)."""
    return json.dumps({"app": "riposte", "format": 2, "commands": commands, "board": None})


def seed_script(text: str) -> str:
    """An init script that puts ``text`` in the page's storage before the page first runs,
    as if the autosave had written it; once per tab, so a reload finds what the page saved."""
    return ("if (location.protocol.startsWith('http') && !sessionStorage.getItem('riposte.test.seeded')) {"
            f" localStorage.setItem('riposte.encounter', {json.dumps(text)});"
            " sessionStorage.setItem('riposte.test.seeded', '1'); }")


#: ``new_phone(url=None, *, save=None, init_script=None, ready=True, clock=False, fresh=False, **context_options)``
NewPhone = Callable[..., Watched]


@pytest.fixture
def new_phone(browser: Any, site_url: str) -> Iterator[NewPhone]:
    """Open a phone: a fresh browser profile (its own context, 390×844 unless a
    ``viewport`` is given) on ``url`` (the site by default), watched. ``save``: the text
    already in its storage when the page first runs; ``init_script``: run before the
    page's own scripts; ``ready``: wait until the engine is ready (else only until the
    DOM is loaded); ``clock``: the page's clock is Playwright's, driven by the test
    (``page.clock``) from the first instant. ``fresh``: the test is of the first visit
    itself (``data-boot`` "cold", the snapshot made, the first visit's words), which a
    profile used before would not make (every profile is fresh today: this says which tests
    need it). Other keywords go to ``browser.new_context``. Every context opened is closed
    when the test ends, whatever happened."""
    contexts: list[Any] = []

    def make(url: str | None = None, *, save: str | None = None, init_script: str | None = None,
             ready: bool = True, clock: bool = False, fresh: bool = False, **options: Any) -> Watched:
        url = url or site_url
        context = browser.new_context(**{"viewport": PHONE, "device_scale_factor": 1, **options})
        contexts.append(context)
        if save is not None:
            context.add_init_script(seed_script(save))
        if init_script is not None:
            context.add_init_script(init_script)
        parts = urlsplit(url)  # the origin alone: a link's path and fragment are not part of it
        watched = Watched(context.new_page(), f"{parts.scheme}://{parts.netloc}")
        if clock:
            watched.page.clock.install()
        if ready:
            watched.page.goto(url)
            wait_ready(watched.page)
        else:
            watched.page.goto(url, wait_until="domcontentloaded")
        return watched

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_phone: NewPhone) -> Watched:
    """A fresh profile at 390×844, on the page, with the engine ready and no fight."""
    return new_phone()


@pytest.fixture
def fight(new_phone: NewPhone) -> Watched:
    """The seeded fight (tests/fuzz.py ``fight``): Aldric 10 → 5 P.I. after « Observer en
    détail », Orque 6 P.I. to act, round 1; as ``phone`` otherwise."""
    return new_phone(save=save_text(fight_log()))


#: ``shot(page, name)``: see the ``shot`` fixture.
Shot = Callable[[Any, str], None]


@pytest.fixture
def shot(tmp_path: Path) -> Shot:
    """``shot(page, "screenshot-board.png")``: a screenshot into the test's tmp folder, or
    into ``$RIPOSTE_SCREENSHOTS`` when set (``make screenshots`` sets it to ``docs``).
    Tests never write the repository's files otherwise."""
    folder = Path(os.environ.get("RIPOSTE_SCREENSHOTS") or tmp_path)

    def take(page: Any, name: str) -> None:
        page.screenshot(path=str(folder / name))

    return take
