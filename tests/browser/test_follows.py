"""Everyone at the table follows: a round of the example fight played with the keyboard
alone, every event said once in the live region, the initiative's formula whole on a
phone, and the players' view as a screen on the wall."""

from __future__ import annotations

from typing import Any

from helpers import expect_pi
from playwright.sync_api import expect

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
    """Tab (only Tab) until the focused control's name starts with ``text``."""
    for _ in range(limit):
        if focused(page).startswith(text):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached « {text} » (last: « {focused(page)} »)")


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
    # The shortcuts are listed in « ? », R among them.
    keys.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    expect(page.locator("#help-keys")).to_contain_text("Répondre")
    keys.press("Escape")
    expect(page.locator("#help-dialog")).to_be_hidden()
    phone.assert_clean()
