"""What a player at home needs from their phone (docs/LIVE-TABLE.md, « At a distance »): whose
turn it is and when theirs comes (the engine's ``ahead``, engine/players.py: counted only
from what the players see, R2.1, D21), said in the phone's live region, and a vibration
(on by default) or a beep (off by default) when it comes, as the player chose. The phone's
``navigator.vibrate`` and ``AudioContext`` are stubs that count their calls.

R1.3 with the dice of tests/browser/test_live_plays.py: Aldric 11, Orque 10, Gobelin 9,
Lyra 8 (R2.1: in that order).
"""

from __future__ import annotations

import re
from typing import Any

from conftest import NewPhone
from helpers import card
from live import gm_phone, live_settings, pair
from playwright.sync_api import expect
from test_live_plays import FIGHT, start

#: Counts the phone's vibrations and beeps (an oscillator started) and the audio made.
STUBS = """(() => {
  window.__alerts = {vibrate: 0, contexts: 0, beeps: 0};
  navigator.vibrate = () => { window.__alerts.vibrate += 1; return true; };
  window.AudioContext = class {
    constructor() { window.__alerts.contexts += 1; this.state = "running"; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createGain() { return {gain: {value: 1}, connect: (to) => to}; }
    createOscillator() {
      return {frequency: {value: 0}, connect: (to) => to, start: () => { window.__alerts.beeps += 1; }, stop() {}};
    }
  };
})();"""


def alerts(page: Any) -> dict[str, int]:
    return dict(page.evaluate("window.__alerts"))


def test_a_player_at_home_hears_whose_turn_it_is_and_when_theirs_comes(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric", init_script=STUBS)
    lyra = pair(gm, new_phone, claim="Lyra", init_script=STUBS)
    gm.get_by_role("button", name="Plateau").click()
    # Lyra's player wants a beep too (off by default); Aldric's keeps the default.
    expect(lyra.page.locator("#live-vibrate")).to_be_checked()
    expect(lyra.page.locator("#live-sound")).not_to_be_checked()
    lyra.page.locator("#live-sound").check()
    assert lyra.page.evaluate("localStorage.getItem('riposte.live.alert')") == '{"vibrate":true,"sound":true}'
    start(gm, {"Aldric": aldric, "Lyra": lyra})

    # Aldric's turn: his phone vibrates (no beep: its player did not ask for one); Lyra's
    # says who acts and that her turn comes after Aldric's and the PNJ's she cannot see.
    expect(aldric.page.locator("#live-yours")).to_have_text("À toi : Aldric agit !")
    assert alerts(aldric.page) == {"vibrate": 1, "contexts": 0, "beeps": 0}
    coming = "À vous après 1 combattant, et les PNJ qui ont plus de P.I. s'il y en a."
    expect(lyra.page.locator("#live-turn")).to_have_text(re.compile(f"^À Aldric d'agir.* {re.escape(coming)}$"))
    expect(lyra.page.locator("#live")).to_have_text(lyra.page.locator("#live-turn").inner_text())
    expect(aldric.page.locator("#live-turn")).not_to_contain_text("À vous")
    assert alerts(lyra.page)["vibrate"] == 0 and alerts(lyra.page)["beeps"] == 0

    # The game master shows the PNJ's values: Orque and Gobelin are counted too.
    gm.get_by_role("button", name="Partie").click()
    live_settings(gm)
    gm.locator("#live-pnj").check()
    expect(lyra.page.locator("#live-turn")).to_have_text(re.compile("À vous après 3 combattants\\.$"))
    gm.get_by_role("button", name="Plateau").click()

    # Aldric, Orque and Gobelin pass: Lyra's turn. Her phone vibrates and beeps, once.
    for name, left in (("Aldric", "À vous après 2 combattants."), ("Orque", "À vous après 1 combattant."),
                       ("Gobelin", None)):
        # From the keyboard: quick taps on a board drawn anew are the board's guard's to judge.
        card(gm, name).get_by_role("button", name="Passer").press("Enter")
        if left:
            expect(lyra.page.locator("#live-turn")).to_have_text(re.compile(f"{re.escape(left)}$"))
            expect(lyra.page.locator("#live")).to_have_text(re.compile(f"{re.escape(left)}$"))
    expect(lyra.page.locator("#live-yours")).to_have_text("À toi : Lyra agit !")
    expect(lyra.page.locator("#live-turn")).not_to_contain_text("À vous")
    lyra.page.wait_for_function("window.__alerts.beeps === 1")
    assert alerts(lyra.page) == {"vibrate": 1, "contexts": 1, "beeps": 1}
    # The choice is the phone's: kept across a reload.
    lyra.page.reload()
    expect(lyra.page.locator("#live-sound")).to_be_checked()
    gm_watched.assert_clean()


#: The ICE user fragment each of the page's connections uses now, and how many it made.
UFRAGS = """() => window.__connections.filter((pc) => pc.connectionState === 'connected')
  .map((pc) => /^a=ice-ufrag:(.*)$/m.exec(pc.localDescription.sdp)[1])"""
#: The places, among every connection the page made, of those connected now.
CONNECTED = """() => window.__connections.flatMap((pc, i) => pc.connectionState === 'connected' ? [i] : [])"""


def test_an_ice_restart_keeps_the_player_on_the_same_connection_with_the_board_current(new_phone: NewPhone) -> None:
    """The game master's page restarts a connection's ICE (as when ICE says a player's phone
    is disconnected: web/live/restart.js): its new offer goes over the connection's own
    channel, the player's page answers on it, and the phone follows on with new ICE
    credentials, no new connection, no new pairing, its board current."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    before = aldric.page.evaluate(UFRAGS)
    # The connected one, by its place among every connection the page made (a spare may be
    # made beside it at any time: it is another connection, never connected).
    which = aldric.page.evaluate(CONNECTED)
    assert len(before) == 1
    gm.evaluate("riposteLive.restart()")
    gm.wait_for_function("riposteLive.restarts()[0].done === 1")
    aldric.page.wait_for_function(f"({UFRAGS})().length === 1 && ({UFRAGS})()[0] !== {before[0]!r}")
    assert aldric.page.evaluate(CONNECTED) == which, "no new connection"
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])
    expect(gm.locator("#live-players .live-route")).to_have_text(["direct"])
    # The board is current: the game master's next tap reaches the phone on that connection.
    gm.get_by_role("button", name="Plateau").click()
    seq = int(aldric.page.locator("html").get_attribute("data-live-seq") or "0")
    gm.get_by_role("button", name="Initiative").click()
    gm.get_by_role("button", name="Tout lancer").click()
    gm.get_by_role("button", name="Commencer le tour").click()
    aldric.page.wait_for_function(f"Number(document.documentElement.dataset.liveSeq) > {seq}")
    expect(aldric.page.locator("#round")).to_contain_text("Tour 1")
    expect(aldric.page.locator("#live-state")).to_have_attribute("data-state", "connected")
    gm_watched.assert_clean()
