"""What the game master types or taps is kept, or the page says what it did not keep: a
burst of taps on « Supprimer » deletes one fight, a model or a setting is said saved only
once written, a weapon row without a name and a die field that is not a number are said,
a name that shows nothing is refused by the engine and an old one is migrated. Storage
faults are injected as tests/browser/test_faults.py does (an init script wrapping the
page's storage)."""

from __future__ import annotations

import json
from typing import Any

from conftest import NewPhone, save_text, stored
from helpers import hold_clock
from playwright.sync_api import expect
from test_fights_hold import index_of, listed, menu


def test_five_taps_in_a_second_at_one_spot_delete_one_fight_and_it_comes_back(new_phone: NewPhone) -> None:
    """« Supprimer » tapped at 0, 250, 407, 619 and 1,020 ms at one spot, the rows moving up
    under the finger after the first: one gesture, one fight deleted (the row that came
    under the finger could not be read), and « Annuler la suppression » brings it back with
    nothing left to undo. The gaps are the page's time (``page.clock``), not waits."""
    fights_ = {f"f{n}": save_text([{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}}]) for n in range(1, 7)}
    phone = new_phone(init_script=listed(fights_, "f1"))
    page = phone.page
    fights = menu(page)
    expect(fights.locator("li")).to_have_count(6)
    box = fights.locator("li").nth(1).get_by_role("button", name="Supprimer").bounding_box()
    page.clock.install()
    hold_clock(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    at = 0
    for tap in (0, 250, 407, 619, 1020):
        page.clock.run_for(tap - at)
        at = tap
        page.mouse.down()
        page.mouse.up()
        if tap == 0:  # the list drawn anew: another fight's row under the finger
            expect(fights.locator("li")).to_have_count(5)
    page.clock.resume()
    expect(page.locator("#fights-note")).to_contain_text("« Combat 6 » supprimé.")
    # The undo is one more transaction, run after every one the taps asked for.
    page.locator("#fights-note button").press("Enter")
    expect(page.locator("#fights-note")).to_contain_text("« Combat 6 » est de retour")
    expect(fights.locator("li")).to_have_count(6)
    expect(page.locator("#fights-note button")).to_have_count(0)
    assert sorted(f["name"] for f in index_of(page)["fights"]) == [f"Combat {n}" for n in range(1, 7)]
    kept = stored(page, None)
    assert all(kept[f"riposte.fight.f{n}"] == fights_[f"f{n}"] for n in range(2, 7))
    phone.assert_clean()
