"""The fights' storage when the browser misbehaves, at 390×844 (docs/RELIABILITY.md, « When
the database misbehaves »): IndexedDB refused in every way, a database emptied during a
visit, an older release's tab still writing to localStorage, another page opening a newer
version of the database, a gap in the open fight's records. Each time the page starts,
keeps the fight and says what happened; nothing is dropped unread."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, Watched, save_text, stored, wait_ready
from helpers import card, fight_log
from playwright.sync_api import expect

from tests.fight_storage import STEP

EXPORT = "async () => JSON.parse(await window.riposte.raw('{\"op\": \"export\", \"board\": true}')).text"

#: IndexedDB refused, each way a browser refuses it (private modes, managed browsers, a
#: damaged profile): every open of any database, PyScript's own included.
REFUSED = {
    "open throws": "Object.defineProperty(IDBFactory.prototype, 'open', { value() {"
                   " throw new DOMException('blocked', 'InvalidStateError'); } });",
    "request fails": "Object.defineProperty(IDBFactory.prototype, 'open', { value() {"
                     " const request = new EventTarget();"
                     " setTimeout(() => { Object.defineProperty(request, 'error', { value: new DOMException('denied', 'UnknownError') });"
                     " const event = new Event('error', { cancelable: true }); request.onerror?.(event); request.dispatchEvent(event); });"
                     " return request; } });",
    "open never answers": "Object.defineProperty(IDBFactory.prototype, 'open', { value() { return new EventTarget(); } });",
}


def until(page: Any, check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(50)


def engine_save(page: Any) -> str:
    return str(page.evaluate(EXPORT))


def note(page: Any) -> Any:
    return page.locator("#storage-note p")


@pytest.mark.parametrize("how", list(REFUSED))
def test_with_indexeddb_refused_the_page_starts_plays_and_keeps_the_fight(new_phone: NewPhone, how: str) -> None:
    """R1 (the page never loses the open fight): IndexedDB refused (its open throws, its
    request fails, or it never answers) — the engine starts, says once that the fights are
    kept in localStorage and what that means for their size, a tap is played and kept
    there, and a reload opens it."""
    phone = new_phone(save=save_text(fight_log()), init_script=REFUSED[how])
    page = phone.page
    expect(note(page)).to_have_count(1)
    expect(note(page)).to_contain_text("localStorage")
    expect(note(page)).to_contain_text("quelques mégaoctets")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    fight = engine_save(page)
    until(page, lambda: page.evaluate("localStorage.getItem('riposte.encounter')") == fight, "the pass never kept in localStorage")
    page.reload()
    wait_ready(page)
    expect(card(page, "Orque")).to_contain_text("a passé")
    assert engine_save(page) == fight
    expect(note(page)).to_have_count(1)
    phone.assert_clean()


def test_a_database_emptied_during_the_visit_gets_the_whole_fight_and_list_again(new_phone: NewPhone, site_url: str) -> None:
    """The database emptied under the page (CDP Storage.clearDataForOrigin, as « clear site
    data » or Safari's seven days do), then one tap: the page finds it before writing,
    writes the whole fight it holds and its list, and says so; a reload opens the fight
    whole, listed, and nothing says the fights were erased."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    until(page, lambda: stored(page) == engine_save(page), "the seeded fight never written")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": site_url.rstrip("/"), "storageTypes": "indexeddb"})
    until(page, lambda: stored(page) is None, "the database never emptied")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    expect(note(page)).to_contain_text("vidée pendant la visite")
    expect(note(page)).to_contain_text("Le combat ouvert et la liste des combats y sont écrits de nouveau")
    expect(note(page)).not_to_contain_text("effacé")  # the list named one fight: it is still listed
    fight = engine_save(page)
    until(page, lambda: stored(page) == fight, "the fight never written again")
    page.reload()
    wait_ready(page)
    assert engine_save(page) == fight
    expect(page.locator("#seven-days")).to_be_hidden()
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#fights li")).to_have_count(1)
    expect(page.locator("#fights li")).to_contain_text("2 combattants")
    phone.assert_clean()


def test_fights_an_older_release_wrote_to_localstorage_are_read_and_kept(new_phone: NewPhone) -> None:
    """After the move, a tab of the release before it (still open after a deployment) writes
    the open fight, a list and another fight to localStorage: the next start compares them
    with the database's, takes the open fight that is further along, keeps the other one as
    « Le pont (retrouvé) », says so, and drops nothing unread."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    further = engine_save(page)
    page.locator("#undo").click()
    expect(card(page, "Orque")).not_to_contain_text("a passé")
    until(page, lambda: stored(page) == engine_save(page), "the undo never written")
    other = save_text(fight_log()[:1])
    dates = {"created": "2026-11-30T10:00:00.000Z", "updated": "2026-11-30T10:01:00.000Z"}
    old_list = {"version": 1, "current": "f1", "next": 3, "fights": [
        {"id": "f1", "name": "Combat 1", **dates, "round": 1, "fighters": 2},
        {"id": "f2", "name": "Le pont", **dates, "round": 0, "fighters": 1}]}
    page.evaluate("""([further, list, other]) => {
      localStorage.setItem('riposte.encounter', further);
      localStorage.setItem('riposte.fights', list);
      localStorage.setItem('riposte.fight.f2', other);
    }""", [further, json.dumps(old_list), other])
    page.reload()
    wait_ready(page)
    expect(card(page, "Orque")).to_contain_text("a passé")
    assert engine_save(page) == further
    expect(note(page)).to_contain_text("version précédente")
    expect(note(page)).to_contain_text("retrouvé")
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#fights li", has_text="Le pont (retrouvé)")).to_have_count(1)
    assert page.evaluate("Object.keys(localStorage).filter((k) => k === 'riposte.encounter' || k.startsWith('riposte.fight'))") == []
    assert stored(page, "riposte.fight.f2") == other or other in stored(page, None).values()
    phone.assert_clean()


OPEN_NEWER = """() => new Promise((resolve) => {
  const request = indexedDB.open('riposte', 2);
  request.onblocked = () => { window.wasBlocked = true; };
  request.onsuccess = () => { request.result.close(); resolve('opened'); };
  request.onerror = () => resolve('failed');
  setTimeout(() => resolve('still blocked'), 8000);
})"""

#: A connection kept open that never closes for a newer version (an older page), then a
#: newer version asked: that open stays blocked, and any open queued behind it waits.
HOLD_AND_BLOCK = """() => new Promise((resolve) => {
  const held = indexedDB.open('riposte');
  held.onsuccess = () => {
    window.held = held.result;
    const newer = indexedDB.open('riposte', held.result.version + 1);
    newer.onblocked = () => resolve('blocked');
    newer.onsuccess = () => resolve('not blocked');
  };
})"""


def test_a_newer_version_of_the_database_is_let_in_and_a_new_tab_never_waits_silently(new_phone: NewPhone, site_url: str) -> None:
    """Another page opens a newer version of the database (a future release, another site
    of the origin): the open page closes its connection at once, lets it in, says it writes
    there no more (reload) and keeps its next tap in localStorage. Then a newer version
    blocked by a page that never lets go: a new Riposte tab starts within seconds on
    localStorage and says why. Once the database is free, a reload takes up the tap."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    until(page, lambda: stored(page) == engine_save(page), "the seeded fight never written")
    other = Watched(page.context.new_page(), site_url.rstrip("/"))
    other.page.goto(f"{site_url}/no-such-page-here")
    assert other.page.evaluate(OPEN_NEWER) == "opened"
    expect(note(page)).to_contain_text("cette page n'y écrit plus")
    expect(note(page)).to_contain_text("Rechargez la page")
    card(page, "Orque").get_by_role("button", name="Passer").click()  # kept in localStorage from now on
    expect(card(page, "Orque")).to_contain_text("a passé")
    fight = engine_save(page)
    until(page, lambda: page.evaluate("localStorage.getItem('riposte.encounter')") == fight, "the pass never kept in localStorage")
    assert other.page.evaluate(HOLD_AND_BLOCK) == "blocked"
    late = Watched(page.context.new_page(), site_url.rstrip("/"))
    late.page.goto(site_url)
    wait_ready(late.page, timeout=15_000)
    expect(note(late.page)).to_contain_text("ne répond pas")
    expect(note(late.page)).to_contain_text("Fermez les autres onglets")
    other.page.evaluate("window.held.close()")
    late.page.close()
    # The test's seed (an init script of the context) ran again in the new tab and wrote the
    # seeded fight over the pass kept in localStorage: put back what the page had written.
    page.evaluate("(text) => localStorage.setItem('riposte.encounter', text)", fight)
    page.reload()  # the database free again: the pass kept in localStorage is taken up
    wait_ready(page)
    assert engine_save(page) == fight
    expect(note(page)).to_contain_text("version précédente")
    other.forgive(re.compile("no-such-page-here"))
    for watched in (phone, late, other):
        watched.assert_clean()


def untimed(text: str) -> Any:
    """A save's JSON without the times kept beside its log."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(x) for k, x in value.items() if k != "times"}
        return [strip(x) for x in value] if isinstance(value, list) else value
    return strip(json.loads(text))


def test_a_gap_in_the_taps_records_is_said_and_the_records_after_it_set_aside(new_phone: NewPhone) -> None:
    """A record of the open fight missing (a disk error, a hand edit): the next start opens
    the fight as it was before the gap, says so, and keeps the records after it set aside,
    offered for export from the menu."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    until(page, lambda: stored(page) == engine_save(page), "the seeded fight never written")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    before_gap = engine_save(page)
    page.locator("#undo").click()
    expect(card(page, "Orque")).not_to_contain_text("a passé")
    page.locator("#redo").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    until(page, lambda: stored(page) == engine_save(page), "the taps never written")
    records = stored(page, None, raw=True)
    assert f"{STEP}3" in records, sorted(records)
    after_gap = records[f"{STEP}3"]
    page.evaluate(f"""() => new Promise((resolve, reject) => {{
      const open = indexedDB.open('riposte');
      open.onsuccess = () => {{
        const tx = open.result.transaction('keys', 'readwrite');
        tx.objectStore('keys').delete('{STEP}2');
        tx.oncomplete = () => {{ open.result.close(); resolve(); }};
        tx.onerror = () => reject(tx.error);
      }};
    }})""")
    page.reload()
    wait_ready(page)
    # The commands and the board as before the gap; the wall-clock times kept beside the log
    # (engine/save.py `Times`) travel with the board of a later record, gone with it.
    assert untimed(engine_save(page)) == untimed(before_gap)
    expect(note(page)).to_contain_text("un enregistrement manquant")
    expect(note(page)).to_contain_text("mis de côté")
    aside = json.loads(stored(page, "riposte.encounter.steps.aside"))
    assert aside[0]["records"] == {"3": after_gap}
    page.get_by_role("button", name="Partie").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter la sauvegarde illisible").click()
    assert json.loads(download.value.path().read_text(encoding="utf-8"))[0]["records"] == {"3": after_gap}
    phone.assert_clean()


def test_a_backup_of_many_fights_shows_its_progress_and_stops_with_nothing_changed(new_phone: NewPhone, tmp_path: Path) -> None:
    """A backup file of 600 fights: the import says how far it is, with « Arrêter »; stopped,
    nothing is added (the list and storage as before); imported again and let through,
    every fight is added."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    backup = tmp_path / "riposte-combats.json"
    fights = [{"name": f"Rencontre {n}", "save": save_text(fight_log())} for n in range(600)]
    backup.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": fights}), encoding="utf-8")
    page.get_by_role("button", name="Partie").click()
    until(page, lambda: stored(page, "riposte.fights") is not None, "the list never written")
    before = stored(page, None)
    page.locator("#import").set_input_files(str(backup))
    expect(page.locator("#engine-work-text")).to_contain_text("sur 1200")
    page.locator("#engine-work-stop").click()
    expect(page.locator("#message")).to_contain_text("rien n'a changé", timeout=60_000)
    expect(page.locator("#engine-work")).to_be_hidden()
    expect(page.locator("#fights li")).to_have_count(1)
    assert stored(page, None) == before
    page.locator("#import").set_input_files(str(backup))
    expect(page.locator("#message")).to_contain_text("600 combats ajoutés", timeout=120_000)
    expect(page.locator("#fights li")).to_have_count(601)
    assert sum(key.startswith("riposte.fight.") for key in stored(page, None)) == 600
    phone.assert_clean()
