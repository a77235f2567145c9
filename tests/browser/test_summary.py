"""The fight's summary on the journal screen (engine/summary.py): its numbers are the
log's, as CPython sums up the same log; copied as text, saved as a file; an old save
has one too, since it is rebuilt from the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import NewPhone, Shot, save_text
from helpers import act, axe_within, card, fight_log, hold_clock, start_round
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
    # A save of an earlier release keeps no times: every duration is « — ».
    expect(lines.nth(0)).to_have_text(
        f"Aldric (PJ) : 1 simple, 1 interruption · {aldric['pi_spent']} P.I. dépensés · 2 blessures reçues · premier à agir 1 fois"
        " · temps de jeu —")
    expect(lines.nth(1)).to_have_text(
        f"Orque (PNJ) : 1 complexe · 1 passe · {orque['pi_spent']} P.I. dépensés · premier à agir 1 fois · temps de jeu —")
    expect(box.locator("p").first).to_have_text(
        f"2 tours, {expected['totals']['actions']} actions dont 1 interruption, 0 point d'Espoir dépensé. Durée : —.")
    expect(page.locator(".summary-rounds li")).to_have_text([
        "Tour 1 : Aldric agit en premier ; 1 action, 0 interruption, 1 passe (fini par le MJ), durée —.",
        "Tour 2 : Orque agit en premier ; 2 actions, 1 interruption, 0 passe (en cours), durée —."])
    # The charts: a bar per fighter, its number the summary's; the most is the longest bar.
    # No time known: no chart of time.
    expect(page.locator(".summary-chart")).to_have_count(2)
    pi_bars = page.locator(".chart-pi rect.bar")
    expect(pi_bars).to_have_count(2)
    assert pi_bars.evaluate_all("(bars) => bars.map((b) => b.dataset.value)") == [str(aldric["pi_spent"]), str(orque["pi_spent"])]
    widths = pi_bars.evaluate_all("(bars) => bars.map((b) => b.getBoundingClientRect().width)")
    most = max(aldric["pi_spent"], orque["pi_spent"])
    assert max(widths) > 0 and abs(widths[0] / max(widths) - aldric["pi_spent"] / most) < 0.05
    expect(page.locator(".chart-pi text.value")).to_have_text([str(aldric["pi_spent"]), str(orque["pi_spent"])])
    actions = [sum(f["actions"].values()) for f in (aldric, orque)]
    expect(page.locator(".chart-actions text.value")).to_have_text([str(n) for n in actions])
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
    assert text.startswith("Résumé du combat\n2 tours,") and "Durée : —." in text
    assert "Orque (PNJ) : 1 complexe · 1 passe" in text and "Tour 2 : Orque agit en premier ; 1 action" in text
    phone.assert_clean()


def test_the_summary_says_how_long_each_round_and_turn_took(new_phone: NewPhone, shot: Shot) -> None:
    """Played on the page's clock: the seeded round 1 (begun before any time was kept)
    ends, round 2 is timed turn by turn (engine/summary.py: a turn from the command before
    it, a round from its start to its end, R2.4 or the game master's, D21)."""
    phone = new_phone(save=save_text(fight_log()), clock=True)
    page = phone.page
    hold_clock(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()  # its turn began before the times: not timed
    expect(card(page, "Aldric")).to_have_class("fighter active")
    page.clock.run_for(5_000)
    act(page, "Aldric", "observer")  # 5 s; the round ends: no one has P.I. to act (R2.4)
    expect(page.locator("#next-round")).to_be_visible()
    page.clock.run_for(10_000)
    start_round(page, {"Aldric": 6, "Orque": 1})
    page.clock.run_for(20_000)
    undo = page.locator("#undo").inner_text()
    act(page, "Aldric", "observer")  # 20 s
    expect(page.locator("#undo")).not_to_have_text(undo)  # its answer taken before the clock moves on
    page.clock.run_for(40_000)
    card(page, "Orque").get_by_role("button", name="Passer").click()  # 40 s
    # Its answer taken before the clock moves on (a call still out when 15 s pass on the
    # page's clock is a slow engine, said as such).
    expect(card(page, "Orque")).to_contain_text("a passé")
    page.clock.run_for(15_000)
    page.get_by_role("button", name="Finir le tour").click()  # the round: 75 s
    page.clock.resume()

    page.locator('.tabs button[data-screen="journal"]').click()
    page.locator("#summary-box summary").click()
    lines = page.locator(".summary-fighters li")
    expect(lines.nth(0)).to_contain_text("temps de jeu 25 s en 2 tours (le plus long : 20 s)")
    expect(lines.nth(1)).to_contain_text("temps de jeu 40 s en 1 tour (le plus long : 40 s)")
    rounds = page.locator(".summary-rounds li")
    expect(rounds.nth(0)).to_contain_text("durée —.")  # its start came before the times
    expect(rounds.nth(1)).to_contain_text("durée 1 min 15 s.")
    expect(page.locator("#fight-summary > p").first).to_contain_text("Durée : —.")  # not every round's known
    time_bars = page.locator(".chart-time rect.bar")
    expect(time_bars).to_have_count(2)
    assert time_bars.evaluate_all("(bars) => bars.map((b) => b.dataset.value)") == ["25", "40"]
    expect(page.locator(".chart-time text.value")).to_have_text(["25 s", "40 s"])
    for size in ({"width": 390, "height": 844}, {"width": 1366, "height": 768}):
        page.set_viewport_size(size)
        page.locator("#summary-box").scroll_into_view_if_needed()
        shot(page, f"summary-times-{size['width']}x{size['height']}.png")
    assert axe_within(page, "#summary-box", "summary (light)") == []
    page.emulate_media(color_scheme="dark")
    shot(page, "summary-times-dark.png")
    assert axe_within(page, "#summary-box", "summary (dark)") == []
    phone.assert_clean()


def test_the_summary_is_shared_as_a_file_where_the_browser_shares_files(new_phone: NewPhone) -> None:
    shared = """
    window.__shared = [];
    navigator.canShare = (data) => Array.isArray(data?.files);
    navigator.share = async (data) => { window.__shared.push({ title: data.title,
      files: await Promise.all(data.files.map(async (f) => ({ name: f.name, type: f.type, text: await f.text() }))) }); };
    """
    phone = new_phone(save=save_text(scripted()), init_script=shared)
    page = phone.page
    page.locator('.tabs button[data-screen="journal"]').click()
    page.locator("#summary-box summary").click()
    expect(page.locator(".summary-fighters li")).to_have_count(2)
    page.get_by_role("button", name="Partager le résumé").click()
    page.wait_for_function("window.__shared.length === 1")
    [sent] = page.evaluate("window.__shared")
    assert sent["title"] == "Résumé du combat"
    [file] = sent["files"]
    assert (file["name"], file["type"]) == ("resume-du-combat.txt", "text/plain")
    assert file["text"].startswith("Résumé du combat\n2 tours,") and "Aldric (PJ)" in file["text"]
    phone.assert_clean()
