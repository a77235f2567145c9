"""« Partie » → « Règles de la table »: the group's rules (engine/regles.py) read from the
engine, edited within its bounds, refused field by field, applied from the next round;
the initiative screen and the board follow; the rules go with the share link and the
exported file; an old release's save opens with the book's rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import NewPhone, wait_ready
from helpers import card, fight_log, save_text
from playwright.sync_api import expect
from test_judged import SETTLED, axe

SAVES = Path(__file__).resolve().parents[1] / "saves"


def open_rules(page: Any) -> Any:
    page.get_by_role("button", name="Partie", exact=True).click()
    page.get_by_role("button", name="Règles de la table", exact=True).click()
    screen = page.locator("#screen-rules")
    expect(screen.locator("#rules-fields tr")).to_have_count(21)  # every field of the engine's rules
    return screen


def expect_rules(page: Any, **values: str) -> None:
    screen = open_rules(page)
    for name, value in values.items():
        expect(screen.locator(f"#rule-{name}")).to_have_value(value)


def pi_of(page: Any, name: str) -> int:
    text = card(page, name).locator(".pi").inner_text()
    found = re.search(r"-?\d+", text.replace("−", "-"))
    assert found is not None, text
    return int(found.group())


def test_the_table_s_rules_change_the_round_the_board_the_journal_and_travel_with_the_fight(
        fight: Any, new_phone: NewPhone, tmp_path: Path) -> None:
    page = fight.page
    screen = open_rules(page)
    # The engine's labels, rule numbers and bounds.
    row = screen.locator("tr[data-rule='cout_interruption']")
    expect(row).to_contain_text("coût d'une interruption (R3.2)")
    interruption = screen.get_by_label("coût d'une interruption (R3.2)")
    expect(interruption).to_have_value("5")
    expect(interruption).to_have_attribute("max", "99")
    expect(screen.get_by_label("faces du dé d'initiative (R1.2)")).to_have_attribute("min", "2")

    # Refused field by field, in French, next to each field: nothing changes.
    interruption.fill("100")
    screen.get_by_label("coût d'une action simple (R3.2)").fill("12")
    screen.get_by_role("button", name="Appliquer").click()
    expect(screen.locator("#rule-cout_interruption-error")).to_have_text("coût d'une interruption (R3.2) : de 0 à 99.")
    expect(interruption).to_have_attribute("aria-invalid", "true")
    expect(screen.locator("#rules-error")).to_contain_text("champ")
    expect(page.locator("#undo")).to_be_enabled()
    page.get_by_role("button", name="Journal", exact=True).click()
    expect(page.locator("#journal")).to_contain_text("Observer")
    expect(page.locator("#journal")).not_to_contain_text("Règles du groupe")

    # Interruption 4, a d8, from the next round (the default).
    screen = open_rules(page)
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    screen.get_by_label("faces du dé d'initiative (R1.2)").fill("8")
    screen.get_by_role("button", name="Appliquer").click()
    expect(page.locator("#message")).to_have_text("Règles de la table appliquées : le journal le dit.")
    expect(screen.locator("#rules-pending")).to_be_visible()
    expect(screen.locator("tr[data-rule='cout_interruption']")).to_contain_text("en vigueur à ce tour : 5")
    expect(screen.locator(".field-error")).to_have_count(0)
    page.get_by_role("button", name="Journal", exact=True).click()
    expect(page.locator("#journal")).to_contain_text(
        "Règles du groupe changées, dès le prochain tour : faces du dé d'initiative (R1.2) 6 → 8 ; "
        "coût d'une interruption (R3.2) 5 → 4.")

    expect(page.locator("#undo")).to_have_text("Annuler : règles de la table")
    # The initiative screen takes an 8 and refuses a 9, in words.
    page.get_by_role("button", name="Plateau", exact=True).click()
    page.get_by_role("button", name="Finir le tour").click()
    expect(page.locator("#next-round")).to_be_visible()
    page.get_by_role("button", name="Initiative", exact=True).click()
    aldric_die = page.locator("li.declaration", has_text="Aldric").locator("input")
    expect(aldric_die).to_have_attribute("data-faces", "8")
    aldric_die.fill("9")
    page.locator("li.declaration", has_text="Orque").locator("input").fill("8")
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("li.declaration", has_text="Aldric").locator(".field-error")).to_contain_text("de 1 à 8")
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")  # refused: nothing started
    aldric_die.fill("8")
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#screen-board")).to_be_visible()
    expect(page.locator("#round")).to_have_text("Tour 2")

    # The board's numbers: an interruption costs 4 P.I.
    before = pi_of(page, "Aldric")
    card(page, "Aldric").get_by_role("button", name="Interrompre").click()
    sheet = page.locator("#sheet")
    expect(sheet.locator('button[data-action="esquiver"]')).to_contain_text("4 P.I.")
    sheet.locator('button[data-action="esquiver"]').click()
    sheet.locator("[data-submit]").click()
    expect(sheet).to_be_hidden()
    expect(card(page, "Aldric").locator(".pi")).to_have_text(f"{before - 4} P.I.")

    # The share link and the exported file keep the rules.
    page.get_by_role("button", name="Partie", exact=True).click()
    page.get_by_role("button", name="Lien et code QR").click()
    expect(page.locator("#share-link")).to_have_value(re.compile("#z="))
    link = page.locator("#share-link").input_value()
    page.keyboard.press("Escape")
    with page.expect_download() as download:
        page.get_by_role("button", name="Exporter le combat (.json)").click()
    path = tmp_path / "combat.json"
    download.value.save_as(path)

    linked = new_phone()
    linked.page.goto(link)
    wait_ready(linked.page)
    expect(linked.page.locator("#message")).to_contain_text("Combat ouvert (lien)")
    expect_rules(linked.page, cout_interruption="4", de_initiative="8")
    expect(linked.page.locator("#rules-pending")).to_be_hidden()
    linked.assert_clean()

    filed = new_phone()
    filed.page.get_by_role("button", name="Partie", exact=True).click()
    filed.page.locator("#import").set_input_files(str(path))
    expect(filed.page.locator("#message")).to_contain_text("Combat ouvert (fichier).")
    expect_rules(filed.page, cout_interruption="4", de_initiative="8", cout_simple="5")
    filed.assert_clean()
    fight.assert_clean()


def test_the_book_s_rules_come_back_and_apply_at_once(fight: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    screen.get_by_label("coût d'une interruption (R3.2)").fill("3")
    screen.get_by_label("Dès maintenant").check()
    screen.get_by_role("button", name="Appliquer").click()
    expect(page.locator("#message")).to_have_text("Règles de la table appliquées : le journal le dit.")
    expect(screen.locator("#rules-pending")).to_be_hidden()  # in force at once: nothing to come
    expect(screen.locator("tr[data-rule='cout_interruption']")).to_contain_text("livre : 5")
    screen.get_by_role("button", name="Règles du livre").click()
    expect(screen.get_by_label("coût d'une interruption (R3.2)")).to_have_value("5")
    screen.get_by_label("Dès maintenant").check()
    screen.get_by_role("button", name="Appliquer").click()
    page.get_by_role("button", name="Journal", exact=True).click()
    expect(page.locator("#journal")).to_contain_text("Règles du groupe changées, dès maintenant : coût d'une interruption (R3.2) 3 → 5.")
    fight.assert_clean()


@pytest.mark.parametrize("name", ["format-1.json", "format-2.json"])
def test_an_old_release_s_save_opens_with_the_book_s_rules(new_phone: NewPhone, name: str) -> None:
    phone = new_phone(save=(SAVES / name).read_text(encoding="utf-8"))
    expect(phone.page.locator("#round")).to_have_text(re.compile(r"^Tour \d"))  # the old fight is open
    expect_rules(phone.page, cout_interruption="5", de_initiative="6", cout_complexe="10", visee_plafond="")
    expect(phone.page.locator("#rules-pending")).to_be_hidden()
    expect(phone.page.locator("#screen-rules .rule-note")).to_have_text(["vide : niveau de compétence de l'arme"])  # each one the book's
    phone.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rules_screen_passes_axe(new_phone: NewPhone, scheme: str, shot: Any) -> None:
    watched = new_phone(save=save_text(fight_log()), color_scheme=scheme)
    page = watched.page
    screen = open_rules(page)
    screen.get_by_label("coût d'une interruption (R3.2)").fill("100")
    screen.get_by_role("button", name="Appliquer").click()  # with a field's refusal shown
    expect(screen.locator(".field-error")).to_have_count(1)
    screen.locator("#rule-set-name").fill("Maison")
    screen.get_by_role("button", name="Garder ces règles").click()  # refused too: the same field
    page.evaluate(SETTLED)
    assert axe(page, f"{scheme}, règles de la table") == []
    shot(page, f"regles-{scheme}.png")
    watched.assert_clean()


def test_the_lab_tries_the_form_s_rules_on_the_fight_and_leaves_it_as_it_is(fight: Any, shot: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    undo = page.locator("#undo").inner_text()
    screen.get_by_label("coût d'une action simple (R3.2)").fill("4")
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    lab = page.locator("#labo")
    lab.get_by_role("button", name="Essayer sur ce combat").click()
    expect(lab.locator("#labo-state")).to_have_text("Essai fini : 2000 tours au hasard avec chaque jeu de règles.", timeout=120_000)
    # The commands played: Aldric's « Observer en détail » would cost 4, leaving him 6 P.I.
    expect(lab.locator("#labo-replay")).to_contain_text("Une commande jouée changerait :")
    expect(lab.locator("#labo-replay li")).to_have_text(["n° 4 — Aldric, Observer en détail : coût 5 → 4, P.I. après 5 → 6"])
    # The random rounds side by side, in the engine's words and numbers.
    expect(lab.locator(".labo-lines li").first).to_have_text(
        "coût d'une action simple (R3.2) 5 → 4; coût d'une interruption (R3.2) 5 → 4")
    expect(lab.locator(".labo-table tbody tr")).to_have_count(6)  # 4 measures, and who acts first of the 2
    expect(lab.locator(".labo-table")).to_contain_text("Aldric agit en premier (tours)")
    lab.scroll_into_view_if_needed()
    page.evaluate(SETTLED)
    assert axe(page, "essai sur ce combat") == []
    shot(page, "labo.png")
    # The fight is as it was: nothing to undo more, the form's rules not applied.
    expect(page.locator("#undo")).to_have_text(undo)
    page.get_by_role("button", name="Journal", exact=True).click()
    expect(page.locator("#journal")).not_to_contain_text("Règles du groupe")

    # Bad rules are refused next to their field, and nothing is tried.
    screen = open_rules(page)
    screen.get_by_label("coût d'une interruption (R3.2)").fill("100")
    lab.get_by_role("button", name="Essayer sur ce combat").click()
    expect(screen.locator("#rule-cout_interruption-error")).to_have_text("coût d'une interruption (R3.2) : de 0 à 99.")
    expect(lab.locator("#labo-result")).to_be_empty()
    fight.assert_clean()


def ten_fighters() -> list[dict[str, Any]]:
    """The lab's benchmark fight (bench/labo_bench.py): ten fighters of random sheets."""
    import random

    from bench.engine_bench import fighter

    rng = random.Random(11)
    return [{"type": "add_combatant", "combatant": {**fighter(rng, i), "id": f"f{i}"}} for i in range(10)]


def test_the_lab_on_ten_fighters_shows_its_progress_stops_and_ends(new_phone: NewPhone, shot: Any) -> None:
    phone = new_phone(save=save_text(ten_fighters()))
    page = phone.page
    screen = open_rules(page)
    undo = page.locator("#undo").inner_text()
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    lab = page.locator("#labo")
    progress = lab.locator("#labo-progress")
    # « Arrêter » stops the rounds once their progress shows: the fight is unchanged.
    lab.get_by_role("button", name="Essayer sur ce combat").click()
    expect(progress).to_be_visible(timeout=60_000)
    expect(lab.locator("#labo-state")).to_contain_text("Tours joués au hasard : ")
    expect(lab.get_by_role("button", name="Essayer sur ce combat")).to_be_disabled()
    lab.get_by_role("button", name="Arrêter").click()
    expect(lab.locator("#labo-state")).to_have_text("Essai arrêté : le combat est inchangé.")
    expect(progress).to_be_hidden()
    expect(lab.get_by_role("button", name="Arrêter")).to_be_hidden()
    expect(lab.get_by_role("button", name="Essayer sur ce combat")).to_be_enabled()
    expect(lab.locator("#labo-result")).to_be_empty()
    # Tried again, to its end: the progress goes up to 4,000 rounds, then the result.
    lab.get_by_role("button", name="Essayer sur ce combat").click()
    expect(progress).to_have_attribute("max", "4000", timeout=60_000)
    expect(lab.locator("#labo-state")).to_have_text("Essai fini : 2000 tours au hasard avec chaque jeu de règles.",
                                                    timeout=300_000)
    expect(lab.locator(".labo-table tbody tr")).to_have_count(14)  # 4 measures, and who acts first of the 10
    expect(lab.locator(".labo-lines li").first).to_have_text("coût d'une interruption (R3.2) 5 → 4")
    lab.scroll_into_view_if_needed()
    page.evaluate(SETTLED)
    shot(page, "labo-dix.png")
    expect(page.locator("#undo")).to_have_text(undo)
    phone.assert_clean()


def test_the_rules_screen_and_the_lab_in_english(new_phone: NewPhone) -> None:
    from test_habits import french_in

    phone = new_phone(save=save_text(fight_log()), init_script="localStorage.setItem('riposte.lang', 'en')")
    page = phone.page
    page.get_by_role("button", name="Game", exact=True).click()
    page.get_by_role("button", name="House rules", exact=True).click()
    screen = page.locator("#screen-rules")
    expect(screen.get_by_label("cost of an interruption (R3.2)")).to_have_value("5")
    screen.get_by_label("cost of an interruption (R3.2)").fill("4")
    screen.get_by_role("button", name="Try on this fight").click()
    expect(screen.locator("#labo-state")).to_have_text("Trial done: 2000 random rounds with each set of rules.", timeout=120_000)
    expect(screen.locator(".labo-lines li").first).to_have_text("cost of an interruption (R3.2) 5 → 4")
    assert french_in(page, {"aldric", "orque"}) == []
    phone.assert_clean()


def test_a_paired_player_s_phone_shows_the_interruption_at_the_table_s_cost(new_phone: NewPhone) -> None:
    from live import gm_phone, pair

    gm_watched = gm_phone(new_phone)
    gm = gm_watched.page
    screen = open_rules(gm)
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    screen.get_by_label("Dès maintenant").check()
    screen.get_by_role("button", name="Appliquer").click()
    expect(gm.locator("#message")).to_have_text("Règles de la table appliquées : le journal le dit.")
    player = pair(gm, new_phone, claim="Aldric")
    page = player.page
    page.get_by_role("button", name="Interrompre…").click()
    sheet = page.locator("#sheet")
    expect(sheet.locator('button[data-action="esquiver"]')).to_contain_text("4 P.I.")
    expect(sheet.locator('button[data-action="parer"]')).to_contain_text("4 P.I.")
    gm_watched.assert_clean()
    player.assert_clean()


def test_the_group_keeps_named_rule_sets_in_this_browser_and_exports_them(fight: Any, tmp_path: Path, shot: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    sets = screen.locator("#rule-sets")
    expect(sets.locator("#rule-set-list")).to_have_text("Aucun jeu de règles gardé.")
    # A name is required; bad rules are not kept.
    sets.get_by_role("button", name="Garder ces règles").click()
    expect(sets.locator("#rule-set-name-error")).to_have_text("Nom du jeu de règles : requis.")
    sets.get_by_label("Nom du jeu de règles").fill("Maison")
    screen.get_by_label("coût d'une interruption (R3.2)").fill("100")
    sets.get_by_role("button", name="Garder ces règles").click()
    expect(screen.locator("#rule-cout_interruption-error")).to_have_text("coût d'une interruption (R3.2) : de 0 à 99.")
    expect(sets.locator("#rule-set-list")).to_have_text("Aucun jeu de règles gardé.")
    # Kept, and still there after a reload.
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    sets.get_by_role("button", name="Garder ces règles").click()
    expect(page.locator("#message")).to_have_text("Jeu de règles « Maison » gardé.")
    expect(sets.locator("#rule-set-list .name")).to_have_text(["Maison"])
    sets.scroll_into_view_if_needed()
    shot(page, "regles-sets.png")
    page.reload()
    wait_ready(page)
    screen = open_rules(page)
    expect(screen.get_by_label("coût d'une interruption (R3.2)")).to_have_value("5")  # kept, not applied
    expect(sets.locator("#rule-set-list .name")).to_have_text(["Maison"])
    sets.get_by_role("button", name="Reprendre Maison").click()
    expect(screen.get_by_label("coût d'une interruption (R3.2)")).to_have_value("4")
    expect(page.locator("#message")).to_have_text("Les règles « Maison » sont dans le formulaire : « Appliquer » pour les jouer.")
    # Exported as a small file, whole rules each.
    with page.expect_download() as download:
        sets.get_by_role("button", name="Exporter les jeux de règles (.json)").click()
    path = tmp_path / "regles.json"
    download.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert [s["name"] for s in exported["regles"]] == ["Maison"]
    assert exported["regles"][0]["regles"]["cout_interruption"] == 4 and len(exported["regles"][0]["regles"]) == 21
    sets.get_by_role("button", name="Supprimer Maison").click()
    expect(sets.locator("#rule-set-list")).to_have_text("Aucun jeu de règles gardé.")
    fight.assert_clean()


def sets_file(tmp_path: Path, name: str, content: Any) -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_rule_sets_are_imported_from_a_file_and_a_wrong_one_changes_nothing(fight: Any, tmp_path: Path, shot: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    sets = screen.locator("#rule-sets")
    listed = sets.locator("#rule-set-list .name")
    error = sets.locator("#rule-sets-error")
    chooser = sets.locator("#rule-sets-file")
    # Not JSON, a fight, a set with bad fields: said in French, nothing kept.
    chooser.set_input_files(str(sets_file(tmp_path, "pas.json", "pas du json")))
    expect(error).to_contain_text("Ce n'est pas du JSON lisible")
    chooser.set_input_files(str(sets_file(tmp_path, "combat.json", save_text(fight_log()))))
    expect(error).to_have_text(re.compile("^Ce n'est pas un jeu de règles Riposte"))
    bad = {"app": "riposte", "regles": [{"name": "Bonne", "regles": {"cout_simple": 4}},
                                        {"name": "Dure", "regles": {"cout_interruption": 100, "passer": "non"}}]}
    chooser.set_input_files(str(sets_file(tmp_path, "dure.json", bad)))
    expect(error.locator(".line")).to_have_text([
        "Rien n'est importé :",
        re.compile("^« Dure » — .*coût d'une interruption \\(R3\\.2\\).*de 0 à 99"),
        re.compile("^« Dure » — .*passer permis \\(D5\\)"),
    ])
    expect(sets.locator("#rule-set-list")).to_have_text("Aucun jeu de règles gardé.")
    sets.scroll_into_view_if_needed()
    shot(page, "regles-import-refuse.png")
    # A good file: every set kept, each field missing the book's; the error gone.
    good = {"app": "riposte", "regles": [{"name": "Bonne", "regles": {"cout_simple": 4}},
                                         {"name": "Rapide", "regles": {"cout_interruption": 3, "courir_table": [[5, 8]]}}]}
    chooser.set_input_files(str(sets_file(tmp_path, "bonnes.json", good)))
    expect(page.locator("#message")).to_have_text("2 jeux de règles importés.")
    expect(error).to_be_hidden()
    expect(listed).to_have_text(["Bonne", "Rapide"])
    sets.get_by_role("button", name="Reprendre Rapide").click()
    expect(screen.get_by_label("coût d'une interruption (R3.2)")).to_have_value("3")
    expect(screen.get_by_label("coût d'une action simple (R3.2)")).to_have_value("5")
    expect(screen.get_by_label("table de course (R4.3)")).to_have_value("5 → 8")
    fight.assert_clean()


def test_a_rule_set_s_link_offers_it_to_keep_and_a_refusal_changes_nothing(fight: Any, new_phone: NewPhone,
                                                                           shot: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    sets = screen.locator("#rule-sets")
    sets.get_by_label("Nom du jeu de règles").fill("Maison")
    screen.get_by_label("coût d'une interruption (R3.2)").fill("4")
    sets.get_by_role("button", name="Garder ces règles").click()
    expect(sets.locator("#rule-set-list .name")).to_have_text(["Maison"])
    sets.get_by_role("button", name="Lien de Maison").click()
    link = sets.get_by_label("Lien du jeu de règles Maison (à envoyer au groupe)")
    expect(link).to_have_value(re.compile("#regles="))
    url = link.input_value()
    link.scroll_into_view_if_needed()
    shot(page, "regles-lien.png")

    other = new_phone(url)
    dialog = other.page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Un lien propose le jeu de règles « Maison ».")
    shot(other.page, "regles-lien-ouvert.png")
    dialog.get_by_role("button", name="Annuler").click()  # refused: nothing kept
    assert "#regles=" not in other.page.url
    screen = open_rules(other.page)
    expect(screen.locator("#rule-set-list")).to_have_text("Aucun jeu de règles gardé.")
    other.page.goto(url)  # again, kept this time
    wait_ready(other.page)
    expect(dialog).to_contain_text("Garder ce jeu de règles ?")
    dialog.get_by_role("button", name="Garder").click()
    expect(other.page.locator("#message")).to_have_text("Jeu de règles « Maison » gardé : « Reprendre » le met dans le formulaire.")
    screen = open_rules(other.page)
    expect(screen.locator("#rule-set-list .name")).to_have_text(["Maison"])
    screen.get_by_role("button", name="Reprendre Maison").click()
    expect(screen.get_by_label("coût d'une interruption (R3.2)")).to_have_value("4")
    # A damaged link is said, and nothing is offered.
    other.page.goto(url[:-6] + "%%%%%%")
    wait_ready(other.page)
    expect(other.page.locator("#message")).to_have_text("Ce lien de jeu de règles ne se lit pas : rien n'est gardé.")
    fight.assert_clean()
    other.assert_clean()


def test_the_run_table_is_edited_with_the_other_rules(fight: Any, shot: Any) -> None:
    page = fight.page
    screen = open_rules(page)
    table = screen.get_by_label("table de course (R4.3)")
    expect(table).to_have_value("")
    # Not two numbers a row: the engine refuses it, nothing changes.
    table.fill("5 → six")
    screen.get_by_role("button", name="Appliquer").click()
    expect(screen.locator("#rule-courir_table-error")).to_be_visible()
    expect(screen.locator("#rules-pending")).to_be_hidden()
    table.fill("10 → 12, 5 → 6")
    screen.get_by_label("Dès maintenant").check()
    screen.get_by_role("button", name="Appliquer").click()
    expect(page.locator("#message")).to_have_text("Règles de la table appliquées : le journal le dit.")
    screen = open_rules(page)
    expect(screen.get_by_label("table de course (R4.3)")).to_have_value("5 → 6, 10 → 12")  # sorted by the engine
    page.get_by_role("button", name="Journal", exact=True).click()
    expect(page.locator("#journal")).to_contain_text("table de course (R4.3) aucune → 5 → 6 m, 10 → 12 m")
    screen = open_rules(page)
    screen.locator("tr[data-rule='courir_table']").scroll_into_view_if_needed()
    shot(page, "regles-course.png")
    fight.assert_clean()
