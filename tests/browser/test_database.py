"""Nothing lost over months, at 390×844: the fights live in IndexedDB (web/infra/store.js),
past localStorage's few megabytes; every earlier layout of localStorage moves there at
the first start, in one transaction, and stays where it was until that is done; a storage
filled to its last byte loses nothing the page did not say it lost; a database the browser
deleted is said, with the restore from a backup file."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from conftest import NewPhone, full_when, save_text, stored, wait_ready
from helpers import fight_log
from playwright.sync_api import expect

from engine.table import Table

#: The keys of the fights as localStorage held them before they moved.
LOCAL_FIGHTS = ("() => Object.keys(localStorage)"
                ".filter((k) => k === 'riposte.encounter' || k.startsWith('riposte.fight') || k === 'riposte.checkpoint')")
#: Every character localStorage holds, keys and values.
LOCAL_CHARS = "() => Object.keys(localStorage).reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0)"


def heavy(camp: int, fighters: int = 17) -> str:
    """A fight of about 200 kB that the engine reads at once: ``fighters`` guards of camp
    ``camp``, each with 16 weapons of long names (few commands, long texts)."""
    table = Table(rng=random.Random(camp))
    for f in range(fighters):
        weapons = [{"id": f"a{w}", "name": f"Arme {w:02d} " + "x" * 50, "kind": "melee", "skill": f"Talent {w:02d} " + "z" * 40}
                   for w in range(16)]
        answer = table.apply({"type": "add_combatant", "combatant": {
            "name": f"Camp {camp:02d} garde {f:02d}", "side": "pnj", "characteristics": {"melee": 5}, "weapons": weapons}})
        assert answer["ok"], answer["error"]
    return str(table.export(True)["text"])


def fighters(page: Any) -> Any:
    return page.locator("#board .fighter .name")


def test_forty_fights_of_200_kb_are_kept_and_open_again(new_phone: NewPhone, tmp_path: Path) -> None:
    """Forty fights of 200 kB, 8 MB in all (localStorage held 5 at most): a backup file of
    them restored in one tap, every one kept, and one opened after a reload, whole."""
    first = heavy(1)
    assert len(first) > 200_000
    camps = [first.replace("Camp 01", f"Camp {n:02d}") for n in range(1, 41)]
    backup = tmp_path / "riposte-combats.json"
    fights = [{"name": f"Camp {n:02d}", "save": text} for n, text in enumerate(camps, 1)]
    backup.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": fights}), encoding="utf-8")
    assert backup.stat().st_size > 8_000_000
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    page.locator("#import").set_input_files(str(backup))
    expect(page.locator("#message")).to_contain_text("40 combats ajoutés à la liste", timeout=120_000)
    kept = stored(page, None)
    assert sorted(kept[f"riposte.fight.f{n}"] for n in range(2, 42)) == sorted(camps)
    assert page.evaluate(LOCAL_CHARS) < 100_000  # not one fight's text in localStorage
    page.reload()
    wait_ready(page)
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#fights li")).to_have_count(41)
    page.get_by_role("button", name="Ouvrir Camp 40").click()
    expect(fighters(page)).to_have_count(17, timeout=30_000)
    expect(fighters(page).first).to_contain_text("Camp 40 garde")
    phone.assert_clean()


def listed_layout(open_text: str, other: str) -> dict[str, str]:
    """localStorage as the list of fights left it (the releases with a list): the open
    fight, its list and another fight."""
    return {"riposte.encounter": open_text,
            "riposte.fights": json.dumps({"version": 1, "current": "f1", "next": 3, "fights": [
                {"id": "f1", "name": "Combat 1", "created": "2026-11-30T10:00:00.000Z", "updated": "2026-11-30T10:00:00.000Z",
                 "round": 1, "fighters": 2},
                {"id": "f2", "name": "Le pont", "created": "2026-11-30T10:00:00.000Z", "updated": "2026-11-30T10:01:00.000Z",
                 "round": 0, "fighters": 1}]}),
            "riposte.fight.f2": other}


def put_once(items: dict[str, str]) -> str:
    """An init script that leaves ``items`` in localStorage before the page first runs (once per tab)."""
    return ("if (!sessionStorage.getItem('riposte.test.layout')) { sessionStorage.setItem('riposte.test.layout', '1');"
            f" for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }}")


def test_every_earlier_layout_moves_into_the_database_and_opens_as_before(new_phone: NewPhone) -> None:
    """The saves of the first release, of the second, and a list of fights with a fight
    beside the open one: each moves whole into IndexedDB at the first start, leaves
    localStorage, and opens as it was, before and after a reload."""
    saves = Path(__file__).resolve().parents[1] / "saves"
    other = save_text([{"type": "add_combatant", "combatant": {"name": "Sentinelle", "side": "pnj"}}])
    layouts = {
        "format 1": ({"riposte.encounter": (saves / "format-1.json").read_text(encoding="utf-8")}, "Tour 1"),
        "format 2": ({"riposte.encounter": (saves / "format-2.json").read_text(encoding="utf-8")}, None),
        "a list": (listed_layout(save_text(fight_log()), other), "Tour 1"),
    }
    for name, (items, round_) in layouts.items():
        phone = new_phone(init_script=put_once(items))
        page = phone.page
        kept = stored(page, None)
        assert kept["riposte.encounter"] is not None, name
        assert page.evaluate(LOCAL_FIGHTS) == [], name
        if "riposte.fight.f2" in items:
            assert kept["riposte.fight.f2"] == other
            assert [f["name"] for f in json.loads(kept["riposte.fights"])["fights"]] == ["Combat 1", "Le pont"]
        shown = fighters(page).all_text_contents()
        assert shown, name
        if round_:
            expect(page.locator("#round")).to_have_text(round_)
        page.reload()
        wait_ready(page)
        expect(fighters(page)).to_have_count(len(shown))
        assert sorted(fighters(page).all_text_contents()) == sorted(shown), name
        phone.assert_clean()


def test_a_move_that_cannot_be_written_leaves_localstorage_as_it_was_and_is_done_next_time(new_phone: NewPhone) -> None:
    """The move refused by IndexedDB (storage full): the page plays from localStorage, as
    the release before did, with nothing moved and nothing lost; the next start moves it."""
    other = save_text([{"type": "add_combatant", "combatant": {"name": "Sentinelle", "side": "pnj"}}])
    items = listed_layout(save_text(fight_log()), other)
    refused = full_when("sessionStorage.getItem('riposte.test.refuse') !== 'no'")
    phone = new_phone(init_script=put_once(items) + refused)
    page = phone.page
    expect(fighters(page)).to_have_count(2)
    assert sorted(page.evaluate(LOCAL_FIGHTS)) == sorted(items)
    assert stored(page, None) == {}
    page.locator("#board .fighter").filter(has_text="Orque").get_by_role("button", name="Passer").click()
    expect(page.locator("#board .fighter").filter(has_text="Orque")).to_contain_text("a passé")
    page.evaluate("sessionStorage.setItem('riposte.test.refuse', 'no')")
    page.reload()
    wait_ready(page)
    expect(page.locator("#board .fighter").filter(has_text="Orque")).to_contain_text("a passé")  # the pass, kept
    assert page.evaluate(LOCAL_FIGHTS) == []
    kept = stored(page, None)
    assert kept["riposte.fight.f2"] == other and '"pass"' in kept["riposte.encounter"]
    phone.assert_clean()


def settled(page: Any, commands: int) -> str:
    """How the save of the tap just made ended: "saved" once storage holds its ``commands``
    commands, "full" once the page says the storage is full."""
    message = page.locator("#message")
    for _ in range(300):
        if "plein" in (message.text_content() or ""):
            return "full"
        text = stored(page)
        if text is not None and len(json.loads(text)["commands"]) == commands:
            return "saved"
        page.wait_for_timeout(50)
    raise AssertionError(f"the save of {commands} commands neither landed nor was said full")


#: A quota counted to the character at IndexedDB's door: ``window.quota`` (characters of
#: every value the page keeps, each key counted at its last size) refused past it as a full
#: disk refuses (the transaction aborted, QuotaExceededError); ``window.quotaUsed()`` what
#: the page's writes hold now. (CDP's Storage.overrideQuotaForOrigin answers "Internal
#: error" for a test's browser context here.)
QUOTA = """(() => {
  const put = IDBObjectStore.prototype.put;
  const sizes = new Map();
  const total = (key, size) => [...sizes].reduce((n, [k, s]) => n + (k === key ? 0 : s), size);
  window.quotaUsed = () => total(null, 0);
  IDBObjectStore.prototype.put = function (value, key) {
    const size = typeof value === "string" ? value.length : 0;
    if (window.quota && total(key, size) > window.quota) {
      try { this.transaction.abort(); } catch { /* ended */ }
      throw new DOMException("plein", "QuotaExceededError");
    }
    sizes.set(key, size);
    return put.call(this, value, key);
  };
})();"""


def test_storage_filled_to_its_last_byte_loses_nothing_it_did_not_say(new_phone: NewPhone) -> None:
    """The storage allowed a few kilobytes more than the fight holds, then one fighter more
    per tap: every tap's save lands or the page says the storage is full; after a reload,
    the fight is the last one saved, none of what was said saved is missing."""
    phone = new_phone(save=save_text(fight_log()), init_script=QUOTA)
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Dupliquer Aldric").first.click()
    landed = len(fight_log()) + 1  # the commands of the last save that landed
    assert settled(page, landed) == "saved"
    page.evaluate("window.quota = window.quotaUsed() + 6000")
    for _ in range(40):
        page.get_by_role("button", name="Dupliquer Aldric").first.click()
        if settled(page, landed + 1) == "full":
            break
        landed += 1
    else:
        raise AssertionError("the storage never filled")
    assert landed > len(fight_log()) + 1  # some saves landed before it filled
    page.reload()  # a new page: no quota
    wait_ready(page)
    assert len(json.loads(stored(page))["commands"]) == landed  # every one said saved, and no other
    expect(fighters(page)).to_have_count(landed - len(fight_log()) + 2)
    phone.assert_clean()


def test_a_database_the_browser_deleted_is_said_with_the_restore(new_phone: NewPhone, site_url: str, tmp_path: Path) -> None:
    """The fights deleted by the browser (IndexedDB emptied, the app's own files kept): the
    next visit starts, says the fights were deleted and offers the restore from a backup
    file, one tap; the backup brings them back. A first visit says nothing of the kind."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter la liste des combats (.json)").click()
    backup = tmp_path / "riposte-combats.json"
    download.value.save_as(backup)
    page.goto(f"{site_url}/no-such-page-here")  # the app's page gone, its database closed
    page.evaluate("""() => new Promise((resolve, reject) => {
      const deleting = indexedDB.deleteDatabase('riposte');
      deleting.onsuccess = resolve;
      deleting.onerror = () => reject(deleting.error);
      deleting.onblocked = () => reject(new Error('blocked'));
    })""")
    page.goto(site_url)
    wait_ready(page)
    told = page.locator("#seven-days")
    expect(told).to_be_visible()
    expect(told).to_contain_text("Les combats que Riposte gardait dans ce navigateur ont été effacés")
    expect(told.get_by_role("button", name="Sauvegarder tous les combats")).to_be_hidden()
    expect(fighters(page)).to_have_count(0)
    told.locator("#seven-days-file").set_input_files(str(backup))
    expect(page.locator("#message")).to_contain_text("1 combat ajouté")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Ouvrir Combat 1").click()
    expect(fighters(page)).to_have_count(2)

    first = new_phone().page  # a first visit: nothing was lost, nothing said
    expect(first.locator("#seven-days")).to_be_hidden()
    phone.forgive(re.compile("no-such-page-here"))  # the page with no app on it
    phone.assert_clean()


MODELS = [{"name": "Sentinelle", "side": "pnj"}, {"name": "Archer du pont", "side": "pnj"}]


def model_names(page: Any) -> Any:
    page.get_by_role("button", name="Combattants").click()
    return page.locator("#models .name")


def test_the_cast_models_move_into_the_database_once_and_are_never_lost(new_phone: NewPhone) -> None:
    """The models kept in localStorage by an earlier release: a move refused leaves them
    there, shown and kept; the next start moves them into IndexedDB, and localStorage lets
    them go; a model saved then is kept across a reload."""
    refused = full_when("key === 'riposte.models' && sessionStorage.getItem('riposte.test.refuse') !== 'no'")
    phone = new_phone(save=save_text(fight_log()), init_script=put_once({"riposte.models": json.dumps(MODELS)}) + refused)
    page = phone.page
    expect(model_names(page)).to_have_text(["Sentinelle", "Archer du pont"])
    assert json.loads(page.evaluate("localStorage.getItem('riposte.models')")) == MODELS  # kept where they were
    assert stored(page, "riposte.models") is None
    page.evaluate("sessionStorage.setItem('riposte.test.refuse', 'no')")
    page.reload()
    wait_ready(page)
    expect(model_names(page)).to_have_text(["Sentinelle", "Archer du pont"])
    assert json.loads(stored(page, "riposte.models")) == MODELS
    assert page.evaluate("localStorage.getItem('riposte.models')") is None
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    expect(page.locator("#message")).to_have_text("« Orque » est enregistré comme modèle.")
    page.reload()
    wait_ready(page)
    expect(model_names(page)).to_have_text(["Sentinelle", "Archer du pont", "Orque"])
    assert [m["name"] for m in json.loads(stored(page, "riposte.models"))] == ["Sentinelle", "Archer du pont", "Orque"]
    phone.assert_clean()
