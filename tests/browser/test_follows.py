"""Everyone at the table follows: a round of the example fight played with the keyboard
alone, every event said once in the live region, the initiative's formula whole on a
phone, and the players' view as a screen on the wall."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from conftest import NewPhone, Shot, save_text
from helpers import act, card, expect_pi, start_round
from playwright.sync_api import expect
from test_board import twelve
from test_judged import tab_to as judged_tab_to

#: The focused control's name as a screen reader gives it: its aria-label, its label's
#: text (a die's field), or its own text.
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return '';
    const label = e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].textContent : '');
    return (label || e.textContent || '').trim().replace(/\\s+/g, ' ');
}"""


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUSED))


def tab_to(page: Any, text: str, limit: int = 80) -> None:
    """Tab (only Tab) until the focused control's name, as a screen reader has it, starts with ``text``."""
    judged_tab_to(page, text, limit, focused)


def open_example_and_roll(page: Any, dice: str) -> None:
    """The example fight opened and round 1 started, from the keyboard: the dice typed in
    the order of the form (Lyra, Bastien, Chef brigand, Brigand 1, Brigand 2)."""
    keys = page.keyboard
    tab_to(page, "Essayer avec un exemple")
    keys.press("Enter")
    expect(page.locator("#board li.fighter")).to_have_count(5)
    keys.press("2")
    expect(page.locator("#screen-round")).to_be_visible()
    tab_to(page, "Dé de Lyra")
    for die in dice:
        keys.type(die)
        keys.press("Enter")  # the next fighter's die, then « Commencer le tour »
    tab_to(page, "Commencer le tour")
    keys.press("Enter")
    expect(page.locator("#round")).to_have_text("Tour 1")


def test_a_round_of_the_example_is_played_with_the_keyboard_alone(phone: Any) -> None:
    """No click: the example opened, the dice typed, a shot, a charge (its options typed,
    Enter confirms), the parry in answer (R5), passes to the end of the round (R2.4)."""
    page = phone.page
    keys = page.keyboard
    open_example_and_roll(page, "52611")
    expect_pi(page, Lyra=12, Bastien=10)
    assert focused(page) == "Agir"  # whoever acts has the focus: Lyra
    # Lyra shoots Brigand 1: A, Enter on « Tir à l'arc », the target typed, Enter.
    keys.press("a")
    expect(page.locator("#sheet")).to_be_visible()
    assert focused(page).startswith("Tir à l'arc")
    keys.press("Enter")
    expect(page.locator("#opt-weapon")).to_be_focused()
    keys.press("Tab")
    keys.type("Brigand 1")  # a select's options by their first letters
    expect(page.locator("#opt-target option:checked")).to_have_text("Brigand 1")
    keys.press("Enter")
    expect(page.locator("#sheet")).to_be_hidden()
    expect_pi(page, Lyra=7)
    assert focused(page) == "Agir"  # the chief's: nothing to answer to a shot (D23)
    # The chief charges Bastien (R4.2): his options typed, Enter in the last one confirms.
    keys.press("a")
    tab_to(page, "Charge")
    keys.press("Enter")
    keys.press("Tab")
    keys.type("Bastien")
    keys.press("Tab")
    keys.type("5")  # the distance
    keys.press("Tab")
    keys.type("0")  # the test's result
    keys.press("Enter")
    expect(page.locator("#sheet")).to_be_hidden()
    expect_pi(page, **{"Chef brigand": 1})
    # Bastien's answers wait: the focus is on the first, Enter parries (R5.1).
    expect(page.locator("#reaction")).to_be_visible()
    assert focused(page).startswith("Parer")
    keys.press("Enter")
    expect_pi(page, Bastien=5)
    expect(page.locator("#reaction")).to_be_hidden()
    assert focused(page) == "Agir"
    # Everyone passes in turn: the round ends by itself (R2.4, D5).
    for _ in range(5):
        if page.locator("#round").text_content() == "Tour 1 — terminé":
            break
        before = page.locator("#turn").text_content()
        keys.press("p")
        expect(page.locator("#turn")).not_to_have_text(before or "")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    expect(page.locator("#live")).to_contain_text("Tour 1 terminé. Gardent des P.I. pour interrompre : ")
    # The shortcuts are listed in « ? », R among them.
    keys.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    expect(page.locator("#help-keys")).to_contain_text("Répondre")
    keys.press("Escape")
    expect(page.locator("#help-dialog")).to_be_hidden()
    phone.assert_clean()


def said(page: Any, text: str) -> None:
    """The live region says ``text``, and nothing a screen reader reads as a symbol."""
    live = page.locator("#live")
    expect(live).to_have_text(text)
    assert not {"→", "—", "·"} & set(live.text_content() or ""), live.text_content()


def named(*parts: str) -> re.Pattern[str]:
    """A card's name: ``parts`` in that order, each after a pause (a comma: the flex items
    around it may add a space, which a screen reader does not say)."""
    return re.compile("^" + r"\s*,\s*".join(map(re.escape, parts)))


def test_every_event_is_said_once_and_every_card_names_itself(phone: Any) -> None:
    """The live region after each event of round 1 of the example: the start, an action and
    its cost, an attack and its target's answers (R5, D23), the answer, a pass (D5), a
    fighter out of the fight (D6), an undo, the end of the round and who kept P.I. (R2.4,
    R5.4); each card's button named by name, side, P.I., acting now, in that order."""
    page = phone.page
    page.get_by_role("button", name="Essayer avec un exemple").click()
    expect(page.locator("#board li.fighter")).to_have_count(5)
    start_round(page, {"Lyra": 5, "Bastien": 2, "Chef brigand": 6, "Brigand 1": 1, "Brigand 2": 1})
    said(page, "Début du tour 1. À Lyra d'agir (12 P.I.).")
    row = lambda name: card(page, name).locator("button.row")
    expect(row("Lyra")).to_have_accessible_name(named("Lyra", "PJ", "12 P.I.", "agit", "flèche encochée"))
    expect(row("Chef brigand")).to_have_accessible_name(named("Chef brigand", "PNJ", "11 P.I.", "Charge Bastien"))
    act(page, "Lyra", "tir_arc", target="Brigand 1")
    said(page, "Lyra : Tir à l'arc, sur Brigand 1, 5 P.I., il en reste 7. À Chef brigand d'agir (11 P.I.).")
    expect(row("Lyra")).to_have_accessible_name(named("Lyra", "PJ", "7 P.I.", "Espoir 2"))
    expect(row("Chef brigand")).to_have_accessible_name(named("Chef brigand", "PNJ", "11 P.I.", "agit", "Charge Bastien"))
    act(page, "Chef brigand", "charge", target="Bastien", distance=5, test_result=0)
    said(page, "Chef brigand : Charge, sur Bastien, 10 P.I., il en reste 1. Bastien peut répondre : Parer, Esquiver, Bloquer une attaque, "
               "Esquive acrobatique. "
               "À Bastien d'agir (10 P.I.).")
    page.locator('#reaction button[data-do="react"][data-action="parer"]').click()
    said(page, "Bastien : Parer, contre Chef brigand, 5 P.I., il en reste 5. À Lyra d'agir (7 P.I.).")
    page.keyboard.press("p")
    said(page, "Lyra passe. À Brigand 2 d'agir (6 P.I.).")
    row("Brigand 1").click()
    card(page, "Brigand 1").get_by_role("button", name="Hors combat").click()
    said(page, "Brigand 1 est hors de combat. À Brigand 2 d'agir (6 P.I.).")
    page.keyboard.press("Control+z")
    said(page, "Annulé : Brigand 1 hors combat. À Brigand 2 d'agir (6 P.I.).")
    page.keyboard.press("f")
    said(page, "Tour 1 terminé par le MJ. Gardent des P.I. pour interrompre : "
               "Lyra (7), Bastien (5), Chef brigand (1), Brigand 1 (4), Brigand 2 (6).")
    phone.assert_clean()


def test_the_initiative_formula_is_whole_on_a_phone(phone: Any, shot: Shot) -> None:
    """R1.3's breakdown, cut to its total in a phone's row, read whole at 390×844 after one
    tap on « Calculs en entier »: no breakdown overflows its box; another tap folds them."""
    page = phone.page
    page.get_by_role("button", name="Essayer avec un exemple").click()
    expect(page.locator("#board li.fighter")).to_have_count(5)  # the example opened (it shows the board)
    page.get_by_role("button", name="Initiative").click()
    expect(page.locator("#declarations")).to_be_visible()
    breakdowns = page.locator("#declarations .breakdown")
    expect(breakdowns).to_have_count(5)
    expect(breakdowns.first).to_have_text("⌊Tir 8/2⌋ 4 + bonus 0 + Arc long 3 + dé ? − blessures 0 = ?")
    cut = "els => els.filter(e => e.scrollWidth > e.clientWidth || e.getBoundingClientRect().right > innerWidth).length"
    # One line each: the formula's end alone shows (waited for: the screen is laid out after
    # its rows are written).
    page.wait_for_function(f"({cut})([...document.querySelectorAll('#declarations .breakdown')]) > 0")
    whole = page.get_by_role("button", name="Calculs en entier")
    whole.click()
    expect(whole).to_have_attribute("aria-pressed", "true")
    assert breakdowns.evaluate_all(cut) == 0
    for box in breakdowns.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["height"] > 0 and box["right"] <= 390
    shot(page, "initiative-whole-390x844.png")
    whole.click()
    expect(whole).to_have_attribute("aria-pressed", "false")
    assert breakdowns.evaluate_all(cut) > 0
    phone.assert_clean()


#: The cards of the players' view cut or broken: a name on more than one line or wider than
#: its box (« Cassi / a »), a chip wider than its box (« init. 9 (d6… »), a card below the
#: screen's foot.
CUT = """els => els.flatMap(li => {
    const out = [];
    const name = li.querySelector('.name');
    const line = parseFloat(getComputedStyle(name).lineHeight) || parseFloat(getComputedStyle(name).fontSize) * 1.3;
    if (name.scrollWidth > name.clientWidth + 1 || name.getBoundingClientRect().height > line * 1.5) out.push('name ' + name.textContent);
    for (const b of li.querySelectorAll('.badge')) {
        const over = b.getBoundingClientRect().right > li.getBoundingClientRect().right + 1;
        if (b.scrollWidth > b.clientWidth + 1 || over) out.push('chip ' + b.textContent);
    }
    if (li.getBoundingClientRect().bottom > innerHeight) out.push('below ' + name.textContent);
    return out;
})"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1180, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_players_view_reads_from_across_the_room(new_phone: NewPhone, shot: Shot, size: tuple[int, int]) -> None:
    """Twelve fighters on a TV, a laptop's screen, a tablet turned to the table: one row per
    fighter in the order of the turn (R2.1: the players' board's `order`), read down then
    across (two wide halves past eight fighters), every name whole on one line, every chip
    whole, every row in view, names and the turn line in large type."""
    width, height = size
    watched = new_phone(save=save_text(twelve()), viewport={"width": width, "height": height})
    page = watched.page
    page.locator('.tabs button[data-screen="menu"]').click()
    page.get_by_role("button", name="Ouvrir la vue joueurs").click()
    cards = page.locator("#players-board li.fighter")
    expect(cards).to_have_count(12)
    shot(page, f"players-wall-{width}x{height}.png")
    assert cards.evaluate_all(CUT) == []
    boxes = cards.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())")
    # Read down, then across: a column's rows top to bottom, at most two columns, wide ones.
    lefts = sorted({round(b["left"]) for b in boxes})
    assert len(lefts) <= 2 and all(b["width"] >= width * 0.4 for b in boxes), lefts
    assert all(b["top"] < c["top"] if round(b["left"]) == round(c["left"]) else b["left"] < c["left"]
               for b, c in itertools.pairwise(boxes)), "in the turn's order, read down then across"
    names = cards.locator(".name").all_text_contents()
    turn = page.locator("#players-turn")
    size_of = "e => parseFloat(getComputedStyle(e).fontSize)"
    assert turn.evaluate(size_of) >= 0.035 * height, "the turn line readable from across the room"
    assert min(cards.locator(".name").evaluate_all(f"els => els.map({size_of})")) >= 0.03 * height, names
    watched.assert_clean()
