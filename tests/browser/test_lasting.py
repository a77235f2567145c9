"""Nothing lost over months: a burst of taps on « Annuler » takes back one command, at
390×844."""

from __future__ import annotations

import json
from typing import Any

from conftest import NewPhone, save_text
from playwright.sync_api import expect

#: Ten fighters, one command each.
TEN = [{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}} for n in range(1, 11)]
#: A burst: 30 taps in 1.2 s.
BURST, APART = 30, 40


def raw(page: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The page's own engine, asked directly: what it says now (after every call before it)."""
    answer: dict[str, Any] = json.loads(page.evaluate("(r) => window.riposte.raw(r)", json.dumps(request)))
    return answer


def burst(page: Any, button: Any) -> None:
    """BURST taps APART ms apart (the page's clock) on the middle of ``button``."""
    box = button.bounding_box()
    spot = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(BURST):
        page.mouse.click(*spot)
        page.clock.fast_forward(APART)


def test_a_burst_of_taps_on_undo_and_redo_takes_back_one_command(new_phone: NewPhone) -> None:
    """30 taps in 1.2 s on « Annuler » took a fight of 10 commands to 0; on « Rétablir »
    they did them all again. Each burst is one tap; a tap after a pause goes through."""
    phone = new_phone(save=save_text(TEN), clock=True)
    page = phone.page
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    undo, redo = page.locator("#undo"), page.locator("#redo")
    expect(undo).to_contain_text("Garde 10")
    burst(page, undo)
    expect(redo).to_be_enabled()
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (9, 1)
    expect(undo).to_contain_text("Garde 9")

    page.clock.fast_forward(1000)  # the finger rests
    burst(page, redo)
    expect(redo).to_be_disabled()
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (10, 0)

    page.clock.fast_forward(1000)
    undo.click()
    page.clock.fast_forward(500)  # a second tap, after a pause: a second undo
    undo.click()
    expect(undo).to_contain_text("Garde 8")
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (8, 2)
    phone.assert_clean()
