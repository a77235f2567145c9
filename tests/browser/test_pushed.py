"""Pushed: nothing lost when two tabs open one fight, when a fight grows past
what can be saved, when storage refuses a write; nothing accepted that cannot be read
again; no link so long to replay that it stops the engine. Payloads of our own."""

from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path
from typing import Any

from conftest import PHONE, NewPhone, Watched, full_when, stored, until_stored, wait_ready
from helpers import CASTS, add_fighter, card, expect_pi, save_text
from playwright.sync_api import expect


def link_of(site_url: str, text: str) -> str:
    """A share link as web/infra/share-links.js makes it: raw deflate, base64url, in the fragment."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return site_url + "#c=" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def soldiers(count: int) -> list[dict[str, Any]]:
    """``count`` fighters from the casts, numbered, as add_combatant commands."""
    names = list(CASTS)
    return [{"type": "add_combatant", "combatant": {**{k: x for k, x in CASTS[names[i % len(names)]].items() if k != "id"},
                                                    "name": f"Soldat {i + 1}", "id": f"s{i + 1}"}} for i in range(count)]


# --- 1. two tabs, one writer --------------------------------------------------------------
def second_tab(first: Any, site_url: str) -> Watched:
    """A second tab on the fight of ``first``'s tab, ready: it follows the first, which writes."""
    second = Watched(first.context.new_page(), site_url.rstrip("/"))
    second.page.goto(site_url)
    wait_ready(second.page)
    expect(first.locator("html")).to_have_attribute("data-writer", "writer")
    expect(second.page.locator("html")).to_have_attribute("data-writer", "follower")
    return second


def test_a_second_tab_follows_read_only_until_it_takes_over(fight: Any, site_url: str) -> None:
    first = fight.page
    second = second_tab(first, site_url)
    other = second.page
    expect(other.locator("#writer")).to_contain_text("ouvert dans un autre onglet")
    expect(first.locator("#writer")).to_be_hidden()

    # The first tab writes; the second follows it live.
    card(first, "Orque").get_by_role("button", name="Passer").click()
    expect(card(other, "Orque")).to_contain_text("a passé")
    add_fighter(first, "Ysolde", "pj", {"melee": 5}, {})
    other.get_by_role("button", name="Combattants").click()
    expect(other.locator("#cast")).to_contain_text("Ysolde")

    # The second refuses every change, says why, and writes nothing.
    saved = until_stored(first, lambda text: "Ysolde" in text)
    other.get_by_role("button", name="Dupliquer Aldric").click()
    expect(other.locator("#screen-cast .row-note")).to_contain_text("lecture seule")
    other.locator("#undo").click()  # undo, from the header (labelled with what it takes back)
    expect(other.locator("#message")).to_contain_text("Prendre la main")
    assert stored(other) == saved
    expect(other.locator("#cast .name")).to_have_count(3)

    # « Prendre la main »: the second writes, the first follows and says so.
    other.get_by_role("button", name="Prendre la main").click()
    expect(other.locator("html")).to_have_attribute("data-writer", "writer")
    expect(other.locator("#writer")).to_be_hidden()
    expect(first.locator("#writer")).to_contain_text("Un autre onglet a pris la main")
    add_fighter(other, "Gaspard", "pnj", {"melee": 4}, {})
    first.get_by_role("button", name="Combattants").click()
    expect(first.locator("#cast")).to_contain_text("Gaspard")
    first.get_by_role("button", name="Dupliquer Aldric").click()
    expect(first.locator("#screen-cast .row-note")).to_contain_text("lecture seule")

    # Nothing was overwritten: a reload of either tab has every fighter.
    first.reload()
    wait_ready(first)
    first.get_by_role("button", name="Combattants").click()
    expect(first.locator("#cast .name")).to_have_text(["Aldric", "Orque", "Ysolde", "Gaspard"])
    expect(first.locator("html")).to_have_attribute("data-writer", "follower")
    other.close()  # the writer's tab closes: the one that followed writes again
    expect(first.locator("html")).to_have_attribute("data-writer", "writer")
    expect(first.locator("#message")).to_contain_text("L'autre onglet est fermé")
    card_count = first.locator("#cast .name")
    first.get_by_role("button", name="Dupliquer Gaspard").click()
    expect(card_count).to_have_count(5)
    second.assert_clean()
    fight.assert_clean()


#: How many times a tab's engine has read a whole fight (web/boot/engine.js marks each load).
LOADS = "performance.getEntriesByName('riposte:load').length"


def test_a_second_tab_of_a_long_fight_takes_the_writers_answers(new_phone: NewPhone, site_url: str) -> None:
    """A follower shows each of the writer's taps from the writer's answer (its board and
    counts), without its engine replaying the fight's 1,232 commands each time; its engine
    reads the save once, when asked something (the journal), and a tab that takes over
    writes on the whole fight."""
    rng = random.Random(27)
    log = soldiers(30)
    for _ in range(600):
        log += [{"type": "start_round", "rolls": {f"s{i + 1}": rng.randint(1, 6) for i in range(30)}}, {"type": "end_round"}]
    log.append({"type": "start_round", "rolls": {f"s{i + 1}": 1 + i % 6 for i in range(30)}})
    first = new_phone(save=save_text(log))
    page = first.page
    second = second_tab(page, site_url)
    other = second.page
    expect(other.locator("#round")).to_have_text("Tour 601")
    assert other.evaluate(LOADS) == 1  # the start's

    # Five passes in the writer's tab ("P": whoever acts passes), each shown by the follower.
    for n in range(5):
        undo = page.locator("#undo").inner_text()
        page.keyboard.press("p")
        expect(page.locator("#undo")).not_to_have_text(undo)
        expect(other.locator("#undo")).to_have_text(page.locator("#undo").inner_text())
        expect(other.locator("#turn")).to_have_text(page.locator("#turn").inner_text())
        expect(other.locator("#board li.passed")).to_have_count(n + 1)
    assert other.evaluate(LOADS) == 1  # the writer's answers, taken as they came

    # Asked for the journal, the follower's engine reads the fight once, and has every pass.
    other.get_by_role("button", name="Journal").click()
    passed = page.locator("#board li.passed .name").all_inner_texts()
    for name in passed:
        expect(other.locator("#journal")).to_contain_text(f"{name} passe")
    assert other.evaluate(LOADS) == 2

    # Taking over: the second tab writes on the whole fight, the first follows its answers.
    other.get_by_role("button", name="Prendre la main").click()
    expect(page.locator("html")).to_have_attribute("data-writer", "follower")
    page.wait_for_function(f"{LOADS} === 2")  # its start's, and the save read again: the new writer's is the truth
    expect(other.locator("html")).to_have_attribute("data-writer", "writer")  # the lock taken: it writes now
    other.get_by_role("button", name="Plateau").click()
    other.keyboard.press("p")
    expect(other.locator("#board li.passed")).to_have_count(6)
    expect(page.locator("#board li.passed")).to_have_count(6)
    expect(page.locator("#undo")).to_have_text(other.locator("#undo").inner_text())
    assert page.evaluate(LOADS) == 2
    other.reload()
    wait_ready(other)
    expect(other.locator("#board li.passed")).to_have_count(6)
    expect(other.locator("#round")).to_have_text("Tour 601")
    second.assert_clean()
    first.assert_clean()


NO_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"


def test_without_web_locks_the_tabs_still_agree(new_phone: NewPhone, site_url: str) -> None:
    """Old Safari (before 15.4), or a page served over plain http on the LAN: no
    navigator.locks; the tabs agree over a BroadcastChannel."""
    first = new_phone(init_script=NO_LOCKS)
    page = first.page
    assert page.evaluate("navigator.locks === undefined")
    other = page.context.new_page()
    other.goto(site_url)
    wait_ready(other)
    expect(page.locator("html")).to_have_attribute("data-writer", "writer")
    expect(other.locator("html")).to_have_attribute("data-writer", "follower")
    add_fighter(page, "Ysolde", "pj", {"melee": 5}, {})
    other.get_by_role("button", name="Combattants").click()
    expect(other.locator("#cast")).to_contain_text("Ysolde")
    other.get_by_role("button", name="Prendre la main").click()
    expect(page.locator("#writer")).to_contain_text("Un autre onglet a pris la main")
    add_fighter(other, "Gaspard", "pnj", {"melee": 4}, {})
    page.get_by_role("button", name="Combattants").click()
    expect(page.locator("#cast .name")).to_have_text(["Ysolde", "Gaspard"])
    first.assert_clean()


# --- 2, 9. the same limits at every door --------------------------------------------------
def test_the_65th_fighter_is_refused_next_to_what_was_tapped(new_phone: NewPhone) -> None:
    watched = new_phone(save=save_text(soldiers(64)))
    page = watched.page
    page.get_by_role("button", name="Combattants").click()
    expect(page.locator("#cast .name")).to_have_count(64)
    # A model named without its number (the board's model_name): « Soldat ».
    page.get_by_role("button", name="Enregistrer Soldat 2 comme modèle").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    note = page.locator("#new-fighter + .row-note")
    expect(note).to_have_text("Au plus 64 combattants dans un combat : retirez-en un avant d'en ajouter un autre.")
    expect(page.locator("#fighter-dialog")).to_be_hidden()
    page.get_by_role("button", name="Dupliquer Soldat 7").click()
    row = page.locator("#cast li", has=page.get_by_role("button", name="Dupliquer Soldat 7"))
    expect(row.locator(".row-note")).to_contain_text("Au plus 64 combattants")
    page.locator("#models").get_by_role("button", name="Ajouter des exemplaires de Soldat").click()
    expect(page.locator("#models .row-note")).to_contain_text("Au plus 64 combattants")
    expect(page.locator("#cast .name")).to_have_count(64)
    # 64 can play: a round starts with every one of them.
    page.get_by_role("button", name="Initiative").click()
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect(page.locator("#board li.fighter")).to_have_count(64)
    watched.assert_clean()


def test_a_short_link_too_long_to_replay_is_refused_up_front(fight: Any, site_url: str) -> None:
    """64 fighters and 20,000 start/end pairs in a 4 KB link: refused before any replay,
    with the limit named; the engine stays responsive, the fight is untouched."""
    commands = [{"type": "add_combatant", "combatant": {"name": f"F{i}"}} for i in range(64)]
    commands += [{"type": "start_round"}, {"type": "end_round"}] * 20_000
    link = link_of(site_url, json.dumps({"app": "riposte", "format": 2, "commands": commands}))
    assert len(link) < 5_000
    page = fight.page
    page.goto(link)
    wait_ready(page)
    message = page.locator("#message")
    expect(message).to_contain_text("Lien de partage refusé : Combat trop long : 40064 commandes (au plus 12000", timeout=10_000)
    expect(message).to_contain_text("intact")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    card(page, "Orque").get_by_role("button", name="Passer").click()  # the engine answers
    expect(card(page, "Orque")).to_contain_text("a passé")
    expect_pi(page, Aldric=5)
    fight.assert_clean()


def test_a_fight_of_30_fighters_and_300_rounds_saves_reloads_and_travels(fight: Any, new_phone: NewPhone,
                                                                         tmp_path: Path) -> None:
    rng = random.Random(12)
    log = soldiers(30)
    for _ in range(300):
        log += [{"type": "start_round", "rolls": {f"s{i + 1}": rng.randint(1, 6) for i in range(30)}}, {"type": "end_round"}]
    path = tmp_path / "long.json"
    path.write_text(save_text(log), encoding="utf-8")
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.locator("#import").set_input_files(str(path))
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Tour 300 — 30 combattants")
    dialog.get_by_role("button", name="Ouvrir ce combat").click()
    expect(page.locator("#round")).to_have_text("Tour 300 — terminé")
    expect(page.locator("#message")).to_have_text("Combat ouvert (fichier).")
    page.reload()  # the autosave reads back
    wait_ready(page)
    expect(page.locator("#round")).to_have_text("Tour 300 — terminé")
    expect(page.locator("#message")).to_be_hidden()
    page.get_by_role("button", name="Partie").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter le combat (.json)").click()
    exported = tmp_path / "export.json"
    download.value.save_as(exported)
    assert len(json.loads(exported.read_text(encoding="utf-8"))["commands"]) == 630
    other = new_phone()
    other.page.get_by_role("button", name="Partie").click()
    other.page.locator("#import").set_input_files(str(exported))  # no fighter to keep: no question
    expect(other.page.locator("#round")).to_have_text("Tour 300 — terminé")
    other.assert_clean()
    fight.assert_clean()


def test_a_file_too_long_to_replay_is_refused_with_the_limit(fight: Any, tmp_path: Path) -> None:
    log = soldiers(2) + [{"type": "start_round"}, {"type": "end_round"}] * 6_100
    path = tmp_path / "trop-long.json"
    path.write_text(save_text(log), encoding="utf-8")
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.locator("#import").set_input_files(str(path))
    expect(page.locator("#message")).to_contain_text("Fichier refusé : Combat trop long : 12202 commandes (au plus 12000")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    page.get_by_role("button", name="Plateau").click()
    expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


# --- 3, 4. what storage refuses is said, and nothing is overwritten -----------------------
FULL = """(() => {
  const write = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (this === localStorage && localStorage.getItem('riposte.test.full') === '1') {
      throw new DOMException('plein', 'QuotaExceededError');
    }
    return write.call(this, key, value);
  };
  if (!sessionStorage.getItem('riposte.test.filled')) {
    write.call(localStorage, 'riposte.test.full', '1');
    write.call(sessionStorage, 'riposte.test.filled', '1');
  }
})();""" + full_when("Storage.prototype.getItem.call(localStorage, 'riposte.test.full') === '1'")


def test_an_unreadable_save_that_cannot_be_set_aside_is_never_overwritten(new_phone: NewPhone, tmp_path: Path) -> None:
    truncated = save_text(soldiers(3))[:150]
    watched = new_phone(save=truncated, init_script=FULL)
    page = watched.page
    message = page.locator("#message")
    expect(message).to_contain_text("refuse de la mettre de côté")
    expect(page.locator("#held")).to_be_visible()
    # Full from the start: the fights never moved to IndexedDB, localStorage keeps them.
    local = "localStorage.getItem('riposte.encounter')"
    assert page.evaluate(local) == truncated
    # The storage works again, but nothing overwrites the unreadable save until it is taken.
    page.evaluate("localStorage.removeItem('riposte.test.full')")
    add_fighter(page, "Ysolde", "pj", {"melee": 5}, {})
    expect(message).to_contain_text("Non sauvegardé")
    assert page.evaluate(local) == truncated
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#aside")).to_be_visible()  # exportable from the menu as well
    with page.expect_download() as download:
        page.get_by_role("button", name="Télécharger la sauvegarde illisible").click()
    path = tmp_path / "illisible.json"
    download.value.save_as(path)
    assert path.read_text(encoding="utf-8") == truncated
    expect(message).to_contain_text("de nouveau sauvegardé")
    expect(page.locator("#held")).to_be_hidden()
    assert "Ysolde" in page.evaluate(local)
    page.reload()
    wait_ready(page)
    page.get_by_role("button", name="Combattants").click()
    expect(page.locator("#cast .name")).to_have_text(["Ysolde"])
    watched.assert_clean()


def test_storage_that_refuses_a_write_is_never_reported_as_saved(fight: Any) -> None:
    page = fight.page
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException('plein', 'QuotaExceededError'); }; }""")
    page.evaluate(full_when("true"))
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Enregistrer Orque comme modèle").click()
    message = page.locator("#message")
    expect(message).to_have_text("« Orque » n'est pas enregistré comme modèle : le stockage du navigateur refuse "
                                 "l'écriture (plein ou indisponible).")
    expect(page.locator("#models")).to_have_text("Aucun modèle pour l'instant.")
    page.get_by_role("button", name="Dupliquer Orque").click()  # a command: accepted, not saved
    expect(page.locator("#cast .name")).to_have_count(3)
    expect(message).to_contain_text("stockage du navigateur est plein")
    page.get_by_role("button", name="Partie").click()
    page.locator("#language").select_option("en")
    expect(message).to_contain_text("for this visit only")
    fight.assert_clean()


def test_two_tabs_fit_a_phone(fight: Any, site_url: str) -> None:
    """The follower's banner and its button fit the phone's width."""
    other = fight.page.context.new_page()
    other.goto(site_url)
    wait_ready(other)
    button = other.get_by_role("button", name="Prendre la main")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 44


def test_the_players_view_in_a_second_tab_follows_every_tap(new_phone: NewPhone, site_url: str) -> None:
    """The wall screen beside the game master's tab: a second tab of the same browser shows
    the players' view (« Vue joueurs ») while the first writes. Each tap of the writer is
    drawn there, from the players' board of that moment (engine/players.py), not only the
    first one."""
    first = new_phone(save=save_text([*soldiers(4), {"type": "start_round", "rolls": {"s1": 6, "s2": 4, "s3": 3, "s4": 1}}]))
    page = first.page
    wall = second_tab(page, site_url)
    wall.page.locator('.tabs button[data-screen="menu"]').click()
    wall.page.get_by_role("button", name="Ouvrir la vue joueurs").click()
    expect(wall.page.locator("#players-board li.fighter")).to_have_count(4)
    for _ in range(3):
        turn = page.locator("#turn").inner_text()
        page.keyboard.press("p")  # whoever acts passes
        expect(page.locator("#turn")).not_to_have_text(turn)
        expect(wall.page.locator("#players-board li.passed")).to_have_count(page.locator("#board li.passed").count())
        acting = page.locator("#board li.fighter.active .name").first.inner_text()
        expect(wall.page.locator("#players-turn")).to_contain_text(acting)
    first.assert_clean()
    wall.assert_clean()
