"""At the table: forms that explain, text that stays text, a fight that survives a reload,
and mistakes that can be taken back."""

from __future__ import annotations

import re
from typing import Any

from conftest import NewPhone, wait_ready
from helpers import act, add_fighter, card, expect_pi, start_round
from playwright.sync_api import expect
from test_cockpit import LOOK


def test_the_fighter_form_shows_the_engines_reasons_as_you_type(phone: Any) -> None:
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    dialog.locator("#f-name").fill("   ")
    expect(dialog.locator("#f-name-error")).to_have_text("Nom : à remplir.")
    dialog.locator("#f-name").fill("Aldric")
    dialog.locator("details.more > summary").click()
    dialog.locator("#f-wounds").fill("-2")
    expect(dialog.locator("#f-wounds-error")).to_have_text("Points de vie perdus : de 0 à 999.")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_visible()  # refused: nothing added
    dialog.locator("#f-wounds").fill("1")
    expect(dialog.locator("#fighter-error")).to_be_hidden()
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#cast")).to_contain_text("Blessures 1")
    phone.assert_clean()


def test_a_name_full_of_html_stays_text(phone: Any) -> None:
    page = phone.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    name = "<img src=x onerror=alert(1)>"
    add_fighter(page, name, "pnj", {"melee": 4}, {})
    page.get_by_role("button", name="Plateau").click()
    expect(page.locator("#board .name")).to_have_text(name)
    assert page.locator("#board img").count() == 0
    assert dialogs == []


def test_a_reload_mid_round_finds_the_same_board_and_undo_redo_cross_it(phone: Any) -> None:
    page = phone.page
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {}, hope=1, weapon=("Épée", "melee", "epee", 3))
    add_fighter(page, "Orque", "pnj", {"melee": 6}, {}, weapon=("Hache", "melee", "hache", 2))
    start_round(page, {"Aldric": 4, "Orque": 1})
    act(page, "Aldric", "observer")
    expect_pi(page, Aldric=5, Orque=6)

    page.reload()
    wait_ready(page)
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect_pi(page, Aldric=5, Orque=6)
    expect(page.locator("#turn")).to_have_text("À Orque d'agir (6 P.I.).")

    # Each tap after a look at the board (the page's clock moved on): two taps on one
    # button less than 400 ms apart are one (test_lasting.py).
    page.clock.install()
    page.get_by_role("button", name="Annuler").click()
    expect_pi(page, Aldric=10, Orque=6)
    page.clock.fast_forward(LOOK)
    page.get_by_role("button", name="Annuler").click()  # back before the start of the round
    expect(page.locator("#round")).to_have_text("Aucun tour")
    page.clock.fast_forward(LOOK)
    page.get_by_role("button", name="Rétablir").click()
    page.clock.fast_forward(LOOK)
    page.get_by_role("button", name="Rétablir").click()
    expect_pi(page, Aldric=5, Orque=6)  # the same dice came back
    expect(page.get_by_role("button", name="Rétablir")).to_be_disabled()
    expect(card(page, "Orque").get_by_role("button", name="Agir")).to_be_visible()
    phone.assert_clean()


def test_nothing_can_be_tapped_until_the_engine_is_ready(new_phone: NewPhone) -> None:
    page = new_phone(ready=False, fresh=True).page  # the first visit's words, below
    # Read at one instant: the engine may be up a moment later (a warm start is quick).
    state, inert, said = page.evaluate("[document.documentElement.dataset.engine, document.querySelector('main').inert,"
                                       " document.querySelector('#engine-status').textContent]")
    assert (state, inert) == ("loading", True)
    # The page's own words until app.js runs, then the start's: on a fresh profile, the
    # first visit's (which of the two depends on how fast this machine got there).
    assert re.search(r"Chargement du moteur de règles|Premier passage : Riposte télécharge", said), said
    wait_ready(page)
    assert not page.locator("main").evaluate("e => e.inert")
    expect(page.locator("#engine-status")).to_be_hidden()
