"""The start of the page: a start that fails or takes too
long says why, in French, with a reload button, within 30 s, and leaves the saved fight
as it was; taps made before the engine is up are queued and applied in order. The start's
limit (25 s) is reached by moving the page's clock (``page.clock``), not by waiting.

Service workers are blocked: their cache would serve the files these tests break.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from conftest import NewPhone, save_text, stored, until_stored, wait_ready
from helpers import card, clock_until, expect_pi, fight_log
from playwright.sync_api import expect

#: web/boot/bridge.py as built: in the app's folder named after its content (tools/build_site.py).
BRIDGE = r".*/web-[0-9a-f]{12}/boot/bridge\.py$"


def _broken_start(new_phone: NewPhone, pattern: str, how: str, clock: bool = False) -> tuple[Any, str, float]:
    """The seeded fight opened once (so the autosave is the page's own), then reloaded
    with the file matching ``pattern`` answered 404 or aborted: the page, the save before
    the reload, and when the reload began (monotonic seconds)."""
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    saved = stored(page)
    assert saved and "Orque" in saved

    def handle(route: Any) -> None:
        if how == "404":
            route.fulfill(status=404, body="absent", content_type="text/plain")
        else:
            route.abort()

    page.context.route(re.compile(pattern), handle)
    if clock:
        page.clock.install()  # the start's limit reached by moving it (_says_why_and_recovers)
    began = time.monotonic()
    page.reload(wait_until="domcontentloaded")
    return page, saved, began


def _says_why_and_recovers(page: Any, saved: str, began: float, why: str | re.Pattern[str],
                           said: str = "Le moteur de règles n'a pas pu démarrer", late: bool = False) -> None:
    """``late``: nothing fails in the page, only its start's limit tells (moved on by the
    page's clock, installed by ``_broken_start``)."""
    status = page.locator("#engine-status")
    if late:
        expect(page.locator("html")).to_have_attribute("data-engine", "loading")  # the limit's timer is set
        clock_until(page, status, said)
    else:
        expect(status).to_contain_text(said, timeout=30_000)
        assert time.monotonic() - began < 30
    expect(status).to_contain_text(why)
    expect(status).to_contain_text("Le combat sauvegardé n'a pas été touché")
    expect(page.locator("html")).to_have_attribute("data-engine", "error")
    reload = page.get_by_role("button", name="Recharger")
    expect(reload).to_be_visible()
    assert stored(page) == saved
    page.context.unroute_all()
    reload.click()
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)  # the fight as it was saved
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")


def test_a_missing_bridge_says_so_with_a_reload_button(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, BRIDGE, "404")
    _says_why_and_recovers(page, saved, began,
                           re.compile(r"le fichier /web-[0-9a-f]{12}/boot/bridge\.py n.a pas pu être chargé, erreur 404"))


def test_an_aborted_bridge_says_so_with_a_reload_button(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, BRIDGE, "abort")
    _says_why_and_recovers(page, saved, began, "n'a pas pu démarrer (")


def test_a_missing_runtime_says_so_within_the_limit(new_phone: NewPhone) -> None:
    """pyodide.asm.wasm fails inside the worker, which tells the page nothing: past the
    start limit (25 s) the page says so (and would still carry on if the engine came)."""
    page, saved, began = _broken_start(new_phone, r".*/pyodide\.asm\.wasm$", "404", clock=True)
    _says_why_and_recovers(page, saved, began, "rien après 25 s", "Le moteur de règles ne démarre pas", late=True)


def test_an_aborted_runtime_says_so_within_the_limit(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, r".*/pyodide\.asm\.wasm$", "abort", clock=True)
    _says_why_and_recovers(page, saved, began, "rien après 25 s", "Le moteur de règles ne démarre pas", late=True)


def _held_start(new_phone: NewPhone, clock: bool = False) -> tuple[Any, list[Any]]:
    """The seeded fight opened once (its autosave then holds the board), then reloaded
    with web/boot/bridge.py held back: the saved board is on screen, the engine cannot start
    until the test lets the held request go (``release``)."""
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    held: list[Any] = []
    page.context.route(re.compile(BRIDGE), lambda route: held.append(route))
    if clock:
        page.clock.install()
    page.reload(wait_until="domcontentloaded")
    expect(card(page, "Orque")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-engine", "loading")
    expect(page.locator("#engine-status")).to_contain_text("Vous pouvez déjà passer ou finir le tour")
    return page, held


def _release(page: Any, held: list[Any]) -> None:
    """Let the held request for web/boot/bridge.py go (polled for: the start asks for it once
    PyScript is imported, a moment after the first paint)."""
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page never asked for web/boot/bridge.py"
    held[0].continue_()
    page.context.unroute_all()


def test_taps_before_the_engine_is_up_are_applied_in_order(new_phone: NewPhone) -> None:
    """Orque passes, then the round ends: in that order both are accepted (the other way
    round, the pass would be refused: no round under way)."""
    page, held = _held_start(new_phone)
    orque = card(page, "Orque")
    orque.get_by_role("button", name="Passer").click()
    expect(orque).to_have_class(re.compile(r"\bpending\b"))
    expect(orque).to_contain_text("en attente")
    expect(orque.get_by_role("button", name="Passer")).to_be_disabled()  # no second tap on a pending card
    page.get_by_role("button", name=re.compile("^Finir le tour")).click()
    expect(page.get_by_role("button", name="Finir le tour (en attente)")).to_be_visible()
    assert stored(page).count('"end_round"') == 0  # nothing applied yet
    _release(page, held)
    wait_ready(page)
    expect(orque).to_contain_text("a passé")
    expect(orque).not_to_contain_text("en attente")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    expect(page.locator("#message")).to_be_hidden()
    saved = until_stored(page, lambda text: '"end_round"' in text)
    assert saved.index('"pass"') < saved.index('"end_round"')
    page.reload()
    wait_ready(page)
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")


def test_a_refused_tap_stops_the_queue_with_its_reason(new_phone: NewPhone) -> None:
    """The round ends, then Orque passes (refused: no round under way), then Aldric passes
    (dropped, though it would have been refused too: nothing after a refusal is tried)."""
    page, held = _held_start(new_phone)
    page.get_by_role("button", name="Finir le tour").click()
    card(page, "Orque").get_by_role("button", name="Passer").click()
    card(page, "Aldric").locator('button[data-do="toggle"]').click()  # his row's details: « Passer »
    card(page, "Aldric").get_by_role("button", name="Passer").click()
    expect(card(page, "Aldric")).to_contain_text("en attente")
    _release(page, held)
    wait_ready(page)
    message = page.locator("#board-error")  # in the board's dock, next to what was tapped
    expect(message).to_contain_text("La touche suivante, faite pendant le chargement, est abandonnée")
    expect(message).to_contain_text("rien n'est appliqué dans le désordre")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    for name in ("Orque", "Aldric"):
        expect(card(page, name)).not_to_contain_text("a passé")
        expect(card(page, name)).not_to_contain_text("en attente")
    kinds = [c["type"] for c in json.loads(until_stored(page, lambda text: '"end_round"' in text))["commands"]]
    assert kinds.count("end_round") == 1 and "pass" not in kinds, kinds


def test_agir_before_the_engine_is_up_opens_the_sheet_once_it_is(new_phone: NewPhone) -> None:
    page, held = _held_start(new_phone)
    card(page, "Orque").get_by_role("button", name="Agir").click()
    expect(card(page, "Orque")).to_contain_text("en attente")
    _release(page, held)
    wait_ready(page)
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#sheet-title")).to_contain_text("Orque")


def test_a_late_engine_is_said_then_taken_when_it_comes(new_phone: NewPhone) -> None:
    """Past the limit the page says so, with the reload button, but a start that was only
    slow (a phone under load) still carries on, taps queued meanwhile included."""
    page, held = _held_start(new_phone, clock=True)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    status = page.locator("#engine-status")
    clock_until(page, status, "Le moteur de règles ne démarre pas (rien après 25 s)")
    expect(page.get_by_role("button", name="Recharger")).to_be_visible()
    _release(page, held)
    wait_ready(page)
    expect(card(page, "Orque")).to_contain_text("a passé")
    expect(page.locator("#engine-status")).to_be_hidden()


def test_a_live_table_link_starts_no_python(new_phone: NewPhone, site_url: str) -> None:
    """A page opened with ``#table=…`` follows a live game: the page decides
    in one place (web/boot/early.js, with web/live/follow.js) not to start Python at all."""
    phone = new_phone(site_url + "#table=abc", ready=False, service_workers="block")
    page = phone.page
    page.wait_for_function("performance.getEntriesByName('riposte:no-python').length === 1")
    assert any(url.endswith("/app.js") for url in phone.requests)  # the page's own modules ran
    started = [url for url in phone.requests if re.search(r"pyodide|pyscript|boot\.mjs|bridge\.py", url)]
    assert started == []


def test_python_starts_before_the_pages_other_modules(new_phone: NewPhone, site_url: str) -> None:
    """web/boot/early.js starts the engine before app.js and what it imports: with
    the page's main module never answered, the worker still boots Python and has micropip
    fetch the engine wheel; nothing of app.js ran (no status, no board)."""
    phone = new_phone("about:blank", ready=False, service_workers="block")
    page = phone.page
    page.context.route(re.compile(r".*/web-[0-9a-f]{12}/app\.js$"), lambda route: route.abort())
    wheel = re.compile(r".*/web-[0-9a-f]{12}/wheels/riposte_engine-[^/]+\.whl$")
    with page.context.expect_event("request", lambda request: bool(wheel.match(request.url)), timeout=60_000):
        page.goto(site_url, wait_until="domcontentloaded")
    assert any(url.endswith("/app.js") for url in phone.requests)
    assert page.evaluate("document.querySelector('#board').children.length") == 0
    expect(page.locator("html")).to_have_attribute("data-engine", "loading")


#: Counts the XPath queries made on the page (PyScript's core reads each element added to
#: the page with one, looking for its `py-*` attributes), the observers watching the whole
#: document, every attribute and every element, as PyScript's core does (``__watches``),
#: and every observer watching the document's whole tree in any way (``__wholePage``).
XPATH_AND_WATCHES = """
window.__xpaths = 0;
window.__watches = 0;
window.__wholePage = 0;
const expression = XPathEvaluator.prototype.createExpression;
XPathEvaluator.prototype.createExpression = function (...args) { window.__xpaths += 1; return expression.apply(this, args); };
const evaluate = Document.prototype.evaluate;
Document.prototype.evaluate = function (...args) { window.__xpaths += 1; return evaluate.apply(this, args); };
const observe = MutationObserver.prototype.observe;
MutationObserver.prototype.observe = function (target, options) {
  if (target === document && options?.subtree) window.__wholePage += 1;
  if (target === document && options?.subtree && options.childList && options.attributes && !options.attributeFilter) window.__watches += 1;
  return observe.call(this, target, options);
};
"""


def test_pyscript_does_not_watch_the_page_a_tap_draws(new_phone: NewPhone) -> None:
    """Riposte runs Python in a worker, with no ``py-*`` attribute and no ``<script
    type="py">`` on its page: PyScript's core watches nothing on the page (web/boot/engine.js
    ``unwatchPage``), so the cards a tap draws are not read again with XPath (they were, in
    every tap); the engine works as before, and an observer the page makes afterwards is
    the browser's own."""
    phone = new_phone(save=save_text(fight_log()), init_script=XPATH_AND_WATCHES)
    page = phone.page
    expect_pi(page, Orque=6)
    assert page.evaluate("window.__watches") == 0
    page.evaluate("window.__xpaths = 0")  # PyScript's own start reads the page once: not a tap's
    card(page, "Orque").locator('button[data-do="pass"]').click()
    expect(card(page, "Orque")).not_to_have_class(re.compile(r"\bactive\b"))
    expect(card(page, "Aldric")).to_have_class(re.compile(r"\bactive\b"))
    assert page.evaluate("window.__xpaths") == 0
    seen = page.evaluate("""() => new Promise((done) => {
        const watch = new MutationObserver(() => { watch.disconnect(); done(true); });
        watch.observe(document, { childList: true, subtree: true, attributes: true });
        document.body.append(document.createElement("i"));
    })""")
    assert seen is True
    phone.assert_clean()


#: PyScript's page plugins (as @pyscript/core ships them: runtime/pyscript-*/<name>-<hash>.js).
PLUGINS = ("py-editor", "py-terminal", "py-game", "donkey", "deprecations-manager")


def test_pyscript_loads_none_of_its_page_plugins(new_phone: NewPhone) -> None:
    """index.html's ``py-config`` and ``mpy-config`` leave PyScript's page plugins out
    (PyScript loads them for each kind of interpreter whose config does not): none is
    fetched, and nothing watches the whole page. The editor's plugin did, and searched the
    page four times a second for as long as it was open. The engine works as before."""
    phone = new_phone(save=save_text(fight_log()), init_script=XPATH_AND_WATCHES)
    page = phone.page
    expect_pi(page, Orque=6)
    card(page, "Orque").locator('button[data-do="pass"]').click()
    expect(card(page, "Aldric")).to_have_class(re.compile(r"\bactive\b"))
    fetched = page.evaluate("""performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
        .filter((path) => /\\/runtime\\/pyscript-[^/]+\\//.test(path)).map((path) => path.split("/").pop())""")
    assert any(name.startswith("core-") for name in fetched), fetched  # PyScript itself was read
    assert [name for name in fetched if name.startswith(PLUGINS)] == []
    assert page.evaluate("window.__wholePage") == 0
    phone.assert_clean()
