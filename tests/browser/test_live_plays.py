"""Each player plays their own PJ from their phone: a game master and players in
separate contexts of one headless Chromium, connected for real. Whatever the setting, the
game master's engine decides: a player's action is the same command the game master would
have sent, for the PJ that player plays and no other, checked by the same rules; the
journal says it came from the player's phone.

The numbers are the rules' (RULES.md): R1.3 initiative, R3.2 costs (complexe 10, simple 5,
interruption 5), R4.2 the charge (no dodge after it, a parry at −4), R5.2 an interruption
paid with a point d'Espoir at 0 P.I. and below.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import NewPhone, Shot, Watched, stored
from helpers import card
from live import gm_phone, live_card, live_settings, pair, players_mode, raw, sent_boards
from playwright.sync_api import expect

from tests.casts import CASTS

#: Aldric (sword, Espoir 2) and Lyra (bow) from their phones; Orque and Gobelin, the game
#: master's. R1.3 with the dice below: Aldric ⌊7/2⌋ + 1 + 3 + 6 − 2 = 11, Orque 3 + 0 + 2 + 5
#: = 10, Gobelin ⌊4/2⌋ + 0 + 1 (corps-à-corps) + 6 = 9, Lyra 4 + 0 + 3 + 1 = 8.
FIGHT = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("aldric", "lyra", "orque", "gobelin")]
DICE = {"Aldric": 6, "Lyra": 1, "Orque": 5, "Gobelin": 6}


def pi(page: Any, name: str, value: int, players: list[Watched]) -> None:
    """``name``'s P.I. are ``value`` on the game master's board and on every player's phone."""
    expect(card(page, name).locator(".pi")).to_have_text(f"{value} P.I.")
    for player in players:
        expect(live_card(player, name).locator(".pi")).to_have_text(f"{value} P.I.")


def play(player: Watched, name: str) -> Any:
    """A chip of what the player may play now (its actions, or its answers)."""
    return player.page.locator("#live-play").get_by_role("button", name=re.compile(f"^{name}"))


def set_mode(gm: Any, mode: str) -> None:
    players_mode(gm, mode)
    gm.get_by_role("button", name="Plateau").click()


def start(gm: Any, players: dict[str, Watched]) -> None:
    """Each player's die from their phone, the others' from the game master's form (every
    die given: none rolled by the engine, so who acts first is known)."""
    for name, player in players.items():
        player.page.locator("#live-die").fill(str(DICE[name]))  # by id: a player may read English
        player.page.locator("#live-send").click()
    gm.get_by_role("button", name="Initiative").click()
    for name in DICE.keys() - players.keys():
        gm.locator("li.declaration", has_text=name).locator("input").fill(str(DICE[name]))
    for name in players:
        expect(gm.locator("li.declaration", has_text=name).locator("input")).to_have_value(str(DICE[name]))
    gm.get_by_role("button", name="Commencer le tour").click()


@pytest.mark.parametrize("mode", ["confirm", "auto"])
def test_a_round_played_from_the_players_phones(new_phone: NewPhone, shot: Shot, mode: str) -> None:
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    lyra = pair(gm, new_phone, claim="Lyra")
    phones = [aldric, lyra]
    if mode == "auto":
        set_mode(gm, "auto")
    else:
        gm.get_by_role("button", name="Plateau").click()

    def applied(player: Watched, screenshot: str | None = None) -> None:
        """With confirmation, the game master applies what the player played (one tap)."""
        if mode == "confirm":
            expect(player.page.locator("#live-note")).to_have_text("Envoyé : le MJ confirme.")
            line = gm.locator("#live-waiting li")
            expect(line).to_have_count(1)
            if screenshot:
                shot(gm, screenshot)
            gm.get_by_role("button", name=re.compile("^Appliquer")).click()
        expect(player.page.locator("#live-note")).to_have_text("Fait.")

    start(gm, {"Aldric": aldric, "Lyra": lyra})
    for name, value in (("Aldric", 11), ("Lyra", 8)):
        pi(gm, name, value, phones)

    # Aldric's turn: the charge, from the whole list (it needs its distance and test, R4.2).
    expect(aldric.page.locator("#live-yours")).to_have_text("À toi : Aldric agit !")
    shot(aldric.page, "screenshot-live-turn.png")
    play(aldric, "Toutes les actions").click()
    aldric.page.locator("#sheet").get_by_role("button", name=re.compile("^Charge")).click()
    aldric.page.locator("#sheet").get_by_label(re.compile("^Cible")).select_option(label="Orque")
    aldric.page.locator("#sheet").get_by_label(re.compile("^Distance")).fill("5")
    aldric.page.locator("#sheet").get_by_label(re.compile("^Score du test")).fill("2")
    aldric.page.locator("#sheet [data-submit]").click()
    applied(aldric, "screenshot-live-waiting.png")
    pi(gm, "Aldric", 1, phones)  # R3.2: complexe, 10

    # Orque (the game master's) attacks Aldric: his phone says so and offers his answers,
    # the dodge refused after his own charge, the parry at −4 (R4.2).
    card(gm, "Orque").get_by_role("button", name=re.compile("^Attaquer")).click()
    card(gm, "Orque").locator("button.target", has_text="Aldric").click()
    expect(aldric.page.locator(".live-attacked")).to_have_text("Orque t'attaque : Attaque au corps à corps")
    expect(play(aldric, "Esquiver")).to_be_disabled()
    expect(aldric.page.locator("#live-play .reason").first).to_contain_text("après avoir chargé")
    expect(play(aldric, "Parer")).to_contain_text("après une charge −4")
    shot(aldric.page, "screenshot-live-answer-attack.png")
    play(aldric, "Parer").click()
    applied(aldric)
    pi(gm, "Aldric", -4, phones)  # R5.1: 5 P.I. while P.I. > 0
    pi(gm, "Orque", 0, [])  # the game master's P.I. for Orque are not the players' (hidden)

    # Gobelin attacks Aldric, now below 0: his answer costs a point d'Espoir, not P.I. (R5.2).
    card(gm, "Gobelin").get_by_role("button", name=re.compile("^Attaquer")).click()
    card(gm, "Gobelin").locator("button.target", has_text="Aldric").click()
    expect(play(aldric, "Bloquer")).to_contain_text("1 point d'Espoir")
    play(aldric, "Bloquer").click()
    applied(aldric)
    pi(gm, "Aldric", -4, phones)
    expect(card(gm, "Aldric")).to_contain_text("Espoir 1")

    # Lyra: nock an arrow (simple, 5), then shoot Orque (simple, 5).
    expect(lyra.page.locator("#live-yours")).to_have_text("À toi : Lyra agit !")
    play(lyra, "Encocher").click()
    applied(lyra)
    pi(gm, "Lyra", 3, phones)
    play(lyra, "Tirer").click()
    lyra.page.locator("#live-play").get_by_role("button", name="Orque").click()
    applied(lyra)
    pi(gm, "Lyra", -2, phones)
    for player in phones:
        expect(player.page.locator("#live-turn")).to_contain_text("Tour terminé")
        expect(player.page.locator("#live-result")).to_contain_text("depuis le téléphone de Lyra")
    # The journal says who sent what, on the game master's phone too.
    gm.get_by_role("button", name="Journal").click()
    expect(gm.locator("#journal")).to_contain_text("depuis le téléphone d'Aldric")
    # An undo by the game master shows on the players' phones, and on the board once it shows
    # (each answer is drawn on what is on screen: web/infra/dispatch.js).
    gm.locator("#undo").click()
    for player in phones:
        expect(player.page.locator("#live-turn")).not_to_contain_text("Tour terminé")
    gm.get_by_role("button", name="Plateau").click()
    pi(gm, "Lyra", 3, phones)
    for watched in (gm_watched, *phones):
        watched.assert_clean()


def test_what_a_player_may_not_do_is_refused_and_said_in_their_language(new_phone: NewPhone) -> None:
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    lyra = pair(gm, new_phone, claim="Lyra", init_script="localStorage.setItem('riposte.lang', 'en')")
    gm.get_by_role("button", name="Plateau").click()
    start(gm, {"Aldric": aldric, "Lyra": lyra})
    pi(gm, "Aldric", 11, [aldric])  # the round is on (and saved) before what follows
    saved = stored(gm)

    # Out of turn (Aldric acts first): the engine's reason, in the reader's language.
    raw(lyra, {"t": "act", "action": "se_deplacer", "options": {}})
    expect(lyra.page.locator("#live-note")).to_have_text(re.compile("^Refused by the GM: .*turn"))
    # For another PJ, or with a command no PJ action maps to: refused before the engine.
    raw(aldric, {"t": "act", "action": "attaque_melee", "options": {"actor": "orque"}})
    expect(aldric.page.locator("#live-note")).to_contain_text("message inattendu")
    aldric.page.evaluate("document.querySelector('#live-note').textContent = ''")
    raw(aldric, {"t": "act", "action": "bloquer", "options": {}})  # an interruption is not an action
    expect(aldric.page.locator("#live-note")).to_contain_text("message inattendu")
    aldric.page.evaluate("document.querySelector('#live-note').textContent = ''")
    raw(aldric, {"t": "start_round", "declarations": {}})
    expect(aldric.page.locator("#live-note")).to_contain_text("message inattendu")
    assert stored(gm) == saved
    expect(gm.locator("#live-waiting li")).to_have_count(0)

    # The game master refuses: told. Then the players play no more (« Non »): refused, said.
    play(aldric, "Se déplacer").click()
    gm.get_by_role("button", name=re.compile("^Refuser")).click()
    expect(aldric.page.locator("#live-note")).to_have_text("Refusé par le MJ : le MJ ne l'a pas appliqué.")
    set_mode(gm, "off")
    expect(aldric.page.locator("#live-play")).to_be_hidden()
    raw(aldric, {"t": "act", "action": "se_deplacer", "options": {}})
    expect(aldric.page.locator("#live-note")).to_contain_text("le MJ joue lui-même les PJ")
    assert stored(gm) == saved
    # A play waiting when the game master's page reloads went with it: the player is told.
    set_mode(gm, "confirm")
    play(aldric, "Passer").click()  # not the same tap as « Se déplacer » above: no double tap however quick the steps
    expect(gm.locator("#live-waiting li")).to_have_count(1)
    gm.reload()
    expect(aldric.page.locator("#live-note")).to_have_text(re.compile("^Votre action attendait le MJ : elle n'a pas été appliquée"))
    expect(gm.locator("html")).to_have_attribute("data-engine", "ready")
    expect(gm.locator("#live-waiting li")).to_have_count(0)
    assert stored(gm) == saved
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()


def test_a_hidden_fighter_never_leaves_the_game_masters_phone(new_phone: NewPhone) -> None:
    """An ambush: hidden from the players, not sent (checked on the wire), not a target;
    revealed, it is there."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    card(gm, "Gobelin").locator("button.row").click()
    card(gm, "Gobelin").get_by_role("button", name="Cacher aux joueurs").click()
    expect(card(gm, "Gobelin")).to_contain_text("caché aux joueurs")
    aldric = pair(gm, new_phone, claim="Aldric")
    gm.get_by_role("button", name="Plateau").click()
    start(gm, {"Aldric": aldric})
    expect(live_card(aldric, "Orque")).to_be_visible()
    expect(live_card(aldric, "Gobelin")).to_have_count(0)
    # Nothing with its name or its id went on the wire, the journal included.
    texts = gm.evaluate("window.__sent")
    assert texts and not [t for t in texts if "Gobelin" in t or '"gobelin"' in t], [t[:200] for t in texts if "obelin" in t]
    # Not a target: neither among the chips, nor forged.
    play(aldric, "Attaquer").click()
    expect(aldric.page.locator("#live-play .targets")).not_to_contain_text("Gobelin")
    aldric.page.locator("#live-play").get_by_role("button", name="Cancel the choice").or_(
        aldric.page.locator("#live-play").get_by_role("button", name="Annuler le choix")).click()
    raw(aldric, {"t": "act", "action": "attaque_melee", "options": {"target": "gobelin"}})
    expect(aldric.page.locator("#live-note")).to_contain_text("ce combattant n'est pas sur votre plateau")
    # Revealed: on the players' phones at once.
    show = card(gm, "Gobelin").get_by_role("button", name="Montrer aux joueurs")
    if not show.is_visible():  # the row may have closed with the round's turns
        card(gm, "Gobelin").locator("button.row").click()
    show.click()
    expect(live_card(aldric, "Gobelin")).to_be_visible()
    assert any("Gobelin" in json.dumps(b) for b in sent_boards(gm))
    for watched in (gm_watched, aldric):
        watched.assert_clean()


def test_the_players_view_on_this_device_is_the_players_phones_board(new_phone: NewPhone) -> None:
    """One players' board for every reader but the game master (engine/players.py): the
    players' view on the game master's own device and a paired phone show the same cards,
    through an ambush (D26: Gobelin hidden, in neither DOM nor on the wire) and a tie of a
    PJ and a PNJ at the top (D4: Aldric and Orque at 11, masked while the PNJ's values are
    the game master's), with the PNJ's details hidden, then shown."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    card(gm, "Gobelin").locator("button.row").click()
    card(gm, "Gobelin").get_by_role("button", name="Cacher aux joueurs").click()
    aldric = pair(gm, new_phone, claim="Aldric")
    gm.get_by_role("button", name="Plateau").click()
    aldric.page.locator("#live-die").fill("6")
    aldric.page.locator("#live-send").click()
    gm.get_by_role("button", name="Initiative").click()
    for name, die in {"Orque": 6, "Gobelin": 6, "Lyra": 1}.items():  # R1.3: Orque 3 + 0 + 2 + 6 = 11, as Aldric
        gm.locator("li.declaration", has_text=name).locator("input").fill(str(die))
    expect(gm.locator("li.declaration", has_text="Aldric").locator("input")).to_have_value("6")
    gm.get_by_role("button", name="Commencer le tour").click()
    expect(card(gm, "Orque").locator(".pi")).to_have_text("11 P.I.")
    expect(card(gm, "Aldric").locator(".pi")).to_have_text("11 P.I.")

    def both(names: list[str]) -> list[str]:
        """The players' view opened on the game master's device: its cards, the same on the
        paired phone, word for word, ``names`` in that order."""
        gm.get_by_role("button", name="Partie").click()
        gm.get_by_role("button", name="Ouvrir la vue joueurs").click()
        expect(gm.locator("#screen-players")).to_be_visible()
        here = gm.locator("#players-board li.fighter")
        there = aldric.page.locator("#live-board li.fighter")
        expect(here.locator(".name")).to_have_text(names)
        expect(there.locator(".name")).to_have_text(names)
        cards = [str(t) for t in there.all_text_contents()]
        expect(here).to_have_text(cards)
        expect(gm.locator("#players-turn")).to_have_text(aldric.page.locator("#live-turn").inner_text())
        for shown in (gm.locator("#screen-players"), aldric.page.locator("#live-board")):
            expect(shown).not_to_contain_text("Gobelin")
        gm.get_by_role("button", name="Quitter la vue joueurs").click()
        return cards

    hidden = both(["Aldric", "Lyra", "Orque"])  # the PJ first, then the PNJ by entry: no P.I. told by the order
    orque = next(c for c in hidden if c.startswith("Orque"))
    assert "11" not in orque and "—" in orque, orque
    expect(gm.locator("#players-board li.fighter", has_text="Aldric").locator(".now")).to_have_text("agit")  # no « prêt » beside a PNJ
    gm.get_by_role("button", name="Partie").click()
    live_settings(gm)
    gm.get_by_label("Montrer aux joueurs les P.I., blessures et Espoir des PNJ").check()
    shown = both(["Aldric", "Orque", "Lyra"])  # the game master's order and tie
    assert "11 P.I." in next(c for c in shown if c.startswith("Orque"))
    expect(gm.locator("#players-board li.fighter", has_text="Orque").locator(".now")).to_have_text("prêt")
    # Nothing of the ambusher on the wire, nor in either page's players' cards.
    texts = gm.evaluate("window.__sent")
    assert texts and not [t for t in texts if "Gobelin" in t or '"gobelin"' in t]
    for watched in (gm_watched, aldric):
        watched.assert_clean()


def test_a_tap_with_the_table_open_is_one_engine_call_and_one_drawing(new_phone: NewPhone) -> None:
    """With two phones following, a tap on the game master's board is one call to the engine
    and one drawing of its answer (engine/live.py: the players' boards and journal come in
    the same answer; web/infra/dispatch.js: drawn once), and so is a player's play applied
    at once; a screen not on show is drawn when it shows."""
    gm_watched = gm_phone(new_phone, FIGHT)
    gm = gm_watched.page
    aldric = pair(gm, new_phone, claim="Aldric")
    lyra = pair(gm, new_phone, claim="Lyra")
    set_mode(gm, "auto")
    start(gm, {"Aldric": aldric, "Lyra": lyra})
    expect(aldric.page.locator("#live-yours")).to_have_text("À toi : Aldric agit !")

    def counted() -> tuple[int, int]:
        calls, renders = gm.evaluate("[ripostePage.calls(), ripostePage.renders()]")
        return int(calls), int(renders)

    def seqs() -> list[str]:
        return [p.page.evaluate("document.documentElement.dataset.liveSeq") for p in (aldric, lyra)]

    def boards_after(before: list[str]) -> None:
        for player, seq in zip((aldric, lyra), before, strict=True):
            expect(player.page.locator("html")).not_to_have_attribute("data-live-seq", seq)

    # The game master's « Annuler » (a tap of the header): one call, one drawing, every
    # phone's board new.
    before, sent = counted(), seqs()
    gm.locator("#undo").click()
    boards_after(sent)
    expect(gm.locator("#redo")).to_be_enabled()
    after = counted()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)
    gm.locator("#redo").click()
    expect(gm.locator("#redo")).to_be_disabled()

    # A player's play applied at once: one call of the game master's page, one drawing.
    before, sent = counted(), seqs()
    play(aldric, "Se déplacer").click()
    boards_after(sent)
    expect(aldric.page.locator("#live-note")).to_have_text("Fait.")
    after = counted()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 1)

    # The cast screen, not on show, is drawn when it shows, with the board's last answer.
    gm.locator("#undo").click()
    gm.get_by_role("button", name="Combattants").click()
    expect(gm.locator("#cast")).to_contain_text("Aldric")
    for watched in (gm_watched, aldric, lyra):
        watched.assert_clean()
