"""The live table at a distance, in the NAT rig (tests/net/rig.py): the game master's page
(the real built site) on a phone behind a cone NAT, a player's page on a phone behind
another router, paired with the links and the code as at a table, and no server of ours.

- Behind another cone NAT, the STUN server the game master set is enough: the player
  agrees to it, and the phones connect directly (no relay); the player's page that
  reloads needs a new invitation.
- Behind a symmetric NAT, the game master sets a TURN server (address, user, password);
  the player is told what it sees and agrees, and the phones connect through its relay;
  the player's page reloads and follows again through it by itself.
- A player who does not agree: their phone sends nothing to the server (not one packet
  reaches coturn's address from their router, and coturn's log never names it), and with
  only its local (mDNS) candidates it does not connect across the internet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from rig import PASSWORD, PORT, SERVER, SITE_PORT, USER, Rig

from tests.fuzz import fight as fight_log

SITE = f"http://127.0.0.1:{SITE_PORT}/"
PHONE = {"width": 390, "height": 844}
STUN = f"stun:{SERVER}:{PORT}"
TURN = f"turn:{SERVER}:{PORT}"
#: The page's test hooks (web/infra/hooks.js), and every RTCPeerConnection it makes kept
#: in window.__connections (what each connected through: ``routes``).
HOOKS = """globalThis.__riposteHooks = true;
(() => {
  const Native = window.RTCPeerConnection;
  if (!Native) return;
  window.__connections = [];
  window.RTCPeerConnection = class extends Native {
    constructor(...args) { super(...args); window.__connections.push(this); }
  };
})();"""
#: Each connected connection's selected pair: its candidate types and the bytes it carried.
PAIRS = """async () => {
  const routes = [];
  for (const pc of window.__connections) {
    if (pc.connectionState !== "connected") continue;
    const stats = await pc.getStats();
    stats.forEach((s) => {
      if (s.type !== "transport" || !s.selectedCandidatePairId) return;
      const pair = stats.get(s.selectedCandidatePairId);
      routes.push({local: stats.get(pair.localCandidateId).candidateType, remote: stats.get(pair.remoteCandidateId).candidateType,
                   bytes: pair.bytesSent + pair.bytesReceived});
    });
  }
  return routes;
}"""


def routes(page: Any) -> list[tuple[str, str]]:
    """The candidate types of each connected connection's selected pair: (local, remote)."""
    return [(pair["local"], pair["remote"]) for pair in page.evaluate(PAIRS)]


def seeded(commands: list[dict[str, Any]]) -> str:
    """An init script: the fight in the page's storage before it first runs (as
    tests/browser/conftest.py ``seed_script`` does)."""
    text = json.dumps({"app": "riposte", "format": 2, "commands": commands, "board": None})
    return ("if (location.protocol.startsWith('http') && !sessionStorage.getItem('riposte.test.seeded')) {"
            f" localStorage.setItem('riposte.encounter', {json.dumps(text)});"
            " sessionStorage.setItem('riposte.test.seeded', '1'); }")


@pytest.fixture
def phones(phone_browser: Callable[[str], Any]) -> Iterator[Callable[..., Any]]:
    """``phones(name, url)``: a page on phone ``name`` of the rig (its own browser)."""

    def open_on(name: str, url: str = SITE, *, script: str = "") -> Any:
        context = phone_browser(name).new_context(viewport=PHONE)
        context.add_init_script(HOOKS + script)
        page = context.new_page()
        page.goto(url, wait_until="domcontentloaded")
        return page

    yield open_on


def game_master(phones: Callable[..., Any], url: str, user: str = "", password: str = "") -> Any:
    """The game master's page on phone c1 (a cone NAT), a fight open, the server ``url``
    set in « Partie → Table en direct » (with a TURN server's user name and password)."""
    gm = phones("c1", script=seeded(fight_log()))
    expect(gm.locator("html")).to_have_attribute("data-engine", "ready", timeout=90_000)
    gm.get_by_role("button", name="Partie").click()
    gm.locator("#live-network > summary").click()  # folded away until asked for
    for label, value in (("Utilisateur TURN", user), ("Mot de passe TURN", password),
                         ("Serveur STUN ou TURN (facultatif)", url)):
        gm.get_by_label(label).fill(value)
        gm.get_by_label(label).press("Tab")
    said = f"Serveur TURN {url} (utilisateur {user})" if user else f"Serveur STUN {url}"
    expect(gm.locator("#message")).to_contain_text(said)
    return gm


def invite(gm: Any) -> str:
    gm.locator("#live-invite").click()
    field = gm.locator("#invite-link")
    expect(field).to_have_value(re.compile(r"#table=[A-Za-z0-9_-]+$"), timeout=30_000)
    return str(field.input_value())


def answer(player: Any) -> str:
    """The player's answer code, once shown."""
    expect(player.locator("#live-state")).to_have_attribute("data-state", "answer", timeout=30_000)
    code = player.locator("#live-answer")
    expect(code).to_have_value(re.compile(r"^[A-Za-z0-9_-]{100,}$"))
    return str(code.input_value())


def paste(gm: Any, code: str) -> None:
    """The game master pastes the player's code (sent through any chat)."""
    gm.get_by_label("Code du joueur").fill(code)
    gm.get_by_role("button", name="Valider le code").click()


def connected(player: Any) -> None:
    expect(player.locator("#live-state")).to_have_attribute("data-state", "connected", timeout=45_000)
    expect(player.locator("#live-board li.fighter").first).to_be_visible()


def test_a_player_behind_another_cone_nat_joins_through_the_stun_server_and_needs_a_new_invitation_after_a_reload(
        rig: Rig, phones: Callable[..., Any]) -> None:
    gm = game_master(phones, STUN)
    link = invite(gm)
    print(f"an invitation with a STUN server: {len(link)} characters ({len(link) - len(SITE)} after the site's address)")
    player = phones("c2", link)
    dialog = player.locator("#live-stun-ask")
    expect(dialog).to_contain_text(f"serveur STUN {STUN}")
    expect(dialog).to_contain_text("adresse IP publique")
    dialog.get_by_role("button", name="Utiliser ce serveur").click()
    paste(gm, answer(player))
    connected(player)
    direct = routes(player)
    assert direct and all("relay" not in route for route in direct), direct
    assert rig.heard_from("c2"), "the player who agreed asked the STUN server for its address"
    # Its page reloads: with STUN alone it cannot come back by itself (the game master's
    # router drops the reloaded page's first check, from a port it never sent to), and
    # says so: a new invitation is needed, sent through the chat.
    gm.wait_for_function("riposteLive.spares() === 1", timeout=30_000)
    player.reload()
    expect(player.locator("#live-state")).to_have_attribute("data-state", "rejoin", timeout=45_000)


def test_a_player_behind_a_symmetric_nat_joins_through_the_turn_server_and_comes_back_after_a_reload(
        rig: Rig, phones: Callable[..., Any]) -> None:
    gm = game_master(phones, TURN, USER, PASSWORD)
    link = invite(gm)
    print(f"an invitation with a TURN server: {len(link)} characters ({len(link) - len(SITE)} after the site's address)")
    player = phones("c3", link)
    dialog = player.locator("#live-stun-ask")
    expect(dialog.locator("h2")).to_have_text("Serveur TURN")
    expect(dialog).to_contain_text(f"serveur TURN {TURN}")
    expect(dialog).to_contain_text("jamais le contenu du combat")
    dialog.get_by_role("button", name="Utiliser ce serveur").click()
    code = answer(player)
    print(f"its answer: {len(code)} characters")
    paste(gm, code)
    connected(player)
    relayed = player.evaluate(PAIRS)
    assert relayed and all("relay" in (pair["local"], pair["remote"]) for pair in relayed), relayed
    print(f"through the relay, the pairing and the first board: {sum(pair['bytes'] for pair in relayed)} bytes")
    assert any(f"remote addr {rig.phones['c3'].public}:" in line for line in rig.heard_from("c3"))
    assert "ALLOCATE processed, success" in rig.log.read_text(errors="replace")
    # The player's page reloads: it follows again by itself through the connection the game
    # master's page kept waiting for it (its spare), relayed too, with no scan and no new question.
    gm.wait_for_function("riposteLive.spares() === 1", timeout=30_000)
    player.reload()
    connected(player)
    expect(player.locator("#live-stun-ask")).to_be_hidden()
    back = routes(player)
    assert back and all("relay" in route for route in back), back


@pytest.mark.parametrize("server", ["stun", "turn"])
def test_a_player_who_does_not_agree_sends_the_server_nothing(rig: Rig, phones: Callable[..., Any], server: str) -> None:
    gm = game_master(phones, *((STUN,) if server == "stun" else (TURN, USER, PASSWORD)))
    link = invite(gm)
    before = rig.reached()["c2"]
    heard = len(rig.heard_from("c2"))
    player = phones("c2", link)
    player.locator("#live-stun-ask").get_by_role("button", name="Sans serveur").click()
    paste(gm, answer(player))
    # Its answer carries only its mDNS name, which no phone at another home resolves: ICE
    # fails on the player's phone, and by then every check it would make is made.
    player.wait_for_function("window.__connections.length > 0 && window.__connections.every("
                             "(pc) => ['failed', 'closed'].includes(pc.iceConnectionState))", timeout=90_000)
    expect(player.locator("#live-state")).not_to_have_attribute("data-state", "connected")
    assert rig.reached()["c2"] == before, "the player's phone sent packets to the server it refused"
    assert len(rig.heard_from("c2")) == heard, "coturn heard from the phone whose user refused"
