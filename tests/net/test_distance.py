"""The live table at a distance, in the NAT rig (tests/net/rig.py): the game master's page
(the real built site) on a phone behind a cone NAT, a player's page on a phone behind
another router, paired with the links and the code as at a table, or with « Inviter à
distance »'s two links, and no server of ours.

- Behind another cone NAT, the STUN server the game master set is enough: the player
  agrees to it, and the phones connect directly (no relay); the player's page that
  reloads needs a new invitation.
- Behind a symmetric NAT, the game master sets a TURN server (address, user, password);
  the player is told what it sees and agrees, and the phones connect through its relay;
  the player's page reloads and follows again through it by itself.
- A player who does not agree: their phone sends nothing to the server (not one packet
  reaches coturn's address from their router, and coturn's log never names it), and with
  only its local (mDNS) candidates it does not connect across the internet.
- The game master's list says each phone's route (« via STUN », « relayé (TURN) »); behind
  the symmetric NAT with STUN alone, the failed pairing is said on both phones within 20 s.
- A phone that changes network mid-fight follows on with no new pairing; a path cut then
  found again is restarted (ICE restart) on the same connection.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from distance import PAIRS, SITE, STUN, TURN, by_two_links, connected, game_master, open_page, routes
from playwright.sync_api import expect
from rig import PASSWORD, PREFIX, USER, Rig, within

#: How long a reply takes through the chat in « Inviter à distance »'s delayed case (s): past
#: ICE's own wait for checks (about 30 s in Chromium), so the player's side has given up and
#: is made again (web/live/guest.js waitForGm) before the game master's page learns the
#: answer. Two minutes, in Firefox: tests/webkit_firefox/remote-firefox.test.mjs.
REPLY_AFTER = 45


#: The ICE user fragment of each connected connection of the page.
UFRAGS = """() => window.__connections.filter((pc) => pc.connectionState === 'connected')
  .map((pc) => /^a=ice-ufrag:(.*)$/m.exec(pc.localDescription.sdp)[1])"""


@pytest.fixture
def phones(phone_browser: Callable[[str], Any]) -> Iterator[Callable[..., Any]]:
    """``phones(name, url)``: a page on phone ``name`` of the rig (its own browser)."""

    def open_on(name: str, url: str = SITE, *, script: str = "") -> Any:
        return open_page(phone_browser(name), url, script=script)

    yield open_on


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
    # The game master's list says how that phone is reached (web/live/route.js).
    expect(gm.locator("#live-players .live-route")).to_have_text(["via STUN"])
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
    expect(gm.locator("#live-players .live-route")).to_have_text(["relayé (TURN)"])
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


@pytest.mark.parametrize(("server", "after"), [("stun", 0), ("turn", REPLY_AFTER)])
def test_a_player_at_home_pairs_by_the_two_links_across_cone_nats(rig: Rig, phones: Callable[..., Any], server: str,
                                                                  after: int) -> None:
    """« Inviter à distance », the player behind the other cone NAT: the chat's invitation
    link, the player's reply link opened in a new tab of the game master's browser ``after``
    seconds later (real time: ICE's own timers). Through STUN when the reply comes at once;
    ``REPLY_AFTER`` later, through the TURN server (with STUN alone, a reply opened 20 s later
    did not pair: each router drops the other's checks by then, docs/LIVE-TABLE.md « Inviter à
    distance »)."""
    gm = game_master(phones, *((STUN,) if server == "stun" else (TURN, USER, PASSWORD)))

    def made(link: str, reply: str) -> None:
        print(f"across cone NATs with {server}: the chat's invitation {len(link)} characters, the reply {len(reply)}")

    figures, _ = by_two_links(gm, lambda link: phones("c2", link), after=after, made=made)
    found = figures["routes"]
    print(f"  reply opened {after} s later: to the player's board {figures['reply_to_board_ms']:.0f} ms, routes {found}")
    assert found and all(("relay" in route) == (server == "turn") for route in found), found


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


def test_a_player_behind_a_symmetric_nat_with_stun_alone_is_told_within_20_s_on_both_phones(
        rig: Rig, phones: Callable[..., Any]) -> None:
    """STUN alone cannot join a symmetric NAT to another router: the pairing fails, and both
    phones say so, with the TURN server as what to try, within 20 s of the code pasted
    (never a silent wait: web/live/route.js, web/live/timing.js CONNECT_LIMIT, ANSWER_LATE)."""
    gm = game_master(phones, STUN)
    player = phones("c3", invite(gm))
    player.locator("#live-stun-ask").get_by_role("button", name="Utiliser ce serveur").click()
    code = answer(player)
    pasted = time.monotonic()
    paste(gm, code)
    turn = re.compile("serveur TURN")

    def within_20_s() -> float:
        return max(0.0, 20 - (time.monotonic() - pasted)) * 1000 + 1000  # 1 s for the test's own polling

    expect(gm.locator("#invite-status")).to_have_text(re.compile("^La connexion n'a pas abouti.*serveur TURN"),
                                                      timeout=within_20_s())
    told = player.locator("#live-hint:visible, #live-state[data-state=failed]")
    expect(told.first).to_have_text(turn, timeout=within_20_s())
    print(f"said on both phones {time.monotonic() - pasted:.1f} s after the code was pasted")
    expect(gm.locator("#live-players li")).to_have_count(0)


def test_a_player_whose_phone_changes_network_mid_fight_follows_on_with_no_new_pairing(
        rig: Rig, phones: Callable[..., Any]) -> None:
    """The player's phone (behind the symmetric NAT, through TURN) changes network mid-fight:
    its old address is gone (its router forwards nothing from or to it any more) and it has
    a new one behind the same router (a new public port). It follows on with no scan, no
    paste and no new invitation, and the game master's next change reaches it. Which way it
    came back is printed: Chromium's ICE, which keeps gathering on a new network, moved the
    same connection to the new address by itself in the runs here (no restart was needed);
    an ICE restart (web/live/restart.js) or the spare (web/live/guest.js `rescue`) are the
    ways back when it does not."""
    gm = game_master(phones, TURN, USER, PASSWORD)
    player = phones("c3", invite(gm))
    player.locator("#live-stun-ask").get_by_role("button", name="Utiliser ce serveur").click()
    paste(gm, answer(player))
    connected(player)
    gm.wait_for_function("riposteLive.spares() === 1", timeout=30_000)
    phone = rig.phones["c3"]
    eth = f"{PREFIX}e{phone.index}"
    invitations = gm.evaluate("riposteLive.invitations()")
    made = player.evaluate("window.__connections.length")
    before = player.evaluate(UFRAGS)
    seq = int(player.locator("html").get_attribute("data-live-seq") or "0")
    moved = time.monotonic()
    rig._nft(phone.router, f"""table ip {PREFIX}gone {{
  chain forward {{
    type filter hook forward priority -10; policy accept;
    ip saddr {phone.address} drop
    ip daddr {phone.address} drop
  }}
}}""")
    within(phone.ns, "ip", "addr", "del", f"{phone.address}/24", "dev", eth)
    within(phone.ns, "ip", "addr", "add", f"10.9.{phone.index}.3/24", "dev", eth)
    within(phone.ns, "ip", "route", "replace", "default", "via", f"10.9.{phone.index}.1")
    try:
        # The game master changes what the players see: the phone's board follows, through
        # whatever way its connection found from the new address.
        gm.locator("#live-pnj").click()
        player.wait_for_function(f"Number(document.documentElement.dataset.liveSeq) > {seq}"
                                 " && document.querySelector('#live-state').dataset.state === 'connected'", timeout=90_000)
        spare = player.evaluate(f"window.__connections.slice({made}).some((pc) => pc.connectionState === 'connected')")
        restarted = any(u not in before for u in player.evaluate(UFRAGS))
        how = "its spare" if spare else "an ICE restart" if restarted else "the same connection, moved by ICE"
        print(f"its board current through {how} {time.monotonic() - moved:.1f} s after the phone's network changed")
        expect(gm.locator("#live-players .live-who")).to_have_text([re.compile("— connecté$")])
        expect(gm.locator("#live-players .live-route")).to_have_text(["relayé (TURN)"])
        assert gm.evaluate("riposteLive.invitations()") == invitations, "no new invitation was made"
    finally:
        within(phone.router, "nft", "delete", "table", "ip", f"{PREFIX}gone")
        within(phone.ns, "ip", "addr", "flush", "dev", eth)
        within(phone.ns, "ip", "addr", "add", f"{phone.address}/24", "dev", eth)
        within(phone.ns, "ip", "route", "replace", "default", "via", f"10.9.{phone.index}.1")


def test_a_path_cut_then_found_again_is_restarted_on_the_same_connection(rig: Rig, phones: Callable[..., Any]) -> None:
    """The player's router (a cone NAT, through STUN) forwards nothing for a while: ICE says
    the connection is disconnected, and the game master's page restarts its ICE at once
    (web/live/restart.js), its offer waiting in the connection's channel. Once the path is
    back, the offer arrives, the player's page answers on the same connection, and the phone
    follows on with new ICE credentials: no new connection, no new pairing."""
    gm = game_master(phones, STUN)
    player = phones("c2", invite(gm))
    player.locator("#live-stun-ask").get_by_role("button", name="Utiliser ce serveur").click()
    paste(gm, answer(player))
    connected(player)
    gm.wait_for_function("riposteLive.spares() === 1", timeout=30_000)  # its ticket's connection made and closed
    phone = rig.phones["c2"]
    made = player.evaluate("window.__connections.length")
    before = player.evaluate(UFRAGS)
    rig._nft(phone.router, f"""table ip {PREFIX}cut {{
  chain forward {{
    type filter hook forward priority -10; policy accept;
    ip saddr {phone.address} drop
    ip daddr {phone.address} drop
  }}
}}""")
    try:
        gm.wait_for_function("riposteLive.restarts()[0].begun >= 1", timeout=60_000)
    finally:
        within(phone.router, "nft", "delete", "table", "ip", f"{PREFIX}cut")
    gm.wait_for_function("riposteLive.restarts()[0].done >= 1", timeout=60_000)
    player.wait_for_function(f"({UFRAGS})().some((u) => !{before!r}.includes(u))", timeout=30_000)
    assert player.evaluate(f"window.__connections.slice({made}).every((pc) => pc.connectionState !== 'connected')"), \
        "no new connection"
    seq = int(player.locator("html").get_attribute("data-live-seq") or "0")
    gm.locator("#live-pnj").click()
    player.wait_for_function(f"Number(document.documentElement.dataset.liveSeq) > {seq}", timeout=15_000)
    expect(player.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(gm.locator("#live-players .live-route")).to_have_text(["via STUN"])
