"""The turn clock and the cue of a PJ's turn, on the game master's device (both off by
default, set per device in « Partie » → « Sur cet appareil »). The engine says who holds the turn
and since when, and when a PJ's turn came (engine/table.py ``turn``, ``cue``); the page
counts on the page's clock (Playwright's, driven here), says once when the limit runs out,
shows it on the players' view, and sounds or vibrates. Never a rule: the log, undo and the
P.I. never see it (R3: the P.I. are the rules' alone)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from conftest import NewPhone, Shot, save_text
from helpers import act, axe_within, card, fight_log, hold_clock
from live import gm_phone, pair
from playwright.sync_api import expect
from test_pushed import second_tab

from engine.table import Table

#: Every sentence the live region says, in order (a sentence said twice is there twice).
SAID = """
window.__said = [];
addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  new MutationObserver(() => { if (live.textContent) window.__said.push(live.textContent); })
    .observe(live, { childList: true, characterData: true, subtree: true });
});
"""

#: navigator.vibrate and WebAudio's oscillators counted (no sound, no buzz in a test).
COUNTED = """
window.__cues = { vibrate: 0, beep: 0 };
Object.defineProperty(navigator, "vibrate", { configurable: true, value: () => { window.__cues.vibrate += 1; return true; } });
class CountedAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { return { gain: { value: 1 }, connect() {} }; }
  createOscillator() {
    return { frequency: { value: 0 }, connect() {}, start() { window.__cues.beep += 1; }, stop() {} };
  }
}
window.AudioContext = CountedAudio;
window.webkitAudioContext = CountedAudio;
"""


def settings(page: Any, **chosen: str) -> None:
    """« Partie » → « Sur cet appareil » (folded): each select set, then back to the board."""
    page.locator('.tabs button[data-screen="menu"]').click()
    if page.locator("#device-settings").get_attribute("open") is None:
        page.locator("#device-settings > summary").click()
    for field, value in chosen.items():
        page.locator(f"#{field}").select_option(value)
    page.locator('.tabs button[data-screen="board"]').click()
    expect(page.locator("#screen-board")).to_be_visible()


def said(page: Any, words: str) -> list[str]:
    return [s for s in page.evaluate("window.__said") if words in s]


def test_the_turn_clock_counts_says_once_when_it_runs_out_and_stays_out_of_the_log(new_phone: NewPhone, shot: Shot) -> None:
    phone = new_phone(save=save_text(fight_log()), clock=True, init_script=SAID)
    page = phone.page
    clock = page.locator("#turn-clock")
    expect(card(page, "Orque")).to_have_class("fighter active")  # 6 P.I. against Aldric's 5
    expect(clock).to_be_hidden()  # off by default
    settings(page, **{"clock-limit": "60"})
    assert page.evaluate("localStorage.getItem('riposte.clock')") == "60"  # this device's setting, no fight's
    hold_clock(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()  # Aldric's turn: the clock starts again
    expect(clock).to_have_text("Chrono d'Aldric : 0:00 sur 1:00")
    undo_label = page.locator("#undo").inner_text()
    page.clock.run_for(30_000)
    expect(clock).to_have_text("Chrono d'Aldric : 0:30 sur 1:00")
    assert said(page, "Temps écoulé") == []
    page.clock.run_for(31_000)
    expect(clock).to_have_text("Temps écoulé pour Aldric : 1:01 (limite 1:00)")
    expect(clock).to_have_class("turn-clock over")
    expect(page.locator("#live")).to_have_text("Temps écoulé pour Aldric : 60 secondes.")
    page.clock.run_for(20_000)
    expect(clock).to_have_text("Temps écoulé pour Aldric : 1:21 (limite 1:00)")
    assert said(page, "Temps écoulé") == ["Temps écoulé pour Aldric : 60 secondes."]  # once
    # Nothing in the log: undo still takes back the Orque's pass, the P.I. are unchanged.
    expect(page.locator("#undo")).to_have_text(undo_label)
    expect(card(page, "Aldric").locator(".pi")).to_have_text("5 P.I.")
    shot(page, "clock-board.png")
    page.clock.resume()  # axe-core waits on timers of its own
    assert axe_within(page, "#turn-clock", "clock (light)") == []
    page.emulate_media(color_scheme="dark")
    assert axe_within(page, "#turn-clock", "clock (dark)") == []
    page.emulate_media(color_scheme="light")

    # Aldric acts: the turn passes (to nobody: the Orque passed, the round ends), the clock goes.
    act(page, "Aldric", "observer")
    expect(clock).to_be_hidden()
    phone.assert_clean()


def test_the_players_view_shows_the_clock_of_the_turn_they_see(new_phone: NewPhone, shot: Shot) -> None:
    phone = new_phone(save=save_text(fight_log()), clock=True, viewport={"width": 1920, "height": 1080})
    page = phone.page
    settings(page, **{"clock-limit": "90"})
    hold_clock(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(page.locator("#turn-clock")).to_have_text("Chrono d'Aldric : 0:00 sur 1:30")
    page.locator('.tabs button[data-screen="menu"]').click()
    page.locator("#open-players").click()
    players = page.locator("#players-clock")
    expect(players).to_have_text("Chrono d'Aldric : 0:00 sur 1:30")
    page.clock.run_for(45_000)
    expect(players).to_have_text("Chrono d'Aldric : 0:45 sur 1:30")
    shot(page, "clock-players-1920x1080.png")
    # The clock's line takes its share of the screen: every row still whole in view.
    rows = page.locator("#players-board li.fighter")
    assert rows.count() >= 2
    assert rows.evaluate_all("els => els.filter(e => e.getBoundingClientRect().bottom > innerHeight).length") == 0
    page.clock.resume()
    assert axe_within(page, "#players-clock", "players' view with the clock (light)") == []
    page.emulate_media(color_scheme="dark")
    assert axe_within(page, "#players-clock", "players' view with the clock (dark)") == []
    phone.assert_clean()


def test_the_cue_is_off_by_default_then_once_for_a_pjs_turn_never_for_a_pnjs(new_phone: NewPhone) -> None:
    phone = new_phone(save=save_text([*fight_log(), {"type": "pass", "actor": "orque"}]), init_script=COUNTED)
    page = phone.page

    def count() -> Any:
        return page.evaluate("({ ...window.__cues })")
    # Off (the default): the Orque passes, Aldric's (a PJ's) turn comes: nothing.
    expect(card(page, "Aldric")).to_have_class("fighter active")
    page.keyboard.press("Control+z")  # back to the Orque's turn (an undo: never a cue)
    expect(card(page, "Orque")).to_have_class("fighter active")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Aldric")).to_have_class("fighter active")
    assert count() == {"vibrate": 0, "beep": 0}

    settings(page, cue="both")
    chosen = count()
    assert chosen == {"vibrate": 1, "beep": 1}  # heard and felt once as it is chosen
    page.keyboard.press("Control+z")
    expect(card(page, "Orque")).to_have_class("fighter active")
    assert count() == chosen
    act(page, "Orque", "observer")  # 6 → 1 P.I.: Aldric's turn (5), a PJ's
    expect(card(page, "Aldric")).to_have_class("fighter active")
    assert count() == {"vibrate": 2, "beep": 2}
    card(page, "Aldric").get_by_role("button", name="Passer").click()  # the Orque's turn, a PNJ's
    expect(card(page, "Orque")).to_have_class("fighter active")
    assert count() == {"vibrate": 2, "beep": 2}
    # Kept for this device.
    assert page.evaluate("localStorage.getItem('riposte.cue')") == "both"
    page.locator('.tabs button[data-screen="menu"]').click()
    settings_group = 'section[aria-labelledby="settings-title"]'
    assert axe_within(page, settings_group, "settings (light)") == []
    page.emulate_media(color_scheme="dark")
    assert axe_within(page, settings_group, "settings (dark)") == []
    phone.assert_clean()



def test_a_paired_players_phone_shows_the_clock_and_counts_on_from_when_it_is_told(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone)
    gm = gm_watched.page
    player = pair(gm, new_phone, clock=True)
    phone_clock = player.page.locator("#live-clock")
    expect(phone_clock).to_be_hidden()  # off by default
    settings(gm, **{"clock-limit": "60"})
    card(gm, "Orque").get_by_role("button", name="Passer").click()
    expect(phone_clock).to_have_text(re.compile(r"^Chrono d'Aldric : 0:0\d sur 1:00$"))
    sent = gm.evaluate("riposteLive.shown()")["clock"]
    assert sent["id"] == "aldric" and sent["limit"] == 60 and "since" not in sent  # the phone counts from when it is told
    hold_clock(player.page)
    shown = phone_clock.inner_text()
    player.page.clock.run_for(61_000)
    expect(phone_clock).to_have_text(re.compile(r"^Temps écoulé pour Aldric : 1:0\d \(limite 1:00\)$"))
    assert shown != phone_clock.inner_text()
    player.page.clock.resume()
    gm_watched.assert_clean()


def test_a_fight_read_from_its_save_counts_the_turn_on_from_its_last_command(new_phone: NewPhone) -> None:
    """A reload, a tab that follows or a fight opened reads the fight from its save, which
    keeps each command's time: the turn Aldric holds since the Orque passed, 45 s before
    the page opens, is counted from then, not from the load (engine/table.py ``_clock``)."""
    table = Table()
    now = int(time.time() * 1000)
    for k, command in enumerate(fight_log()):
        table.call(json.dumps({"op": "apply", "command": command, "clock": now - 60_000 + k}))
    table.call(json.dumps({"op": "apply", "command": {"type": "pass", "actor": "orque"}, "clock": now - 45_000}))
    phone = new_phone(save=table.export(True)["text"])
    page = phone.page
    settings(page, **{"clock-limit": "60"})
    clock = page.locator("#turn-clock")
    expect(clock).to_contain_text("Aldric")
    shown, at = page.evaluate("() => [document.getElementById('turn-clock').textContent, Date.now()]")
    minutes, seconds = map(int, re.search(r"(\d+):(\d\d) ", shown).groups())  # type: ignore[union-attr]
    # The turn held since the pass (45 s before the page opened, however long it took to open).
    assert abs(minutes * 60 + seconds - (at - (now - 45_000)) / 1000) <= 2, shown


def test_a_tab_that_follows_counts_the_turn_the_writer_gave(new_phone: NewPhone, site_url: str) -> None:
    """A second tab follows the writer's taps: its clock names the fighter who holds the turn
    after each tap, as the writer's does (the writer's answer carries ``turn``)."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    settings(page, **{"clock-limit": "60"})  # this device's: the second tab reads it too
    other = second_tab(page, site_url).page
    expect(other.locator("#turn-clock")).to_contain_text("Orque")
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(page.locator("#turn-clock")).to_contain_text("Aldric")
    expect(other.locator("#turn")).to_contain_text("Aldric")
    expect(other.locator("#turn-clock")).to_contain_text("Aldric")
    page.locator("#undo").click()
    expect(other.locator("#turn-clock")).to_contain_text("Orque")
