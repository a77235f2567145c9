"""A whole fight by tapping, at phone size (390×844), in the real page.

Two PJ (Aldric, Lyra) and two PNJ (Orque, Gobelin), two rounds: a tie (D4), an aim then
a shot (R4.1), a charge and the refused dodge (R4.2), an interruption paid with Espoir
(R5.2), a pass (D5); the board is checked after each step.
"""

from __future__ import annotations

from typing import Any

from conftest import NewPhone, Shot
from helpers import CASTS, act, add_fighter, card, expect_pi, fight_log, save_text, start_round
from playwright.sync_api import expect

import engine


def test_a_whole_fight_by_tapping(phone: Any, shot: Shot) -> None:
    """Also takes the README's three screenshots (written to docs/ by ``make screenshots``)."""
    page = phone.page
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {"corps_a_corps": 2, "course": 2}, hope=1,
                weapon=("Épée", "melee", "epee", 3))
    add_fighter(page, "Lyra", "pj", {"tir": 8}, {}, hope=1, weapon=("Arc long", "bow", "arc", 3))
    add_fighter(page, "Orque", "pnj", {"melee": 6}, {"course": 1}, weapon=("Hache", "melee", "hache", 2))
    add_fighter(page, "Gobelin", "pnj", {"melee": 4, "derobee": 6}, {"corps_a_corps": 1, "esquive": 2})

    # Round 1 (R1.3). Aldric 3+0+3+3 = 9 and Lyra 4+0+3+2 = 9: a tie (D4, higher die first);
    # Orque 3+2+1 = 6 and Gobelin 2+1+3 = 6.
    page.get_by_role("button", name="Initiative").click()
    aldric = page.locator("li.declaration", has_text="Aldric")
    expect(aldric.locator("select")).to_have_value("epee")
    aldric.locator("input").fill("3")
    # the weapon's own skill by the weapon's name (web/views/labels.js skillLabel)
    expect(aldric.locator("output")).to_have_text("⌊Mêlée 7/2⌋ 3 + bonus 0 + Épée 3 + dé 3 − blessures 0 = 9")
    shot(page, "screenshot-initiative.png")
    start_round(page, {"Aldric": 3, "Lyra": 2, "Orque": 1, "Gobelin": 3})
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect_pi(page, Aldric=9, Lyra=9, Orque=6, Gobelin=6)
    expect(page.locator("#turn")).to_have_text("Égalité à 9 P.I. : Aldric, Lyra — le MJ choisit qui agit (ordre suggéré).")
    expect(card(page, "Aldric").get_by_role("button", name="Agir")).to_be_visible()

    # The GM lets Lyra go first: she nocks an arrow (simple, 5).
    act(page, "Lyra", "encocher_fleche")
    expect_pi(page, Lyra=4)
    expect(card(page, "Lyra").locator(".badges")).to_contain_text("flèche encochée")
    expect(page.locator("#turn")).to_have_text("À Aldric d'agir (9 P.I.).")

    # Aldric charges the Orque (R4.2): 5 m within 6 + 2; complex, 10.
    act(page, "Aldric", "charge", target="Orque", distance=5, test_result=2)
    expect_pi(page, Aldric=-1)
    expect(card(page, "Aldric").locator(".badges")).to_contain_text("a chargé")
    expect(card(page, "Orque").locator(".badges")).to_contain_text("engagé : Aldric")

    # The Orque's blow comes: Aldric may not dodge after his charge; he parries with Espoir (R5.2).
    card(page, "Aldric").get_by_role("button", name="Interrompre").click()
    sheet = page.locator("#sheet")
    expect(sheet.locator('button[data-action="esquiver"]')).to_be_disabled()
    expect(sheet).to_contain_text("Impossible d'esquiver après avoir chargé durant ce tour.")
    expect(sheet.locator('button[data-action="parer"]')).to_contain_text("1 point d'Espoir")
    shot(page, "screenshot-interrupt.png")
    sheet.locator('button[data-action="parer"]').click()
    expect(sheet).to_contain_text("après une charge −4")
    sheet.locator("[data-submit]").click()
    expect(sheet).to_be_hidden()
    expect_pi(page, Aldric=-1)
    expect(card(page, "Aldric").locator(".badges")).to_contain_text("Espoir 0")

    # Orque and Gobelin tie at 6 (Gobelin's die is higher); the Gobelin passes (D5).
    expect(page.locator("#turn")).to_have_text("Égalité à 6 P.I. : Gobelin, Orque — le MJ choisit qui agit (ordre suggéré).")
    card(page, "Gobelin").get_by_role("button", name="Passer").click()
    expect(card(page, "Gobelin").locator(".badges")).to_contain_text("a passé")
    expect(page.locator("#turn")).to_have_text("À Orque d'agir (6 P.I.).")
    act(page, "Orque", "attaque_melee", target="Aldric")
    expect_pi(page, Orque=-4)

    # Lyra aims (R4.1): +1; the round is over (R2.4).
    act(page, "Lyra", "ajuster_tir")
    expect_pi(page, Lyra=-1)
    expect(card(page, "Lyra").locator(".badges")).to_contain_text("visée +1")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")

    # Round 2: Lyra 4+3+6 = 13 shoots with her aim; the GM ends the round.
    page.get_by_role("button", name="Nouveau tour").click()
    start_round(page, {"Aldric": 1, "Lyra": 6, "Orque": 1, "Gobelin": 1})
    expect(page.locator("#round")).to_have_text("Tour 2")
    expect_pi(page, Aldric=7, Lyra=13, Orque=6, Gobelin=4)
    expect(card(page, "Aldric").locator(".badges")).not_to_contain_text("a chargé")
    card(page, "Lyra").get_by_role("button", name="Agir").click()
    page.locator('#sheet button[data-action="tir_arc"]').click()
    expect(page.locator("#sheet")).to_contain_text("Tir 8 / Arc long 3, visée +1")
    page.locator("#sheet #opt-target").select_option(label="Orque")
    page.locator("#sheet [data-submit]").click()
    expect_pi(page, Lyra=8)
    expect(card(page, "Lyra").locator(".badges")).not_to_contain_text("visée")
    expect(card(page, "Lyra").locator(".badges")).not_to_contain_text("flèche encochée")
    shot(page, "screenshot-board.png")
    page.get_by_role("button", name="Finir le tour").click()
    expect(page.locator("#round")).to_have_text("Tour 2 — terminé")

    assert page.evaluate("document.documentElement.dataset.engine") == "ready"
    phone.assert_clean()


def test_the_round_form_offers_the_declaration_the_engine_suggests(new_phone: NewPhone) -> None:
    """R1.1, D2: each fighter's weapon in the game master's start-of-round form is the
    board's ``suggested_declaration`` (the rule a player's phone follows too): Aldric fought
    bare-handed and keeps bare hands though his sword is in hand, the Orque dropped its axe
    (bare hands), Lyra never rolled (her first weapon in hand)."""
    log = fight_log()
    log[2]["declarations"]["aldric"] = None
    log += [{"type": "add_combatant", "combatant": CASTS["lyra"]},
            {"type": "act", "actor": "orque", "action": "lacher_objet", "items": ["hache"]}]
    result = engine.replay(log)
    assert result["ok"]
    suggested = {i: f["suggested_declaration"] for i, f in engine.view(result["state"])["combatants"].items()}
    assert suggested["aldric"] is None and suggested["lyra"] is not None  # not "the first weapon in hand" for all
    page = new_phone(save=save_text(log)).page
    page.get_by_role("button", name="Initiative").click()
    for fighter, weapon in suggested.items():
        expect(page.locator(f'li.declaration[data-id="{fighter}"] select')).to_have_value(weapon or "")
