"""A new game master's first evening at 390×844, tried as a newcomer would: the example
fight, a charge and its answers, the language, « Partie », a link opened on a new phone,
a file exported. Each test holds one friction mended: the charge's fields each say what
they ask, the answers to an attack and « Finir le tour » both in reach, the example one
undo, the cast's cards with their weapons, « Partie » short, no empty fight left behind
by a link, the fight's name in its file's name, rules in words rather than codes."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import NewPhone, Shot, save_text, wait_ready
from helpers import CASTS, act, card, fight_log
from playwright.sync_api import expect
from test_fights_hold import link_of
from test_storage_breaks import REFUSED

#: The example's dice: Lyra acts first (12 P.I.), then the chief (11), then Bastien (10).
DICE = {"Lyra": 5, "Bastien": 2, "Chef brigand": 6, "Brigand 1": 1, "Brigand 2": 1}


def example(page: Any) -> None:
    """The example fight opened from the empty board."""
    page.locator("#welcome").get_by_role("button", name="Essayer avec un exemple").click()
    expect(page.locator("#board li.fighter")).to_have_count(5)


def round_one(page: Any) -> None:
    """The example, round 1 started with :data:`DICE`, Lyra's arrow shot: the chief acts."""
    example(page)
    page.get_by_role("button", name="Initiative").click()
    for name, die in DICE.items():
        page.locator("li.declaration", has_text=name).locator("input").fill(str(die))
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#round")).to_have_text("Tour 1")
    act(page, "Lyra", "tir_arc", target="Brigand 1")
    expect(page.locator("#turn")).to_have_text("À Chef brigand d'agir (11 P.I.).")


def charged(page: Any) -> None:
    """The chief charges Bastien (R4.2): Bastien's answers are offered in the dock."""
    act(page, "Chef brigand", "charge", target="Bastien", distance=5, test_result=0)
    expect(page.locator("#reaction")).to_contain_text("Bastien répond à Chef brigand")


def test_the_charge_sheet_names_the_score_and_the_outcome_apart_with_one_way_back(phone: Any, shot: Shot) -> None:
    """R4.2, D14: the charge's sheet asked for « Résultat du test » and « Résultat » side by
    side; they are the test's score (a number, required) and its outcome (optional), and
    the options offer « Retour » alone (to the list, where « Fermer » is)."""
    page = phone.page
    round_one(page)
    card(page, "Chef brigand").get_by_role("button", name="Agir").click()
    sheet = page.locator("#sheet")
    sheet.locator('button[data-action="charge"]').click()
    labels = sheet.locator("label").all_inner_texts()
    assert "Score du test (obligatoire)" in labels, labels
    assert "Issue du test" in labels, labels
    assert len([text for text in labels if text.startswith("Résultat")]) == 0, labels
    assert len(set(labels)) == len(labels), labels
    expect(sheet.get_by_label("Issue du test")).to_have_value("")
    shot(page, "first-evening-charge-390x844.png")
    expect(sheet.get_by_role("button", name="Retour")).to_be_visible()
    expect(sheet.get_by_role("button", name="Fermer")).to_be_hidden()
    sheet.get_by_role("button", name="Retour").click()
    expect(sheet.locator('button[data-action="charge"]')).to_be_visible()
    expect(sheet.get_by_role("button", name="Retour")).to_have_count(0)
    sheet.get_by_role("button", name="Fermer").click()
    expect(sheet).to_be_hidden()
    phone.assert_clean()


def test_the_answers_and_finir_le_tour_are_both_in_reach(phone: Any, shot: Shot) -> None:
    """R5.3, R2.4: the dock's answers to the charge pushed « Finir le tour » out of the
    dock's view; both are on screen at once, neither over the other, and a tap ends the round."""
    page = phone.page
    round_one(page)
    charged(page)
    shot(page, "first-evening-answers-390x844.png")
    reaction = page.locator("#reaction")
    end = page.locator("#end-round")
    for locator in (reaction.locator('button[data-do="react"][data-action="parer"]'), end):
        expect(locator).to_be_in_viewport(ratio=1)
    # Nothing covers the button's middle: the tap lands on it.
    on_top = end.evaluate("b => { const r = b.getBoundingClientRect();"
                          " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b; }")
    assert on_top
    answers, button = reaction.bounding_box(), end.bounding_box()
    assert answers["y"] + answers["height"] <= button["y"], (answers, button)
    end.click()
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    phone.assert_clean()


def test_the_answers_stay_when_the_language_changes(phone: Any) -> None:
    """R5.3: Bastien's answers to the charge, still waiting, stay offered when the page's
    language changes (as they do when another tab is looked at), said in English."""
    page = phone.page
    round_one(page)
    charged(page)
    page.get_by_role("button", name="Partie").click()
    page.locator("#language").select_option("en")
    page.locator('button[data-screen="board"]').first.click()
    reaction = page.locator("#reaction")
    expect(reaction).to_contain_text("Bastien answers Chef brigand")
    expect(reaction.locator('button[data-do="react"][data-action="parer"]')).to_be_visible()
    phone.assert_clean()


def test_the_example_is_one_undo(phone: Any) -> None:
    """The example opened as seven commands: « Annuler : ajout de Brigand 2 » right after,
    and seven taps to take it back. It is one command (``add_combatants``): one undo
    empties the board, and redo offers the five back (tests/test_example.py redoes it)."""
    page = phone.page
    example(page)
    undo = page.locator("#undo")
    expect(undo).to_have_text("Annuler : ajout de Lyra et 4 autres")
    undo.click()
    expect(page.locator("#board li.fighter")).to_have_count(0)
    expect(undo).to_be_disabled()
    expect(page.locator("#redo")).to_have_text("Rétablir : ajout de Lyra et 4 autres")
    expect(page.locator("#redo")).to_be_enabled()
    phone.assert_clean()


def test_a_quick_tap_on_initiative_is_not_undone_by_the_example(phone: Any) -> None:
    """« Essayer avec un exemple » then « Initiative » at once, before the example's answer
    lands: the initiative screen stays, with the example's five declarations (the example
    went to the board after its answer, throwing the game master back there)."""
    page = phone.page
    page.evaluate(
        """() => {
            document.querySelector("#welcome-example").click();
            [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Initiative").click();
        }"""
    )
    expect(page.locator("#declarations li.declaration")).to_have_count(5)
    expect(page.locator("#declarations")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    phone.assert_clean()


def test_partie_is_short_with_the_language_and_the_theme_first(phone: Any, shot: Shot) -> None:
    """« Partie » was about 2,360 px tall on a phone, « Langue » and « Thème » at its very
    bottom after the STUN server: they are on its first screen, the network's settings
    folded away until asked for, and the whole screen much shorter."""
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    for field in ("#language", "#theme"):
        expect(page.locator(field)).to_be_in_viewport(ratio=1)
    stun = page.get_by_label("Serveur STUN ou TURN (facultatif)")
    expect(stun).to_be_hidden()
    expect(page.locator("#live-mode-confirm")).to_be_hidden()
    height = page.evaluate("document.querySelector('#screen-menu').getBoundingClientRect().height")
    assert height < 1850, height  # 2,160 px before, with the same one fight
    shot(page, "first-evening-partie-390x844.png")
    summary = page.locator("#live-network > summary")
    expect(summary).to_have_text("Réglages : le jeu des joueurs, jouer à distance")
    summary.click()
    expect(stun).to_be_visible()
    phone.assert_clean()


def test_a_link_opened_on_a_new_phone_leaves_no_empty_fight(new_phone: NewPhone, site_url: str) -> None:
    """A share link opened on a new phone left « Combat 1 · 0 combattant » in the list
    beside the fight received: the empty fight nobody touched is not kept. One the game
    master used (a fighter added, then taken back) stays."""
    link = link_of(fight_log()[:2])
    fresh = new_phone(f"{site_url}#{link}")
    page = fresh.page
    expect(page.locator("#board li.fighter")).to_have_count(2)
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#fights .name")).to_have_text(["Combat reçu par lien"])
    fresh.assert_clean()

    used = new_phone()
    page = used.page
    page.locator("#welcome").get_by_role("button", name="Essayer avec un exemple").click()
    expect(page.locator("#board li.fighter")).to_have_count(5)
    page.get_by_role("button", name="Partie").click()
    fights = page.locator("#fights .name")
    expect(fights).to_have_count(2)
    page.goto(f"{site_url}#{link}")
    wait_ready(page)
    page.locator("#confirm-dialog").get_by_role("button", name="Ouvrir ce combat").click()
    expect(fights).to_have_count(3)  # the example's, and the empty one it was opened beside, kept: not a new phone's
    used.assert_clean()


def test_the_exported_file_is_named_after_the_fight(new_phone: NewPhone) -> None:
    """The file was named ``riposte-2026-12-06-03-10.json`` whatever the fight: it is named
    after the fight, its name cleaned for a file (no accent, no sign, no path)."""
    phone = new_phone(save=save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}]))
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    fights = page.locator("#fights")
    fights.get_by_role("button", name="Renommer Combat 1").click()
    fights.get_by_label("Nouveau nom de Combat 1").fill("L'Épée / du pont : « nuit »")
    fights.get_by_role("button", name="Enregistrer").click()
    expect(fights.locator(".name")).to_have_text(["L'Épée / du pont : « nuit »"])
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter le combat (.json)").click()
    name = download.value.suggested_filename
    assert re.fullmatch(r"riposte-l-epee-du-pont-nuit-\d{4}-\d\d-\d\d-\d\d-\d\d\.json", name), name
    phone.assert_clean()


def test_the_cast_cards_are_compact_with_weapons_and_values(phone: Any, shot: Shot) -> None:
    """The cast's cards said only « Blessures · Espoir », each about 330 px tall: each says
    its characteristics' values and its weapons (each with its skill's level, in hand
    or not) in a card less than half as tall."""
    page = phone.page
    example(page)
    page.get_by_role("button", name="Combattants", exact=True).click()
    lyra = page.locator("#cast li.cast-row", has_text="Lyra")
    expect(lyra.locator(".values")).to_have_text("Mêlée 4 · Tir 8 · Lancer 5 · Dérobée 7 · Vue 6")
    expect(lyra.locator(".arms")).to_have_text("Armes : Arc long 3 (en main) · Dague 1")
    expect(page.locator("#cast li.cast-row", has_text="Bastien").locator(".arms")).to_have_text("Armes : Épée 3 (en main)")
    heights = [box["height"] for box in (row.bounding_box() for row in page.locator("#cast li.cast-row").all())]
    assert len(heights) == 5 and max(heights) <= 150, heights
    shot(page, "first-evening-cast-390x844.png")
    page.get_by_role("button", name="Partie").click()
    page.locator("#language").select_option("en")
    page.get_by_role("button", name="Fighters", exact=True).click()
    expect(lyra.locator(".arms")).to_have_text("Weapons: Arc long 3 (in hand) · Dague 1")  # its names as typed
    phone.assert_clean()


def test_the_reasons_say_the_rule_in_words_not_its_code(phone: Any) -> None:
    """A refused action said « Il faut un arc en main (R4). »: the game master reads the
    rule in words, in French and in English; its code stays the refusal's ``rule``
    (tests/test_commands.py, tests/test_scenarios.py)."""
    page = phone.page
    round_one(page)
    code = re.compile(r"\((?:[RD][0-9][0-9.]*)(?:, [RD][0-9][0-9.]*)*\)")
    for language, act_word, reason in (("fr", "Agir", "Il faut un arc en main."), ("en", "Act", "Needs a bow in hand.")):
        if language == "en":
            page.get_by_role("button", name="Partie").click()
            page.locator("#language").select_option("en")
            page.locator('button[data-screen="board"]').first.click()
        card(page, "Chef brigand").get_by_role("button", name=act_word).click()
        sheet = page.locator("#sheet")
        expect(sheet.locator("#reason-tir_arc")).to_have_text(reason)
        assert not code.search(sheet.inner_text()), sheet.inner_text()
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
    phone.assert_clean()


def test_the_storage_notice_closes(new_phone: NewPhone, shot: Shot) -> None:
    """The notice that the fights are kept in localStorage (IndexedDB refused) stayed on
    screen for the whole visit: its « ✕ » closes it, the fight still kept."""
    phone = new_phone(save=save_text(fight_log()), init_script=next(iter(REFUSED.values())))
    page = phone.page
    notice = page.locator("#storage-note")
    expect(notice.locator("p")).to_contain_text("localStorage")
    shot(page, "first-evening-storage-note-390x844.png")
    notice.get_by_role("button", name="Fermer cet avis sur le stockage").click()
    expect(notice).to_be_hidden()
    expect(page.locator("#board li.fighter")).to_have_count(2)
    phone.assert_clean()


def test_the_undo_of_a_deleted_fight_comes_into_view(phone: Any, tmp_path: Any) -> None:
    """A fight deleted near the top of a long list: its « Annuler la suppression », under
    the list, was below the screen's edge; it is brought into view."""
    page = phone.page
    fights = [{"name": f"Combat de test {n}", "save": save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}])}
              for n in range(1, 7)]
    path = tmp_path / "liste.json"
    path.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": fights}), encoding="utf-8")
    page.get_by_role("button", name="Partie").click()
    page.locator("#import").set_input_files(str(path))
    listed = page.locator("#fights li")
    expect(listed).to_have_count(7)
    page.locator("#fights").get_by_role("button", name="Supprimer Combat de test 1").click()
    expect(listed).to_have_count(6)
    restore = page.locator("#fights-note button")
    expect(restore).to_be_in_viewport(ratio=1)
    restore.click()
    expect(listed).to_have_count(7)
    phone.assert_clean()
