"""Every screen size used: a phone (390×844), a tablet (820×1180), a laptop (1366×768).

From 50rem wide the board has the journal beside it, and the action sheet opens over the
journal's column, the board still in view; on a laptop twelve fighters and more are in
view; the players' view is a big screen's (one row per fighter, large type, no control
but the way back). Nothing scrolls sideways. ``make screenshots`` writes the README's
pictures at the three sizes from here (docs/screenshot-<width>x<height>.png and
docs/screenshot-players-<width>x<height>.png).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import NewPhone, Shot, save_text
from playwright.sync_api import expect
from test_board import twelve
from test_cockpit import CLEAR, sheet

PHONE, TABLET, LAPTOP = (390, 844), (820, 1180), (1366, 768)

#: Fighters wholly in view at each size (nine on a phone, as the board promises; twelve on a laptop).
IN_VIEW = {PHONE: 9, TABLET: 14, LAPTOP: 12}


def fourteen() -> list[dict[str, Any]]:
    """Fourteen fighters in round 1, Aldric alone to act (a six against ones)."""
    log = twelve()[:-1]
    log += [{"type": "add_combatant", "combatant": sheet(f"Garde {n}", "pnj", 5, ("hache", "Hache", "melee"))} for n in (1, 2)]
    ids = ["aldric", "lyra", "brune", "c4", "c5", "gobelin", *(f"c{n}" for n in range(7, 15))]
    return [*log, {"type": "start_round", "rolls": {cid: 6 if cid == "aldric" else 1 for cid in ids}}]


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] = locator.evaluate("e => e.getBoundingClientRect().toJSON()")
    return found


def sideways(page: Any) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    extra: int = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return extra


def in_view(page: Any, selector: str) -> int:
    counted: int = page.evaluate(f"() => [...document.querySelectorAll('{selector}')].filter(li => ({CLEAR})(li)).length")
    return counted


@pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_board_and_its_companions_use_the_screen(new_phone: NewPhone, shot: Shot, size: tuple[int, int]) -> None:
    """Fourteen fighters, Aldric to act: at least 9 in view on a phone, all 14 on a tablet,
    12 on a laptop; from the tablet up the journal beside the board, following each
    action, and the sheet opened beside the board; never a sideways scroll."""
    width, height = size
    watched = new_phone(save=save_text(fourteen()), viewport={"width": width, "height": height}, reduced_motion="reduce")
    page = watched.page
    expect(page.locator("#board li.fighter")).to_have_count(14)
    aldric = page.locator('#board li.fighter.active[data-id="aldric"]')
    expect(aldric.locator(".card-actions")).to_be_visible()
    journal = page.locator("#screen-journal")
    wide = width >= 800
    if wide:
        expect(journal).to_be_visible()
        expect(journal.locator("#journal li").last).to_be_in_viewport()  # the journal's end: what was just done
        expect(journal.locator("#journal")).to_contain_text("Début du tour 1.")
    else:
        expect(journal).to_be_hidden()
    shot(page, f"screenshot-{width}x{height}.png")
    assert sideways(page) <= 0
    seen = in_view(page, "#board li.fighter")
    assert seen >= IN_VIEW[size], f"{seen} fighters wholly in view at {width}×{height}"
    if wide:
        board, beside = box(page.locator("#board")), box(journal)
        assert beside["left"] >= board["right"], (board, beside)
        assert beside["top"] < height / 4, "the journal beside the board's top, not under it"

    # An action: the journal beside the board says it.
    aldric.locator('button[data-do="pick"][data-action="se_deplacer"]').click()
    expect(page.locator("#board-last")).to_contain_text("Se déplacer")
    if wide:
        expect(journal.locator("#journal li").last).to_contain_text("Se déplacer")
        expect(journal.locator("#journal li").last).to_be_in_viewport()

    # The sheet of whoever acts: beside the board, which stays uncovered.
    page.locator('#board li.fighter.active button[data-do="act"]').first.click()
    dialog = page.locator("#sheet")
    expect(dialog).to_be_visible()
    assert sideways(page) <= 0
    if wide:
        board, opened = box(page.locator("#board")), box(dialog)
        assert opened["left"] >= board["right"] - 1, (board, opened)
        assert opened["height"] >= height - 1, "the sheet runs the screen's height"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    watched.assert_clean()


def test_the_journal_comes_beside_the_board_when_the_page_widens(new_phone: NewPhone) -> None:
    """A tablet turned, a window widened: the journal comes beside the board, up to date,
    and goes when the page narrows again; its tab still opens it alone."""
    watched = new_phone(save=save_text(fourteen()))
    page = watched.page
    journal = page.locator("#screen-journal")
    expect(journal).to_be_hidden()
    card = page.locator('#board li.fighter.active[data-id="aldric"]')
    card.locator('button[data-do="pick"][data-action="se_deplacer"]').click()
    expect(page.locator("#board-last")).to_contain_text("Se déplacer")
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    expect(journal).to_be_visible()
    expect(journal.locator("#journal li").last).to_contain_text("Se déplacer")
    expect(page.locator("#screen-board")).to_be_visible()
    expect(page.locator('.tabs button[aria-current="page"]')).to_have_attribute("data-screen", "board")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    expect(journal).to_be_hidden()
    expect(page.locator("#screen-board")).to_be_visible()
    page.locator('.tabs button[data-screen="journal"]').click()
    expect(journal).to_be_visible()
    expect(page.locator("#screen-board")).to_be_hidden()
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})  # the journal alone: no board comes back
    expect(page.locator("#screen-board")).to_be_hidden()
    expect(journal).to_be_visible()
    assert sideways(page) <= 0
    watched.assert_clean()


@pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_players_view_is_a_big_screen(new_phone: NewPhone, shot: Shot, size: tuple[int, int]) -> None:
    """The players' view on a TV or a tablet turned to the table: every fighter in view from
    the tablet up, one row each (past eight on a wide screen, two halves read down, then
    across), names in large type, no control but « Quitter la vue joueurs »; on a phone one
    column; never a sideways scroll."""
    width, height = size
    watched = new_phone(save=save_text(fourteen()), viewport={"width": width, "height": height})
    page = watched.page
    page.locator('.tabs button[data-screen="menu"]').click()
    page.get_by_role("button", name="Ouvrir la vue joueurs").click()
    cards = page.locator("#players-board li.fighter")
    expect(cards).to_have_count(14)
    expect(page.locator("#players-turn")).to_have_text("À Aldric d'agir (10 P.I.).")
    shot(page, f"screenshot-players-{width}x{height}.png")
    assert sideways(page) <= 0
    controls = page.locator("button:visible, input:visible, select:visible")
    expect(controls).to_have_count(1)
    expect(controls).to_have_text("Quitter la vue joueurs")
    lefts = sorted({round(b["left"]) for b in cards.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())")})
    if width >= 800:
        assert len(lefts) <= 2, f"the cards in narrow columns: {lefts}"
        assert in_view(page, "#players-board li.fighter") == 14
        name = float(page.locator("#players-board .name").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        assert name >= 26, f"a name in {name} px"  # fourteen rows share a portrait tablet's height
        # Read down, then across: the second card under the first.
        first, second = box(cards.nth(0)), box(cards.nth(1))
        assert second["left"] == first["left"] and second["top"] > first["top"]
    else:
        assert len(lefts) == 1
    watched.assert_clean()
