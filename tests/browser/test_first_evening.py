"""A new game master's first evening at 390×844, tried as a newcomer would: the example
fight, a charge and its answers, the language, « Partie », a link opened on a new phone,
a file exported. Each test holds one friction mended: the charge's fields each say what
they ask, the answers to an attack and « Finir le tour » both in reach, the example one
undo, the cast's cards with their weapons, « Partie » short, no empty fight left behind
by a link, the fight's name in its file's name, rules in words rather than codes."""

from __future__ import annotations

from typing import Any

from conftest import Shot
from helpers import act, card
from playwright.sync_api import expect


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
    expect(undo).to_have_text("Annuler : ajout de 5 combattants")
    undo.click()
    expect(page.locator("#board li.fighter")).to_have_count(0)
    expect(undo).to_be_disabled()
    expect(page.locator("#redo")).to_have_text("Rétablir : ajout de 5 combattants")
    expect(page.locator("#redo")).to_be_enabled()
    phone.assert_clean()
