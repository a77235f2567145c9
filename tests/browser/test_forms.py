"""What the game master types or taps is kept, or the page says what it did not keep: a
burst of taps on « Supprimer » deletes one fight, a model or a setting is said saved only
once written, a weapon row without a name and a die field that is not a number are said,
a name that shows nothing is refused by the engine and an old one is migrated. Storage
faults are injected as tests/browser/test_faults.py does (an init script wrapping the
page's storage)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, full_when, save_text, stored, wait_ready
from helpers import fight_log
from playwright.sync_api import expect
from test_fights_hold import SIX, finger_on_a_delete, index_of, listed, menu
from test_round_form import LOG as ROUND_OVER


def test_five_taps_in_a_second_at_one_spot_delete_one_fight_and_it_comes_back(new_phone: NewPhone) -> None:
    """« Supprimer » tapped at 0, 250, 407, 619 and 1,020 ms at one spot, the rows moving up
    under the finger after the first: one gesture, one fight deleted (the row that came
    under the finger could not be read), and « Annuler la suppression » brings it back with
    nothing left to undo. The gaps are the page's time (``page.clock``), not waits."""
    phone, fights = finger_on_a_delete(new_phone)
    page = phone.page
    at = 0
    for tap in (0, 250, 407, 619, 1020):
        page.clock.run_for(tap - at)
        at = tap
        page.mouse.down()
        page.mouse.up()
        if tap == 0:  # the list drawn anew: another fight's row under the finger
            expect(fights.locator("li")).to_have_count(5)
    page.clock.resume()
    expect(page.locator("#fights-note")).to_contain_text("« Combat 6 » supprimé.")
    # The undo is one more transaction, run after every one the taps asked for.
    page.locator("#fights-note button").press("Enter")
    expect(page.locator("#fights-note")).to_contain_text("« Combat 6 » est de retour")
    expect(fights.locator("li")).to_have_count(6)
    expect(page.locator("#fights-note button")).to_have_count(0)
    assert sorted(f["name"] for f in index_of(page)["fights"]) == [f"Combat {n}" for n in range(1, 7)]
    kept = stored(page, None)
    assert all(kept[f"riposte.fight.f{n}"] == SIX[f"f{n}"] for n in range(2, 7))
    phone.assert_clean()


#: localStorage's setItem throwing for every key, from the page's first script on.
SETITEM_THROWS = "Storage.prototype.setItem = function () { throw new DOMException('refusé', 'QuotaExceededError'); };"
#: Every IndexedDB put refused once the test sets ``window.refuse``, its transaction aborted
#: (as STORAGE_FAULTS does): the page chose the database at its start.
PUT_FAILS = full_when("window.refuse")


@pytest.mark.parametrize("faults", [SETITEM_THROWS + PUT_FAILS, PUT_FAILS], ids=["both", "indexeddb"])
def test_a_model_not_written_is_said_not_saved(new_phone: NewPhone, faults: str) -> None:
    """« Enregistrer comme modèle » with storage refusing the write: the page says in French
    that it is not saved, and no model is listed."""
    phone = new_phone(save=save_text(fight_log()), init_script=faults)
    page = phone.page
    page.evaluate("window.refuse = true")
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    expect(page.locator("#message")).to_have_text(
        "« Orque » n'est pas enregistré comme modèle : le stockage du navigateur refuse l'écriture (plein ou indisponible).")
    expect(page.locator("#models .name")).to_have_count(0)


def test_a_model_written_where_localstorage_throws_is_said_saved_and_kept(new_phone: NewPhone) -> None:
    """localStorage throwing, IndexedDB writing: the model is in the database, said saved,
    and there after a reload."""
    phone = new_phone(save=save_text(fight_log()), init_script=SETITEM_THROWS)
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    expect(page.locator("#message")).to_have_text("« Orque » est enregistré comme modèle.")
    assert [m["name"] for m in json.loads(stored(page, "riposte.models"))] == ["Orque"]
    page.reload()
    wait_ready(page)
    expect(page.locator("#models .name")).to_have_text(["Orque"])


def test_a_stun_server_not_written_is_said_for_this_visit_only(fight: Any) -> None:
    """The STUN server typed with localStorage refusing the write: not said kept, said for
    this visit only, the field as typed."""
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.evaluate("() => { Storage.prototype.setItem = function () { throw new DOMException('refusé', 'QuotaExceededError'); }; }")
    page.locator("#live-network > summary").click()  # folded away until asked for
    field = page.get_by_label("Serveur STUN ou TURN (facultatif)")
    field.fill("stun:stun.exemple.org:3478")
    field.press("Tab")
    expect(page.locator("#message")).to_have_text(
        "Serveur STUN changé pour cette visite seulement : le stockage du navigateur refuse de le garder.")
    expect(field).to_have_value("stun:stun.exemple.org:3478")


#: Names that show nothing: zero-width space and joiner, NUL, a word joiner and spaces.
INVISIBLE_NAMES = ["\u200b\u200d", "\x00", " \u2060\u00a0"]


def test_the_fighter_form_refuses_a_name_that_shows_nothing(phone: Any) -> None:
    """The engine refuses it, said next to the field in French; nothing is added, the form
    stays open with what was typed."""
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    for typed in INVISIBLE_NAMES:
        dialog.locator("#f-name").fill(typed)
        dialog.get_by_role("button", name="Enregistrer").click()
        expect(dialog).to_contain_text("un nom qui se voit (au moins une lettre, un chiffre ou un signe)")
        expect(dialog).to_be_visible()
        expect(dialog.locator("#f-name")).to_have_value(typed)
    assert page.evaluate("Object.keys(JSON.parse(localStorage.getItem('riposte.board') ?? '{}').board?.combatants ?? {}).length") == 0
    phone.assert_clean()


def test_a_fight_renamed_to_nothing_that_shows_is_refused(fight: Any) -> None:
    page = fight.page
    fights = menu(page)
    fights.get_by_role("button", name="Renommer Combat 1").click()
    field = fights.get_by_label("Nouveau nom de Combat 1")
    for typed in INVISIBLE_NAMES:
        field.fill(typed)
        fights.get_by_role("button", name="Enregistrer").click()
        expect(page.locator("#fights-note")).to_contain_text("un nom qui se voit")
        expect(field).to_have_value(typed)
        expect(field).to_have_attribute("aria-invalid", "true")
        page.locator("#fights-note").evaluate("el => { el.textContent = ''; }")
    assert [f["name"] for f in index_of(page)["fights"]] == ["Combat 1"]
    fight.assert_clean()


def test_a_backup_file_s_names_that_show_nothing_or_hold_half_a_character_are_mended(fight: Any, tmp_path: Path) -> None:
    """A backup file (the whole list) whose fights are named with nothing that shows, or
    with half a character: every fight is added, named « Combat n » by the list, the half
    character made U+FFFD; none of the list's names is invisible or holds a lone surrogate."""
    page = fight.page
    fights = menu(page)
    text = save_text([{"type": "add_combatant", "combatant": {"name": "Garde"}}])
    names = ["\u200b\u200d", "\x00", "Pont\ud800", "   "]
    bundle = {"app": "riposte", "kind": "fights", "version": 1, "fights": [{"name": n, "save": text} for n in names]}
    path = tmp_path / "combats.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")  # \ud800 written escaped, as JSON may hold it
    page.locator("#import").set_input_files(str(path))
    expect(page.locator("#message")).to_have_text("4 combats ajoutés à la liste. Le combat ouvert n'a pas changé.")
    kept = [f["name"] for f in index_of(page)["fights"]]
    assert kept == ["Combat 1", "Combat 2", "Combat 3", "Pont\ufffd", "Combat 5"]
    expect(fights.locator(".name")).to_have_count(5)
    fight.assert_clean()


def test_an_old_list_and_an_old_save_with_names_that_show_nothing_still_open(new_phone: NewPhone) -> None:
    """An earlier release's list whose fight was named with zero-width characters, and an
    open fight whose fighter was: both open, named so that they show."""
    log = [{"type": "add_combatant", "combatant": {"name": "\u200b\u200d"}}, {"type": "add_combatant", "combatant": {"name": "Orque"}}]
    fights_ = {"f1": save_text(log), "f2": save_text(log)}
    phone = new_phone(init_script=listed(fights_, "f1", names={"f1": "Combat 1", "f2": "\u200b\u2060"}))
    page = phone.page
    expect(page.locator("#board .fighter .name")).to_have_count(2)
    assert sorted(page.locator("#board .fighter .name").all_text_contents()) == ["Orque", "Sans nom"]
    fights = menu(page)
    expect(fights.locator(".name")).to_have_text(["Combat 1", "Combat 2"])
    assert [f["name"] for f in index_of(page)["fights"]] == ["Combat 1", "Combat 2"]
    phone.assert_clean()


def test_letters_typed_into_a_die_are_said_not_a_number_and_nothing_is_rolled(new_phone: NewPhone) -> None:
    """Letters typed into a die stay there as typed: « Dé : pas un nombre. » under it, the
    round not started, no die rolled by Riposte nor sent."""
    phone = new_phone(save=save_text(ROUND_OVER))
    page = phone.page
    page.get_by_role("button", name="Initiative").click()
    rows = page.locator("#declarations li.declaration")
    expect(rows).to_have_count(5)
    die = rows.nth(0).locator("input")
    die.click()
    page.keyboard.type("abc")
    expect(die).to_have_value("abc")  # kept as typed, not dropped
    for i in range(1, 5):
        rows.nth(i).locator("input").fill("4")
    page.get_by_role("button", name="Commencer le tour").click()
    expect(rows.nth(0).locator(".field-error")).to_have_text("Dé : pas un nombre.")
    expect(die).to_have_attribute("aria-invalid", "true")
    expect(die).to_be_focused()
    expect(rows.nth(1).locator(".field-error")).to_have_count(0)
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")  # nothing started
    assert len(json.loads(stored(page, "riposte.encounter"))["commands"]) == len(ROUND_OVER)  # nothing sent
    phone.assert_clean()


def test_a_weapon_row_with_a_level_and_a_skill_but_no_name_is_refused_not_dropped(phone: Any) -> None:
    """A new fighter's weapon row filled but for its name: « Enregistrer » keeps the form,
    the weapon's name marked with the engine's reason; nothing is added. A row left blank is
    still no weapon."""
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    dialog.locator("#f-name").fill("Brunhild")
    row = dialog.locator(".weapon-row").first
    row.locator(".w-level").fill("3")
    row.locator(".w-skill").fill("épée")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(row.locator(".w-name")).to_have_attribute("aria-invalid", "true")
    expect(dialog).to_contain_text("à remplir")
    expect(dialog).to_be_visible()
    expect(page.locator("#cast")).not_to_contain_text("Brunhild")
    # Emptied, the row is no weapon: the fighter is added without one.
    row.locator(".w-level").fill("")
    row.locator(".w-skill").fill("")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#cast")).to_contain_text("Brunhild")
    phone.assert_clean()
