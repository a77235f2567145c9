"""The live table holds: phones sleep, pages reload, and everyone is still
following. A game master and players in separate contexts of one headless Chromium, on the
built site, connected for real (WebRTC between contexts, no STUN).

A phone asleep is a page frozen as a phone's sleep freezes it (live.py ``Frozen``: its
scripts stop, its connections' network stack goes on, as on a phone whose screen locks),
for the table's seconds: a tenth of them in real time, the table's timings scaled alike
(live.py ``scaled``), and once in real time with WebRTC's own timers (``make test-long``).
WebRTC giving up after a long sleep is every connection of the phone
closed (live.py ``KEEP_CONNECTIONS``). A "scan" is the player's phone opening the
invitation link, or the game master's camera reading the player's code (faked).
"""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, Watched, wait_ready
from helpers import card
from live import (
    TIME_SCALE,
    Frozen,
    answering,
    connected,
    gm_phone,
    invitation,
    invite,
    join,
    live_card,
    pair,
    players_mode,
    scaled,
    sent_boards,
    show_answer,
)
from playwright.sync_api import expect
from test_cockpit import CLEAR

import engine
from tests.test_save import CASTS

#: The PJ of the table, each played from a phone: the first four fight with a sword in hand
#: (Aldric's sheet), the others with a bow (Lyra's); each with its own values.
PJ = ["Aldric", "Lyra", "Brune", "Cédric", "Dalia", "Élise", "Fabien", "Gaspard"]
ARCHERS = {"Lyra", "Dalia", "Fabien", "Gaspard"}


def sheet(name: str, i: int) -> dict[str, Any]:
    base = copy.deepcopy(CASTS["lyra" if name in ARCHERS else "aldric"])
    base.update(id=name.lower().replace("é", "e"), name=name, wounds=i % 3, initiative_bonus=i % 2)
    base["characteristics"]["melee"] = 5 + i
    base["characteristics"]["tir"] = 4 + i
    return base


TABLE = [{"type": "add_combatant", "combatant": sheet(name, i)} for i, name in enumerate(PJ)] + [
    {"type": "add_combatant", "combatant": CASTS["orque"]},
    {"type": "add_combatant", "combatant": CASTS["gobelin"]},
]


def initiative(name: str, weapon: str | None, die: int) -> int:
    """R1.3 from the sheet: ⌊C/2⌋ + bonus + skill + d6 − wounds (R1.4, R1.5: the declared
    weapon's characteristic and skill; none: Mêlée and Corps-à-corps)."""
    c = next(x["combatant"] for x in TABLE if x["combatant"]["name"] == name)
    w = next((w for w in c["weapons"] if w["id"] == weapon), None)
    kind = w["kind"] if w else "melee"
    characteristic = {"melee": "melee", "shield": "melee", "bow": "tir", "thrown": "lancer"}[kind]
    skill = c["skills"].get(w["skill"] if w else "corps_a_corps", 0)
    return c["characteristics"].get(characteristic, 0) // 2 + c["initiative_bonus"] + skill + die - c["wounds"]


def mates(players: dict[str, Watched], count: int) -> None:
    """Every player's phone reaches the others' (brokered by the game master's page)."""
    for player in players.values():
        expect(player.page.locator("html")).to_have_attribute("data-mates", str(count), timeout=60_000)


def in_view(page: Any) -> int:
    """How many fighters of the board are wholly on screen (not under the header or the dock)."""
    count: int = page.evaluate(f"() => [...document.querySelectorAll('#board li.fighter')].filter(li => ({CLEAR})(li)).length")
    return count


def test_a_table_of_eight_declares_asks_and_comes_back_after_the_game_masters_reload(new_phone: NewPhone, tmp_path: Path) -> None:
    shots = tmp_path
    gm_watched = gm_phone(new_phone, TABLE)
    gm = gm_watched.page
    players = {name: pair(gm, new_phone, claim=name) for name in PJ}
    expect(gm.locator("#live-players .live-who")).to_have_text([f"{name} — connecté" for name in PJ])
    mates(players, len(PJ) - 1)
    players_mode(gm, "off")  # the players propose a die and ask to interrupt

    # The right numbers: each PJ's die from its player's phone. A die alone keeps the weapon
    # the game master's form has (the sword in hand); an archer chooses the bow. The
    # player's form shows the initiative's breakdown before it is sent.
    dice = {name: 1 + i % 6 for i, name in enumerate(PJ)}
    weapons = {name: "arc" if name in ARCHERS else "epee" for name in PJ}
    for name, player in players.items():
        page = player.page
        expect(page.locator("#live-declare")).to_be_visible()
        if name in ARCHERS:
            page.get_by_label("Arme").select_option("arc")
        page.get_by_label("Votre dé d'initiative").fill(str(dice[name]))
        expect(page.locator("#live-breakdown")).to_have_text(re.compile(f"= {initiative(name, weapons[name], dice[name])}$"))
        page.get_by_role("button", name="Envoyer au MJ").click()
        expect(page.locator("#live-note")).to_have_text("Envoyé : le MJ le voit dans son début de tour.")
    gm.get_by_role("button", name="Initiative").click()
    for name in PJ:
        row = gm.locator("li.declaration", has=gm.locator(".name", has_text=re.compile(f"^{name}")))
        expect(row.locator("input")).to_have_value(str(dice[name]))
        expect(row.locator("select")).to_have_value(weapons[name])
        expect(row.locator(".proposal")).to_have_text("du joueur")
    for pnj in ("Orque", "Gobelin"):
        gm.locator("li.declaration", has_text=pnj).locator("input").fill("1")
    gm.get_by_role("button", name="Commencer le tour").click()
    for name in PJ:
        expect(card(gm, name).locator(".pi")).to_have_text(f"{initiative(name, weapons[name], dice[name])} P.I.")
    # « Commencer le tour » undone: the players' dice and weapons are still in the form.
    gm.locator("#undo").click()
    gm.get_by_role("button", name="Initiative").click()
    for name in PJ:
        row = gm.locator("li.declaration", has=gm.locator(".name", has_text=re.compile(f"^{name}")))
        expect(row.locator("input")).to_have_value(str(dice[name]))
        expect(row.locator("select")).to_have_value(weapons[name])
    gm.get_by_role("button", name="Commencer le tour").click()
    expect(card(gm, "Aldric").locator(".pi")).to_have_text(f"{initiative('Aldric', 'epee', dice['Aldric'])} P.I.")

    # Eight requests to interrupt: one compact line each, the board still in view.
    for player in players.values():
        player.page.get_by_role("button", name="Demander une interruption").click()
    expect(gm.locator("#live-requests li")).to_have_count(len(PJ))
    gm.evaluate("window.scrollTo(0, 0)")
    gm.screenshot(path=str(shots / "live-eight-requests.png"))
    assert in_view(gm) >= 6, f"{in_view(gm)} fighters in view with 8 requests"
    # Dismissed: not again until the board changes. Muted: refused, and said.
    gm.get_by_role("button", name="Ignorer la demande d'Aldric").click()
    aldric = players["Aldric"].page
    expect(aldric.locator("#live-note")).to_have_text("Le MJ n'a pas retenu votre interruption.")
    aldric.get_by_role("button", name="Demander une interruption").click()
    expect(aldric.locator("#live-note")).to_have_text("Refusé par le MJ : le MJ a déjà répondu à cette demande.")
    gm.get_by_role("button", name="Partie").click()
    gm.get_by_role("button", name="Couper les demandes de Lyra").click()
    expect(gm.locator("#live-players")).to_contain_text("Lyra — connecté · demandes coupées")
    lyra = players["Lyra"].page
    lyra.get_by_role("button", name="Demander une interruption").click()
    expect(lyra.locator("#live-note")).to_have_text("Refusé par le MJ : le MJ a coupé vos demandes.")

    # The game master's page reloads (a new version, a tab the phone killed): it forgets
    # nobody, and one scan each way with one player brings the whole table back.
    aldric.evaluate("window.__same_page = true")
    gm.reload()
    wait_ready(gm)
    for player in players.values():
        expect(player.page.locator("#live-state")).to_have_text(re.compile("^Le MJ a quitté la table"))
    bar = gm.locator("#live-bar-text")
    expect(bar).to_have_text(f"8 joueurs suivaient la table ({', '.join(PJ)}) : réinvitez-les.")
    taps = scans = 0
    gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
    taps += 1
    aldric.goto(invitation(gm))  # Aldric's phone reads the game master's code: in the tab it has
    scans += 1
    answering(players["Aldric"])
    show_answer(gm, players["Aldric"])  # the game master's camera, on since « Réinviter », reads Aldric's
    scans += 1
    for name, player in players.items():
        connected(player)
        expect(player.page.locator("#live-mine-name")).to_have_text(f"Vous jouez {name}.")
    expect(gm.locator("#live-players .live-who")).to_have_text(
        [f"{name} — connecté" + (" · demandes coupées" if name == "Lyra" else "") for name in PJ])
    assert aldric.evaluate("window.__same_page") is True, "the invitation was taken without a reload"
    assert (scans, taps) == (2, 1), (scans, taps)
    print(f"table of 8 back after the game master's reload: {scans} scans, {taps} tap")
    gm.keyboard.press("Escape")
    expect(bar).to_have_text("Table en direct : 8 joueurs connectés.")
    mates(players, len(PJ) - 1)
    for watched in (gm_watched, *players.values()):
        watched.assert_clean()


def start(gm: Any) -> None:
    gm.get_by_role("button", name="Initiative").click()
    gm.get_by_role("button", name="Tout lancer").click()
    gm.get_by_role("button", name="Commencer le tour").click()
    expect(gm.locator("#screen-board")).to_be_visible()


@pytest.mark.parametrize("scale", [pytest.param(TIME_SCALE, id="scaled"), pytest.param(1, id="real-time", marks=pytest.mark.long)])
def test_frozen_phones_come_back_following_with_no_scan_and_no_tap(new_phone: NewPhone, scale: float) -> None:
    """Phones asleep 5, 20 and 40 s of the table's time: at ``TIME_SCALE`` (every phone's
    timings scaled alike), and in real time with WebRTC's own timers (``make test-long``)."""
    gm_watched = gm_phone(new_phone, TABLE, init_script=scaled(scale))
    gm = gm_watched.page
    names = ["Aldric", "Lyra", "Brune"]
    players = {name: pair(gm, new_phone, claim=name, init_script=scaled(scale)) for name in names}
    mates(players, 2)
    start(gm)
    made = {name: p.page.evaluate("window.__connections.length") for name, p in players.items()}

    # Three players' phones asleep at once, for 5, 20 and 40 s; the game master plays on.
    frozen = {name: Frozen(players[name].page, seconds) for name, seconds in zip(names, (5, 20, 40), strict=True)}
    for f in frozen.values():
        f.__enter__()
    gm.get_by_role("button", name="Finir le tour").click()
    frozen["Aldric"].__exit__()
    for name in ("Lyra", "Brune"):
        expect(gm.locator("#live-players")).to_contain_text(f"{name} — silencieux", timeout=20_000)
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 3 joueurs connectés. Silencieux : Lyra, Brune.")
    frozen["Lyra"].__exit__()
    frozen["Brune"].__exit__()
    for name, player in players.items():
        expect(player.page.locator("#live-state")).to_have_text("Connecté à la table")
        expect(player.page.locator("#live-turn")).to_contain_text("Tour terminé")  # the board of now, at once
        assert player.page.evaluate("window.__connections.length") == made[name], "no new connection: nothing was paired again"
    expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 3 joueurs connectés.")

    # The game master's phone asleep 5, 20 and 40 s: the players' phones say it is silent
    # and keep following; it wakes, its next tap reaches them.
    start(gm)
    for seconds in (5, 20, 40):
        with Frozen(gm, seconds):
            if seconds >= 20:
                for player in players.values():
                    expect(player.page.locator("#live-state")).to_have_text(re.compile("^Le téléphone du MJ ne répond plus"),
                                                                            timeout=20_000)
        for player in players.values():
            expect(player.page.locator("#live-state")).to_have_text("Connecté à la table")
        expect(gm.locator("#live-bar-text")).to_have_text("Table en direct : 3 joueurs connectés.")
        pass_first = gm.locator("#board li.fighter.active").first.get_by_role("button", name="Passer")
        passed = str(gm.locator("#board li.fighter.active .name").first.inner_text())
        pass_first.click()
        for player in players.values():
            expect(live_card(player, passed)).to_contain_text("a passé")
    for watched in (gm_watched, *players.values()):
        watched.assert_clean()


def test_after_a_long_absence_one_scan_each_way_and_nothing_else(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, TABLE)
    gm = gm_watched.page
    player = pair(gm, new_phone, claim="Aldric")
    page = player.page

    def gather_again() -> None:
        """The game master taps « Réinviter » (the camera goes on); the player's phone opens
        the invitation (one scan) and the game master's camera reads its answer (one scan)."""
        gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
        page.goto(invitation(gm))
        answering(player)
        show_answer(gm, player)
        connected(player)
        expect(page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")  # no tap: claimed again by itself
        expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])
        gm.keyboard.press("Escape")

    # WebRTC gives up (a phone asleep for minutes): every connection of the phone is gone.
    page.evaluate("() => { window.__same_page = true; window.__connections.forEach((c) => c.close()); }")
    expect(page.locator("#live-state")).to_have_text(re.compile("^Déconnecté de la table"))
    expect(page.get_by_role("button", name="Rejoindre la table")).to_be_visible()
    gm.get_by_role("button", name="Plateau").click()
    expect(gm.locator("#live-bar-text")).to_have_text("1 joueur suivait la table (Aldric) : réinvitez-le.")
    gather_again()
    assert page.evaluate("window.__same_page") is True, "the new invitation was taken without a reload"

    # The player's page reloads: it follows again by itself, with no scan (the game
    # master's page kept a connection waiting for it).
    gm.wait_for_function("riposteLive.spares() === 1")
    page.reload()
    expect(page.locator("#live-state")).to_have_text("Connecté à la table")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])

    # A new invitation opened in a new tab while this one follows: handed to this tab, which
    # keeps its connections; the new tab shows the answer, then says where the table is.
    second = page.context.new_page()
    gm.get_by_role("button", name="Partie").click()
    second.goto(invite(gm))
    expect(second.locator("#live-state")).to_have_text("Montrez ce code au MJ")
    expect(second.locator("#live-answer-qr svg")).to_be_visible()
    gm.get_by_label("Code du joueur").fill(second.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    expect(second.locator("#live-state")).to_have_text(re.compile("^Connecté : ce téléphone suit la table dans l'autre onglet"))
    connected(player)
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])
    # That tab closed, another invitation in another new tab: no tab follows, it pairs and
    # plays Aldric by itself (the PJ is kept per table on the phone).
    page.close()
    second.close()
    third = player.page.context.new_page()
    third.goto(invite(gm))
    expect(third.locator("#live-state")).to_have_text("Montrez ce code au MJ")
    gm.get_by_label("Code du joueur").fill(third.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    expect(third.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté"])
    gm_watched.assert_clean()


def test_the_players_list_is_the_truth_and_the_game_master_keeps_a_hand_on_it(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, TABLE)
    gm = gm_watched.page
    first = pair(gm, new_phone, claim="Aldric")
    second = pair(gm, new_phone, claim="Lyra")
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté", "Lyra — connecté"])
    # « Changer » on a player's phone frees the PJ on the game master's side.
    first.page.get_by_role("button", name="Changer").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Lyra — connecté"])
    expect(first.page.get_by_role("button", name="Je joue Aldric")).to_be_visible()
    # The game master frees a PJ: that player chooses again.
    gm.get_by_role("button", name="Libérer le PJ de Lyra").click()
    expect(second.page.get_by_role("button", name="Je joue Lyra")).to_be_visible()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Joueur 2 — connecté"])
    second.page.get_by_role("button", name="Je joue Lyra").click()
    # The same phone paired again (a new invitation opened in its tab): still one row.
    second.page.goto(invite(gm))
    answering(second)
    gm.get_by_label("Code du joueur").fill(second.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    connected(second)
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Lyra — connecté"])
    # Removed: told, disconnected, gone from the list.
    gm.get_by_role("button", name="Retirer Joueur 1 de la table").click()
    expect(first.page.locator("#live-state")).to_have_text("Le MJ vous a retiré de la table.")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Lyra — connecté"])
    # A removed page that reloads does not come back through the connection the game
    # master kept for its reload (its spare): a new invitation is needed.
    first.page.reload()
    expect(first.page.locator("#live-state")).to_contain_text("Pour la rejoindre")
    expect(gm.locator("#live-players .live-who")).to_have_text(["Lyra — connecté"])
    # Kept across the game master's reload: who plays what, who is muted.
    gm.get_by_role("button", name="Couper les demandes de Lyra").click()
    # Reloaded once the mute is shown (the engine's answer kept it), as a person would.
    expect(gm.locator("#live-players .live-who")).to_have_text(["Lyra — connecté · demandes coupées"])
    gm.reload()
    wait_ready(gm)
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Lyra — déconnecté · demandes coupées"])
    gm_watched.assert_clean()


def test_nothing_on_the_wire_tells_a_hidden_pnj_value(new_phone: NewPhone) -> None:
    """With the PNJ's details hidden, what the game master's page sends is the same whatever
    the PNJ's die: not only the drawing, the messages (order, badges, who acts)."""
    log = [TABLE[0], {"type": "add_combatant", "combatant": CASTS["orque"]}]
    gm_watched = gm_phone(new_phone, log)
    gm = gm_watched.page
    player = pair(gm, new_phone, claim="Aldric")
    aldric_die = 6
    aldric = initiative("Aldric", "epee", aldric_die)
    # Orque's dice: one that ties it with Aldric (D4: both ready), and one below; each
    # fighter declaring what the game master's form offers (the engine's suggestion).
    board = engine.view(engine.replay(log)["state"])
    declared = {id: board["combatants"][id]["suggested_declaration"] for id in ("aldric", "orque")}
    start = {"type": "start_round", "declarations": declared}
    orque = {d: engine.view(engine.replay([*log, {**start, "rolls": {"aldric": aldric_die, "orque": d}}])["state"])
             ["combatants"]["orque"]["pi"] for d in range(1, 7)}
    tie = next(d for d, pi in orque.items() if pi == aldric)
    below = next(d for d, pi in orque.items() if pi < aldric)
    seen = []
    for die in (tie, below):
        gm.get_by_role("button", name="Initiative").click()
        gm.locator("li.declaration", has_text="Aldric").locator("input").fill(str(aldric_die))
        gm.locator("li.declaration", has_text="Orque").locator("input").fill(str(die))
        gm.get_by_role("button", name="Commencer le tour").click()
        expect(card(gm, "Orque").locator(".pi")).to_have_text(f"{orque[die]} P.I.")
        expect(live_card(player, "Aldric").locator(".now")).to_have_text("agit")  # alone: no « prêt » beside a PNJ
        boards = sent_boards(gm)
        seen.append(json.dumps(boards[-1]["board"], sort_keys=True))
        gm.locator("#undo").click()
        expect(card(gm, "Orque").locator(".pi")).not_to_have_text(f"{orque[die]} P.I.")
    assert seen[0] == seen[1], "the players' board differs with the PNJ's die"
    shown = json.loads(seen[0])
    assert shown["active"] == ["aldric"] and shown["order"] == ["aldric", "orque"], shown
    assert all(shown["combatants"]["orque"][k] is None for k in ("pi", "initiative", "d6", "wounds", "hope"))
    gm_watched.assert_clean()


def test_failures_are_said_plainly_on_both_phones(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone)
    gm = gm_watched.page
    # A pairing that fails (here an answer whose certificate is not the phone's): said on
    # both phones, with what to try.
    player = join(new_phone, invite(gm))
    code = player.page.locator("#live-answer").input_value()
    forged = code[:60] + ("A" if code[60] != "A" else "B") + code[61:]  # a byte of the fingerprint changed
    gm.get_by_label("Code du joueur").fill(forged)
    gm.get_by_role("button", name="Valider le code").click()
    advice = re.compile("même Wi-Fi.*À distance : essayez le serveur TURN")
    expect(gm.locator("#invite-status")).to_have_text(re.compile("^La connexion n'a pas abouti"))
    expect(gm.locator("#invite-status")).to_have_text(advice)
    expect(player.page.locator("#live-state")).to_have_text(re.compile("^La connexion n'a pas abouti"))
    expect(gm.locator("#live-players li")).to_have_count(0)  # nobody was there: no row
    # A code shown for a long time with nothing happening (the game master's phone on
    # another network): the player's page says what to try (its clock driven on).
    waiting = new_phone(invite(gm), ready=False, clock=True)
    answering(waiting)
    waiting.page.clock.fast_forward("00:21")
    hint = re.compile("^Toujours rien \\? Si le MJ a déjà votre code.*même Wi-Fi.*serveur TURN")
    expect(waiting.page.locator("#live-hint")).to_have_text(hint)
    gm_watched.assert_clean()


def test_a_players_page_reopens_offline(new_phone: NewPhone) -> None:
    """Its own small set of files (sw-player.js), never the Python runtime."""
    gm_watched = gm_phone(new_phone)
    gm = gm_watched.page
    player = pair(gm, new_phone, claim="Aldric")
    page = player.page
    expect(page.locator("html")).to_have_attribute("data-live", "connected")
    script = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert script.endswith("/sw-player.js"), script
    cached = page.evaluate("""caches.keys().then(async (keys) => (await Promise.all(keys.map(async (k) =>
        (await (await caches.open(k)).keys()).map((r) => r.url)))).flat())""")
    assert cached and not [url for url in cached if re.search(r"/runtime/(pyodide|pyscript)-|\.whl|bridge\.py", url)], cached
    page.context.set_offline(True)
    started = time.monotonic()
    page.reload()
    # Back at the table (through the connection kept waiting for it), or asking to join
    # again: the page's scripts run from its cache.
    expect(page.locator("html")).to_have_attribute("data-live", re.compile("^(connected|rejoin)$"), timeout=20_000)
    print(f"player's page reopened offline in {time.monotonic() - started:.2f} s")
    page.context.set_offline(False)
    gm_watched.assert_clean()


def test_the_largest_legal_fight_reaches_a_players_phone(new_phone: NewPhone) -> None:
    """64 PJ with 16 long-named weapons each (a save of about 650 KB, under the limits): a
    players' view of about 400,000 characters, more than a data channel takes in one
    message (256 KiB), sent in parts and drawn whole."""
    weapons = [{"id": f"w{i}", "name": f"Arme {i} " + "à la lame longue et fine " * 2, "kind": "melee", "skill": f"arme_{i}"}
               for i in range(16)]
    log = [{"type": "add_combatant", "combatant": {"id": f"pj{n}", "name": f"Héros {n + 1}", "side": "pj",
                                                   "weapons": weapons, "in_hand": [w["id"] for w in weapons]}} for n in range(64)]
    gm_watched = gm_phone(new_phone, log)
    gm = gm_watched.page
    player = pair(gm, new_phone)
    shown = len(json.dumps(gm.evaluate("riposteLive.shown()"), ensure_ascii=False))
    assert shown > 262_144, f"the players' view is only {shown} characters: not the case to test"
    expect(player.page.locator("#live-board li.fighter")).to_have_count(64)
    expect(live_card(player, "Héros 64")).to_be_visible()
    print(f"largest legal fight: a players' view of {shown} characters")
    gm_watched.assert_clean()
    player.assert_clean()
