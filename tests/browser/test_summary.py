"""The fight's summary on the journal screen (engine/summary.py): its numbers are the
log's, as CPython sums up the same log; copied as text, saved as a file; an old save
has one too, since it is rebuilt from the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import NewPhone, Shot, save_text
from helpers import fight_log
from playwright.sync_api import expect

from engine.summary import summary
from engine.table import Table


def scripted() -> list[dict[str, Any]]:
    """The seeded fight (Aldric observes, R3.2), then the Orque passes (R2.3), Aldric is
    wounded twice more (R1.7), the game master ends round 1 (D21), round 2 starts, the Orque acts
    first (R2.1) and Aldric answers its attack with a parry (R5)."""
    return [*fight_log(),
            {"type": "pass", "actor": "orque"},
            {"type": "update_combatant", "id": "aldric", "changes": {"wounds": 4}},  # he had 2
            {"type": "end_round"},
            {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 1, "orque": 6}},
            {"type": "act", "actor": "orque", "action": "attaque_melee", "target": "aldric"},
            {"type": "interrupt", "actor": "aldric", "action": "parer", "against": "orque"}]


def test_the_summary_says_the_logs_numbers_and_is_copied_and_saved(new_phone: NewPhone, shot: Shot, tmp_path: Path) -> None:
    log = scripted()
    table = Table()
    for command in log:
        assert table.apply(command)["ok"], command
    expected = summary(log)
    aldric, orque = expected["fighters"]
    assert (aldric["actions"]["interruption"], aldric["wounds_taken"], orque["passes"]) == (1, 2, 1)  # the script's

    phone = new_phone(save=save_text(log))
    page = phone.page
    page.locator('.tabs button[data-screen="journal"]').click()
    box = page.locator("#summary-box")
    box.locator("summary").click()
    lines = page.locator(".summary-fighters li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_have_text(
        f"Aldric (PJ) : 1 simple, 1 interruption · {aldric['pi_spent']} P.I. dépensés · 2 blessures reçues · premier à agir 1 fois")
    expect(lines.nth(1)).to_have_text(
        f"Orque (PNJ) : 1 complexe · 1 passe · {orque['pi_spent']} P.I. dépensés · premier à agir 1 fois")
    expect(box.locator("p").first).to_have_text(
        f"2 tours, {expected['totals']['actions']} actions dont 1 interruption, 0 point d'Espoir dépensé.")
    expect(page.locator(".summary-rounds li")).to_have_text([
        "Tour 1 : Aldric agit en premier ; 1 action, 0 interruption, 1 passe (fini par le MJ).",
        "Tour 2 : Orque agit en premier ; 2 actions, 1 interruption, 0 passe (en cours)."])
    # The bars: the most P.I. spent is the whole width.
    widths = page.locator(".summary-bar").evaluate_all("(bars) => bars.map((b) => b.getBoundingClientRect().width)")
    most = max(aldric["pi_spent"], orque["pi_spent"])
    assert max(widths) > 0 and abs(widths[0] / max(widths) - aldric["pi_spent"] / most) < 0.05
    shot(page, "screenshot-summary.png")

    # A change while it is open (the parry undone, Ctrl+Z): drawn again from the engine.
    page.keyboard.press("Control+z")
    expect(page.locator(".summary-rounds li").nth(1)).to_contain_text("1 action, 0 interruption")

    # Saved as a text file: the summary's words, the fighters and the rounds.
    with page.expect_download() as download:
        page.get_by_role("button", name="Enregistrer le résumé").click()
    path = tmp_path / "summary.txt"
    download.value.save_as(path)
    assert download.value.suggested_filename == "resume-du-combat.txt"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("Résumé du combat\n2 tours,")
    assert "Orque (PNJ) : 1 complexe · 1 passe" in text and "Tour 2 : Orque agit en premier ; 1 action" in text
    phone.assert_clean()
