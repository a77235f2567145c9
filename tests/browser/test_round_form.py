"""The start of a round as a form to fill fast (R1): one short row per fighter, the die
first, in the engine's order (the board's ``declaring``: the PJ, then the PNJ, in the
cast's order, the same every round whatever the P.I.), every refused die said at once
under its own row (R1.2), and typed dice staying with their fighter."""

from __future__ import annotations

from typing import Any

from conftest import NewPhone, Shot, Watched, save_text, wait_ready
from helpers import add_fighter, expect_pi
from playwright.sync_api import expect

from engine.example import example_log
from engine.table import Table

#: The example (engine/example.py) with a round played: Lyra 12, the chief 11, Bastien 10,
#: the brigands 4 and 5 (R1.3), so that the board's order is not the cast's.
LOG = [*example_log("fr"),
       {"type": "start_round", "declarations": {"c1": "arc", "c2": "epee", "c3": "hache", "c4": "gourdin", "c5": "arc"},
        "rolls": {"c1": 5, "c2": 2, "c3": 6, "c4": 1, "c5": 1}},
       {"type": "end_round"}]
CAST = ["Lyra", "Bastien", "Chef brigand", "Brigand 1", "Brigand 2"]


def _rows(page: Any) -> Any:
    return page.locator("#declarations li.declaration")


def _names(page: Any) -> list[str]:
    return list(_rows(page).locator(".name").evaluate_all("els => els.map(e => e.firstChild.textContent)"))


def test_rows_in_the_cast_s_order_short_die_first_every_bad_die_at_once(new_phone: NewPhone, shot: Shot) -> None:
    board = Table().load(save_text(LOG))["board"]
    assert [board["combatants"][i]["name"] for i in board["order"]] != CAST  # the board's order moved
    watched = new_phone(save=save_text(LOG))
    page = watched.page
    page.get_by_role("button", name="Initiative").click()
    expect(_rows(page)).to_have_count(5)
    assert _names(page) == CAST
    for i in range(5):
        row = _rows(page).nth(i)
        box = row.bounding_box()
        assert box["height"] <= 64, f"row {i}: {box['height']} px"  # about 60 px at 390×844
        die = row.locator("input").bounding_box()
        # The die is the row's first field, at its left, and the first one Tab reaches.
        assert die["x"] - box["x"] < 12 and die["width"] >= 44 and die["height"] >= 44
        assert row.evaluate("li => li.querySelector('input, select, button') === li.querySelector('input')")
    # Enter goes from one die to the next fighter's.
    _rows(page).nth(0).locator("input").fill("7")
    page.keyboard.press("Enter")
    expect(_rows(page).nth(1).locator("input")).to_be_focused()

    # Three bad dice: each said under its own row at once (R1.2), the first one focused.
    dice = ["7", "3", "0", "4", "9"]
    for i, die in enumerate(dice):
        _rows(page).nth(i).locator("input").fill(die)
    page.get_by_role("button", name="Commencer le tour").click()
    for i, die in enumerate(dice):
        row = _rows(page).nth(i)
        if die in ("7", "0", "9"):
            expect(row.locator(".field-error")).to_have_text("Dé : de 1 à 6.")
            expect(row.locator("input")).to_have_attribute("aria-invalid", "true")
        else:
            expect(row.locator(".field-error")).to_have_count(0)
            expect(row.locator("input")).not_to_have_attribute("aria-invalid", "true")
    expect(_rows(page).nth(0).locator("input")).to_be_focused()
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")  # nothing started
    for width, height in ((390, 844), (820, 1180), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"round-form-{width}x{height}.png")
    page.set_viewport_size({"width": 390, "height": 844})

    # Mended, then another screen and back: each die is still its fighter's.
    for i, die in enumerate(["6", "3", "1", "4", "2"]):
        _rows(page).nth(i).locator("input").fill(die)
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Initiative").click()
    assert _names(page) == CAST
    assert [_rows(page).nth(i).locator("input").input_value() for i in range(5)] == ["6", "3", "1", "4", "2"]
    expect(_rows(page).locator(".field-error")).to_have_count(0)
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#round")).to_have_text("Tour 2")
    # ⌊Tir 8/2⌋ 4 + Arc 3 + 6; ⌊Mêlée 8/2⌋ 4 + 1 + Épée 3 + 3; ⌊Mêlée 7/2⌋ 3 + Hache 2 + 1 (R1.3)
    expect_pi(page, Lyra=13, Bastien=11, **{"Chef brigand": 6})

    # Round 3: the same rows, in the same order, though the P.I. changed it on the board.
    page.get_by_role("button", name="Finir le tour").click()
    page.get_by_role("button", name="Nouveau tour").click()
    expect(_rows(page)).to_have_count(5)
    assert _names(page) == CAST
    watched.assert_clean()


def test_the_form_follows_the_board_that_changes_under_it(new_phone: NewPhone, site_url: str) -> None:
    """A change that lands while the form is open (an undo, a fighter added in another tab)
    redraws it: the round it is for, its rows; what was typed for that round and the field
    in focus stay. A round started, then another tab tapped before the engine answered:
    the page stays on that tab (the board is shown after a start only from the form)."""
    watched = new_phone(save=save_text(LOG))
    page = watched.page
    page.get_by_role("button", name="Initiative").click()
    page.get_by_role("button", name="Tout lancer").click()
    # Both taps in one task: the engine's answer to the start comes after « Partie ».
    page.evaluate("""() => { document.querySelector('#start-round').click();
                             document.querySelector("button[data-screen='menu']").click(); }""")
    expect(page.locator("#round")).to_have_text("Tour 2")
    expect(page.locator("#screen-menu")).to_be_visible()
    page.get_by_role("button", name="Plateau").click()
    page.get_by_role("button", name="Initiative").click()
    expect(page.locator("#round-running")).to_contain_text("Le tour 2 est en cours")
    page.locator("#round-title").click()  # out of the fields: the letters are shortcuts
    page.keyboard.press("Control+z")  # undo, from the open form (web/infra/shortcut-keys.js)
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    expect(page.locator("#round-running")).to_be_hidden()

    # A second tab follows the first: its open form takes a fighter the first one adds,
    # and keeps the die typed in it and its focus.
    other = Watched(page.context.new_page(), site_url.rstrip("/"))
    other.page.goto(site_url)
    wait_ready(other.page)
    expect(other.page.locator("html")).to_have_attribute("data-writer", "follower")
    other.page.get_by_role("button", name="Initiative").click()
    die = other.page.get_by_label("Dé de Bastien", exact=True)
    die.fill("5")
    add_fighter(page, "Ysolde", "pj", {"melee": 5}, {})
    expect(_rows(other.page)).to_have_count(6)
    expect(die).to_have_value("5")
    expect(die).to_be_focused()
    watched.assert_clean()
    other.assert_clean()


def test_the_form_s_rows_speak_english(new_phone: NewPhone) -> None:
    page = new_phone(save=save_text(LOG), init_script="localStorage.setItem('riposte.lang', 'en')").page
    page.get_by_role("button", name="Initiative").click()
    expect(page.get_by_label("Lyra's die", exact=True)).to_be_visible()
    expect(page.get_by_label("Bastien's weapon", exact=True)).to_have_value("epee")
    page.get_by_label("Lyra's die", exact=True).fill("8")
    page.get_by_role("button", name="Start the round").click()
    expect(_rows(page).first.locator(".field-error")).to_have_text("Die: from 1 to 6.")


def test_a_weapon_not_in_hand_is_listed_greyed_with_why(new_phone: NewPhone) -> None:
    """D2: a shield (or any weapon) not in hand was never offered, with no word of why; it is
    listed after the weapons in hand, not to be picked, saying it is not in hand, the
    engine's refusal as its title (Lyra's dagger in the example too)."""
    shield = {"id": "bouclier", "name": "Bouclier", "kind": "shield", "skill": "bouclier"}
    sword = {"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee"}
    log = [*example_log("fr"), {"type": "add_combatant", "combatant": {
        "name": "Garde", "side": "pnj", "weapons": [sword, shield], "in_hand": ["epee"]}}]
    watched = new_phone(save=save_text(log))
    page = watched.page
    page.get_by_role("button", name="Initiative").click()
    guard = page.locator("li.declaration", has_text="Garde").locator("select option")
    expect(guard).to_have_text(["Mains nues", "Épée", "Bouclier — pas en main"])
    expect(guard.nth(2)).to_be_disabled()
    expect(guard.nth(2)).to_have_attribute(
        "title", "Garde ne peut pas déclarer Bouclier : l'arme n'est pas en main. Préparez-la d'abord.")
    expect(page.locator("li.declaration", has_text="Garde").locator("select")).to_have_value("epee")
    lyra = page.locator("li.declaration", has_text="Lyra").locator("select option")
    expect(lyra).to_have_text(["Mains nues", "Arc long", "Dague — pas en main"])
    watched.assert_clean()
