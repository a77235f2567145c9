"""Faster set-up in the real page at 390×844: a PNJ with one weapon in five
taps, every invalid field said at once next to it, copies numbered from the original,
and a die rolled with « Lancer » recorded as rolled by the app."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import NewPhone, Shot, save_text, until_stored, wait_ready
from helpers import CASTS
from playwright.sync_api import expect


def saved_command(page: Any, check: Any) -> Any:
    """The last command of the fight as the page saved it, once ``check`` holds for it."""
    text = until_stored(page, lambda t: t is not None and check(json.loads(t)["commands"][-1]))
    return json.loads(text)["commands"][-1]


class Taps:
    """Counts the taps of a test; each tapped control must be in view (no scrolling)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator: Any) -> None:
        expect(locator).to_be_in_viewport()
        locator.click()
        self.count += 1


def test_a_pnj_with_one_weapon_takes_five_taps(phone: Any, shot: Shot) -> None:
    page = phone.page
    page.get_by_role("button", name="Combattants").click()  # the screen, before counting
    tap = Taps()
    tap(page.get_by_role("button", name="Ajouter un combattant"))
    dialog = page.locator("#fighter-dialog")
    expect(dialog.locator("#f-name")).to_be_focused()
    page.keyboard.type("Orque")
    expect(dialog.locator("#f-side")).to_have_value("pnj")  # the default side
    tap(dialog.get_by_label("Mêlée", exact=True))
    page.keyboard.type("6")
    row = dialog.locator(".weapon-row")
    expect(row).to_have_count(1)  # one weapon row, ready to fill
    tap(row.get_by_label("Nom de l'arme"))
    page.keyboard.type("Hache")
    tap(row.get_by_label("Niveau"))
    page.keyboard.type("2")
    expect(dialog.locator("details.more")).not_to_have_attribute("open", "")  # the rest folded away
    shot(page, "setup-form.png")
    tap(dialog.get_by_role("button", name="Enregistrer"))
    expect(dialog).to_be_hidden()
    assert tap.count <= 5
    sheet = saved_command(page, lambda c: c.get("combatant", {}).get("name") == "Orque")["combatant"]
    assert sheet["name"] == "Orque" and sheet["side"] == "pnj"
    assert sheet["characteristics"]["melee"] == 6
    # the skill left blank is the weapon's own name, never a slug
    assert sheet["weapons"] == [{"id": "hache", "name": "Hache", "kind": "melee", "skill": "Hache", "stowed": True}]
    assert sheet["in_hand"] == ["hache"] and sheet["skills"]["Hache"] == 2 and "hache" not in sheet["skills"]
    # A fighter with no weapon: the empty row is no weapon.
    page.get_by_role("button", name="Ajouter un combattant").click()
    expect(dialog.locator("#f-name")).to_be_focused()
    page.keyboard.type("Loup")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()
    assert saved_command(page, lambda c: c.get("combatant", {}).get("name") == "Loup")["combatant"]["weapons"] == []
    phone.assert_clean()


def test_every_invalid_field_is_said_at_once_next_to_it(phone: Any, shot: Shot) -> None:
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    expect(dialog.locator("#f-name")).to_be_focused()
    # The limits are the engine's.
    expect(dialog.get_by_label("Mêlée", exact=True)).to_have_attribute("max", "999")
    expect(dialog.locator("#f-bonus")).to_have_attribute("min", "-999")
    page.keyboard.type("   ")
    dialog.get_by_label("Mêlée", exact=True).fill("1000")
    dialog.locator(".weapon-row").get_by_label("Nom de l'arme").fill("Hache")
    dialog.locator(".weapon-row").get_by_label("Niveau").fill("-3")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_visible()  # refused: nothing added
    errors = dialog.locator(".field-error")
    expect(errors).to_have_count(3)
    texts = errors.all_inner_texts()
    assert texts == ["Nom : à remplir.", "Mêlée : de 0 à 999.", "Hache (niveau) : de 0 à 999."], texts
    for text in texts:
        assert "«" not in text and "doit être" not in text and "JSON" not in text
    expect(dialog.locator("#fighter-error")).to_have_text("3 champs à corriger.")
    for label in ("Nom", "Mêlée"):
        field = dialog.get_by_label(label, exact=True)
        expect(field).to_have_attribute("aria-invalid", "true")
        described = field.get_attribute("aria-describedby")
        expect(dialog.locator(f"#{described}")).to_be_visible()
    expect(dialog.locator("#f-name")).to_be_focused()  # the first field to correct
    shot(page, "setup-errors.png")
    # A field in the folded part opens it; fixed fields lose their error as typed.
    dialog.locator("summary").click()
    dialog.locator("#f-wounds").fill("-1")
    expect(dialog.locator("#f-wounds-error")).to_have_text("Points de vie perdus : de 0 à 999.")
    dialog.locator("#f-name").fill("Orque")
    dialog.get_by_label("Mêlée", exact=True).fill("6")
    dialog.locator(".weapon-row").get_by_label("Niveau").fill("2")
    dialog.locator("#f-wounds").fill("0")
    expect(errors).to_have_count(0)
    expect(dialog.locator("#fighter-error")).to_be_hidden()
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()
    # The same in English, naming the field in English.
    page.get_by_role("button", name="Partie").click()
    page.locator("#language").select_option("en")
    page.get_by_role("button", name="Fighters").click()
    page.get_by_role("button", name="Add a fighter").click()
    dialog.get_by_label("Melee", exact=True).fill("1000")
    dialog.locator("#f-name").fill("")
    expect(errors).to_have_text(["Name: required.", "Melee: from 0 to 999."])
    phone.assert_clean()


def test_a_name_pasted_too_long_is_kept_and_refused_in_words_not_cut(phone: Any) -> None:
    """A 92-letter name pasted into a 60-letter field was cut to 60 with no word: it stays
    as pasted, and saving says the engine's limit next to it (Table.limits)."""
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    name = dialog.locator("#f-name")
    expect(name).to_be_focused()
    page.keyboard.insert_text("Brune " * 15 + "le")  # 92 letters, as a paste puts them
    expect(name).to_have_value("Brune " * 15 + "le")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_visible()  # refused: nothing added
    expect(dialog.locator(".field-error")).to_have_text(["Nom : de 1 à 60 caractères."])
    expect(name).to_have_attribute("aria-invalid", "true")
    phone.assert_clean()


def test_undo_and_redo_name_a_removed_fighter_alike(fight: Any) -> None:
    """« Annuler : un combattant retiré » but « Rétablir : Bran retiré »: the fighter the
    last command removed is named by undo, the dock and redo alike (the engine's `gone`),
    after a reload too."""
    page = fight.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Retirer Orque").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Retirer").click()
    expect(page.locator("#cast")).not_to_contain_text("Orque")
    undo, redo = page.locator("#undo"), page.locator("#redo")
    expect(undo).to_have_text("Annuler : retrait d'Orque")
    page.reload()
    wait_ready(page)
    expect(undo).to_have_text("Annuler : retrait d'Orque")
    page.get_by_role("button", name="Plateau").click()
    expect(page.locator("#board-last")).to_have_text("Fait : retrait d'Orque.")
    undo.click()
    expect(redo).to_have_text("Rétablir : retrait d'Orque")
    redo.click()
    expect(page.locator("#board-last")).to_have_text("Rétabli : retrait d'Orque.")
    expect(undo).to_have_text("Annuler : retrait d'Orque")
    fight.assert_clean()


def test_copies_are_numbered_from_the_original(fight: Any) -> None:
    page = fight.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Dupliquer Orque").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1", "Orque 2"])
    # The original's new name is said; a model made from it is « Orque », not « Orque 1 ».
    page.get_by_role("button", name="Plateau").click()
    expect(page.locator("#board-last")).to_contain_text("L'original s'appelle désormais Orque 1.")
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque 1 comme modèle").click()
    expect(page.locator("#message")).to_have_text("« Orque » est enregistré comme modèle.")
    expect(page.locator("#models .name")).to_have_text(["Orque"])
    page.get_by_role("button", name="Dupliquer Orque 2").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1", "Orque 2", "Orque 3"])
    expect(page.locator("#undo")).to_have_text("Annuler : copie d'Orque 2")
    # whole at 390 px: the bare « Rétablir » beside it leaves it the width it needs
    assert page.locator("#undo").evaluate("(e) => e.scrollWidth <= e.clientWidth")
    page.locator("#undo").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1", "Orque 2"])
    expect(page.locator("#redo")).to_have_text("Rétablir : copie d'Orque 2")
    # the journal says when « Orque » became « Orque 1 » (engine/journal.py), then the copy
    page.get_by_role("button", name="Journal").click()
    expect(page.locator("#journal")).to_contain_text("Orque s'appelle désormais Orque 1.")
    lines = page.locator("#journal").inner_text()
    assert lines.index("Orque s'appelle désormais Orque 1.") < lines.index("Orque 2"), lines
    assert "Orque 3" not in lines  # undone
    fight.assert_clean()


def test_a_die_rolled_with_lancer_is_recorded_as_rolled_by_the_app(new_phone: NewPhone) -> None:
    cast = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("aldric", "orque")]
    phone = new_phone(save=save_text(cast))
    page = phone.page
    page.get_by_role("button", name="Initiative").click()
    page.get_by_role("button", name="Lancer le dé d'Aldric").click()
    rolled = page.locator("li.declaration", has_text="Aldric").locator("input")
    expect(rolled).to_have_value(re.compile("^[1-6]$"))
    die = int(rolled.input_value())
    page.locator("li.declaration", has_text="Orque").locator("input").fill("4")
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#screen-board")).to_be_visible()
    command = saved_command(page, lambda c: c["type"] == "start_round")
    assert command["rolls"]["orque"] == 4 and command["rolls"]["aldric"] == die
    assert command["engine_rolled"] == ["aldric"]
    page.get_by_role("button", name="Journal").click()
    journal = page.locator("#journal")
    expect(journal).to_contain_text(re.compile(r"Aldric \(.*\) : d6 \d lancé par Riposte"))
    expect(journal).to_contain_text(re.compile(r"Orque \(Hache\) : d6 4, initiative"))
    # A die rolled, then typed over: the table's own.
    page.get_by_role("button", name="Plateau").click()
    page.get_by_role("button", name="Finir le tour").click()
    page.get_by_role("button", name="Initiative").click()
    page.get_by_role("button", name="Lancer le dé d'Orque").click()
    page.locator("li.declaration", has_text="Orque").locator("input").fill("5")
    page.locator("li.declaration", has_text="Aldric").locator("input").fill("2")
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#screen-board")).to_be_visible()
    command = saved_command(page, lambda c: c["type"] == "start_round" and c["rolls"].get("orque") == 5)
    assert command == {"type": "start_round", "declarations": command["declarations"], "rolls": {"aldric": 2, "orque": 5}}
    assert json.dumps(command).count("rolled") == 0
    phone.assert_clean()
