"""End-to-end fixtures: the test build ``_site-test/`` (``_site/`` with the page's test hooks,
made by the same ``tools/build_site.py --test-hooks``) served on a free local port, one headless
Chromium per session (Debian's, or as ``tools/find_chromium.py`` finds it) driven by
Playwright, and one way to open a phone on the page: ``new_phone`` (``phone`` and ``fight``
are its usual calls).

Every page records requests, console errors and page errors; a test fails on any
request to another origin and on any console error (``Watched.assert_clean``).

Warm phones (``Pool``). A fresh profile's first visit costs 7 to 10 seconds of CPU (the
service worker installs and precaches, Pyodide compiles and boots, micropip installs the
engine, the memory snapshot is made and stored); a returning user's visit about 2 (the
snapshot restored). So each worker keeps a pool of used contexts, and a phone whose test
asks for nothing else gets one: a returning user's tab with empty storage. A context's
first test makes its first visit (no warm-up: the pool grows to as many phones as a test of
this worker held at once, 4 at most). When the test ends, its context goes back only if the
test passed and changed nothing of it that would outlive the test: its pages are closed but
the last one, which the next test's first phone opens in (its history, session storage,
size and media emptied or set back; a new tab costs a window and a renderer, a quarter of
a CPU second; a tab the test gave routes, init scripts, bindings, headers, timeouts or a
CDP session of its own is closed too, ``TAB_CHANGES``), the init scripts it was given removed (Playwright's ``Disposable``: ``save`` and
``init_script`` keep their meaning, once per tab for ``save``, second tabs included), the
listeners added meanwhile removed, the site's storage emptied (localStorage, IndexedDB,
cookies, file systems) but for Cache Storage and the service worker's own, and the service
worker stopped, as the browser stops an idle one. A context is closed instead when its test
failed; changed its routes, offline state, permissions, clock (``page.clock`` is the
context's), init scripts, cookies, geolocation, headers, timeouts, tracing; sent a CDP command
that is not of a page's own domains (``PAGE_DOMAINS``); or had a page at another origin, a
player's page (``#table=``: its own service worker) or a crash (``Lease``). A phone gets a
context of its own, never pooled, with ``clock``, with a context option other than a
page's own (``viewport``, ``color_scheme``, ``reduced_motion``: set on the page of a warm
context, ``PAGE_OPTIONS``), such as ``service_workers`` or ``locale``, on another origin (a ``deployment`` of
test_offline.py or test_versions.py) or a player's link, and with ``fresh=True``: for a test
of the first visit itself (``data-boot`` "cold", the snapshot made, the service worker
installing, the first visit's words). ``RIPOSTE_POOL_LOG=file`` says each take and give.
tests/browser/test_pool.py checks the pool's promises.

A test's Locator actions bring their page to the front first (``Front``): headless Chromium
gives an idle window behind another one frame a second, and each action waits for frames.

Playwright is imported here and in the test modules; ``tests/conftest.py`` leaves this
folder out when Playwright is not installed, so ``pytest -m "not browser"`` runs without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

# A first visit's engine boots, installs the wheel and makes its snapshot on a shared machine: give it time.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).parent))

import find_chromium  # noqa: E402
import serve  # noqa: E402

from tests.fight_storage import store, stored  # noqa: E402, F401
from tests.fuzz import fight as fight_log  # noqa: E402

#: The test build: the shipped site's runtime, standard library and engine wheel, its page
#: with the test hooks compiled in (web/infra/hooks.js; tests/test_no_hooks.py reads _site/).
SITE = ROOT / "_site-test"
FLAGS = find_chromium.TEST_FLAGS
PHONE = {"width": 390, "height": 844}
#: A phone's context when a test asks for nothing else.
DEFAULT_CONTEXT = {"viewport": PHONE, "device_scale_factor": 1}

#: The page's test hooks switched on in every context (web/infra/hooks.js): the raw bridge,
#: what the live table sent, the players' board's sequence.
HOOKS = "globalThis.__riposteHooks = true;"
#: Every CSP violation becomes a console error, which fails the test (Watched).
REPORT_CSP = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));"""


def context_of(browser: Any, **options: Any) -> Any:
    """A new context of ``browser`` (a phone: DEFAULT_CONTEXT unless ``options`` say
    otherwise), its pages with the test hooks and CSP violations said on their console."""
    context = browser.new_context(**{**DEFAULT_CONTEXT, **options})
    context.add_init_script(HOOKS)
    context.add_init_script(REPORT_CSP)
    return context


#: The Locator actions that wait for their element to be stable, which Playwright checks
#: frame by frame: each brings its page to the front first (``in_front``).
ACTIONS = ("check", "click", "dblclick", "fill", "hover", "press", "press_sequentially", "select_option",
           "set_checked", "set_input_files", "tap", "type", "uncheck")


class Front:
    """The page in front of this worker's browser windows, as the tests last acted on one.
    Headless Chromium gives an idle window behind another (a second tab of the same phone)
    one frame a second, and Playwright's actionability checks wait for frames: a tap there
    took 1 to 2 s. A person taps the tab they see, so a test's action brings its page to the
    front first, when another page was."""

    page: Any = None

    @classmethod
    def bring(cls, page: Any) -> None:
        if cls.page is not page:
            page.bring_to_front()
            cls.page = page


def in_front(action: Callable[..., Any]) -> Callable[..., Any]:
    """``action`` of a Locator, its page brought to the front first (``Front``)."""

    def acted(self: Any, *args: Any, **kwargs: Any) -> Any:
        Front.bring(self.page)
        return action(self, *args, **kwargs)

    return acted


for _name in ACTIONS:
    setattr(Locator, _name, in_front(getattr(Locator, _name)))


#: Each phase's report of a test (setup, call, teardown), for its fixtures' teardown.
REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report: pytest.TestReport = yield
    item.stash.setdefault(REPORTS, {})[report.when] = report
    return report


def passed(item: pytest.Item) -> bool:
    """Whether the test ran and passed (its setup and its call)."""
    reports = item.stash.get(REPORTS, {})
    return "call" in reports and all(report.passed for report in reports.values())


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    if not (SITE / "index.html").exists():
        pytest.fail("_site-test/ is not built: run `make site` (make test does)")
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


class Watched:
    """A page and what it did: every request, those to other origins, console errors
    (CSP violations included: ``context_of``)."""

    def __init__(self, page: Any, origin: str) -> None:
        self.page = page
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.logged: list[tuple[str, str]] = []  # each console error and the URL it came from
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


#: Storage that fails as a test says, from the page itself: ``window.faults = {keys: prefix,
#: kind: "full" | "unavailable", after: n}`` makes every write to the fights' storage
#: (IndexedDB, and localStorage where the page keeps the rest) for keys starting with
#: ``prefix`` fail as a full storage does, after the first n such writes; "unavailable",
#: every call of either. A refused write to IndexedDB aborts its transaction, as a full disk does.
STORAGE_FAULTS = """
(() => {
  let writes = 0;
  const fails = (key, write) => {
    const f = window.faults;
    if (!f) return false;
    if (f.kind === "unavailable") return true;
    if (!write || !String(key).startsWith(f.keys)) return false;
    writes += 1;
    return writes > (f.after ?? 0);
  };
  const thrown = () => new DOMException("refused", window.faults.kind === "full" ? "QuotaExceededError" : "UnknownError");
  const local = Storage.prototype;
  for (const name of ["getItem", "setItem", "removeItem", "key"]) {
    const real = local[name];
    local[name] = function (key, ...rest) {
      if (this === window.localStorage && fails(key, name === "setItem")) throw thrown();
      return real.call(this, key, ...rest);
    };
  }
  const db = IDBObjectStore.prototype;
  for (const name of ["put", "delete", "get", "getAll", "getAllKeys"]) {
    const real = db[name];
    db[name] = function (...args) {
      if (fails(name === "put" ? args[1] : args[0], name === "put")) {
        try { this.transaction.abort(); } catch { /* already ended */ }
        throw thrown();
      }
      return real.apply(this, args);
    };
  }
})();
"""


def full_when(condition: str) -> str:
    """An init script: each write to the fights' IndexedDB for which ``condition`` holds
    (JavaScript, of ``key``) fails as on a full disk (its transaction aborted, nothing of it kept)."""
    return ("(() => { const put = IDBObjectStore.prototype.put;"
            " IDBObjectStore.prototype.put = function (value, key) {"
            f" if ({condition}) {{ try {{ this.transaction.abort(); }} catch {{ /* ended */ }}"
            " throw new DOMException('plein', 'QuotaExceededError'); }"
            " return put.call(this, value, key); }; })();")


def until_stored(page: Any, check: Callable[[Any], bool], key: str | None = "riposte.encounter", timeout: float = 30) -> Any:
    """What the page keeps under ``key`` (as :func:`stored`) once ``check`` holds for it."""
    deadline = time.monotonic() + timeout
    while True:
        value = stored(page, key)
        if check(value):
            return value
        assert time.monotonic() < deadline, f"{key} never as expected: {str(value)[:200]}"
        page.wait_for_timeout(100)


#: What a pooled context's site loses between two tests (CDP ``Storage.clearDataForOrigin``):
#: all the page keeps (localStorage...) but its Cache Storage (precache, memory snapshot,
#: the rest of the standard library) and its service worker, which make a repeat visit
#: warm. IndexedDB is emptied database by database (``Pool.clear``): the live table's
#: identity and PyScript's go, the service worker's own stays with the caches it describes.
CLEARED = "cookies,file_systems,local_storage,websql,shader_cache"
#: The service worker's IndexedDB (Workbox's expiration of the ``riposte-stdlib`` cache).
WORKER_DATABASES = frozenset({"workbox-expiration"})
#: Where ``Pool.clear`` opens its page: no file of the site.
CLEARING = "pool-clearing-no-such-file"
#: Until the service worker a first visit registered has installed (its precache taken)
#: and is active, 10 s at most, before ``Pool.clear`` stops it.
SETTLED = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const settled = () => !registration || (!registration.installing && registration.active?.state !== "activating");
  for (let i = 0; i < 100 && !settled(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}"""

#: What a test may change in its context that would outlive the test (a context's routes,
#: offline state, permissions, init scripts, timeouts...): a context so changed is closed,
#: never pooled. ``clock.*``: the page's clock is the context's (``page.clock`` too) and
#: cannot be taken back once installed.
CHANGES = ("add_cookies", "add_init_script", "clear_permissions", "expose_binding", "expose_function",
           "grant_permissions", "route", "route_from_har", "route_web_socket", "set_default_navigation_timeout",
           "set_default_timeout", "set_extra_http_headers", "set_geolocation", "set_offline", "set_storage_state")
CLOCK = ("install", "fast_forward", "pause_at", "resume", "run_for", "set_fixed_time", "set_system_time")
#: What a test may change in one of its tabs that would outlive the test on that tab: a tab
#: so changed (or with a CDP session of the test's, or routes of its own) is closed when
#: the test ends, never kept for the next test (``Pool.close_pages``).
TAB_CHANGES = ("add_init_script", "expose_binding", "expose_function", "route", "route_from_har", "route_web_socket",
               "set_default_navigation_timeout", "set_default_timeout", "set_extra_http_headers")

#: CDP domains whose commands act on the page of the session alone (live.py's ``Frozen``
#: pauses a page's scripts): a test's session may use them; any other command (Storage,
#: Network, ServiceWorker...) may reach the whole context, which is then closed.
PAGE_DOMAINS = frozenset({"Debugger", "Runtime", "HeapProfiler", "Profiler", "Performance", "Input", "DOM", "Emulation"})


def noting(into: list[Any], what: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrapper of a method that puts ``what`` ``into`` a list each time it is called."""
    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        def noted(*args: Any, **kwargs: Any) -> Any:
            into.append(what)
            return method(*args, **kwargs)
        return noted
    return wrap


def forget_history(page: Any) -> None:
    """``page``'s history, its page alone, as a new tab's (over a CDP session of the
    context's class: not one a ``Lease`` notes)."""
    cdp = type(page.context).new_cdp_session(page.context, page)
    cdp.send("Page.resetNavigationHistory")
    cdp.detach()


def listeners_of(owner: Any) -> dict[str, list[Any]]:
    """The listeners ``owner`` (a context or a page) has now, by event."""
    impl = owner._impl_obj
    return {event: list(impl.raw_listeners(event)) for event in impl.event_names()}


def remove_listeners(owner: Any, before: dict[str, list[Any]]) -> None:
    """The listeners ``owner`` was given since ``before`` (``listeners_of``) removed."""
    impl = owner._impl_obj
    for event in impl.event_names():
        for listener in impl.raw_listeners(event):
            if listener not in before.get(event, []):
                impl.remove_listener(event, listener)


class Lease:
    """One test's hold on a pooled context: the init scripts it was given (removed when the
    test ends), the listeners it had before (those added meanwhile are removed), and
    ``changes``: what the test did to it that would outlive the test (see ``CHANGES``), or
    that took it off the site (a page at another origin, a player's page, a crash). Each of
    these makes the context closed rather than pooled. ``tab``: the tab the last test of
    the context left (``Pool.clear``), for this test's first phone; ``worn``, the tabs a
    test changed for good (``TAB_CHANGES``, a CDP session)."""

    def __init__(self, context: Any, origin: str, test: str = "", tab: Any = None) -> None:
        self.context = context
        self.origin = origin
        self.test = test
        self.tab = tab
        self.scripts: list[Any] = []
        self.changes: list[str] = []
        self.worn: list[Any] = []
        self.listeners = listeners_of(context)
        self.tab_listeners: list[tuple[Any, dict[str, list[Any]]]] = []
        self.shadowed: list[tuple[Any, str]] = []
        for name in CHANGES:
            self.shadow(context, name, noting(self.changes, name))
        for name in CLOCK:
            self.shadow(context.clock, name, noting(self.changes, f"clock.{name}"))
        self.shadow(context.tracing, "start", noting(self.changes, "tracing.start"))
        self.shadow(context, "new_cdp_session", self.cdp_session)
        context.on("page", self.watch)
        context.on("request", lambda request: self.visit(request.url, "a request"))

    def shadow(self, owner: Any, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        """``owner.name`` replaced by ``wrap`` of it (until ``end``)."""
        setattr(owner, name, wrap(getattr(owner, name)))
        self.shadowed.append((owner, name))

    def cdp_session(self, new_cdp_session: Callable[..., Any]) -> Callable[..., Any]:
        def session(page: Any) -> Any:
            self.worn.append(page)
            cdp = new_cdp_session(page)
            send = cdp.send

            def checked(method: str, params: Any = None) -> Any:
                if method.partition(".")[0] not in PAGE_DOMAINS:
                    self.changes.append(f"CDP {method}")
                return send(method, params)

            cdp.send = checked
            return cdp

        return session

    def watch(self, page: Any) -> None:
        """A tab of the test (a new one, or ``tab``): its visits and changes noted."""
        self.tab_listeners.append((page, listeners_of(page)))
        for name in TAB_CHANGES:
            self.shadow(page, name, noting(self.worn, page))
        page.on("framenavigated", self.navigated)
        page.on("crash", lambda _: self.changes.append("a page crashed"))

    def navigated(self, frame: Any) -> None:
        if frame.parent_frame is None:
            self.visit(frame.url, "a page")

    def visit(self, url: str, what: str) -> None:
        if url == "about:blank" or url.startswith(("data:", "blob:" + self.origin + "/")):
            return
        if not url.startswith(self.origin + "/"):
            self.changes.append(f"{what} at {url}")
        elif urlsplit(url).fragment.startswith("table="):
            self.changes.append("a player's page")  # its own service worker, if the site's was not there yet

    def add_script(self, script: str) -> None:
        """A context init script for this test only (removed by ``end``)."""
        self.scripts.append(type(self.context).add_init_script(self.context, script))

    def end(self) -> None:
        """The context as it was before the test (its pages closed already, but the one
        ``Pool.close_pages`` keeps, whose listeners go too)."""
        for script in self.scripts:
            script.close()
        remove_listeners(self.context, self.listeners)
        for page, before in self.tab_listeners:
            if not page.is_closed():
                remove_listeners(page, before)
        for owner, name in self.shadowed:
            delattr(owner, name)


class Pool:
    """A worker's warm contexts: see the module's docstring. ``take`` one (an idle one, or
    a new one when none is), ``give`` it back when its test ends: pooled again only if the
    test passed and changed nothing of it (``Lease``), with its pages closed but one tab,
    and its site's storage cleared but for Cache Storage and the service worker; closed
    otherwise. ``tabs``: the tab each idle context keeps for its next test."""

    def __init__(self, browser: Any, site_url: str, size: int = 4) -> None:
        self.browser = browser
        self.origin = site_url.rstrip("/")
        self.size = size
        self.idle: list[Any] = []
        self.tabs: dict[Any, Any] = {}
        self.log = os.environ.get("RIPOSTE_POOL_LOG")  # a file where each take and give is said

    def note(self, lease: Lease, what: str) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as log:
                log.write(f"{os.getpid()} {id(lease.context):x} {lease.test} {what}\n")

    def serves(self, url: str) -> bool:
        """Whether a phone on ``url`` may have a pooled context: the site's game master's
        page (with or without a link's fragment), not a player's (``#table=``: its own
        service worker) nor another origin."""
        return url.startswith(self.origin + "/") and not urlsplit(url).fragment.startswith("table=")

    def take(self, test: str = "") -> Lease:
        warm = bool(self.idle)
        context = self.idle.pop() if warm else context_of(self.browser)
        lease = Lease(context, self.origin, test, self.tabs.pop(context, None))
        self.note(lease, "taken" if warm else "new")
        return lease

    def give(self, lease: Lease, passed: bool) -> None:
        context = lease.context
        if context.is_closed():
            return
        try:
            pooled = passed and not lease.changes and len(self.idle) < self.size
            kept = self.close_pages(lease) if pooled else None  # a page that never finishes loading is a change
            if not pooled or lease.changes:
                self.note(lease, f"closed: {'passed' if passed else 'failed'}, {len(self.idle)} idle, {lease.changes[:3]}")
                context.close()
                return
            lease.end()
            if kept is not None:  # a phone's size and media, as the context gives a new tab (emulate)
                kept.set_viewport_size(DEFAULT_CONTEXT["viewport"])
                kept.emulate_media(media="null", color_scheme="null", reduced_motion="null", forced_colors="null", contrast="null")
            self.tabs[context] = self.clear(context, kept)
        except BaseException:
            self.note(lease, "closed: an error")
            context.close()
            raise
        self.note(lease, "given back")
        self.idle.append(context)

    @staticmethod
    def close_pages(lease: Lease) -> Any:
        """Each page closed once past its start, but the last one, which ``clear`` then
        takes to the site's storage and keeps for the next test (a tab of its own costs a
        window and a renderer: about a quarter of a CPU second for each test in this
        Chromium), unless the test changed it for good (``Lease.worn``, routes of its own).
        Chromium may never close a page it is just committing (a hang seen here, a
        player's page closed at "commit"). One that never gets there keeps its context out of
        the pool (``context.close`` ends it)."""
        pages = lease.context.pages
        for page in pages:
            try:
                page.wait_for_load_state("domcontentloaded", timeout=10_000)
            except PlaywrightTimeoutError:
                lease.changes.append(f"a page still loading: {page.url}")
                return None
        kept = pages[-1] if pages and not pages[-1]._impl_obj._routes and pages[-1] not in lease.worn else None
        for page in pages:
            if page is not kept:
                page.close()
        return kept

    def clear(self, context: Any, page: Any = None) -> Any:
        """The site's storage emptied but for Cache Storage and the service worker, and the
        service worker stopped, as the browser stops it once idle: the next page starts it
        again in its own renderer process, as a returning user's page does. (One left running
        lives in another process: a page closed then is its process's last and Chromium ends
        that process at once, so its WebRTC connections are never closed, and a player's
        phone does not hear at once that the game master's page is gone.) Done from a page of
        the site's origin, which CDP's IndexedDB domain wants: a file that is not there, which
        neither the service worker nor the app answers (a 404): ``page``, the test's last
        tab, goes there (its own page unloads, as when a person opens another address in it),
        or a new tab does. That tab is returned, its history and its session storage
        emptied too: the next test's first phone opens in it (``new_phone``)."""
        page = page or context.new_page()
        try:
            page.goto(f"{self.origin}/{CLEARING}", wait_until="domcontentloaded")
            page.evaluate(SETTLED)
            page.evaluate("sessionStorage.clear()")
            cdp = context.new_cdp_session(page)
            cdp.send("Page.resetNavigationHistory")  # the test's pages, gone from the back button and its cache
            cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": CLEARED})
            for name in cdp.send("IndexedDB.requestDatabaseNames", {"securityOrigin": self.origin})["databaseNames"]:
                if name not in WORKER_DATABASES:
                    cdp.send("IndexedDB.deleteDatabase", {"securityOrigin": self.origin, "databaseName": name})
            cdp.send("ServiceWorker.enable")
            cdp.send("ServiceWorker.stopAllWorkers")
            cdp.detach()
        except BaseException:
            page.close()
            raise
        return page

    def close(self) -> None:
        self.tabs.clear()
        while self.idle:
            self.idle.pop().close()


@pytest.fixture(scope="session")
def pool(browser: Any, site_url: str) -> Iterator[Pool]:
    """This worker's warm contexts (``Pool``), closed when the session ends."""
    contexts = Pool(browser, site_url)
    yield contexts
    contexts.close()


#: The context options a pooled context takes page by page: a warm phone of another size,
#: colour scheme or motion (the page's own, gone with it; a second tab of the test has the
#: context's).
PAGE_OPTIONS = frozenset({"viewport", "color_scheme", "reduced_motion"})


def emulate(page: Any, viewport: dict[str, int] | None = None, **media: Any) -> None:
    """``PAGE_OPTIONS`` set on ``page`` alone, before it loads."""
    if viewport is not None:
        page.set_viewport_size(viewport)
    if media:
        page.emulate_media(**media)


#: ``new_phone(url=None, *, save=None, init_script=None, ready=True, clock=False, fresh=False, **context_options)``
NewPhone = Callable[..., Watched]


@pytest.fixture
def new_phone(browser: Any, site_url: str, pool: Pool, request: pytest.FixtureRequest) -> Iterator[NewPhone]:
    """Open a phone: a browser profile of its own (a context, 390×844 unless a ``viewport``
    is given) on ``url`` (the site by default), watched. ``save``: the text already in its
    storage when the page first runs; ``init_script``: run before the page's own scripts;
    ``ready``: wait until the engine is ready (else only until the DOM is loaded);
    ``clock``: the page's clock is Playwright's, driven by the test (``page.clock``) from
    the first instant. Other keywords go to ``browser.new_context``.

    The profile is a returning user's with empty storage (a warm context of ``pool``: the
    service worker installed, the memory snapshot stored) when nothing asks otherwise: no
    ``clock``, no context keyword but ``PAGE_OPTIONS`` (set on the page), a page of the
    site that is not a player's. ``fresh``:
    a profile never used, for a test of the first visit itself. Every context opened is
    closed or given back to the pool when the test ends, whatever happened."""
    contexts: list[Any] = []
    leases: list[Lease] = []

    def make(url: str | None = None, *, save: str | None = None, init_script: str | None = None,
             ready: bool = True, clock: bool = False, fresh: bool = False, **options: Any) -> Watched:
        url = url or site_url
        scripts = [script for script in (None if save is None else seed_script(save), init_script) if script is not None]
        tab = None
        if fresh or clock or not options.keys() <= PAGE_OPTIONS or not pool.serves(url):
            context = context_of(browser, **options)
            contexts.append(context)
            for script in scripts:
                context.add_init_script(script)
            options = {}
        else:
            lease = pool.take(request.node.nodeid)
            leases.append(lease)
            context = lease.context
            for script in scripts:
                lease.add_script(script)
            tab, lease.tab = lease.tab, None
            if tab is not None:  # the tab the context's last test left (Pool.clear), in front as a new one is
                lease.watch(tab)
                tab.bring_to_front()
                Front.page = tab
        parts = urlsplit(url)  # the origin alone: a link's path and fragment are not part of it
        watched = Watched(tab or context.new_page(), f"{parts.scheme}://{parts.netloc}")
        emulate(watched.page, **options)
        if clock:
            watched.page.clock.install()
        if ready:
            watched.page.goto(url)
        else:
            watched.page.goto(url, wait_until="domcontentloaded")
        if tab is not None:
            forget_history(tab)
        if ready:
            wait_ready(watched.page)
        return watched

    yield make
    ok = passed(request.node)
    with contextlib.ExitStack() as ending:  # each one closed or given back, even if another fails
        for context in contexts:
            ending.callback(context.close)
        for lease in leases:
            ending.callback(pool.give, lease, ok)


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
