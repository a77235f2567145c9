"""Several fights in the real page at 390×844: a returning user's fight becomes
the first of the list, opened exactly as before; new fights, files and links go into the
list and never destroy the open one; open, rename, duplicate, delete with undo; the whole
list exported and imported; storage that is full said plainly, nothing lost."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import NewPhone, Shot, full_when, save_text, stored, until_stored, wait_ready
from helpers import CASTS, expect_pi, fight_log
from playwright.sync_api import expect

from engine.table import Table


def index_of(page: Any) -> Any:
    """The list of fights as the page keeps it."""
    return json.loads(stored(page, "riposte.fights"))


def menu(page: Any) -> Any:
    page.get_by_role("button", name="Partie").click()
    return page.locator("#fights")


def new_fight(page: Any) -> None:
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat vide").click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Le combat en cours reste dans la liste des combats")
    dialog.get_by_role("button", name="Commencer").click()
    expect(page.locator("#cast")).to_contain_text("Aucun combattant")


def test_a_returning_users_fight_is_the_first_of_the_list_and_opens_as_before(fight: Any, shot: Shot) -> None:
    page = fight.page
    expect_pi(page, Aldric=5, Orque=6)
    saved = json.loads(stored(page))
    assert [c["type"] for c in saved["commands"]] == [c["type"] for c in fight_log()]
    index = index_of(page)
    assert index["current"] == "f1" and [f["name"] for f in index["fights"]] == ["Combat 1"]
    fights = menu(page)
    expect(fights.locator("li")).to_have_count(1)
    expect(fights.locator("li .summary")).to_contain_text("Tour 1 · 2 combattants · ")
    expect(fights.locator("li .badge")).to_have_text("ouvert")
    # A new fight goes into the list; the one before is a tap away, exactly as it was.
    new_fight(page)
    fights = menu(page)
    expect(fights.locator(".name")).to_have_text(["Combat 2", "Combat 1"])
    shot(page, "fights-list.png")
    fights.get_by_role("button", name="Ouvrir Combat 1").click()
    expect(page.locator("#screen-board")).to_be_visible()
    expect_pi(page, Aldric=5, Orque=6)
    assert json.loads(until_stored(page, lambda t: json.loads(t)["commands"] == saved["commands"]))["commands"] == saved["commands"]
    page.reload()
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)
    expect(menu(page).locator(".name")).to_have_text(["Combat 1", "Combat 2"])
    fight.assert_clean()


def test_an_imported_file_goes_into_the_list_and_undo_loses_nothing(fight: Any, tmp_path: Path) -> None:
    page = fight.page
    other = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("lyra", "gobelin")]
    path = tmp_path / "embuscade.json"
    path.write_text(save_text(other), encoding="utf-8")
    menu(page)
    page.locator("#import").set_input_files(str(path))
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Le combat en cours reste dans la liste des combats")
    dialog.get_by_role("button", name="Ouvrir ce combat").click()
    expect(page.locator("#message")).to_have_text("Combat ouvert (fichier).")
    page.locator("#undo").click()  # undo: the fight opened, not the one replaced
    fights = menu(page)
    expect(fights.locator(".name")).to_have_text(["embuscade", "Combat 1"])
    fights.get_by_role("button", name="Ouvrir Combat 1").click()
    expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


def test_a_fight_s_default_name_is_said_in_the_page_s_language(fight: Any) -> None:
    """« Combat 1 », the name a French page gave the fight, stayed « Combat 1 » in English:
    a default name is shown in the page's language; a name the game master gave is kept."""
    page = fight.page
    fights = menu(page)
    expect(fights.locator(".name")).to_have_text(["Combat 1"])
    page.get_by_label("Langue").select_option("en")
    expect(fights.locator(".name")).to_have_text(["Fight 1"])
    expect(fights.get_by_role("button", name="Rename Fight 1")).to_be_visible()
    page.get_by_label("Language").select_option("fr")
    expect(fights.locator(".name")).to_have_text(["Combat 1"])
    fights.get_by_role("button", name="Renommer Combat 1").click()
    fights.get_by_label("Nouveau nom de Combat 1").fill("Le pont")
    fights.get_by_role("button", name="Enregistrer").click()
    page.get_by_label("Langue").select_option("en")
    expect(fights.locator(".name")).to_have_text(["Le pont"])
    fight.assert_clean()


def test_rename_duplicate_and_delete_with_undo(fight: Any) -> None:
    page = fight.page
    fights = menu(page)
    fights.get_by_role("button", name="Renommer Combat 1").click()
    field = fights.get_by_label("Nouveau nom de Combat 1")
    expect(field).to_be_focused()
    # A fighter's longest name (the engine's): one letter more, or a blank name, is said by
    # the engine (Table.name), not cut or left silent; the field keeps what was typed.
    longest = Table().limits()["limits"]["name"]
    for typed, said in (("x" * (longest + 1), f"Nom : de 1 à {longest} caractères."), ("   ", "Nom : à remplir.")):
        field.fill(typed)
        fights.get_by_role("button", name="Enregistrer").click()
        expect(page.locator("#fights-note")).to_have_text(said)
        expect(field).to_have_value(typed)
        expect(field).to_have_attribute("aria-invalid", "true")
        page.locator("#fights-note").evaluate("el => { el.textContent = ''; }")
    field.fill("Le pont")
    fights.get_by_role("button", name="Enregistrer").click()
    expect(fights.locator(".name")).to_have_text(["Le pont"])
    fights.get_by_role("button", name="Dupliquer Le pont").click()
    expect(fights.locator(".name")).to_have_text(["Le pont", "Le pont (copie)"])
    fights.get_by_role("button", name="Supprimer Le pont (copie)").click()
    expect(fights.locator(".name")).to_have_text(["Le pont"])
    note = page.locator("#fights-note")
    expect(note).to_contain_text("« Le pont (copie) » supprimé.")
    note.get_by_role("button", name="Annuler la suppression").click()
    expect(fights.locator(".name")).to_have_text(["Le pont", "Le pont (copie)"])
    # The copy is the same fight, and opens as such.
    fights.get_by_role("button", name="Ouvrir Le pont (copie)").click()
    expect_pi(page, Aldric=5, Orque=6)
    expect(fights.get_by_role("button", name="Supprimer Le pont (copie)")).to_have_count(0)  # the open one is not deleted
    page.reload()
    wait_ready(page)
    expect(menu(page).locator(".name")).to_have_text(["Le pont (copie)", "Le pont"])
    fight.assert_clean()


def test_the_whole_list_travels_in_one_file(fight: Any, new_phone: NewPhone, tmp_path: Path) -> None:
    page = fight.page
    new_fight(page)
    menu(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter la liste des combats (.json)").click()
    path = tmp_path / "combats.json"
    download.value.save_as(path)
    bundle = json.loads(path.read_text(encoding="utf-8"))
    assert bundle["kind"] == "fights" and [f["name"] for f in bundle["fights"]] == ["Combat 1", "Combat 2"]

    cast = [{"type": "add_combatant", "combatant": CASTS["lyra"]}]
    other = new_phone(save=save_text(cast))
    page2 = other.page
    fights = menu(page2)
    page2.locator("#import").set_input_files(str(path))
    expect(page2.locator("#message")).to_have_text("2 combats ajoutés à la liste. Le combat ouvert n'a pas changé.")
    # The open fight first, then by their last change.
    expect(fights.locator(".name")).to_have_text(["Combat 1", "Combat 2", "Combat 1"])
    expect(page2.locator("#confirm-dialog")).to_be_hidden()
    fights.locator("li").nth(2).get_by_role("button", name="Ouvrir Combat 1").click()
    expect_pi(page2, Aldric=5, Orque=6)
    other.assert_clean()
    fight.assert_clean()


FULL = full_when("String(key).startsWith('riposte.fight.') && sessionStorage.getItem('riposte.test.full')")


def test_storage_full_says_so_and_the_open_fight_stays(new_phone: NewPhone) -> None:
    phone = new_phone(save=save_text(fight_log()), init_script=FULL)
    page = phone.page
    page.evaluate("sessionStorage.setItem('riposte.test.full', '1')")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat vide").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(page.locator("#message")).to_have_text(
        "Le stockage du navigateur est plein : rien n'a changé. Exportez la liste des combats, puis supprimez-en quelques-uns.")
    expect(page.locator("#fights .name")).to_have_text(["Combat 1"])
    page.get_by_role("button", name="Plateau").click()
    expect_pi(page, Aldric=5, Orque=6)
    page.reload()
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)
    assert index_of(page)["current"] == "f1"
    phone.assert_clean()


def test_a_link_goes_into_the_list(fight: Any, new_phone: NewPhone) -> None:
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    expect(page.locator("#share-link")).to_have_value(re.compile("#z="))
    link = page.locator("#share-link").input_value()
    other = new_phone(save=save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}]))
    page2 = other.page
    page2.goto(link)
    wait_ready(page2)
    page2.locator("#confirm-dialog").get_by_role("button", name="Ouvrir ce combat").click()
    expect_pi(page2, Aldric=5, Orque=6)
    fights = menu(page2)
    expect(fights.locator(".name")).to_have_text(["Combat reçu par lien", "Combat 1"])
    fights.get_by_role("button", name="Ouvrir Combat 1").click()
    expect(page2.locator("#board .name")).to_have_text(["Lyra"])
    other.assert_clean()
    fight.assert_clean()
