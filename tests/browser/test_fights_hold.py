"""Nothing lost, again: each break the hostile trial found in the list of
fights, the checkpoint and the start, replayed in the real page at 390×844, storage faults
injected as the trial did (an init script wrapping the page's storage). Each of these tests fails
on the release before the list of fights was made to hold. The list's transactions are also run at random, with every kind
of failed write, by tests/test_fight_list.py."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from conftest import STORAGE_FAULTS, NewPhone, Shot, save_text, store, stored, until_stored, wait_ready
from helpers import CASTS, add_fighter, fight_log, hold_clock
from playwright.sync_api import expect

from engine import save
from engine.codec import encode
from engine.play import fold
from engine.table import Table

FAULTS = STORAGE_FAULTS


def index_of(page: Any) -> Any:
    """The list of fights as the page keeps it."""
    return json.loads(stored(page, "riposte.fights"))


def menu(page: Any) -> Any:
    page.get_by_role("button", name="Partie").click()
    return page.locator("#fights")


def made(names: list[str], rounds: int = 0, seed: int = 1) -> Table:
    """A fight played by the engine itself: ``names`` added, ``rounds`` rounds of dice."""
    table = Table(rng=random.Random(seed))
    for name in names:
        sheet = {k: x for k, x in CASTS.get(name.lower(), {}).items() if k != "id"}
        assert table.apply({"type": "add_combatant", "combatant": {**sheet, "name": name}})["ok"]
    for _ in range(rounds):
        assert table.apply({"type": "start_round"})["ok"]
        assert table.apply({"type": "end_round"})["ok"]
    return table


def text_of(table: Table) -> str:
    return str(table.export(True)["text"])


def listed(fights: dict[str, str], current: str, names: dict[str, str] | None = None, nxt: int | None = None) -> str:
    """An init script that puts a list of fights in storage (once per tab), as an earlier
    page would have left it: ``fights`` id -> save text, ``current`` the open one."""
    items = {"riposte.encounter": fights[current],
             "riposte.fights": json.dumps({"version": 1, "current": current, "next": nxt or len(fights) + 1, "fights": [
                 {"id": i, "name": (names or {}).get(i, f"Combat {i[1:]}"), "created": "2026-11-30T10:00:00.000Z",
                  "updated": f"2026-11-30T10:0{n}:00.000Z", "round": 0, "fighters": 0}
                 for n, i in enumerate(fights)]})}
    items.update({f"riposte.fight.{i}": text for i, text in fights.items() if i != current})
    return ("if (!sessionStorage.getItem('riposte.test.listed')) { sessionStorage.setItem('riposte.test.listed', '1');"
            f" for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }}")


def board_names(page: Any) -> Any:
    return page.locator("#board .fighter .name")


def expect_fighters(page: Any, *names: str) -> None:
    """The board shows exactly these fighters (in the order of their initiative)."""
    expect(board_names(page)).to_have_count(len(names))
    assert sorted(board_names(page).all_text_contents()) == sorted(names)


def test_two_imports_at_once_keep_every_fight_and_the_one_opened(phone: Any) -> None:
    """Item 1: a list of 120 fights and, at once, a single fight (two files chosen in a row,
    the second before the first is read): both go in, in order, each with an id of its
    own; the single one is open, what is played on it survives a reload, the list is whole."""
    page = phone.page
    bundle = json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": [
        {"name": f"Préparé {n}", "save": save_text([{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}}])}
        for n in range(120)]})
    single = save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}])
    menu(page)
    page.evaluate("""(files) => {
      const input = document.querySelector("#import");
      for (const [name, text] of files) {
        const chosen = new DataTransfer();
        chosen.items.add(new File([text], name, { type: "application/json" }));
        input.files = chosen.files;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }""", [["liste.json", bundle], ["embuscade.json", single]])
    # Both taken, whatever their order (the empty fight the single one opened over, never
    # touched, not kept).
    until_stored(page, lambda t: t is not None and len(json.loads(t)["fights"]) == 121, "riposte.fights", timeout=60)
    page.get_by_role("button", name="Plateau").click()  # the board is drawn as it shows
    expect_fighters(page, "Lyra")
    add_fighter(page, "Borin", "pj", {"melee": 3}, {})
    page.reload()
    wait_ready(page)
    page.get_by_role("button", name="Plateau").click()
    expect_fighters(page, "Lyra", "Borin")
    index = index_of(page)
    ids = [f["id"] for f in index["fights"]]
    assert len(ids) == len(set(ids)) == 121
    assert next(f for f in index["fights"] if f["id"] == index["current"])["name"] == "embuscade"
    kept = stored(page, None)
    assert all(f"riposte.fight.{i}" in kept for i in ids if i != index["current"])
    phone.assert_clean()


def test_two_quick_opens_lose_no_fight(new_phone: NewPhone) -> None:
    """Item 2: « Ouvrir » on a large fight, then at once on another: they open in turn; the
    first keeps its text in the list (the trial's « plus dans le stockage »)."""
    big = [text_of(made(["Aldric", "Orque", "Lyra", "Gobelin"] * 8, rounds=150, seed=n)) for n in (2, 3)]
    assert all(len(t) > 80_000 for t in big)  # a few hundred ms to open in the page
    phone = new_phone(init_script=listed({"f1": save_text(fight_log()), "f2": big[0], "f3": big[1]}, "f1"))
    page = phone.page
    fights = menu(page)
    # The two taps in one task: the second lands before the first open has done anything
    # (two separate clicks let a loaded machine redraw the list in between, losing the tap).
    fights.get_by_role("button", name="Ouvrir Combat 2").evaluate(
        "(first) => { const second = first.closest('ul').querySelector('[aria-label=\"Ouvrir Combat 3\"]');"
        " first.click(); second.click(); }")
    expect(page.locator("#fights-note")).to_contain_text("« Combat 3 » est ouvert", timeout=60_000)
    assert index_of(page)["current"] == "f3"
    kept = stored(page, None)
    assert json.loads(kept["riposte.fight.f2"])["commands"] == json.loads(big[0])["commands"]
    assert json.loads(kept["riposte.encounter"])["commands"] == json.loads(big[1])["commands"]
    assert len(json.loads(kept["riposte.fight.f1"])["commands"]) == len(fight_log())
    phone.assert_clean()


#: Six fights of one guard each, as the list keeps them (by id).
SIX = {f"f{n}": save_text([{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}}]) for n in range(1, 7)}


def finger_on_a_delete(new_phone: NewPhone) -> tuple[Any, Any]:
    """Six fights in the list, the page's clock held (``page.clock``: it moves only as the
    test moves it), the pointer on the second row's « Supprimer »: the phone and the list."""
    phone = new_phone(init_script=listed(SIX, "f1"))
    page = phone.page
    fights = menu(page)
    expect(fights.locator("li")).to_have_count(6)
    delete = fights.locator("li").nth(1).get_by_role("button", name="Supprimer")
    delete.scroll_into_view_if_needed()  # the list is below « Partie »'s settings
    box = delete.bounding_box()
    page.clock.install()
    hold_clock(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return phone, fights


def test_a_burst_of_taps_on_delete_acts_once_and_every_delete_comes_back(new_phone: NewPhone) -> None:
    """Item 3: five taps in a second on « Supprimer » delete one fight (the rows move up under
    the finger); deleting asks nothing, and « Annuler la suppression » brings back every
    fight deleted, the last one first. The taps are 200 ms apart in the page's time, which
    stands still but for the test's moves (``page.clock``), however busy the machine. The
    list is drawn anew between the second tap's press and its release, so that it meets no
    button (as on a busy phone), and the burst goes on through it."""
    phone, fights = finger_on_a_delete(new_phone)
    page = phone.page
    for tap in range(5):
        page.mouse.down()
        if tap == 1:  # the list drawn anew under the pressed finger, another row there
            expect(fights.locator("li")).to_have_count(5)
        page.mouse.up()
        page.clock.run_for(200)
    page.clock.resume()
    expect(page.locator("#fights-note")).to_contain_text("supprimé")
    expect(fights.locator("li")).to_have_count(5)
    # Two more, one by one (the last row each time: never the same place), then all back.
    for count in (4, 3):
        fights.locator("li").last.get_by_role("button", name="Supprimer").click()
        expect(fights.locator("li")).to_have_count(count)
    for count in (4, 5, 6):
        page.locator("#fights-note button").press("Enter")
        expect(fights.locator("li")).to_have_count(count)
    expect(page.locator("#fights-note button")).to_have_count(0)
    names = sorted(f["name"] for f in index_of(page)["fights"])
    assert names == [f"Combat {n}" for n in range(1, 7)]
    kept = stored(page, None)
    assert all(kept[f"riposte.fight.f{n}"] == SIX[f"f{n}"] for n in range(2, 7))
    phone.assert_clean()


def test_storage_refusing_every_call_leaves_the_engine_on_the_fight_shown(new_phone: NewPhone, tmp_path: Path) -> None:
    """Item 4: with localStorage throwing, « Nouveau combat vide » and a file are refused,
    said, and the engine stays on the fight the board shows: the next tap (undo) works on
    it, its three fighters all there."""
    three = [*fight_log()[:2], {"type": "add_combatant", "combatant": CASTS["lyra"]}]
    phone = new_phone(save=save_text(three), init_script=FAULTS)
    page = phone.page
    expect_fighters(page, "Aldric", "Orque", "Lyra")
    page.evaluate("window.faults = {kind: 'unavailable'}")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat vide").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(page.locator("#message")).to_have_text("Le stockage du navigateur refuse l'écriture : rien n'a changé.")
    path = tmp_path / "autre.json"
    path.write_text(save_text([{"type": "add_combatant", "combatant": CASTS["gobelin"]}]), encoding="utf-8")
    page.locator("#import").set_input_files(str(path))
    page.locator("#confirm-dialog").get_by_role("button", name="Ouvrir ce combat").click()
    expect(page.locator("#message")).to_have_text("Le stockage du navigateur refuse l'écriture : rien n'a changé.")
    page.get_by_role("button", name="Plateau").click()
    expect_fighters(page, "Aldric", "Orque", "Lyra")
    page.locator("#undo").click()  # the engine's fight is the board's: undo takes Lyra back
    expect_fighters(page, "Aldric", "Orque")
    phone.errors.clear()  # the page says storage is unavailable; nothing else may be logged
    phone.assert_clean()


def ghost_checkpoint(table: Table, at: int) -> str:
    """A checkpoint as an older release kept it, for ``table``'s first ``at`` commands, whose
    state has one fighter more: its hash (of the log's text alone) still matches."""
    log = save.parse(text_of(table))["commands"][:at]
    enc, result = fold(log)
    assert result["ok"]
    enc = replace(enc, combatants=(*enc.combatants, replace(enc.combatants[0], id="c99", name="Fantôme")))
    digest = hashlib.sha256(",".join(save.command_text(c) for c in log).encode("utf-8", "surrogatepass")).hexdigest()
    return json.dumps({"at": at, "hash": digest, "state": encode(enc)}, ensure_ascii=False)


def test_a_checkpoint_edited_by_hand_never_reaches_the_fight(new_phone: NewPhone) -> None:
    """Item 5: a kept checkpoint whose hash matches the log but whose state holds a ghost
    fighter (the trial's hand edit; or an older release's, right for its own rules) is not
    trusted: the log is replayed, the fight is the one saved and still exports."""
    table = made(["Aldric", "Orque"], rounds=26)
    text = text_of(table)
    assert len(save.parse(text)["commands"]) > 50
    ghost = ghost_checkpoint(table, 50)
    script = ("if (!sessionStorage.getItem('riposte.test.ghost')) { sessionStorage.setItem('riposte.test.ghost', '1');"
              f" localStorage.setItem('riposte.encounter', {json.dumps(text)});"
              f" localStorage.setItem('riposte.checkpoint', {json.dumps(ghost)}); }}")
    phone = new_phone(init_script=script)
    page = phone.page
    expect_fighters(page, "Aldric", "Orque")
    # The page's own checkpoint, its state edited and its seal kept: not trusted either.
    kept = json.loads(until_stored(page, lambda k: k is not None, "riposte.checkpoint"))
    assert kept["engine"] and kept["at"] == 50
    kept["state"] = json.loads(ghost)["state"]
    store(page, "riposte.checkpoint", json.dumps(kept))
    page.reload()
    wait_ready(page)
    expect_fighters(page, "Aldric", "Orque")
    assert Table().load(stored(page))["ok"]
    phone.assert_clean()


def test_the_start_never_lets_a_left_over_overwrite_the_open_fight(new_phone: NewPhone) -> None:
    """Item 6: a damaged riposte.fight.<current> beside an intact open fight (an older page's
    switch cut short, a hand edit): the open fight opens as it was, the left-over is kept
    as a fight of its own, and the page says so."""
    open_fight = save_text(fight_log())
    script = listed({"f1": open_fight, "f2": save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}])}, "f1")
    script += " if (!sessionStorage.getItem('riposte.test.left')) { sessionStorage.setItem('riposte.test.left', '1');" \
              f" localStorage.setItem('riposte.fight.f1', {json.dumps(open_fight[:40])}); }}"
    phone = new_phone(init_script=script)
    page = phone.page
    expect_fighters(page, "Aldric", "Orque")
    expect(page.locator("#message")).to_contain_text("Un combat du stockage du navigateur manquait à la liste")
    assert len(json.loads(stored(page))["commands"]) == len(fight_log())
    fights = menu(page)
    expect(fights.locator(".name")).to_have_text(["Combat 1", "Combat 1 (retrouvé)", "Combat 2"])  # the open one, then the latest
    phone.assert_clean()


def test_a_list_whose_next_is_behind_its_ids_never_gives_an_id_twice(new_phone: NewPhone) -> None:
    """Item 6: ``next`` behind the ids the list holds: a new fight takes an id of its own,
    and a reload finds every fight with its own text."""
    other = save_text([{"type": "add_combatant", "combatant": CASTS["lyra"]}])
    phone = new_phone(init_script=listed({"f1": save_text(fight_log()), "f2": other}, "f1", nxt=2))
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat vide").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(page.locator("#cast")).to_contain_text("Aucun combattant")
    page.reload()
    wait_ready(page)
    index = index_of(page)
    assert sorted(f["id"] for f in index["fights"]) == ["f1", "f2", "f3"] and index["current"] == "f3"
    assert stored(page, "riposte.fight.f2") == other
    phone.assert_clean()


def test_a_list_import_that_storage_cuts_short_says_what_was_kept(new_phone: NewPhone, tmp_path: Path) -> None:
    """Item 7: storage full after three fights of a list of ten: three added, seven not, and
    the message says which; full at the list's own write: nothing added, said so."""
    phone = new_phone(save=save_text(fight_log()), init_script=FAULTS)
    page = phone.page
    bundle = tmp_path / "dix.json"
    bundle.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": [
        {"name": f"Embuscade {n}", "save": save_text([{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}}])}
        for n in range(1, 11)]}), encoding="utf-8")
    menu(page)
    page.evaluate("window.faults = {keys: 'riposte.fight.', kind: 'full', after: 3}")
    page.locator("#import").set_input_files(str(bundle))
    expect(page.locator("#message")).to_have_text(
        "3 combats ajoutés à la liste ; 7 non ajoutés, à partir de « Embuscade 4 » : le stockage du navigateur est plein. "
        "Le combat ouvert n'a pas changé.")
    expect(page.locator("#fights .name")).to_have_count(4)
    page.evaluate("window.faults = {keys: 'riposte.fights', kind: 'full'}")
    page.locator("#import").set_input_files(str(bundle))
    expect(page.locator("#message")).to_have_text(
        "Le stockage du navigateur est plein : rien n'a changé. Exportez la liste des combats, puis supprimez-en quelques-uns. "
        "Aucun des 10 combats du fichier n'a été ajouté.")
    page.evaluate("window.faults = null")
    kept = stored(page, None)
    assert len([k for k in kept if k.startswith("riposte.fight.")]) == 3  # nothing left behind
    assert len(index_of(page)["fights"]) == 4
    phone.assert_clean()


def test_a_switch_keeps_the_engines_fight_not_what_storage_held(fight: Any) -> None:
    """Item 8: the open fight's key emptied between two taps (another tab, storage cleared):
    a new fight keeps the engine's fight in the list, which opens whole again."""
    page = fight.page
    store(page, "riposte.encounter", "")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Nouveau combat vide").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Commencer").click()
    expect(page.locator("#cast")).to_contain_text("Aucun combattant")
    menu(page).get_by_role("button", name="Ouvrir Combat 1").click()
    expect_fighters(page, "Aldric", "Orque")
    # Written once the switch is done: waited for, not read at once.
    until_stored(page, lambda text: bool(text) and len(json.loads(text)["commands"]) == len(fight_log()))
    fight.assert_clean()


def link_of(commands: list[dict[str, Any]]) -> str:
    """The fragment of a share link to ``commands`` (web/infra/share-links.js: the engine's link
    text, deflated, in base64url)."""
    table = Table()
    assert table.load(save_text(commands))["ok"]
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = squeeze.compress(table.link()["text"].encode("utf-8")) + squeeze.flush()
    return "z=" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def test_a_page_that_opened_riposte_cannot_add_fights_by_its_address(new_phone: NewPhone, site_url: str) -> None:
    """Item 12: a page opens Riposte (window.open) and sets its address ten times, a fight
    link each time, some while the question is open: one question, even over an empty
    fight, and no fight added unless it is answered yes; the players' view it asks for is asked about too."""
    opener = new_phone("about:blank", ready=False)
    with opener.page.context.expect_page() as popup:
        opener.page.evaluate("(u) => { window.riposte = window.open(u); }", site_url)
    page = popup.value
    wait_ready(page)
    link = link_of([{"type": "add_combatant", "combatant": CASTS["gobelin"]}])
    dialog = page.locator("#confirm-dialog")
    page.evaluate("() => { window.arrived = 0; addEventListener('hashchange', () => window.arrived++); }")
    for n in range(10):
        opener.page.evaluate("(u) => { window.riposte.location.href = u; }", f"{site_url}#{link}&n={n}")
        if n == 4:
            # The last five arrive while the question is open: an address change is
            # not the back button, the question stays (infra/back.js).
            expect(dialog.get_by_role("button", name="Garder le combat en cours")).to_be_visible()
    page.wait_for_function("() => window.arrived === 10")  # another window's navigations arrive later
    expect(dialog).to_contain_text("Ce lien a été mis dans l'adresse par une autre page.")
    dialog.get_by_role("button", name="Garder le combat en cours").click()
    expect(page.locator("#message")).to_have_text("Combat en cours gardé.")
    expect(dialog).to_be_hidden()
    assert [f["name"] for f in index_of(page)["fights"]] == ["Combat 1"]
    assert "#" not in page.url
    opener.page.evaluate("(u) => { window.riposte.location.href = u; }", f"{site_url}#vue=joueurs")
    expect(dialog).to_contain_text("Afficher la vue des joueurs ?")
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#screen-players")).to_be_hidden()


def test_a_link_put_in_the_address_again_and_again_asks(phone: Any) -> None:
    """Item 12, without window.opener: a link put in the address of an open tab once opens
    as at start (over an empty fight, no question); another one seconds later was put
    there by a page, not typed: it asks, and kept means no fight added. The seconds between
    the two are the page's clock's (held: ``page.clock``), however long the first takes to
    open on a busy machine."""
    page = phone.page
    page.clock.install()
    hold_clock(page)
    gobelin = link_of([{"type": "add_combatant", "combatant": CASTS["gobelin"]}])
    lyra = link_of([{"type": "add_combatant", "combatant": CASTS["lyra"]}])
    page.evaluate("(h) => { location.hash = h; }", gobelin)
    expect(page.locator("#message")).to_have_text("Combat ouvert (lien).")
    expect_fighters(page, "Gobelin")
    page.evaluate("(h) => { location.hash = h; }", lyra)
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Ce lien a été mis dans l'adresse par une autre page.")
    dialog.get_by_role("button", name="Garder le combat en cours").click()
    expect(page.locator("#message")).to_have_text("Combat en cours gardé.")
    expect_fighters(page, "Gobelin")
    # The link's fight alone: the empty fight it opened over, never touched, is not kept.
    assert [f["name"] for f in index_of(page)["fights"]] == ["Combat reçu par lien"]
    phone.assert_clean()


def test_a_link_that_arrives_while_the_start_asks_is_dropped(new_phone: NewPhone, site_url: str) -> None:
    """Item 12 at start: a page opened on a link over a fight asks about it; a second link
    put in the address meanwhile is dropped (the address cleared, nothing asked about it),
    and answering the first keeps the fight and adds none. The back button, under the new
    link's entry, closes nothing (infra/back.js)."""
    gobelin = link_of([{"type": "add_combatant", "combatant": CASTS["gobelin"]}])
    lyra = link_of([{"type": "add_combatant", "combatant": CASTS["lyra"]}])
    phone = new_phone(f"{site_url}#{gobelin}", save=save_text(fight_log()))
    page = phone.page
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("1 combattant : Gobelin.")
    page.evaluate("(h) => new Promise((done) => { addEventListener('hashchange', done, { once: true }); location.hash = h; })", lyra)
    page.wait_for_function("() => location.hash === ''")
    expect(dialog).to_contain_text("1 combattant : Gobelin.")  # the question asked, not the new link's
    page.go_back()  # lands on the question's own entry, not under it: nothing answered
    expect(dialog).to_contain_text("1 combattant : Gobelin.")
    dialog.get_by_role("button", name="Garder le combat en cours").click()
    expect(page.locator("#message")).to_have_text("Combat en cours gardé.")
    expect(dialog).to_be_hidden()
    assert len(index_of(page)["fights"]) == 1
    assert "#" not in page.url
    phone.assert_clean()


def test_the_cosmetic_ones(new_phone: NewPhone, tmp_path: Path, shot: Shot) -> None:
    """Item 13, each said exactly: a name's right-to-left override does not reverse the
    list's note; a 5,000-digit number is a number too long, not nesting; 2,000,001
    characters are 2001 kB; half a character is refused where it is typed (a fight's name,
    a fighter's); an imported list's 3 MB `updated` is not kept."""
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    fights = menu(page)
    fights.get_by_role("button", name="Renommer Combat 1").click()
    fights.get_by_label("Nouveau nom de Combat 1").fill("\u202eLe pont")
    fights.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#fights-note")).to_have_text("Renommé « Le pont ».")
    # Half a character (a lone surrogate) typed: refused where it is typed.
    fights.locator("li").first.get_by_role("button", name="Renommer").click()
    fights.locator("input").evaluate("(i) => { i.value = 'Pont \\ud800'; }")
    fights.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#fights-note")).to_contain_text("Nom : une moitié de caractère")
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    dialog.locator("#f-name").evaluate("(i) => { i.value = 'Orc \\udc00'; i.dispatchEvent(new Event('input', { bubbles: true })); }")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error")).to_contain_text("une moitié de caractère")
    shot(page, "half-character.png")
    dialog.get_by_role("button", name="Annuler").click()
    expect(dialog).to_be_hidden()
    menu(page)
    for content, said in [
        ('{"app": "riposte", "format": 2, "commands": [{"type": "add_combatant", "combatant": {"name": "A", "value": '
         + "7" * 5000 + "}}]}", "un nombre de plus de 4300 chiffres"),
        (save_text([])[:-1] + " " * (2_000_001 - len(save_text([]))) + "}", "2001 ko (au plus 2000 ko)"),
    ]:
        path = tmp_path / "hostile.json"
        path.write_text(content, encoding="utf-8")
        page.locator("#import").set_input_files(str(path))
        expect(page.locator("#message")).to_contain_text(said)
    bundle = tmp_path / "dates.json"
    bundle.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": [
        {"name": "Daté", "updated": "2" * 3_000_000, "save": save_text(fight_log())}]}), encoding="utf-8")
    page.locator("#import").set_input_files(str(bundle))
    expect(page.locator("#message")).to_contain_text("1 combat ajouté à la liste")
    assert len(stored(page, "riposte.fights")) < 2_000
    phone.assert_clean()
