"""Never lose a fight, hand it over, reuse the cast (issue "At the table"): export and
import into a fresh profile, share links and their QR code, unreadable saves and files,
the journal, models and the party, English, dark mode, keyboard shortcuts."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from conftest import NewPhone, Shot, stored, until_stored, wait_ready
from helpers import CASTS, card, expect_pi, fight_log, save_text
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]


def test_export_then_import_into_a_fresh_profile(fight: Any, new_phone: NewPhone, tmp_path: Path) -> None:
    page = fight.page
    expect_pi(page, Aldric=5, Orque=6)
    page.get_by_role("button", name="Partie").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter le combat (.json)").click()
    path = tmp_path / "combat.json"
    download.value.save_as(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["app"] == "riposte" and saved["format"] == 3 and len(saved["commands"]) == 4

    other = new_phone()
    page2 = other.page
    page2.get_by_role("button", name="Partie").click()
    page2.locator("#import").set_input_files(str(path))
    expect(page2.locator("#message")).to_contain_text("Combat ouvert (fichier).")
    expect(page2.locator("#confirm-dialog")).to_be_hidden()  # no fighter to keep: no question
    page2.get_by_role("button", name="Plateau").click()
    expect_pi(page2, Aldric=5, Orque=6)
    expect(page2.locator("#turn")).to_have_text("À Orque d'agir (6 P.I.).")
    page2.reload()  # and it was saved
    wait_ready(page2)
    expect_pi(page2, Aldric=5, Orque=6)
    other.assert_clean()
    fight.assert_clean()


def test_bad_files_are_refused_and_the_fight_is_untouched(fight: Any, tmp_path: Path) -> None:
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    cases = {
        "tronque.json": (json.dumps({"app": "riposte", "format": 2, "commands": fight_log()})[:200], "pas du JSON"),
        "futur.json": (json.dumps({"app": "riposte", "format": 99, "commands": []}), "version plus récente"),
        "autre.json": (json.dumps({"nom": "Aldric"}), "pas un combat Riposte"),
        "regles.json": (json.dumps({"app": "riposte", "format": 2, "commands": [{"type": "act", "actor": "x"}]}), "Commande n° 1"),
        "enorme.json": ("[" + " " * 2_100_000 + "]", "trop gros"),
    }
    for name, (text, reason) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        page.locator("#import").scroll_into_view_if_needed()  # where the user picks the file
        page.locator("#import").set_input_files(str(path))
        expect(page.locator("#message")).to_contain_text(reason, ignore_case=True)
        expect(page.locator("#message")).to_contain_text("intact")
        expect(page.locator("#message")).to_be_in_viewport()  # said where it is seen, not far above
        expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(page.locator("#message")).not_to_contain_text("Expecting")  # no Python (English) in the French words
    page.get_by_role("button", name="Plateau").click()
    expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


def test_a_share_link_opens_in_a_fresh_profile_after_asking(fight: Any, new_phone: NewPhone, site_url: str) -> None:
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    share = page.locator("#share-dialog")
    expect(share.locator("#share-qr svg")).to_be_visible()  # the QR library, loaded on demand
    link = share.locator("#share-link").input_value()
    assert link.startswith(site_url + "#z=")
    assert "Aldric" not in link  # compressed
    share.locator("#share-players").check()
    expect(share.locator("#share-link")).to_have_value(re.compile("#vue=joueurs&z="))
    players_link = share.locator("#share-link").input_value()

    other = new_phone(save=save_text(fight_log()[:2]))  # a fight of its own: Aldric and Orque, no round
    page2 = other.page
    page2.goto(link)
    wait_ready(page2)
    dialog = page2.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Tour 1 — 2 combattants : Aldric, Orque.")
    dialog.get_by_role("button", name="Garder le combat en cours").click()
    expect(page2.locator("#round")).to_have_text("Aucun tour")
    assert "#" not in page2.url  # the link is consumed: a reload does not ask again

    page2.goto(players_link)
    wait_ready(page2)
    page2.locator("#confirm-dialog").get_by_role("button", name="Ouvrir ce combat").click()
    expect(page2.locator("#screen-players")).to_be_visible()
    expect(page2.locator("#players-board .fighter")).to_have_count(2)
    expect(page2.locator("#players-board button")).to_have_count(0)  # read-only
    expect(page2.locator(".tabs")).to_be_hidden()
    page2.get_by_role("button", name="Quitter la vue joueurs").click()
    expect_pi(page2, Aldric=5, Orque=6)
    other.assert_clean()
    fight.assert_clean()


def test_a_damaged_or_huge_share_link_is_refused(fight: Any, site_url: str) -> None:
    page = fight.page
    for fragment, reason in (("#c=abc", "tronqué ou abîmé"), ("#c=%%%", "tronqué ou abîmé"), ("#c=" + "A" * 2_000_100, "trop gros")):
        page.goto(site_url + fragment)
        wait_ready(page)
        expect(page.locator("#message")).to_contain_text(reason)
        expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


def test_a_fight_too_long_for_a_qr_code_offers_the_file(new_phone: NewPhone) -> None:
    # Nothing to compress, within 64 fighters: 62 names of 60 random-looking characters.
    names = [base64.b64encode(hashlib.sha512(str(i).encode()).digest()).decode()[:60] for i in range(62)]
    log = fight_log()[:2] + [{"type": "add_combatant", "combatant": {**CASTS["orque"], "id": f"o{i}", "name": name}}
                             for i, name in enumerate(names)]
    phone = new_phone(save=save_text(log))
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    share = page.locator("#share-dialog")
    expect(share.locator("#share-status")).to_contain_text("trop long pour un code QR")
    expect(share.get_by_role("button", name="Exporter le combat (.json)")).to_be_visible()
    assert share.locator("#share-qr svg").count() == 0
    phone.assert_clean()


def test_an_unreadable_save_is_set_aside_and_a_new_fight_starts(new_phone: NewPhone) -> None:
    broken = '{"app": "riposte", "format": 2, "commands": [{"type": "start_round"}]'
    watched = new_phone(save=broken)
    page = watched.page
    expect(page.locator("#message")).to_contain_text("mise de côté")
    expect(page.locator("#round")).to_have_text("Aucun tour")
    assert stored(page, "riposte.encounter.unreadable") == broken
    page.get_by_role("button", name="Partie").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter la sauvegarde illisible").click()
    assert Path(download.value.path()).read_text(encoding="utf-8") == broken
    watched.assert_clean()


def test_a_save_of_the_first_release_is_migrated(new_phone: NewPhone) -> None:
    text = (Path(__file__).resolve().parents[1] / "saves" / "format-1.json").read_text(encoding="utf-8")
    phone = new_phone(save=text)
    page = phone.page
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect(page.locator("#message")).to_be_hidden()
    page.get_by_role("button", name="Annuler").click()  # saved again, in today's format
    expect(page.locator("#redo")).to_be_enabled()  # the undo answered; its write lands after the board is painted
    before = len(json.loads(text)["commands"])
    saved = until_stored(page, lambda t: '"format":3' in t and len(json.loads(t)["commands"]) < before)
    assert len(json.loads(saved)["commands"]) == before - 1
    phone.assert_clean()


def test_the_journal_tells_the_fight_and_copies_as_text(fight: Any) -> None:
    page = fight.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Journal").click()
    journal = page.locator("#journal")
    expect(journal.locator("h3")).to_have_text(["Avant le combat", "Tour 1"])
    expect(journal).to_contain_text("Aldric (PJ) rejoint le combat.")
    expect(journal).to_contain_text("Aldric (Épée) : d6 5, initiative 10")
    expect(journal).to_contain_text("Aldric fait : Observer en détail — 5 P.I. (10 → 5) · test : Vue 5 / Vigilance 2")
    page.get_by_role("button", name="Copier le texte").click()
    expect(page.locator("#message")).to_have_text("Journal copié.")
    text = page.evaluate("navigator.clipboard.readText()")
    assert "== Tour 1 ==" in text and "5 P.I. (10 → 5)" in text
    page.get_by_role("button", name="Annuler").click()  # an undone action leaves the journal
    expect(journal).not_to_contain_text("Observer")
    fight.assert_clean()


def test_models_copies_and_the_party_carry_over(fight: Any) -> None:
    page = fight.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    models = page.locator("#models")
    expect(models).to_contain_text("Orque")
    expect(models.locator("label.copies-label")).to_have_text("Exemplaires d'Orque")  # « Exemplaires » seen, the name for screen readers
    expect(models.locator("label.copies-label > .visually-hidden")).to_have_text("d'Orque")
    models.get_by_label("Exemplaires d'Orque", exact=True).fill("3")
    models.get_by_role("button", name="Ajouter des exemplaires d'Orque").click()
    expect(page.locator("#message")).to_have_text("3 × Orque ajoutés.")
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1", "Orque 2", "Orque 3", "Orque 4"])

    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat avec le groupe (PJ)").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric"])  # the party, no PNJ
    expect(page.locator("#cast")).to_contain_text("Blessures 2 · Espoir 2")  # as they were
    expect(page.locator("#round")).to_have_text("Aucun tour")
    page.reload()  # models are kept by the browser, across encounters
    wait_ready(page)
    page.get_by_role("button", name="Combattants").click()
    models.get_by_role("button", name="Ajouter des exemplaires d'Orque").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1"])
    fight.assert_clean()


def test_copies_of_a_model_are_one_command_and_the_engine_bounds_their_count(fight: Any) -> None:
    """Three copies in one go, taken back by one « Annuler » (add_copies, one command); the
    count's field takes the engine's bounds (limits ``copies``) and past the fighters a
    fight holds the engine's refusal says how many may still come."""
    page = fight.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    models = page.locator("#models")
    count = models.get_by_label("Exemplaires d'Orque", exact=True)
    expect(count).to_have_attribute("max", "64")
    expect(count).to_have_attribute("min", "1")
    count.fill("3")
    models.get_by_role("button", name="Ajouter des exemplaires d'Orque").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque 1", "Orque 2", "Orque 3", "Orque 4"])
    expect(page.locator("#undo")).to_have_text("Annuler : ajout de 3 × Orque")
    page.locator("#undo").click()
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque"])
    expect(page.locator("#undo")).to_have_text("Annuler : Aldric — Observer en détail")

    count.fill("63")
    models.get_by_role("button", name="Ajouter des exemplaires d'Orque").click()
    expect(models.locator(".row-note")).to_have_text("Au plus 64 combattants dans un combat : on peut encore en ajouter 62.")
    expect(page.locator("#cast .name")).to_have_text(["Aldric", "Orque"])
    page.get_by_role("button", name="Journal").click()
    expect(page.locator("#journal")).not_to_contain_text("Ajout de")
    fight.assert_clean()


def test_english_is_one_switch_away_and_stays(fight: Any, tmp_path: Path) -> None:
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_label("Langue").select_option("en")
    # English is loaded once chosen (web/infra/i18n.js loadLanguage): waited for, as its reader does.
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Board", exact=True).click()
    expect(page.locator("#turn")).to_have_text("Orque to act (6 I.P.).")
    expect(card(page, "Aldric").locator(".pi")).to_have_text("5 I.P.")
    card(page, "Orque").get_by_role("button", name="Act").click()
    expect(page.locator("#sheet")).to_contain_text("Melee attack")
    # Why an action is refused, in English from the engine's key, never its French.
    expect(page.locator("#sheet .reason").first).to_be_visible()
    reasons = page.locator("#sheet .reason").all_inner_texts()
    assert "Already standing: getting up needs being prone or kneeling." in reasons, reasons
    french = [r for r in reasons if re.search(r"Il faut|Aucune|Déjà|Impossible|n'a |ne peut", r)]
    assert french == [], french
    page.locator("#sheet").get_by_role("button", name="Close", exact=True).click()
    card(page, "Aldric").locator('button[data-do="toggle"]').click()  # « Pass » is in his row's details
    card(page, "Aldric").get_by_role("button", name="Pass").click()
    expect(card(page, "Aldric").locator(".badges")).to_contain_text("passed")
    page.get_by_role("button", name="Fighters").click()
    page.get_by_role("button", name="Edit Aldric").click()
    page.locator("#f-name").fill(" ")
    expect(page.locator("#f-name-error")).to_have_text("Name: required.")  # by its key, in English
    page.get_by_role("button", name="Cancel").click()
    # A save refused, in English too: the engine's reason by its key and params.
    page.get_by_role("button", name="Game", exact=True).click()
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"app": "riposte", "format": 2, "commands": [{"type": "pass", "actor": "x"}]}), encoding="utf-8")
    page.locator("#import").set_input_files(str(path))
    expect(page.locator("#message")).to_contain_text("Command no. 1 refused by the rules: No fighter has the id 'x'")
    page.reload()
    wait_ready(page)
    expect(page.get_by_role("button", name="Fighters")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en"
    fight.assert_clean()


def test_dark_mode_follows_the_system(new_phone: NewPhone, shot: Shot) -> None:
    """Also takes docs/screenshot-dark.png (``make screenshots``)."""
    watched = new_phone(save=save_text(fight_log()), color_scheme="dark")
    page = watched.page
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    red, green, blue = (int(x) for x in re.findall(r"\d+", background)[:3])
    assert max(red, green, blue) < 60, background  # a dark page, not the light one
    shot(page, "screenshot-dark.png")
    watched.assert_clean()


def test_keyboard_shortcuts_run_the_fight(fight: Any) -> None:
    page = fight.page
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_contain_text("Ctrl+Z")
    page.keyboard.press("Escape")
    page.keyboard.press("Control+z")
    expect_pi(page, Aldric=10, Orque=6)
    page.keyboard.press("Control+Shift+Z")
    expect_pi(page, Aldric=5, Orque=6)
    page.keyboard.press("p")  # Orque passes (D5)
    expect(card(page, "Orque")).to_contain_text("a passé")
    page.keyboard.press("a")  # Aldric's turn now
    expect(page.locator("#sheet")).to_contain_text("Aldric — agir")
    page.keyboard.press("Escape")
    page.keyboard.press("f")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    page.keyboard.press("n")
    expect(page.locator("#screen-round")).to_be_visible()
    page.keyboard.press("5")
    expect(page.locator("#screen-menu")).to_be_visible()
    fight.assert_clean()


def test_every_control_is_at_least_44_px(fight: Any) -> None:
    page = fight.page
    for tab in ("Plateau", "Initiative", "Combattants", "Journal", "Partie"):
        page.get_by_role("button", name=tab, exact=True).click()
        # A checkbox's or a radio button's target is its whole row (.check: its label, 44 px
        # high); a file input's, its label styled as a button (.file-button).
        small = page.evaluate("""() => [...document.querySelectorAll(
                'button, select, input:not([type=checkbox]):not([type=radio]):not([type=file]), a')]
            .concat([...document.querySelectorAll('input[type=checkbox], input[type=radio], input[type=file]')]
                .map(e => e.closest('.check') || (e.type === 'file' && document.querySelector(`label[for="${e.id}"]`)) || e))
            .filter(e => e.offsetParent !== null)
            .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44).map(([n, r]) => `${n} ${r.width}x${r.height}`)""")
        assert small == [], f"{tab}: {small}"
    fight.assert_clean()
