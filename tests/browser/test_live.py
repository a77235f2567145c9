"""The live table: the game master's phone holds the engine; players' phones
follow it over WebRTC, paired by QR codes (or their links and text codes), no server.

One Chromium for the session (conftest), a separate browser context for the game master
and each player, on the built site. WebRTC connects two contexts of headless Chromium here
with mDNS host candidates and no STUN server; where a machine's Chromium hides no local
address behind mDNS or cannot resolve it, ``--disable-features=WebRtcHideLocalIpsWithMdns``
is the flag to add to conftest's FLAGS (it was not needed on this machine).
"""

from __future__ import annotations

import json
import re
import socket
import statistics
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, Shot, Watched, save_text, stored, wait_ready
from helpers import card, fight_log
from live import (
    OWN_FIGHT,
    PROTOCOL,
    PYTHON_RUNTIME,
    answering,
    connected,
    gm_phone,
    invitation,
    invite,
    join,
    leave,
    live_card,
    live_settings,
    no_engine,
    pair,
    paste,
    players_mode,
    scaled,
    show_answer,
)
from playwright.sync_api import expect
from test_judged import SETTLED, axe

ROOT = Path(__file__).resolve().parents[2]


def test_pairing_by_link_and_code_then_both_players_see_every_command(fight: Watched, new_phone: NewPhone,
                                                                     shot: Shot) -> None:
    gm = fight.page
    link = invite(gm)
    modules = int(str(gm.locator("#invite-qr svg").get_attribute("viewBox")).split()[2]) - 8  # less the quiet zone
    version = (modules - 17) // 4
    print(f"invitation link: {len(link)} characters, QR code version {version} (level L)")
    assert version <= 9, link
    shot(gm, "screenshot-live-invite.png")
    first = join(new_phone, link, save=OWN_FIGHT)
    shot(first.page, "screenshot-live-answer.png")
    paste(gm, first)
    expect(gm.locator("#invite-dialog")).to_be_hidden()
    second = pair(gm, new_phone)
    expect(gm.locator("#live-players li")).to_have_count(2)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    expect(gm.locator("#live-players")).to_contain_text("Joueur 2 — connecté")
    # Each phone's route, beside it (web/live/route.js): on one machine, their own addresses.
    expect(gm.locator("#live-players .live-route")).to_have_text(["direct", "direct"])

    # Both see the board the engine computed, then every command as the game master taps it.
    for player in (first, second):
        expect(live_card(player, "Aldric").locator(".pi")).to_have_text("5 P.I.")
        expect(player.page.locator("#live-turn")).to_have_text("À Orque d'agir.")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 2 joueurs connectés.")
    latencies: list[float] = []

    def tap(button: Any, check: Any) -> None:
        seqs = [p.page.evaluate("document.documentElement.dataset.liveSeq") for p in (first, second)]
        tapped = gm.evaluate("Date.now()")
        button.click()
        for player, seq in zip((first, second), seqs, strict=True):
            expect(player.page.locator("html")).not_to_have_attribute("data-live-seq", seq)
            check(player)
            latencies.append(player.page.evaluate(
                "performance.timeOrigin + performance.getEntriesByName('riposte:live-board').at(-1).startTime") - tapped)

    tap(card(gm, "Orque").get_by_role("button", name="Passer"),
        lambda p: expect(live_card(p, "Orque")).to_contain_text("a passé"))
    tap(gm.locator("#undo"),
        lambda p: expect(live_card(p, "Orque")).not_to_contain_text("a passé"))
    tap(gm.get_by_role("button", name="Finir le tour"),
        lambda p: expect(p.page.locator("#live-turn")).to_contain_text("Tour terminé"))
    print(f"command to player board: p50 {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms")
    assert max(latencies) < 2000, latencies
    # A board redraws only the cards it changed (web/views/board-view.js PlayerCards): a
    # wound more on Aldric (2 → 3) leaves Orque's card the very element it was.
    first.page.evaluate("for (const li of document.querySelectorAll('#live-board li.fighter')) li.dataset.drawn = 'before'")
    card(gm, "Aldric").locator("button.row").click()
    tap(card(gm, "Aldric").locator("button[data-do='step'][data-field='wounds'][data-by='1']"),
        lambda p: expect(live_card(p, "Aldric")).to_contain_text("blessures 3"))
    expect(live_card(first, "Orque")).to_have_attribute("data-drawn", "before")
    expect(live_card(first, "Aldric")).not_to_have_attribute("data-drawn", "before")

    # Each keeps its screen awake while it follows (Screen Wake Lock: Chromium has it), and
    # so does the game master's while players follow: a phone that locks freezes the table.
    for page in (first.page, second.page, gm):
        expect(page.locator("html")).to_have_attribute("data-awake", "on")
    # Neither player's phone started Python, and the first one's own fight is untouched.
    for player in (first, second):
        no_engine(player)
        player.assert_clean()
    assert first.page.evaluate("localStorage.getItem('riposte.encounter')") == OWN_FIGHT
    fight.assert_clean()


def test_the_answer_link_hands_over_to_the_open_tab(fight: Watched, new_phone: NewPhone, site_url: str) -> None:
    gm = fight.page
    player = join(new_phone, invite(gm))
    code = player.page.locator("#live-answer").input_value()
    # The game master's camera app opens the answer link in a new tab of the same browser.
    camera = Watched(gm.context.new_page(), site_url.rstrip("/"))
    asked: list[str] = []  # this page's own requests (Watched has the whole context's: the GM's too)
    camera.page.on("request", lambda request: asked.append(request.url))
    camera.page.goto(f"{site_url}#reponse={code}", wait_until="domcontentloaded")
    expect(camera.page.locator("#live-state")).to_have_text("Réponse transmise : revenez à l'onglet de Riposte.")
    connected(player)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    assert asked and not [url for url in asked if PYTHON_RUNTIME.search(url)], asked
    expect(camera.page.locator("html")).not_to_have_attribute("data-engine", "ready")
    # Single-use: the same answer again is refused, and says why.
    again = Watched(gm.context.new_page(), site_url.rstrip("/"))
    again.page.goto(f"{site_url}#reponse={code}", wait_until="domcontentloaded")
    expect(again.page.locator("#live-state")).to_contain_text("Aucun onglet de Riposte n'attend cette réponse")
    gm.bring_to_front()
    late = join(new_phone, invite(gm))
    gm.get_by_label("Code du joueur").fill(code)
    gm.get_by_role("button", name="Valider le code").click()
    expect(gm.locator("#invite-status")).to_contain_text("ne correspond à aucune invitation en cours")
    # Expired: an answer to an invitation older than its life (15 minutes) is refused too
    # (the game master's clock driven 15 minutes on).
    gm.clock.install()
    gm.clock.fast_forward("15:01")
    gm.get_by_label("Code du joueur").fill(late.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    expect(gm.locator("#invite-status")).to_contain_text("ne correspond à aucune invitation en cours")
    expect(gm.locator("#live-players li")).to_have_count(1)
    for watched in (camera, again, player, late, fight):
        watched.assert_clean()


def test_a_players_die_and_interruption_reach_the_game_master(fight: Watched, new_phone: NewPhone, shot: Shot) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    page = player.page
    page.get_by_role("button", name="Je joue Aldric").click()
    expect(page.locator("#live-mine")).to_have_text(re.compile("Vous jouez Aldric"))
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    players_mode(gm, "off")  # the players propose (« Non »)

    # Mid-round: an interruption request, accepted in one tap on the game master's board.
    page.get_by_role("button", name="Demander une interruption").click()
    expect(page.locator("#live-note")).to_have_text("Demande envoyée au MJ.")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.get_by_role("button", name="Accepter l'interruption d'Aldric")).to_be_visible()
    gm.get_by_role("button", name="Accepter l'interruption d'Aldric").click()
    expect(gm.locator("#sheet")).to_be_visible()
    expect(gm.locator("#sheet-title")).to_contain_text("Aldric")
    expect(page.locator("#live-note")).to_have_text("Le MJ a accepté votre interruption.")
    expect(gm.locator("#live-requests")).to_be_hidden()
    gm.locator("#sheet-close").click()

    # End of the round: the player declares weapon and die; the game master's form fills in.
    gm.get_by_role("button", name="Finir le tour").click()
    expect(page.locator("#live-declare")).to_be_visible()
    # Letters typed stay there and are said, never sent as an empty die to be rolled.
    die = page.get_by_label("Votre dé d'initiative")
    die.click()
    page.keyboard.type("abc")
    page.get_by_role("button", name="Envoyer au MJ").click()
    expect(page.locator("#live-note")).to_have_text("Dé : pas un nombre.")
    expect(die).to_have_value("abc")
    die.fill("6")
    page.get_by_role("button", name="Envoyer au MJ").click()
    expect(page.locator("#live-note")).to_have_text("Envoyé : le MJ le voit dans son début de tour.")
    gm.get_by_role("button", name="Initiative").click()
    row = gm.locator("li.declaration", has_text="Aldric")
    expect(row.locator("input")).to_have_value("6")
    expect(row).to_have_class(re.compile("proposed"))
    expect(row.locator(".proposal")).to_have_text("du joueur")
    expect(row.locator("select")).to_have_value("epee")
    gm.locator("li.declaration", has_text="Orque").locator("input").fill("1")
    gm.get_by_role("button", name="Commencer le tour").click()
    # Aldric acts first (round 2): « À toi » on the player's phone.
    expect(page.locator("#live-yours")).to_have_text("À toi : Aldric agit !")
    expect(live_card(player, "Aldric").locator(".badges")).to_contain_text("(d6 6)")
    shot(page, "screenshot-live-player.png")
    player.assert_clean()
    fight.assert_clean()


def test_pnj_details_are_hidden_unless_the_game_master_shows_them(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    orque = live_card(player, "Orque")
    expect(orque.locator(".pi")).to_have_text("—")
    expect(orque.locator(".badges")).not_to_contain_text("Espoir")
    expect(live_card(player, "Aldric").locator(".badges")).to_contain_text("Espoir 2")
    orque_sent = gm.evaluate("riposteLive.shown()")["combatants"]["orque"]
    assert [orque_sent[k] for k in ("pi", "initiative", "d6", "wounds", "hope")] == [None] * 5
    assert "actions" not in orque_sent and "characteristics" not in orque_sent
    live_settings(gm)
    gm.get_by_label("Montrer aux joueurs les P.I., blessures et Espoir des PNJ").check()
    expect(orque.locator(".pi")).to_have_text("6 P.I.")
    expect(orque.locator(".badges")).to_contain_text("Espoir 0")
    # A reload of the player's page: it follows again by itself (the game master's page kept
    # a connection waiting for it), and the PNJ's values are still shown.
    gm.wait_for_function("riposteLive.spares() === 1")
    player.page.reload()
    connected(player)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    expect(live_card(player, "Orque").locator(".pi")).to_have_text("6 P.I.")
    player.assert_clean()


def test_the_banner_of_a_table_whose_players_all_left_can_be_closed(fight: Watched, new_phone: NewPhone) -> None:
    """« 1 joueur suivait la table (Aldric) : réinvitez-le. » stayed on the board once every
    player had left, with no way to close it: « ✕ » closes it while they all stay away."""
    gm = fight.page
    player = pair(gm, new_phone)
    player.page.get_by_role("button", name="Je joue Aldric").click()
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    close = gm.locator("#live-bar").get_by_role("button", name="Fermer le bandeau de la table")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar")).to_be_visible()
    expect(close).to_be_hidden()  # a player is there: nothing to close
    leave(player)
    expect(gm.locator("#live-bar-text")).to_have_text("1 joueur suivait la table (Aldric) : réinvitez-le.")
    close.click()
    expect(gm.locator("#live-bar")).to_be_hidden()
    gm.get_by_role("button", name="Partie").click()  # the table's panel still says who is away
    expect(gm.locator("#live-players")).to_contain_text("Aldric — déconnecté")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar")).to_be_hidden()
    fight.assert_clean()


def test_a_dropped_player_is_shown_at_once_and_pairs_again(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    player.page.get_by_role("button", name="Je joue Aldric").click()
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    leave(player)
    expect(gm.locator("#live-players")).to_contain_text("Aldric — déconnecté")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("1 joueur suivait la table (Aldric) : réinvitez-le.")
    # Re-pairing from the board: one scan each way (here the link and the pasted code). A
    # new phone for Aldric (another profile: another certificate) asks for Aldric, whose
    # phone is away: the game master accepts; the old row stays, without its PJ, until the
    # game master removes it.
    gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
    expect(gm.locator("#invite-link")).to_have_value(re.compile(r"#table="))
    again = join(new_phone, str(gm.locator("#invite-link").input_value()))
    paste(gm, again)
    again.page.get_by_role("button", name="Je joue Aldric (demander au MJ)").click()
    gm.locator("#live-waiting li", has_text="Le téléphone de Joueur 2 veut jouer Aldric (absent)").get_by_role(
        "button", name="Accepter").click()
    expect(again.page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — déconnecté", "Aldric — connecté"])
    gm.get_by_role("button", name="Partie").click()
    gm.get_by_role("button", name="Retirer Joueur 1 de la table").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 1 joueur connecté.")
    # The game master's page closes: the player's phone says so at once.
    gm.close()
    expect(again.page.locator("#live-state")).to_have_text(re.compile("^Déconnecté de la table"))
    again.assert_clean()


def test_hostile_messages_are_refused_and_the_fight_is_intact(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    saved = stored(gm)
    board = gm.evaluate("riposteLive.shown()")
    page = player.page
    refusals = {
        "not json": "pas du JSON",
        "too big": json.dumps({"v": PROTOCOL, "t": "claim", "id": "x" * 1000}),
        "shape": json.dumps({"v": PROTOCOL, "t": "apply", "command": {"type": "end_round"}}),
        "extra key": json.dumps({"v": PROTOCOL, "t": "interrupt", "command": {"type": "end_round"}}),
        "array": "[1, 2]",
        "a PNJ": json.dumps({"v": PROTOCOL, "t": "claim", "id": "orque"}),
        "the prototype": json.dumps({"v": PROTOCOL, "t": "claim", "id": "__proto__"}),
        "no claim": json.dumps({"v": PROTOCOL, "t": "interrupt", "n": 1}),
    }
    expected = {"not json": "message illisible", "too big": "message trop long", "shape": "message inattendu",
                "extra key": "message inattendu", "array": "message inattendu", "a PNJ": "ce n'est pas un PJ",
                "the prototype": "ce n'est pas un PJ", "no claim": "choisissez d'abord votre personnage"}
    for name, text in refusals.items():
        page.evaluate("(text) => riposteLive.raw(text)", text)
        expect(page.locator("#live-note"), name).to_contain_text(expected[name])
        page.evaluate("document.querySelector('#live-note').textContent = ''")
    page.get_by_role("button", name="Je joue Aldric").click()
    expect(page.locator("#live-mine")).to_have_text(re.compile("Vous jouez Aldric"))
    # A die that is no number is the wire's to refuse; one off the die's faces, the engine's
    # (R1.2, tests/test_seating_hand.py).
    for text, why in ((json.dumps({"v": PROTOCOL, "t": "declare", "weapon": "epee", "die": "7"}), "message inattendu"),
                      (json.dumps({"v": PROTOCOL, "t": "declare", "weapon": "epee", "die": 4}), "en cours : terminez-le d'abord")):
        page.evaluate("(text) => riposteLive.raw(text)", text)
        expect(page.locator("#live-note")).to_contain_text(why)
    # A burst: past the rate, refused without being read.
    page.evaluate("() => { for (let i = 0; i < 40; i++) riposteLive.raw('{}'); }")
    expect(page.locator("#live-note")).to_contain_text("trop de messages")
    # Nothing a player sent changed the fight, its save or what the players see.
    assert stored(gm) == saved
    assert gm.evaluate("riposteLive.shown()") == board
    expect(card(gm, "Orque").locator(".pi")).to_have_text("6 P.I.")
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    # Another version of the protocol: refused, and the player is told to update.
    page.evaluate("(text) => riposteLive.raw(text)", json.dumps({"v": PROTOCOL + 1, "t": "interrupt", "n": 2}))
    expect(page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    fight.assert_clean()


def test_a_damaged_or_newer_invitation_is_refused_without_python(new_phone: NewPhone, site_url: str) -> None:
    damaged = new_phone(f"{site_url}#table=BgBAlHuOBEhYQnIYVjlPNjB1", ready=False, save=OWN_FIGHT)
    expect(damaged.page.locator("#live-state")).to_contain_text("incomplet ou abîmé")
    # A code's first byte is its protocol's version (web/live/signal.js PROTOCOL, 6): 7 is
    # a newer release's, 5 the previous one's; either is said, never half read.
    newer = new_phone(f"{site_url}#table=BwBAlHuO", ready=False)
    expect(newer.page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    older = new_phone(f"{site_url}#table=BQBAlHuO", ready=False)
    expect(older.page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    for player in (damaged, newer, older):
        no_engine(player)
        player.assert_clean()
    assert damaged.page.evaluate("localStorage.getItem('riposte.encounter')") == OWN_FIGHT


def test_the_game_masters_page_still_plays_with_a_players_save(new_phone: NewPhone) -> None:
    """The live table adds nothing to the game master's start: the seeded fight opens as before."""
    gm = new_phone(save=save_text(fight_log()))
    wait_ready(gm.page)
    expect(card(gm.page, "Orque").locator(".pi")).to_have_text("6 P.I.")
    expect(gm.page.locator("#live-bar")).to_be_hidden()


def test_scanning_answers_with_the_camera_pairs_several_players_in_a_row(new_phone: NewPhone) -> None:
    """« Scanner la réponse » keeps the camera on: each answer read pairs its player and the
    next invitation is made at once, for the next player."""
    gm_watched = gm_phone(new_phone)
    gm = gm_watched.page
    link = invite(gm)
    gm.get_by_role("button", name="Scanner la réponse").click()
    expect(gm.get_by_role("button", name="Arrêter la caméra")).to_be_visible()
    first = join(new_phone, link)
    show_answer(gm, first)
    connected(first)
    expect(gm.locator("#invite-status")).to_have_text("Joueur 1 est connecté. L'invitation suivante est prête.")
    # The dialog stays open with a new invitation, the camera still on.
    expect(gm.locator("#invite-link")).not_to_have_value(link)
    second = join(new_phone, str(gm.locator("#invite-link").input_value()))
    show_answer(gm, second)
    connected(second)
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Joueur 2 — connecté"])
    # Chromium on Linux has no BarcodeDetector: the vendored reader, from this origin only.
    assert any(re.search(r"/runtime/zxing-wasm-[\d.]+/zxing_reader\.wasm$", url) for url in gm_watched.requests)
    for watched in (gm_watched, first, second):
        watched.assert_clean()


def stun_in(link: str) -> str:
    """The address of the STUN or TURN server an invitation link carries ("" for none), as
    web/live/signal.js decodes it (run by Node on the source: the built page bundles that
    module, tools/bundle.mjs)."""
    code = link.split("#table=", 1)[1]
    script = ("const { decode } = await import(process.argv[1]);"
              "console.log(JSON.stringify(decode(process.argv[2], 'offer').server?.url ?? ''));")
    run = subprocess.run(["node", "--input-type=module", "-e", script, (ROOT / "web" / "live" / "signal.js").as_uri(), code],
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(run.stdout)


BINDING_REQUEST = bytes.fromhex("0001")
COOKIE = bytes.fromhex("2112a442")


def binding_success(transaction: bytes, source: tuple[str, int]) -> bytes:
    """A STUN Binding Success Response (RFC 8489) to ``transaction``: its one attribute,
    XOR-MAPPED-ADDRESS, says ``source`` (IPv4)."""
    host, port = source
    cookie = int.from_bytes(COOKIE, "big")
    address = (int.from_bytes(socket.inet_aton(host), "big") ^ cookie).to_bytes(4, "big")
    mapped = bytes([0, 1]) + (port ^ (cookie >> 16)).to_bytes(2, "big") + address
    attribute = (0x0020).to_bytes(2, "big") + len(mapped).to_bytes(2, "big") + mapped
    return bytes.fromhex("0101") + len(attribute).to_bytes(2, "big") + COOKIE + transaction + attribute


class StunListener:
    """A STUN server on this machine that keeps where each Binding Request it receives comes
    from: whoever uses ``stun:127.0.0.1:<port>`` shows up here, each connection from a port
    of its own. It answers each as a STUN server does (RFC 8489: the address it came from),
    so that gathering ends at once rather than at the page's limit (web/live/timing.js
    ``GATHER_LIMIT``)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.sources: set[tuple[str, int]] = set()
        # Each request's transaction: a port the machine gave again to another connection
        # still brings new transactions.
        self.transactions: set[bytes] = set()
        self.running = True
        self.thread = threading.Thread(target=self.listen, daemon=True)
        self.thread.start()

    def listen(self) -> None:
        while self.running:
            try:
                data, source = self.sock.recvfrom(2048)
            except OSError:
                continue
            if len(data) >= 20 and data[:2] == BINDING_REQUEST and data[4:8] == COOKIE:
                self.sources.add(source)
                self.transactions.add(data[8:20])
                self.sock.sendto(binding_success(data[8:20], source), source)

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.sock.close()


def test_the_stun_setting_is_checked_kept_carried_and_each_player_agrees_to_it(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    gm.get_by_role("button", name="Partie").click()
    live_settings(gm)
    field = gm.get_by_label("Serveur STUN ou TURN (facultatif)")
    for wrong in ("http://stun.example.org", "stun:x:99999", "stun:x:0", "turn:x:0"):
        field.fill(wrong)
        field.press("Tab")
        expect(gm.locator("#live-stun-error")).to_contain_text("stun:nom.exemple:3478")
        assert gm.evaluate("localStorage.getItem('riposte.live.stun')") is None
    # A TURN server needs its user name and password (tests/net/test_distance.py uses one).
    field.fill("turn:turn.example.org:3478")
    field.press("Tab")
    expect(gm.locator("#live-stun-error")).to_contain_text("un utilisateur et un mot de passe")
    assert gm.evaluate("localStorage.getItem('riposte.live.stun')") is None
    listener = StunListener()
    try:
        # A server on this machine (it answers as STUN servers do).
        stun = f"stun:127.0.0.1:{listener.port}"
        field.fill(stun)
        field.press("Tab")
        expect(gm.locator("#message")).to_contain_text(f"Serveur STUN {stun}")
        assert gm.evaluate("localStorage.getItem('riposte.live.stun')") == stun
        link = invite(gm)
        assert stun_in(link) == stun
        # The player's phone asks its own user before it contacts a server the invitation's
        # maker chose (that server would learn the phone's address): refused here, and the
        # phone sends it nothing (the game master's own connection keeps asking it).
        before = set(listener.sources)
        player = new_phone(link, ready=False)
        dialog = player.page.locator("#live-stun-ask")
        expect(dialog).to_contain_text(stun)
        player.page.get_by_role("button", name="Sans serveur").click()
        answering(player)  # its candidates gathered (the game master's page then contacts it for its own)
        assert listener.sources == before, "the player's phone contacted the STUN server it was not allowed to"
        paste(gm, player)
        gm.wait_for_function("riposteLive.spares() === 1")  # the game master's connection kept for it
        # Another player agrees: their phone uses it, and is not asked again.
        link = invite(gm)
        before = set(listener.transactions)
        willing = new_phone(link, ready=False)
        willing.page.get_by_role("button", name="Utiliser ce serveur").click()
        answering(willing)
        assert listener.transactions > before, "the player who agreed used the STUN server"
        paste(gm, willing)
        gm.locator("#live-invite").click()
        willing.page.goto(invitation(gm))
        answering(willing)
        expect(willing.page.locator("#live-stun-ask")).to_be_hidden()
    finally:
        listener.close()
    # Emptied: off again, and the next invitation carries none.
    gm.keyboard.press("Escape")
    field.fill("")
    field.press("Tab")
    expect(gm.locator("#message")).to_contain_text("Pas de serveur STUN")
    assert stun_in(invite(gm)) == ""
    # A stored value is checked when it is read, as when it is typed: one this page would not
    # have written (a port out of range) is ignored.
    gm.evaluate("localStorage.setItem('riposte.live.stun', 'stun:x:99999')")
    gm.reload()
    wait_ready(gm)
    gm.get_by_role("button", name="Partie").click()
    expect(field).to_have_value("")
    assert stun_in(invite(gm)) == ""
    for watched in (fight, player, willing):
        watched.assert_clean()


def test_a_silent_player_is_shown_silent_and_kept(new_phone: NewPhone) -> None:
    """A phone asleep or out of the Wi-Fi falls silent: the game master's page says so and
    keeps the connection (only WebRTC ends one); it speaks again, it is back.
    Both phones' timings scaled alike (live.py ``scaled``): silent after 1 s, not 10."""
    fight = new_phone(save=save_text(fight_log()), init_script=scaled())
    gm = fight.page
    player = pair(gm, new_phone, init_script=scaled())
    player.page.evaluate("() => { window.__send = RTCDataChannel.prototype.send; RTCDataChannel.prototype.send = function () {}; }")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — silencieux"], timeout=25_000)
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 1 joueur connecté. Silencieux : Joueur 1.")
    player.page.evaluate("() => { RTCDataChannel.prototype.send = window.__send; }")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté"])
    expect(player.page.locator("#live-state")).to_have_text("Connecté à la table")
    fight.assert_clean()
    player.assert_clean()


def test_a_silent_game_master_is_shown_on_the_players_phone_and_kept(new_phone: NewPhone) -> None:
    """The other way: the game master's phone falls silent; the player's page says so, keeps
    the connection and its screen awake, and follows again when it speaks (both phones'
    timings scaled alike, as above)."""
    gm = new_phone(save=save_text(fight_log()), init_script=scaled()).page
    player = pair(gm, new_phone, init_script=scaled())
    gm.evaluate("() => { window.__send = RTCDataChannel.prototype.send; RTCDataChannel.prototype.send = function () {}; }")
    expect(player.page.locator("#live-state")).to_have_text(re.compile("^Le téléphone du MJ ne répond plus"), timeout=25_000)
    expect(player.page.locator("html")).to_have_attribute("data-awake", "on")
    gm.evaluate("() => { RTCDataChannel.prototype.send = window.__send; }")
    expect(player.page.locator("#live-state")).to_have_text("Connecté à la table")
    player.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_live_screens(new_phone: NewPhone, scheme: str) -> None:
    gm_phone = new_phone(save=save_text(fight_log()), color_scheme=scheme)
    gm = gm_phone.page
    violations: list[str] = []

    def judge(page: Any, screen: str) -> None:
        page.evaluate(SETTLED)
        violations.extend(axe(page, f"{scheme}, {screen}"))

    link = invite(gm)
    judge(gm, "invitation")
    player = join(new_phone, link, color_scheme=scheme)
    judge(player.page, "player's answer")
    paste(gm, player)
    page = player.page
    judge(page, "player's board")
    page.get_by_role("button", name="Je joue Aldric").click()
    players_mode(gm, "off")
    page.get_by_role("button", name="Demander une interruption").click()
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-requests li")).to_be_visible()
    judge(gm, "board with a request")
    gm.get_by_role("button", name="Ignorer la demande d'Aldric").click()
    gm.get_by_role("button", name="Finir le tour").click()
    expect(page.locator("#live-declare")).to_be_visible()
    judge(page, "player's start of round")
    gm.get_by_role("button", name="Partie").click()
    judge(gm, "menu with a player")
    assert violations == [], "\n".join(violations)
    gm_phone.assert_clean()
    player.assert_clean()


def test_at_most_eight_invitations_wait_at_once(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    first = join(new_phone, invite(gm))
    gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    for _ in range(8):
        invite(gm)
        gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    assert gm.evaluate("riposteLive.invitations()") == 8
    # The first invitation was closed to make room: its answer is refused.
    invite(gm)
    gm.get_by_label("Code du joueur").fill(first.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    expect(gm.locator("#invite-status")).to_contain_text("ne correspond à aucune invitation en cours")
    fight.assert_clean()
