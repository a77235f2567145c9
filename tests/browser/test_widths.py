"""Nothing widens the page: names at the engine's limit (60 letters with no space, wide
glyphs, CJK, stacked combining accents), a long « engagé : … » badge, a condition at its
limit and a long name in the undo button, at 390×844, in French and in English, on the
board (a row opened too), the players' view and a player's live page. None makes the page
scroll sideways, runs over a P.I. number, spills over the cards around it, or makes the
header more than one row of buttons (a label too long ends with an ellipsis).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import NewPhone, Shot, save_text
from live import gm_phone, pair
from playwright.sync_api import expect

from engine.decide import MAX_CONDITION
from engine.values import MAX_NAME

#: Names at the engine's limit (MAX_NAME characters, as the engine counts them).
NAMES = {
    "w": "W" * MAX_NAME,  # the widest Latin letter, no space to break at
    "cuneiform": "𒀱" * MAX_NAME,  # one of Unicode's widest glyphs
    "cjk": "戦" * MAX_NAME,
    # Accents stacked above and below (in DejaVu Sans, about 120 px each way at 16 px).
    "stacked": "Z" + "\u0301" * (MAX_NAME // 2) + "\u0316" * (MAX_NAME - 1 - MAX_NAME // 2),
}
#: A condition at its limit (D25), with no space.
CONDITION = "m" * MAX_CONDITION


def fighter(fid: str, name: str, side: str) -> dict[str, Any]:
    return {"id": fid, "name": name, "side": side, "characteristics": {"melee": 6, "tir": 4, "derobee": 4},
            "skills": {"corps_a_corps": 1}, "hope": 1,
            "weapons": [{"id": "epee", "name": name, "kind": "melee", "skill": "corps_a_corps"}], "in_hand": ["epee"]}


def log() -> list[dict[str, Any]]:
    """The long names, Brune and Bran in round 1; the 60 W engaged with all the others (one
    badge naming them all), under a condition at its limit; his attack on the cuneiform
    name the last command (the undo button names both). The stacked accents on a row of
    one line, between Brune's and Bran's."""
    ids = list(NAMES)
    commands: list[dict[str, Any]] = [{"type": "add_combatant", "combatant": fighter(fid, name, "pj" if k % 2 else "pnj")}
                                      for k, (fid, name) in enumerate(NAMES.items())]
    commands += [
        {"type": "add_combatant", "combatant": fighter("brune", "Brune", "pj")},
        {"type": "add_combatant", "combatant": fighter("bran", "Bran", "pnj")},
        {"type": "start_round", "rolls": {"w": 6, "cuneiform": 5, "cjk": 4, "brune": 3, "stacked": 2, "bran": 1}},
        {"type": "update_combatant", "id": "w", "changes": {"engaged_with": [i for i in ids if i != "w"]}},
        {"type": "add_condition", "id": "w", "condition": CONDITION},
        {"type": "add_condition", "id": "stacked", "condition": CONDITION, "until": 2},
        {"type": "act", "actor": "w", "action": "attaque_melee", "target": "cuneiform"},
    ]
    return commands


#: Every problem of width on the page: sideways scroll, a card's part past its card or
#: over its P.I. number, a badge's words past its pill, a name's ink past its row.
PROBLEMS = """(selector) => {
  const problems = [];
  const extra = document.documentElement.scrollWidth - innerWidth;
  if (extra > 0) problems.push(`the page scrolls ${extra} px sideways`);
  for (const card of document.querySelectorAll(selector)) {
    const name = [...card.querySelector('.name').textContent].slice(0, 3).join('');
    const box = card.getBoundingClientRect();
    const pi = card.querySelector('.pi').getBoundingClientRect();
    if (box.right > innerWidth + 0.5) problems.push(`${name}: the card ends at ${box.right}`);
    for (const part of card.querySelectorAll('.fighter-head .row > *, .badge')) {
      const b = part.getBoundingClientRect();
      if (b.width === 0) continue;
      const what = `${name}: ${part.className || part.tagName} (${b.left}–${b.right})`;
      if (b.right > pi.left + 0.5) problems.push(`${what} runs over the P.I. (${pi.left})`);
      if (b.left < box.left - 0.5 || b.right > box.right + 0.5) problems.push(`${what} out of its card (${box.left}–${box.right})`);
    }
    // A badge's words longer than its pill are cut there (an ellipsis), never drawn past it.
    for (const badge of card.querySelectorAll('.badge')) {
      if (badge.scrollWidth > badge.clientWidth + 1 && getComputedStyle(badge).overflowX === 'visible') {
        problems.push(`${name}: the badge « ${[...badge.textContent].slice(0, 12).join('')} » runs past its pill`);
      }
    }
  }
  return problems;
}"""

#: The header: one row of buttons whatever the labels (a label past two lines is cut).
HEADER = """() => {
  const top = document.querySelector('.top').getBoundingClientRect();
  const undo = document.querySelector('#undo').getBoundingClientRect();
  return { top: top.height, undo: undo.height };
}"""


def same_with_and_without(page: Any, shown: Any, around: list[Any]) -> None:
    """What ``shown`` draws stays within it: the inside of each element ``around`` it (its
    border's antialiasing left out) the same with ``shown`` visible and hidden
    (``visibility``: the same layout)."""
    shown.evaluate("n => n.scrollIntoView({ block: 'center' })")
    for neighbour in around:
        box = neighbour.bounding_box()
        top, bottom = max(box["y"], 0), min(box["y"] + box["height"], 844)
        inside = {"x": box["x"] + 3, "y": top + 3, "width": box["width"] - 6, "height": bottom - top - 6}
        drawn = page.screenshot(clip=inside)
        shown.evaluate("n => { n.style.visibility = 'hidden'; }")
        hidden = page.screenshot(clip=inside)
        shown.evaluate("n => { n.style.visibility = ''; }")
        assert drawn == hidden, f"the stacked accents are drawn over {neighbour.evaluate('e => e.outerHTML')[:80]}"


def no_spill(page: Any, board: str) -> None:
    """The stacked name's accents never drawn over the cards above and below its own."""
    above, below = page.locator(f'{board} > li:has(+ li[data-id="stacked"])'), page.locator(f'{board} > li[data-id="stacked"] + li')
    same_with_and_without(page, page.locator(f'{board} > li[data-id="stacked"] .name'), [above, below])


def check(page: Any, selector: str) -> None:
    problems = page.evaluate(PROBLEMS, selector)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_names_at_their_limit_never_widen_the_board(new_phone: NewPhone, shot: Shot, lang: str) -> None:
    watched = new_phone(save=save_text(log()), init_script=f"localStorage.setItem('riposte.lang', '{lang}')")
    page = watched.page
    cards = page.locator("#board li.fighter")
    expect(cards).to_have_count(6)
    engaged = page.locator('#board li.fighter[data-id="w"] .badge', has_text="𒀱")
    expect(engaged).to_contain_text("engagé" if lang == "fr" else "engaged")
    expect(page.locator("#undo")).to_contain_text(NAMES["w"])
    shot(page, f"widths-board-{lang}.png")
    check(page, "#board li.fighter")
    # The undo button names both fighters whole (its accessible name), in one row of buttons.
    label = page.locator("#undo").text_content() or ""
    assert NAMES["w"] in label and NAMES["cuneiform"] in label
    sizes = page.evaluate(HEADER)
    assert sizes["undo"] <= 45 and sizes["top"] <= sizes["undo"] + 12, f"the header grew: {sizes}"
    no_spill(page, '#board')
    # Each row opened: its details (conditions, notes) within the page too.
    for fid in NAMES:
        row = page.locator(f'#board li.fighter[data-id="{fid}"]')
        row.locator('button[data-do="toggle"]').press("Enter")  # the keyboard: no tap guard between the rows
        expect(row.locator("div.more")).to_be_visible()
        check(page, "#board li.fighter")
        for part in row.locator("div.more").locator("button, input, select").all():
            right = part.evaluate("e => e.getBoundingClientRect().right")
            assert right <= 390.5, f"{fid}: {part.evaluate('e => e.outerHTML')[:80]} ends at {right}"
        row.locator('button[data-do="toggle"]').press("Enter")
        expect(row.locator("div.more")).to_have_count(0)
    watched.assert_clean()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_names_at_their_limit_never_widen_the_players_view(new_phone: NewPhone, shot: Shot, lang: str) -> None:
    watched = new_phone(save=save_text(log()), init_script=f"localStorage.setItem('riposte.lang', '{lang}')")
    page = watched.page
    page.locator('.tabs button[data-screen="menu"]').click()
    page.locator("#open-players").click()
    cards = page.locator("#players-board li.fighter")
    expect(cards).to_have_count(6)
    shot(page, f"widths-players-{lang}.png")
    check(page, "#players-board li.fighter")
    no_spill(page, '#players-board')
    watched.assert_clean()


def test_names_at_their_limit_never_widen_a_players_live_page(new_phone: NewPhone, shot: Shot) -> None:
    gm = gm_phone(new_phone, log())
    player = pair(gm.page, new_phone)
    page = player.page
    expect(page.locator("#live-board li.fighter")).to_have_count(6)
    expect(page.locator('#live-board li.fighter[data-id="w"] .badge', has_text="𒀱")).to_be_visible()
    shot(page, "widths-live.png")
    # The PJ a player may claim, one button each: the stacked name's within its own.
    claims = page.locator("#live-claims button")
    expect(claims).to_have_count(3)
    stacked = claims.filter(has_text=NAMES["stacked"])
    same_with_and_without(page, stacked, [b for b in claims.all() if b.text_content() != stacked.text_content()])
    check(page, "#live-board li.fighter")
    no_spill(page, '#live-board')
    gm.assert_clean()
    player.assert_clean()
