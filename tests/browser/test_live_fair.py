"""A fair table: no PJ taken behind the game master's back, no player able to
drown the game master's screen, every phone told what happened to its play. A game master
and players in separate contexts of one headless Chromium, connected for real (WebRTC
between contexts, no STUN).

A phone away is every connection of its page closed (live.py ``KEEP_CONNECTIONS``), as
WebRTC closes them after a long sleep; it comes back with one scan each way.
"""

from __future__ import annotations

import re
from typing import Any

from conftest import NewPhone, Watched, wait_ready
from helpers import card
from live import (
    PROTOCOL,
    answering,
    connected,
    gm_phone,
    invitation,
    invite,
    join,
    live_card,
    pair,
    paste,
    players_mode,
    raw,
    show_answer,
)
from playwright.sync_api import expect
from test_live_plays import FIGHT, pi, play, set_mode, start

#: Every state of a player's page and the fighters on its board then, in ``window.__states``
#: (an init script: from the page's first paint).
STATES = """window.__states = [];
new MutationObserver(() => {
  const state = document.querySelector('#live-state')?.dataset.state ?? '';
  const cards = document.querySelectorAll('#live-board li.fighter').length;
  const last = window.__states.at(-1);
  if (!last || last[0] !== state || last[1] !== cards) window.__states.push([state, cards]);
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });"""


def claims(player: Watched) -> Any:
    return player.page.locator("#live-claims")


def test_a_pj_belongs_to_its_phone_until_the_game_master_frees_it(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    lyra = pair(gm, new_phone, claim="Lyra")
    # Held by a phone that follows: on the others' list with who holds it, to ask the game
    # master for (D27), not to take.
    lyra.page.get_by_role("button", name="Changer").click()
    expect(claims(lyra).get_by_role("button", name="Demander Aldric au MJ")).to_be_enabled()
    expect(claims(lyra).get_by_role("button", name="Je joue Aldric")).to_have_count(0)
    expect(claims(lyra)).to_contain_text("Joué sur le téléphone de Joueur 1.")
    lyra.page.get_by_role("button", name="Je joue Lyra").click()
    expect(lyra.page.locator("#live-mine-name")).to_have_text("Vous jouez Lyra.")

    # Aldric's phone is away (its page gone: nothing of it can come back on its own, through
    # a mate or a spare): Lyra asks for Aldric with the ordinary buttons; it goes to the
    # game master, whose list keeps every row.
    aldric.page.goto("about:blank")
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — déconnecté", "Lyra — connecté"])
    lyra.page.get_by_role("button", name="Changer").click()
    expect(claims(lyra)).to_contain_text("Joué sur le téléphone de Joueur 1, absent.")
    claims(lyra).get_by_role("button", name="Je joue Aldric (demander au MJ)").click()
    expect(lyra.page.locator("#live-note")).to_have_text("Demandé au MJ : le téléphone qui joue ce personnage est absent.")
    expect(lyra.page.locator("#live-mine")).to_be_hidden()
    gm.get_by_role("button", name="Plateau").click()
    line = gm.locator("#live-waiting li")
    expect(line).to_have_count(1)
    expect(line.locator("span")).to_have_text("Le téléphone de Lyra veut jouer Aldric (absent)")
    # With when the asking phone first paired: a stranger's phone, new tonight, says so too.
    expect(line.locator("small")).to_have_text(re.compile(r"^téléphone appairé pour la première fois à \d{2}:\d{2}$"))
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — déconnecté", "Joueur 2 — connecté"])
    # Refused: told; asked again and accepted: Lyra's phone plays Aldric, the row of the
    # phone away stays, without its PJ.
    gm.get_by_role("button", name="Plateau").click()
    line.get_by_role("button", name="Refuser").click()
    expect(lyra.page.locator("#live-note")).to_have_text("Refusé par le MJ : le MJ laisse ce personnage à son téléphone.")
    expect(line).to_have_count(0)
    claims(lyra).get_by_role("button", name="Je joue Aldric (demander au MJ)").click()
    line.get_by_role("button", name="Accepter").click()
    expect(lyra.page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — déconnecté", "Aldric — connecté"])

    # Aldric's phone comes back (one scan each way), its page opened again: told who holds
    # its PJ, greyed.
    gm.get_by_role("button", name="Plateau").click()
    gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
    aldric.page.goto(invitation(gm))
    answering(aldric)
    show_answer(gm, aldric)
    connected(aldric)
    expect(aldric.page.locator("#live-note")).to_have_text("Aldric est déjà joué sur le téléphone de Lyra : le MJ peut le libérer.")
    expect(claims(aldric).get_by_role("button", name="Demander Aldric au MJ")).to_be_visible()
    expect(aldric.page.locator("#live-mine")).to_be_hidden()
    gm.keyboard.press("Escape")
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Aldric — connecté"])
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_a_player_names_their_phone_and_asks_the_game_master_for_their_pj_another_phone_holds(new_phone: NewPhone) -> None:
    """Lyra's player, back on a new phone while the old one still follows, names it on the
    answer screen: the game master's list and claim line say « Camille »; the claim asks
    the game master (D27), whose « Accepter » hands Lyra over, and the old phone is told."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    lyra = pair(gm, new_phone, claim="Lyra")
    camille = join(new_phone, invite(gm))
    unnamed = camille.page.locator("#live-answer").input_value()
    camille.page.get_by_label("Nom de ce téléphone").fill("Camille")
    # The answer made again with the name in it, shown before the game master takes it.
    expect(camille.page.locator("#live-answer")).not_to_have_value(unnamed)
    paste(gm, camille)
    assert camille.page.evaluate("localStorage.getItem('riposte.live.name')") == "Camille"
    expect(gm.locator("#invite-dialog")).to_be_hidden()
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Lyra — connecté", "Camille — connecté"])

    expect(claims(camille)).to_contain_text("Joué sur le téléphone de Joueur 1.")
    claims(camille).get_by_role("button", name="Demander Lyra au MJ").click()
    expect(camille.page.locator("#live-note")).to_have_text("Demandé au MJ : il décide qui joue ce personnage.")
    expect(gm.locator("#live")).to_have_text("Le téléphone de Camille veut jouer Lyra, joué sur le téléphone de Lyra")
    gm.get_by_role("button", name="Plateau").click()
    line = gm.locator("#live-waiting li")
    expect(line.locator("span")).to_have_text("Le téléphone de Camille veut jouer Lyra, joué sur le téléphone de Lyra")
    expect(line.locator("small")).to_have_text(re.compile(r"^téléphone appairé pour la première fois à \d{2}:\d{2}$"))
    expect(lyra.page.locator("#live-mine-name")).to_have_text("Vous jouez Lyra.")  # nothing until the game master answers
    line.get_by_role("button", name="Accepter").click()
    expect(camille.page.locator("#live-mine-name")).to_have_text("Vous jouez Lyra.")
    expect(lyra.page.locator("#live-mine")).to_be_hidden()
    expect(claims(lyra)).to_contain_text("Joué sur le téléphone de Joueur 2.")
    expect(gm.locator("#live")).to_have_text("Lyra est maintenant joué sur le téléphone de Camille.")
    gm.get_by_role("button", name="Partie").click()
    expect(gm.locator("#live-players .live-who")).to_have_text(["Joueur 1 — connecté", "Lyra (Camille) — connecté"])
    for watched in (gm_watched, lyra, camille):
        watched.assert_clean()


def notes(player: Watched) -> None:
    """Every note the player's page says is kept in ``window.__notes``."""
    player.page.evaluate("""() => { window.__notes = [];
      new MutationObserver(() => window.__notes.push(document.querySelector('#live-note').textContent))
        .observe(document.querySelector('#live-note'), { childList: true, characterData: true, subtree: true }); }""")


def table_of_two(new_phone: NewPhone, mode: str | None = None, clock: bool = False) -> tuple[Watched, Watched, Watched]:
    """The game master's phone with Aldric's and Lyra's paired, each playing their PJ; with
    ``mode`` (``auto``: a play applied at once), set; the round started from their dice.
    ``clock``: Aldric's page on Playwright's clock (it flows, and the test may move it on)."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric", clock=clock)
    lyra = pair(gm, new_phone, claim="Lyra")
    if mode is None:
        gm.get_by_role("button", name="Plateau").click()
    else:
        set_mode(gm, mode)
    start(gm, {"Aldric": aldric, "Lyra": lyra})
    return gm_watched, aldric, lyra


def orque_attacks(gm: Any, aldric: Watched, target: str) -> None:
    """Aldric moves from his phone (11 P.I. to 6), so Orque (10) acts: he attacks ``target``."""
    play(aldric, "Se déplacer").click()
    pi(gm, "Aldric", 6, [aldric])
    card(gm, "Orque").get_by_role("button", name=re.compile("^Attaquer")).click()
    card(gm, "Orque").locator("button.target", has_text=target).click()


def test_at_most_one_waiting_line_per_player(new_phone: NewPhone) -> None:
    gm_watched, aldric, lyra = table_of_two(new_phone)
    gm = gm_watched.page
    pi(gm, "Aldric", 11, [aldric])
    lines = gm.locator("#live-waiting li")
    # A play, then another: the game master sees the latest only.
    play(aldric, "Se déplacer").click()
    expect(lines).to_have_text([re.compile("^Aldric : Se déplacer")])
    play(aldric, "Attaquer").click()
    aldric.page.locator("#live-play").get_by_role("button", name="Orque").click()
    expect(lines).to_have_text([re.compile("^Aldric : Attaque au corps à corps → Orque")])
    # Identical requests in a burst (within the player's rate, protocol.js RATE_BURST): one line.
    raw(aldric, {"t": "act", "action": "se_deplacer", "options": {}}, times=15)
    expect(lines).to_have_text([re.compile("^Aldric : Se déplacer")])
    # « Refuser tout » for that player: nothing of theirs waits, and they are told.
    gm.get_by_role("button", name="Partie").click()
    gm.get_by_role("button", name="Refuser tout ce qu'attend Aldric").click()
    expect(lines).to_have_count(0)
    expect(aldric.page.locator("#live-note")).to_have_text("Refusé par le MJ : le MJ ne l'a pas appliqué.")
    expect(gm.get_by_role("button", name="Refuser tout ce qu'attend Aldric")).to_have_count(0)
    # Applied at once: an honest double tap is one move, « Fait. » and nothing after it.
    set_mode(gm, "auto")
    notes(aldric)
    play(aldric, "Se déplacer").dblclick()
    pi(gm, "Aldric", 6, [aldric, lyra])  # R3.2: simple, 5
    expect(aldric.page.locator("#live-note")).to_have_text("Fait.")
    raw(aldric, {"t": "act", "action": "nope", "options": {}})  # refused, said after whatever came before
    expect(aldric.page.locator("#live-note")).to_have_text("Refusé par le MJ : message inattendu.")
    assert aldric.page.evaluate("window.__notes.filter(Boolean)")[:-1] == ["Fait."]
    expect(card(gm, "Aldric").locator(".pi")).to_have_text("6 P.I.")
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_twenty_five_interruption_requests_from_one_player_are_one_line(new_phone: NewPhone) -> None:
    """A player's phone sends 25 identical requests to interrupt at once (the players
    propose, « non »): the game master sees one line, the board in view; past the player's
    rate the rest is refused unread, and said once on that phone."""
    gm_watched, aldric, lyra = table_of_two(new_phone)
    gm = gm_watched.page
    players_mode(gm, "off")
    gm.get_by_role("button", name="Plateau").click()
    raw(aldric, {"t": "interrupt"}, times=25)
    expect(gm.locator("#live-requests li")).to_have_count(1)
    expect(gm.locator("#live-requests li")).to_contain_text("Aldric")
    expect(aldric.page.locator("#live-note")).to_have_text("Refusé par le MJ : trop de messages, attendez un instant.")
    expect(card(gm, "Orque")).to_be_in_viewport()
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_the_game_masters_undo_of_a_play_is_said_on_that_phone(new_phone: NewPhone) -> None:
    gm_watched, aldric, lyra = table_of_two(new_phone, "auto")
    gm = gm_watched.page
    pi(gm, "Aldric", 11, [aldric])
    play(aldric, "Se déplacer").click()
    expect(aldric.page.locator("#live-note")).to_have_text("Fait.")
    pi(gm, "Aldric", 6, [aldric, lyra])  # R3.2: simple, 5
    # Undone by the game master: said on Aldric's phone, « Fait. » gone; Lyra's says nothing.
    gm.locator("#undo").click()
    pi(gm, "Aldric", 11, [aldric, lyra])
    expect(aldric.page.locator("#live-note")).to_have_text("Le MJ a annulé : Se déplacer")
    gm.locator("#redo").click()
    pi(gm, "Aldric", 6, [aldric, lyra])
    expect(aldric.page.locator("#live-note")).to_have_text("Le MJ a rétabli : Se déplacer")
    # The game master's undo of its own command is not said on a player's phone.
    card(gm, "Orque").get_by_role("button", name="Passer").click()
    expect(card(gm, "Orque")).to_contain_text("a passé")
    gm.locator("#undo").click()
    expect(card(gm, "Orque")).not_to_contain_text("a passé")
    expect(aldric.page.locator("#live-note")).to_have_text("Le MJ a rétabli : Se déplacer")
    expect(lyra.page.locator("#live-note")).to_have_text("")
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_a_replayed_or_reordered_play_is_refused_before_the_engine(new_phone: NewPhone) -> None:
    """Aldric 11 P.I. (his die 6) and Gobelin 4 (⌊4/2⌋ + 0 + 1 + 1, R1.3): Aldric moves twice
    before Gobelin acts, so the rules would take a replayed move."""
    gm_watched = gm_phone(new_phone, [FIGHT[0], FIGHT[3]])
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    set_mode(gm, "auto")
    aldric.page.locator("#live-die").fill("6")
    aldric.page.locator("#live-send").click()
    gm.get_by_role("button", name="Initiative").click()
    gm.locator("li.declaration", has_text="Gobelin").locator("input").fill("1")
    expect(gm.locator("li.declaration", has_text="Aldric").locator("input")).to_have_value("6")
    gm.get_by_role("button", name="Commencer le tour").click()
    pi(gm, "Aldric", 11, [aldric])
    n = aldric.page.evaluate("riposteLive.next()")
    move = {"t": "act", "action": "se_deplacer", "options": {}, "n": n}
    raw(aldric, move)
    expect(aldric.page.locator("#live-note")).to_have_text("Fait.")
    pi(gm, "Aldric", 6, [aldric])  # R3.2: simple, 5; Aldric still acts (6 > 4)
    # The same message again: refused before the engine, and said.
    raw(aldric, move)
    expect(aldric.page.locator("#live-note")).to_have_text(
        "Refusé par le MJ : ce message a déjà été reçu, ou arrive après un plus récent : il est ignoré.")
    # Out of order: a play older than one heard already.
    aldric.page.evaluate("document.querySelector('#live-note').textContent = ''")
    raw(aldric, {**move, "n": n + 10, "action": "nope"})
    expect(aldric.page.locator("#live-note")).to_have_text("Refusé par le MJ : message inattendu.")
    raw(aldric, {**move, "n": n + 5})
    expect(aldric.page.locator("#live-note")).to_have_text(re.compile("déjà été reçu"))
    expect(card(gm, "Aldric").locator(".pi")).to_have_text("6 P.I.")
    # The page's own next play goes through (its numbers go on from the last it took).
    aldric.page.evaluate(f"() => {{ while (riposteLive.next() < {n + 10}); }}")
    play(aldric, "Se déplacer").click()
    pi(gm, "Aldric", 1, [aldric])
    # A message of another version: refused, and said on both sides.
    raw(aldric, {"v": PROTOCOL + 1, "t": "pass"})
    expect(aldric.page.locator("#live-state")).to_contain_text("mettez Riposte à jour")
    expect(gm.locator("#message")).to_have_text("Le téléphone d'Aldric a une autre version de Riposte : mettez-la à jour.")
    for watched in (gm_watched, aldric):
        watched.assert_clean()


def test_an_interruption_while_another_pj_is_attacked_waits_and_says_whom(new_phone: NewPhone) -> None:
    """Applied at once answers an attack on the PJ itself; any other interruption waits for
    the game master (D16), its line saying whom the last attack was on."""
    gm_watched, aldric, lyra = table_of_two(new_phone, "auto")
    gm = gm_watched.page
    orque_attacks(gm, aldric, "Lyra")
    expect(lyra.page.locator(".live-attacked")).to_have_text("Orque t'attaque : Attaque au corps à corps")
    expect(aldric.page.locator(".live-attacked")).to_have_count(0)
    raw(aldric, {"t": "interrupt", "action": "parer", "options": {}})
    expect(gm.locator("#live-waiting li")).to_have_text([re.compile(r"^Aldric : Parer \(5 P.I.\) — l'attaque visait Lyra")])
    expect(card(gm, "Aldric").locator(".pi")).to_have_text("6 P.I.")  # waiting, not applied
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_the_code_copied_note_goes_once_the_phone_follows(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    player = join(new_phone, invite(gm), permissions=["clipboard-read", "clipboard-write"])
    player.page.get_by_role("button", name="Copier").click()
    expect(player.page.locator("#live-note")).to_have_text("Code copié.")
    paste(gm, player)
    expect(player.page.locator("#live-note")).to_have_text("")
    for watched in (gm_watched, player):
        watched.assert_clean()


def test_another_fight_opened_is_said_on_the_phones_and_drops_what_waited(new_phone: NewPhone) -> None:
    """A play waiting for « Appliquer » and an interruption request belong to their fight:
    another fight opened refuses the one and drops the other, and every phone is told."""
    gm_watched, aldric, lyra = table_of_two(new_phone)
    gm = gm_watched.page
    pi(gm, "Aldric", 11, [aldric])
    play(aldric, "Se déplacer").click()
    expect(gm.locator("#live-waiting li")).to_have_count(1)
    for player in (aldric, lyra):
        notes(player)
    gm.get_by_role("button", name="Partie").click()
    gm.get_by_role("button", name="Nouveau combat vide").click()
    gm.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(gm.locator("#round")).to_have_text("Aucun tour")
    for player in (aldric, lyra):
        expect(player.page.locator("#live-note")).to_have_text("Le MJ a ouvert un autre combat.")
        expect(player.page.locator("#live-board li.fighter")).to_have_count(0)
    assert "Refusé par le MJ : le MJ a ouvert un autre combat." in aldric.page.evaluate("window.__notes")
    expect(gm.locator("#live-waiting li")).to_have_count(0)
    # Back to the first fight: nothing of the fight before comes back on its own, and the
    # phones, which were shown it, are told so (not which fight).
    gm.get_by_role("button", name="Partie").click()
    gm.locator("#fights").get_by_role("button", name="Ouvrir Combat 1").click()
    expect(live_card(aldric, "Aldric").locator(".pi")).to_have_text("11 P.I.")
    for player in (aldric, lyra):
        expect(player.page.locator("#live-note")).to_have_text("Le MJ est revenu à un combat précédent.")
    expect(gm.locator("#live-waiting li")).to_have_count(0)
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_a_player_reloaded_mid_answer_follows_again_with_no_scan_and_gets_its_answer_back(new_phone: NewPhone) -> None:
    gm_watched, aldric, lyra = table_of_two(new_phone, "auto")
    gm = gm_watched.page
    orque_attacks(gm, aldric, "Aldric")
    attacked = aldric.page.locator(".live-attacked")
    expect(attacked).to_have_text("Orque t'attaque : Attaque au corps à corps")
    # The game master's page keeps a connection waiting for each phone, answered ahead of time.
    gm.wait_for_function("window.riposteLive.spares() === 2")
    # The page reloads: its last board at once, then back through the waiting connection,
    # with no scan and no tap; the attack is still the last command, its answers are back.
    aldric.page.context.add_init_script(STATES)
    aldric.page.reload()
    connected(aldric)
    states = aldric.page.evaluate("window.__states")
    before = states[:[s for s, _ in states].index("connected")]
    assert any(cards == 4 for _, cards in before), f"the last board painted before any connection: {states}"
    expect(live_card(aldric, "Aldric").locator(".pi")).to_have_text("6 P.I.")
    expect(attacked).to_have_text("Orque t'attaque : Attaque au corps à corps")
    expect(aldric.page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    expect(aldric.page.locator("#live-answer")).to_be_hidden()  # no code shown: nothing to scan
    expect(gm.locator("#live-players .live-who")).to_have_text(["Aldric — connecté", "Lyra — connecté"])
    expect(gm.locator("#invite-dialog")).to_be_hidden()
    play(aldric, "Parer").click()
    pi(gm, "Aldric", 1, [aldric, lyra])  # R5.1: 5 P.I.
    # Reloaded again: a new waiting connection was made for it, and it comes back again.
    gm.wait_for_function("window.riposteLive.spares() === 2")
    aldric.page.reload()
    connected(aldric)
    expect(live_card(aldric, "Aldric").locator(".pi")).to_have_text("1 P.I.")
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_a_player_reloaded_after_the_game_masters_reload_asks_for_an_invitation(new_phone: NewPhone) -> None:
    """The spare died with the game master's page: the reloaded player's page says, after a
    short wait, how to come back (« Réinviter », one scan each way), and comes back so."""
    gm_watched, aldric, lyra = table_of_two(new_phone, "auto", clock=True)
    gm = gm_watched.page
    gm.wait_for_function("window.riposteLive.spares() === 2")
    gm.reload()
    wait_ready(gm)
    aldric.page.reload()
    # It waits for the spare (web/live/timing.js SPARE_WAIT) on its own clock, moved on here.
    state, rejoin = aldric.page.locator("#live-state"), re.compile("^Vous suiviez cette table. Pour la rejoindre")
    for _ in range(100):
        if rejoin.search(state.text_content() or ""):
            break
        aldric.page.clock.fast_forward(500)
        aldric.page.wait_for_timeout(50)
    expect(state).to_have_text(rejoin)
    gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
    aldric.page.goto(invitation(gm))
    answering(aldric)
    show_answer(gm, aldric)
    connected(aldric)
    expect(aldric.page.locator("#live-mine-name")).to_have_text("Vous jouez Aldric.")
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()
