"""The live table at a distance, what tests/net/test_distance.py and bench/live_bench.py
share: pages on the rig's phones (tests/net/rig.py) with the tests' hooks, the game master's
page with a fight and a STUN or TURN server set, and « Inviter à distance »'s pairing
through the two links a chat carries, measured (the links' lengths, the reply opened to the
player's board)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect
from rig import PORT, SERVER, SITE_PORT

from tests.connections import KEEP_CONNECTIONS
from tests.fuzz import fight as fight_log

SITE = f"http://127.0.0.1:{SITE_PORT}/"
PHONE = {"width": 390, "height": 844}
STUN = f"stun:{SERVER}:{PORT}"
TURN = f"turn:{SERVER}:{PORT}"
#: The page's test hooks (web/infra/hooks.js), and every RTCPeerConnection it makes kept
#: in window.__connections (what each connected through: ``routes``).
HOOKS = "globalThis.__riposteHooks = true;\n" + KEEP_CONNECTIONS
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


def open_page(browser: Any, url: str = SITE, *, script: str = "") -> Any:
    """A page of a phone's ``browser`` (a context of its own, a phone's viewport, the hooks)."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(HOOKS + script)
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded")
    return page


def game_master(phones: Callable[..., Any], url: str, user: str = "", password: str = "") -> Any:
    """The game master's page on phone c1 (a cone NAT), a fight open, the server ``url``
    set in « Partie → Table en direct » (with a TURN server's user name and password)."""
    gm = phones("c1", script=seeded(fight_log()))
    expect(gm.locator("html")).to_have_attribute("data-engine", "ready", timeout=90_000)
    gm.get_by_role("button", name="Partie").click()
    gm.locator("#live-network > summary").click()  # folded away until asked for
    set_server(gm, url, user, password)
    return gm


def set_server(gm: Any, url: str, user: str = "", password: str = "") -> None:
    """The game master's server for the next invitations (« Partie » open, the network's
    fields unfolded): ``url``, and a TURN server's user name and password."""
    for label, value in (("Utilisateur TURN", user), ("Mot de passe TURN", password),
                         ("Serveur STUN ou TURN (facultatif)", url)):
        gm.get_by_label(label).fill(value)
        gm.get_by_label(label).press("Tab")
    said = f"Serveur TURN {url} (utilisateur {user})" if user else f"Serveur STUN {url}"
    expect(gm.locator("#message")).to_contain_text(said)


def connected(player: Any) -> None:
    expect(player.locator("#live-state")).to_have_attribute("data-state", "connected", timeout=45_000)
    expect(player.locator("#live-board li.fighter").first).to_be_visible()


def reply_link(player: Any) -> str:
    """The reply link a player's page shows for an invitation sent through the chat."""
    expect(player.locator("#live-state")).to_have_text("Envoyez ce lien de réponse au MJ", timeout=30_000)
    field = player.locator("#live-answer-link")
    expect(field).to_have_value(re.compile(r"#reponse=[A-Za-z0-9_-]{100,}$"))
    return str(field.input_value())


def by_two_links(gm: Any, open_player: Callable[[str], Any], *, after: float = 0, agree: bool = True,
                 made: Callable[[str, str], None] | None = None) -> tuple[dict[str, Any], Any]:
    """« Inviter à distance » (« Partie » open on the game master's page): its invitation link,
    opened by a player at home (``open_player(link)``, a page), who agrees to the game
    master's server (``agree``: the page asks when one is set) and gets the reply link; the
    game master opens that link in a new tab of the same browser ``after`` seconds after the
    player's page made it (real time: ICE's own timers), and the player's board is drawn.
    ``made(invitation, reply)`` is told the links as soon as both exist.

    Returns the two links' lengths, the time from the reply opened to the player's board
    drawn (ms: every phone's browser runs on this machine, one clock), ``after`` and the
    routes of the player's connections (candidate types); and the player's page."""
    gm.bring_to_front()
    if gm.locator("#invite-dialog").is_visible():  # the invitation before
        gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    gm.locator("#live-invite-remote").click()
    field = gm.locator("#invite-link")
    expect(field).to_have_value(re.compile(r"#table=[A-Za-z0-9_-]+&loin=1$"), timeout=30_000)
    link = str(field.input_value())
    player = open_player(link)
    if agree:
        player.locator("#live-stun-ask").get_by_role("button", name="Utiliser ce serveur").click()
    reply = reply_link(player)
    shown = time.monotonic()
    if made:
        made(link, reply)
    time.sleep(max(0.0, after - (time.monotonic() - shown)))  # the chat's delay itself, not a wait for a page
    opened = time.time() * 1000
    tab = gm.context.new_page()
    tab.goto(reply, wait_until="domcontentloaded")
    expect(tab.locator("#live-state")).to_have_text("Réponse transmise : revenez à l'onglet de Riposte.")
    connected(player)
    drawn = player.evaluate("performance.timeOrigin + performance.getEntriesByName('riposte:live-board')[0].startTime")
    tab.close()
    return ({"invitation_link": len(link), "reply_link": len(reply), "reply_to_board_ms": drawn - opened,
             "reply_after_s": after, "routes": routes(player)}, player)
