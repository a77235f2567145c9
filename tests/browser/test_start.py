"""The start of the page (issue #12 item 5, issue #14): a start that fails or takes too
long says why, in French, with a reload button, within 30 s, and leaves the saved fight
as it was; taps made before the engine is up are queued and applied in order.

Service workers are blocked: their cache would serve the files these tests break.
"""

from __future__ import annotations

import re
import time
from typing import Any

from conftest import NewPhone, save_text, wait_ready
from helpers import card, expect_pi, fight_log
from playwright.sync_api import expect

SAVED = "() => localStorage.getItem('riposte.encounter')"


def _broken_start(new_phone: NewPhone, pattern: str, how: str) -> tuple[Any, str, float]:
    """The seeded fight opened once (so the autosave is the page's own), then reloaded
    with the file matching ``pattern`` answered 404 or aborted: the page, the save before
    the reload, and when the reload began (monotonic seconds)."""
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    saved = page.evaluate(SAVED)
    assert saved and "Orque" in saved

    def handle(route: Any) -> None:
        if how == "404":
            route.fulfill(status=404, body="absent", content_type="text/plain")
        else:
            route.abort()

    page.context.route(re.compile(pattern), handle)
    began = time.monotonic()
    page.reload(wait_until="domcontentloaded")
    return page, saved, began


def _says_why_and_recovers(page: Any, saved: str, began: float, why: str) -> None:
    status = page.locator("#engine-status")
    expect(status).to_contain_text("Le moteur de règles n'a pas pu démarrer", timeout=30_000)
    assert time.monotonic() - began < 30
    expect(status).to_contain_text(why)
    expect(status).to_contain_text("Le combat sauvegardé n'a pas été touché")
    expect(page.locator("html")).to_have_attribute("data-engine", "error")
    reload = page.get_by_role("button", name="Recharger")
    expect(reload).to_be_visible()
    assert page.evaluate(SAVED) == saved
    page.context.unroute_all()
    reload.click()
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)  # the fight as it was saved
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")


def test_a_missing_bridge_says_so_with_a_reload_button(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, r".*/web/bridge\.py$", "404")
    _says_why_and_recovers(page, saved, began, "le fichier /web/bridge.py n'a pas pu être chargé, erreur 404")


def test_an_aborted_bridge_says_so_with_a_reload_button(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, r".*/web/bridge\.py$", "abort")
    _says_why_and_recovers(page, saved, began, "n'a pas pu démarrer (")


def test_a_missing_runtime_says_so_within_the_limit(new_phone: NewPhone) -> None:
    """pyodide.asm.wasm fails inside the worker, which tells the page nothing: the start
    limit (25 s) catches it."""
    page, saved, began = _broken_start(new_phone, r".*/pyodide\.asm\.wasm$", "404")
    _says_why_and_recovers(page, saved, began, "rien après 25 s")


def test_an_aborted_runtime_says_so_within_the_limit(new_phone: NewPhone) -> None:
    page, saved, began = _broken_start(new_phone, r".*/pyodide\.asm\.wasm$", "abort")
    _says_why_and_recovers(page, saved, began, "rien après 25 s")
