"""The live table (issue #15): the game master's phone holds the engine; players' phones
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
import statistics
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, Shot, Watched, save_text, wait_ready
from helpers import card, fight_log
from playwright.sync_api import expect
from test_judged import SETTLED, axe

ROOT = Path(__file__).resolve().parents[2]

#: A player's own fight, on their phone: following a live table must never touch it.
#: What starting Python would fetch: Pyodide's or PyScript's versioned folder (tools/build_site.py).
PYTHON_RUNTIME = re.compile(r"/runtime/(pyodide|pyscript)-[\d.]+/")
OWN_FIGHT = save_text([{"type": "add_combatant", "combatant": {"id": "moi", "name": "Mon héros", "side": "pj"}}])


def invite(gm: Any) -> str:
    """The game master taps « Inviter un joueur »: the invitation link."""
    if not gm.locator("#screen-menu").is_visible():
        gm.get_by_role("button", name="Partie").click()
    gm.get_by_role("button", name="Inviter un joueur").click()
    field = gm.locator("#invite-link")
    expect(field).to_have_value(re.compile(r"#table=[A-Za-z0-9_-]+$"))
    expect(gm.locator("#invite-qr svg")).to_be_visible()
    return str(field.input_value())


def join(new_phone: NewPhone, link: str, **options: Any) -> Watched:
    """A player's phone opens the invitation link: its answer code, once made."""
    player = new_phone(link, ready=False, **options)
    expect(player.page.locator("#live-state")).to_have_text("Montrez ce code au MJ")
    expect(player.page.locator("#live-answer")).to_have_value(re.compile(r"^[A-Za-z0-9_-]{100,}$"))
    expect(player.page.locator("#live-answer-qr svg")).to_be_visible()
    return player


def paste(gm: Any, player: Watched) -> None:
    """The game master pastes the player's code into « Code du joueur »."""
    gm.get_by_label("Code du joueur").fill(player.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    connected(player)


def connected(player: Watched) -> None:
    expect(player.page.locator("#live-state")).to_have_text("Connecté à la table")
    expect(player.page.locator("#live-board li.fighter").first).to_be_visible()


def pair(gm: Any, new_phone: NewPhone, **options: Any) -> Watched:
    player = join(new_phone, invite(gm), **options)
    paste(gm, player)
    return player


def live_card(player: Watched, name: str) -> Any:
    page = player.page
    return page.locator("#live-board li.fighter", has=page.locator(".name", has_text=re.compile(f"^{name}$")))


def no_engine(player: Watched) -> None:
    """A player's page started no Python: neither PyScript nor Pyodide was ever asked for."""
    assert not [url for url in player.requests if PYTHON_RUNTIME.search(url)], player.requests
    expect(player.page.locator("html")).not_to_have_attribute("data-engine", "ready")


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

    # Each keeps its screen awake while it follows (Screen Wake Lock: Chromium has it).
    for player in (first, second):
        expect(player.page.locator("html")).to_have_attribute("data-awake", "on")
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
    # Expired: an answer to an invitation older than its life (15 minutes) is refused too.
    gm.evaluate("for (const inv of riposteLive.host.invitations.values()) inv.at -= 15 * 60_000 + 1")
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

    # Mid-round: an interruption request, accepted in one tap on the game master's board.
    page.get_by_role("button", name="Demander une interruption").click()
    expect(page.locator("#live-note")).to_have_text("Demande envoyée au MJ.")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-requests")).to_contain_text("Aldric demande à interrompre.")
    gm.get_by_role("button", name="Accepter l'interruption d'Aldric").click()
    expect(gm.locator("#sheet")).to_be_visible()
    expect(gm.locator("#sheet-title")).to_contain_text("Aldric")
    expect(page.locator("#live-note")).to_have_text("Le MJ a accepté votre interruption.")
    expect(gm.locator("#live-requests")).to_be_hidden()
    gm.locator("#sheet-close").click()

    # End of the round: the player declares weapon and die; the game master's form fills in.
    gm.get_by_role("button", name="Finir le tour").click()
    expect(page.locator("#live-declare")).to_be_visible()
    page.get_by_label("Votre dé (1d6)").fill("6")
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
    sent = gm.evaluate("riposteLive.host.shown")
    orque_sent = json.loads(sent)["combatants"]["orque"]
    assert [orque_sent[k] for k in ("pi", "initiative", "d6", "wounds", "hope")] == [None] * 5
    assert "actions" not in orque_sent and "characteristics" not in orque_sent
    gm.get_by_label("Montrer aux joueurs les P.I., blessures et Espoir des PNJ").check()
    expect(orque.locator(".pi")).to_have_text("6 P.I.")
    expect(orque.locator(".badges")).to_contain_text("Espoir 0")
    # A reload of the player's page: its invitation is spent, and it says so.
    player.page.reload()
    expect(player.page.locator("#live-state")).to_contain_text("Cette invitation a déjà servi")
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — déconnecté")
    player.assert_clean()


def test_a_dropped_player_is_shown_at_once_and_pairs_again(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    player.page.get_by_role("button", name="Je joue Aldric").click()
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    player.page.context.close()
    expect(gm.locator("#live-players")).to_contain_text("Aldric — déconnecté")
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_contain_text("Déconnecté : Aldric.")
    # Re-pairing from the board: one scan each way (here the link and the pasted code).
    gm.locator("#live-bar").get_by_role("button", name="Inviter un joueur").click()
    expect(gm.locator("#invite-link")).to_have_value(re.compile(r"#table="))
    again = join(new_phone, str(gm.locator("#invite-link").input_value()))
    paste(gm, again)
    again.page.get_by_role("button", name="Je joue Aldric").click()
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    # The game master's page closes: the player's phone says so at once.
    gm.close()
    expect(again.page.locator("#live-state")).to_have_text(re.compile("^Déconnecté de la table"))
    again.assert_clean()


def test_hostile_messages_are_refused_and_the_fight_is_intact(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = pair(gm, new_phone)
    saved = gm.evaluate("localStorage.getItem('riposte.encounter')")
    board = gm.evaluate("riposteLive.host.shown")
    page = player.page
    refusals = {
        "not json": "pas du JSON",
        "too big": json.dumps({"v": 1, "t": "claim", "id": "x" * 1000}),
        "shape": json.dumps({"v": 1, "t": "apply", "command": {"type": "end_round"}}),
        "extra key": json.dumps({"v": 1, "t": "interrupt", "command": {"type": "end_round"}}),
        "array": "[1, 2]",
        "a PNJ": json.dumps({"v": 1, "t": "claim", "id": "orque"}),
        "the prototype": json.dumps({"v": 1, "t": "claim", "id": "__proto__"}),
        "no claim": json.dumps({"v": 1, "t": "interrupt"}),
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
    for text, why in ((json.dumps({"v": 1, "t": "declare", "weapon": "epee", "die": 7}), "message inattendu"),
                      (json.dumps({"v": 1, "t": "declare", "weapon": "epee", "die": 4}), "pas à ce moment du tour")):
        page.evaluate("(text) => riposteLive.raw(text)", text)
        expect(page.locator("#live-note")).to_contain_text(why)
    # A burst: past the rate, refused without being read.
    page.evaluate("() => { for (let i = 0; i < 40; i++) riposteLive.raw('{}'); }")
    expect(page.locator("#live-note")).to_contain_text("trop de messages")
    # Nothing a player sent changed the fight, its save or what the players see.
    assert gm.evaluate("localStorage.getItem('riposte.encounter')") == saved
    assert gm.evaluate("riposteLive.host.shown") == board
    expect(card(gm, "Orque").locator(".pi")).to_have_text("6 P.I.")
    expect(gm.locator("#live-players")).to_contain_text("Aldric — connecté")
    # Another version of the protocol: refused, and the player is told to update.
    page.evaluate("(text) => riposteLive.raw(text)", json.dumps({"v": 2, "t": "interrupt"}))
    expect(page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    fight.assert_clean()


def test_a_damaged_or_newer_invitation_is_refused_without_python(new_phone: NewPhone, site_url: str) -> None:
    damaged = new_phone(f"{site_url}#table=AQBAlHuOBEhYQnIYVjlPNjB1", ready=False, save=OWN_FIGHT)
    expect(damaged.page.locator("#live-state")).to_contain_text("incomplet ou abîmé")
    newer = new_phone(f"{site_url}#table=AgBAlHuO", ready=False)
    expect(newer.page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    for player in (damaged, newer):
        no_engine(player)
        player.assert_clean()
    assert damaged.page.evaluate("localStorage.getItem('riposte.encounter')") == OWN_FIGHT


def test_the_game_masters_page_still_plays_with_a_players_save(new_phone: NewPhone) -> None:
    """The live table adds nothing to the game master's start: the seeded fight opens as before."""
    gm = new_phone(save=save_text(fight_log()))
    wait_ready(gm.page)
    expect(card(gm.page, "Orque").locator(".pi")).to_have_text("6 P.I.")
    expect(gm.page.locator("#live-bar")).to_be_hidden()


#: The camera, faked: getUserMedia answers a stream of a canvas showing the SVG given
#: (the player's QR code, as their phone shows it). Chromium's own fake camera
#: (--use-file-for-fake-video-capture) would need a browser of its own for one test.
FAKE_CAMERA = """async (svg) => {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 480;
  const paint = () => canvas.getContext('2d').drawImage(image, 40, 40, 400, 400);
  paint();
  setInterval(paint, 100);
  navigator.mediaDevices.getUserMedia = async () => canvas.captureStream(10);
}"""


def test_scanning_the_answer_with_the_camera_pairs(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    player = join(new_phone, invite(gm))
    svg = player.page.locator("#live-answer-qr svg").evaluate("e => e.outerHTML.replace('<svg', '<svg xmlns=\"http://www.w3.org/2000/svg\"')")
    gm.evaluate(FAKE_CAMERA, svg)
    gm.get_by_role("button", name="Scanner la réponse").click()
    connected(player)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    # Chromium on Linux has no BarcodeDetector: the vendored reader, from this origin only.
    assert any(re.search(r"/runtime/zxing-wasm-[\d.]+/zxing_reader\.wasm$", url) for url in fight.requests)
    fight.assert_clean()
    player.assert_clean()


def stun_in(link: str) -> str:
    """The STUN server an invitation link carries, as web/live/signal.js decodes it (run by
    Node on the source: the built page bundles that module, tools/bundle.mjs)."""
    code = link.split("#table=", 1)[1]
    script = ("const { decode } = await import(process.argv[1]);"
              "console.log(JSON.stringify(decode(process.argv[2], 'offer').stun));")
    run = subprocess.run(["node", "--input-type=module", "-e", script, (ROOT / "web" / "live" / "signal.js").as_uri(), code],
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(run.stdout)


def test_the_stun_setting_is_checked_kept_and_carried_by_the_invitation(fight: Watched, new_phone: NewPhone) -> None:
    gm = fight.page
    gm.get_by_role("button", name="Partie").click()
    field = gm.get_by_label("Serveur STUN (facultatif)")
    field.fill("http://stun.example.org")
    field.press("Tab")
    expect(gm.locator("#live-stun-error")).to_contain_text("stun:nom.exemple:3478")
    assert gm.evaluate("localStorage.getItem('riposte.live.stun')") is None
    # A server on this machine that answers nothing: the phones still pair with host candidates.
    field.fill("stun:127.0.0.1:9")
    field.press("Tab")
    expect(gm.locator("#message")).to_contain_text("Serveur STUN stun:127.0.0.1:9")
    assert gm.evaluate("localStorage.getItem('riposte.live.stun')") == "stun:127.0.0.1:9"
    link = invite(gm)
    assert stun_in(link) == "stun:127.0.0.1:9"
    player = join(new_phone, link)
    paste(gm, player)
    # Emptied: off again, and the next invitation carries none.
    gm.get_by_role("button", name="Partie").click()
    field.fill("")
    field.press("Tab")
    expect(gm.locator("#message")).to_contain_text("Pas de serveur STUN")
    link = invite(gm)
    assert stun_in(link) == ""
    fight.assert_clean()
    player.assert_clean()


def test_a_silent_player_is_shown_disconnected_within_seconds(fight: Watched, new_phone: NewPhone) -> None:
    """A phone asleep or out of the Wi-Fi may keep its connection open for a while (ICE
    gives up after 30 s or more): the game master's heartbeat finds it silent
    (web/live/protocol.js SILENCE, 12 s) and drops it, and the player's page says so."""
    gm = fight.page
    player = pair(gm, new_phone)
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — connecté")
    # The phone stops answering (its page's messages go nowhere): as if asleep.
    player.page.evaluate("RTCDataChannel.prototype.send = function () {}")
    expect(gm.locator("#live-players")).to_contain_text("Joueur 1 — déconnecté", timeout=25_000)
    expect(player.page.locator("#live-state")).to_have_text(re.compile("^Déconnecté de la table"))
    fight.assert_clean()


def test_a_silent_game_master_is_shown_on_the_players_phone(fight: Watched, new_phone: NewPhone) -> None:
    """The other way: the game master's phone asleep; the player's page hears no heartbeat."""
    gm = fight.page
    player = pair(gm, new_phone)
    gm.evaluate("RTCDataChannel.prototype.send = function () {}")
    expect(player.page.locator("#live-state")).to_have_text(re.compile("^Déconnecté de la table"), timeout=25_000)
    expect(player.page.locator("html")).to_have_attribute("data-awake", "off")
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
    assert gm.evaluate("riposteLive.host.invitations.size") == 8
    # The first invitation was closed to make room: its answer is refused.
    invite(gm)
    gm.get_by_label("Code du joueur").fill(first.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    expect(gm.locator("#invite-status")).to_contain_text("ne correspond à aucune invitation en cours")
    fight.assert_clean()
