"""What the game master types or taps is kept, or the page says what it did not keep: a
burst of taps on « Supprimer » deletes one fight, a model or a setting is said saved only
once written, a weapon row without a name and a die field that is not a number are said,
a name that shows nothing is refused by the engine and an old one is migrated. Storage
faults are injected as tests/browser/test_faults.py does (an init script wrapping the
page's storage)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import NewPhone, full_when, save_text, stored, wait_ready
from helpers import fight_log, hold_clock
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


#: localStorage's setItem throwing for every key, from the page's first script on.
SETITEM_THROWS = "Storage.prototype.setItem = function () { throw new DOMException('refusé', 'QuotaExceededError'); };"
#: Every IndexedDB put refused once the test sets ``window.refuse``, its transaction aborted
#: (as STORAGE_FAULTS does): the page chose the database at its start.
PUT_FAILS = full_when("window.refuse")


@pytest.mark.parametrize("faults", [SETITEM_THROWS + PUT_FAILS, PUT_FAILS], ids=["both", "indexeddb"])
def test_a_model_not_written_is_said_not_saved(new_phone: NewPhone, faults: str) -> None:
    """« Enregistrer comme modèle » with storage refusing the write: the page says in French
    that it is not saved, and no model is listed."""
    phone = new_phone(save=save_text(fight_log()), init_script=faults)
    page = phone.page
    page.evaluate("window.refuse = true")
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    expect(page.locator("#message")).to_have_text(
        "« Orque » n'est pas enregistré comme modèle : le stockage du navigateur refuse l'écriture (plein ou indisponible).")
    expect(page.locator("#models .name")).to_have_count(0)


def test_a_model_written_where_localstorage_throws_is_said_saved_and_kept(new_phone: NewPhone) -> None:
    """localStorage throwing, IndexedDB writing: the model is in the database, said saved,
    and there after a reload."""
    phone = new_phone(save=save_text(fight_log()), init_script=SETITEM_THROWS)
    page = phone.page
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    expect(page.locator("#message")).to_have_text("« Orque » est enregistré comme modèle.")
    assert [m["name"] for m in json.loads(stored(page, "riposte.models"))] == ["Orque"]
    page.reload()
    wait_ready(page)
    expect(page.locator("#models .name")).to_have_text(["Orque"])


def test_a_stun_server_not_written_is_said_for_this_visit_only(fight: Any) -> None:
    """The STUN server typed with localStorage refusing the write: not said kept, said for
    this visit only, the field as typed."""
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.evaluate("() => { Storage.prototype.setItem = function () { throw new DOMException('refusé', 'QuotaExceededError'); }; }")
    field = page.get_by_label("Serveur STUN (facultatif)")
    field.fill("stun:stun.exemple.org:3478")
    field.press("Tab")
    expect(page.locator("#message")).to_have_text(
        "Serveur STUN changé pour cette visite seulement : le stockage du navigateur refuse de le garder.")
    expect(field).to_have_value("stun:stun.exemple.org:3478")
