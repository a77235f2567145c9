"""A tap's write costs what the tap changed, at 390×844: the open fight is kept as its last
whole save text and a record a tap (web/infra/open-fight.js), each tap one small write of
IndexedDB; every reader gets the text they compose to, exactly the engine's save. A reload
after many taps, undos and a rewrite of the whole text gives the fight exactly; a write
refused in the middle is said, and a reload loses nothing said saved; a second tab
follows, takes over, and writes on exactly the fight."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from conftest import STORAGE_FAULTS, NewPhone, Watched, save_text, stored, wait_ready
from helpers import card, expect_pi, fight_log
from playwright.sync_api import expect

from tests.fight_storage import STEP
from tests.long_fight import long_save

#: Each write transaction of IndexedDB that put something, once done: the characters put
#: and the keys (``window.written``).
WRITES = """(() => {
  window.written = [];
  const put = IDBObjectStore.prototype.put;
  const open = new WeakMap();
  IDBObjectStore.prototype.put = function (value, key) {
    const transaction = this.transaction;
    if (!open.has(transaction)) {
      const entry = { chars: 0, keys: [] };
      open.set(transaction, entry);
      transaction.addEventListener("complete", () => window.written.push(entry));
    }
    const entry = open.get(transaction);
    entry.chars += typeof value === "string" ? value.length : 0;
    entry.keys.push(String(key));
    return put.call(this, value, key);
  };
})();"""

#: While ``window.holdWrites`` is set, each write transaction of IndexedDB is kept open (a
#: read asked again and again) and never commits: a write the page has asked and the database
#: has not done, as when a page goes away right after a tap.
HOLD = """(() => {
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (names, mode, ...rest) {
    const opened = transaction.call(this, names, mode, ...rest);
    if (window.holdWrites && mode === "readwrite") {
      const keys = opened.objectStore([].concat(names)[0]);
      const again = () => { keys.count().onsuccess = again; };
      again();
    }
    return opened;
  };
})();"""

EXPORT = "async () => JSON.parse(await window.riposte.raw('{\"op\": \"export\", \"board\": true}')).text"


def until(page: Any, check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(20)


def writes(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.written"))


def fight_writes(page: Any, since: int) -> list[dict[str, Any]]:
    """The writes of the open fight (its whole text or a record) since the ``since``-th write."""
    return [w for w in writes(page)[since:] if any(key.startswith("riposte.encounter") for key in w["keys"])]


def tap(page: Any, keys: str) -> dict[str, Any]:
    """A keyboard tap (Ctrl+Z undo, Ctrl+Y redo, p: pass), once its save is written: that write."""
    before = len(writes(page))
    page.keyboard.press(keys)
    until(page, lambda: bool(fight_writes(page, before)), f"the save of {keys} never written")
    return fight_writes(page, before)[0]


def engine_save(page: Any) -> str:
    """The engine's fight, as a whole save text."""
    return str(page.evaluate(EXPORT))


def test_a_long_fight_s_tap_writes_only_its_change(new_phone: NewPhone) -> None:
    """Undos at 100 and at 2,000 commands (30 fighters): each tap puts about as many
    characters into IndexedDB, a small part of the save, and the fight stays exact."""
    per_tap = {}
    for commands in (100, 2_000):
        text = long_save(commands)
        phone = new_phone(save=text, init_script=WRITES)
        page = phone.page
        until(page, lambda page=page, text=text: stored(page) == text, "the seeded fight never moved to the database")
        written = [tap(page, "Control+z") for _ in range(6)]
        assert all(any(key.startswith(STEP) for key in w["keys"]) for w in written), written
        assert all("riposte.encounter" not in w["keys"] for w in written)  # never the whole text
        per_tap[commands] = statistics.median(w["chars"] for w in written)
        assert stored(page) == engine_save(page)
        phone.assert_clean()
    # Each a record and the board painted after it (its 30 fighters: about 24,000 characters).
    assert per_tap[2_000] < 1.2 * per_tap[100], per_tap
    assert per_tap[2_000] < len(text) / 4, (per_tap, len(text))


def test_a_reload_after_taps_undos_and_a_rewrite_gives_exactly_the_fight(new_phone: NewPhone) -> None:
    """Passes, undos and redos, more than a whole text takes records (it is written again
    whole, the records dropped): storage composes to the engine's save after each, and a
    reload opens exactly that fight."""
    phone = new_phone(save=save_text(fight_log()), init_script=WRITES)
    page = phone.page
    whole = 0
    for n in range(110):
        written = tap(page, ["p", "Control+z", "Control+y", "Control+z", "Control+z", "Control+y"][n % 6])
        whole += "riposte.encounter" in written["keys"]
        if n % 20 == 0:
            assert stored(page) == engine_save(page)
    assert whole >= 1, "the whole text never written again"
    raw = stored(page, None, raw=True)
    assert len([key for key in raw if key.startswith(STEP)]) < 100
    fight = engine_save(page)
    assert stored(page) == fight
    page.reload()
    wait_ready(page)
    assert engine_save(page) == fight == stored(page)
    phone.assert_clean()


def test_a_write_refused_in_the_middle_is_said_and_nothing_said_saved_is_lost(new_phone: NewPhone) -> None:
    """Records refused (storage full) in the middle of a fight: said; the next record that
    lands holds what was refused (no gap), so a reload has every tap; refused to the end,
    a reload has the fight as last said saved."""
    phone = new_phone(save=save_text(fight_log()), init_script=WRITES + STORAGE_FAULTS)
    page = phone.page
    message = page.locator("#message")
    tap(page, "Control+z")
    page.evaluate(f"window.faults = {{keys: '{STEP}', kind: 'full'}}")
    page.keyboard.press("Control+y")
    expect(message).to_contain_text("plein")
    page.keyboard.press("p")
    expect(card(page, "Orque")).to_contain_text("a passé")
    page.evaluate("window.faults = null")
    tap(page, "Control+z")
    tap(page, "Control+y")  # lands with the refused ones
    fight = engine_save(page)
    assert stored(page) == fight
    page.reload()
    wait_ready(page)
    assert engine_save(page) == fight
    expect(card(page, "Orque")).to_contain_text("a passé")

    said_saved = stored(page)
    page.evaluate("window.faults = {keys: 'riposte.encounter', kind: 'full'}")
    page.keyboard.press("Control+z")
    expect(message).to_contain_text("plein")
    page.evaluate("window.faults = null")
    page.reload()
    wait_ready(page)
    assert engine_save(page) == said_saved == stored(page)
    phone.assert_clean()


def test_a_second_tab_follows_then_writes_on_exactly_the_fight(new_phone: NewPhone, site_url: str) -> None:
    """The writer's taps are records; the tab that follows shows them, takes over, and its
    own taps are written on the fight as it is (the engine hands it over whole first): both
    tabs, reloaded, open exactly the fight."""
    phone = new_phone(save=save_text(fight_log()), init_script=WRITES)
    first = phone.page
    second = Watched(first.context.new_page(), site_url.rstrip("/"))
    other = second.page
    other.goto(site_url)
    wait_ready(other)
    expect(other.locator("html")).to_have_attribute("data-writer", "follower")
    card(first, "Orque").get_by_role("button", name="Passer").click()
    expect(card(other, "Orque")).to_contain_text("a passé")
    until(first, lambda: stored(first) == engine_save(first), "the pass never written")
    other.get_by_role("button", name="Prendre la main").click()
    expect(other.locator("html")).to_have_attribute("data-writer", "writer")
    other.locator("#undo").click()
    expect(card(other, "Orque")).not_to_contain_text("a passé")
    expect(card(first, "Orque")).not_to_contain_text("a passé")
    until(other, lambda: stored(other) == engine_save(other), "the undo never written")
    assert "riposte.encounter" in fight_writes(other, 0)[0]["keys"]  # what it kept did not follow: handed over whole
    card(other, "Orque").get_by_role("button", name="Passer").click()
    expect(card(first, "Orque")).to_contain_text("a passé")
    until(other, lambda: stored(other) == engine_save(other), "the pass never written")
    assert any(key.startswith(STEP) for key in fight_writes(other, 0)[-1]["keys"])  # then a record
    fight = engine_save(other)
    first.reload()
    wait_ready(first)
    assert engine_save(first) == fight == stored(first)
    second.assert_clean()
    phone.assert_clean()


def test_a_tap_shown_then_the_page_gone_before_its_write_lands_is_kept(new_phone: NewPhone) -> None:
    """A pass shown, then the page reloaded while the database has not done its write (the
    page gone, the write with it): the next start paints that pass at once and opens the
    fight with it, and writes it; a reload after that has it from the database alone."""
    phone = new_phone(save=save_text(fight_log()), init_script=HOLD)
    page = phone.page
    until(page, lambda: stored(page) == engine_save(page), "the seeded fight never written")
    page.evaluate("window.holdWrites = true")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    fight = engine_save(page)
    page.reload(wait_until="commit")
    expect(card(page, "Orque")).to_contain_text("a passé")  # the saved board, painted first
    wait_ready(page)
    assert engine_save(page) == fight
    until(page, lambda: stored(page) == fight, "the pass left behind never written")
    assert page.evaluate("localStorage.getItem('riposte.encounter.left')") is None
    page.reload()
    wait_ready(page)
    expect(card(page, "Orque")).to_contain_text("a passé")
    expect_pi(page, Aldric=5, Orque=6)
    assert engine_save(page) == fight
    phone.assert_clean()


#: The copy of the board kept for the next start, as the page finds it when it starts
#: (``window.copied``: its fighters, each passed or not); the first board the page paints,
#: its cards' names and classes (``window.firstPaint``); and a page that never has a moment
#: to itself (``requestIdleCallback`` never calls back).
FIRST_PAINT_NEVER_IDLE = """(() => {
  const copy = JSON.parse(localStorage.getItem("riposte.board") ?? "null");
  window.copied = copy && Object.values(copy.board.combatants).map((f) => [f.name, f.passed]);
  window.requestIdleCallback = () => 0;
  const seen = new MutationObserver(() => {
    const board = document.querySelector("#board");
    if (!board?.children.length) return;
    seen.disconnect();
    window.firstPaint = [...board.querySelectorAll("li.fighter")].map((li) => [li.querySelector(".name").textContent, li.className]);
  });
  seen.observe(document, { childList: true, subtree: true }); // before the page is parsed
})();"""


def test_the_board_copied_for_the_next_start_is_the_last_tap_s_even_never_idle(new_phone: NewPhone) -> None:
    """The copy of the board the next start paints first is made when the page is idle
    (web/infra/store.js), or as the page goes away: on a page that is never idle, a reload
    right after a pass, its write landed, paints the pass first, not the board before it."""
    phone = new_phone(save=save_text(fight_log()), init_script=FIRST_PAINT_NEVER_IDLE)
    page = phone.page
    until(page, lambda: stored(page) == engine_save(page), "the seeded fight never written")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    fight = engine_save(page)
    until(page, lambda: stored(page) == fight, "the pass never written")
    page.reload()
    page.wait_for_function("window.firstPaint !== undefined")
    assert dict(page.evaluate("window.copied") or []).get("Orque") is True, "the pass not in the copy"
    first = dict(page.evaluate("window.firstPaint"))
    assert "passed" in first["Orque"].split(), first
    wait_ready(page)
    assert engine_save(page) == fight
    phone.assert_clean()
