"""The group's rules as a value (engine/regles.py): RULES.md's numbers by default, each
field read by the rule it changes, checked field by field, carried with the fight
(``set_rules``, the saves, the links, the journal, the boards)."""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import save
from engine.regles import DEFAUT, FIELDS, Regles, as_json, read
from engine.table import Table
from tests.casts import CASTS

RULES_TEXT = " ".join((Path(__file__).resolve().parents[1] / "docs" / "RULES.md").read_text(encoding="utf-8").split())


def written(pattern: str) -> str:
    """The number RULES.md writes where ``pattern`` (its group) says it."""
    found = re.search(pattern, RULES_TEXT)
    assert found is not None, pattern
    return found.group(1)


def test_the_default_rules_are_rules_md_one_by_one() -> None:
    """Each default is read from the rule's own text (docs/RULES.md, the copy of the rules)."""
    expected: dict[str, Any] = {
        "de_initiative": int(written(r"R1\.2 Each combatant rolls 1d(\d+)")),
        "diviseur_caracteristique": int(written(r"R1\.3 `initiative = floor\(C / (\d+)\)")),
        "cout_gratuite_suivante": int(written(r"R3\.1 .*?each further free action in the same phase costs (\d+)")),
        "cout_simple": int(written(r"R3\.2 simple: (\d+)\.")),
        "cout_complexe": int(written(r"R3\.2 simple: \d+\. complexe: (\d+)\.")),
        "cout_interruption": int(written(r"R3\.2 .*?interruption \(réaction\): (\d+)\.")),
        "espoir_cout": int(written(r"R5\.2 With P\.I\. ≤ \d+ it may instead spend (\d+) point d'Espoir")),
        "espoir_seuil": int(written(r"R5\.2 With P\.I\. ≤ (\d+)")),
        "visee_pas": int(written(r"R4\.1 Aim \(`ajuster_tir`\): each action adds \+(\d+)")),
        "visee_plafond": None if "up to the skill level, at least +1" in RULES_TEXT else "?",
        "visee_au_plafond": "D17 `ajuster_tir` at the cap is allowed" in RULES_TEXT,
        "visee_perdue": ("gratuite", "simple", "complexe", "interruption")
        if "any other action, free ones and interruptions included (D13)" in RULES_TEXT else (),
        "charge_attaque": int(written(r"R4\.2 .*?Bonuses: \+(\d+) attack")),
        "charge_degats": int(written(r"R4\.2 .*?Bonuses: \+\d+ attack, \+(\d+) damage")),
        "charge_parade": -int(written(r"R4\.2 .*?`parer` is at −(\d+)")),
        "charge_sans_esquive": "`esquiver` and `esquive_acrobatique` are refused" in RULES_TEXT,
        "charge_portee": int(written(r"R4\.2 Charge: .*?no farther than (\d+) \+ the result")),
        "marche_metres": int(written(r"\| `se_deplacer` \| Se déplacer \| simple \| — \| (\d+) m at combat walking pace")),
        "courir_categorie": written(r"D9 Running is a (simple|complexe) action"),
        "courir_table": () if "The app ships no invented table" in RULES_TEXT else None,
        "passer": "D5 `passer` (pass): at any time in the round, a combatant may stop taking phases" in RULES_TEXT,
    }
    assert list(expected) == list(FIELDS)
    assert {name: getattr(DEFAUT, name) for name in FIELDS} == expected
    assert Regles() == DEFAUT == read({})


# --- the rules, field by field, in a fight ----------------------------------------------

def fight(regles: dict[str, Any], *names: str, rolls: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """A log: the rules set, the cast, a round started."""
    log: list[dict[str, Any]] = [{"type": "set_rules", "regles": regles}]
    log += [{"type": "add_combatant", "combatant": {**CASTS[n], "id": n}} for n in names]
    return [*log, {"type": "start_round", "rolls": rolls or dict.fromkeys(names, 6)}]


def played(log: list[dict[str, Any]]) -> dict[str, Any]:
    r = engine.replay(log)
    assert r["ok"], r.get("error")
    return r


def then(log: list[dict[str, Any]], command: dict[str, Any]) -> dict[str, Any]:
    return engine.apply(played(log)["state"], command)


def taken(r: dict[str, Any]) -> dict[str, Any]:
    assert r["ok"], r.get("error")
    return next(e for e in r["events"] if e["type"] == "action_taken")


def test_an_interruption_cost_of_4_costs_4_pi() -> None:
    log = fight({"cout_interruption": 4}, "aldric", "orque", rolls={"aldric": 6, "orque": 1})
    e = taken(then(log, {"type": "interrupt", "actor": "orque", "action": "bloquer"}))
    assert (e["cost"], e["pays"], e["pi_before"] - e["pi_after"]) == (4, "pi", 4)
    assert engine.view(played(log)["state"])["combatants"]["orque"]["actions"]["bloquer"]["cost"] == 4


def test_a_d8_accepts_an_8_and_refuses_a_9() -> None:
    assert played(fight({"de_initiative": 8}, "aldric", rolls={"aldric": 8}))["state"]["combatants"][0]["d6"] == 8
    r = engine.replay(fight({"de_initiative": 8}, "aldric", rolls={"aldric": 9}))
    assert (r["error"]["code"], r["error"]["params"]) == ("bad_value", {"field": "rolls.aldric", "low": 1, "high": 8})
    board = engine.view(played(fight({"de_initiative": 8}, "aldric"))["state"])
    assert len(board["combatants"]["aldric"]["declarations"][0]["by_die"]) == 8


def test_the_dice_the_engine_rolls_have_the_rules_faces() -> None:
    log = [{"type": "set_rules", "regles": {"de_initiative": 100}},
           {"type": "add_combatant", "combatant": {**CASTS["orque"], "id": "orque"}}]
    state = played(log)["state"]
    dice = {engine.apply(state, {"type": "start_round"}, rng=random.Random(seed))["command"]["rolls"]["orque"]
            for seed in range(40)}
    assert max(dice) > 6 and all(1 <= d <= 100 for d in dice)


def test_the_characteristic_s_divisor() -> None:
    e = played(fight({"diviseur_caracteristique": 3}, "aldric", rolls={"aldric": 4}))["events"]
    started = next(x for x in e if x["type"] == "round_started")["initiatives"][0]["breakdown"]
    assert (started["characteristic_value"], started["half"]) == (7, 2)


def test_an_aim_cap_of_2_refuses_a_third_aim_when_d17_is_turned() -> None:
    """R4.1 with a cap of 2 (Aldric's bow skill is 2, the rules' cap whatever the skill):
    two aims reach +2; a third adds nothing (D17), or is refused when the group turns D17."""
    aim = {"type": "act", "actor": "aldric", "action": "ajuster_tir", "weapon": "arc"}
    for d17, third in ((True, True), (False, False)):
        log = [*fight({"visee_plafond": 2, "visee_au_plafond": d17, "cout_simple": 1}, "aldric"),
               {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["arc"], "skills": {"arc": 5}}},
               {"type": "act", "actor": "aldric", "action": "encocher_fleche"}, aim, aim]
        state = played(log)["state"]
        assert state["combatants"][0]["aim_bonus"] == 2
        r = engine.apply(state, aim)
        assert r["ok"] is third and engine.view(state)["combatants"]["aldric"]["actions"]["ajuster_tir"]["allowed"] is third
        if third:
            assert next(e for e in r["events"] if e["type"] == "aim_adjusted")["bonus"] == 2
        else:
            assert (r["error"]["key"], r["error"]["params"]) == ("aim_capped", {"name": "Aldric", "max": 2})


def test_the_aim_s_step() -> None:
    log = [*fight({"visee_pas": 2, "cout_simple": 1}, "lyra"), {"type": "act", "actor": "lyra", "action": "encocher_fleche"},
           {"type": "act", "actor": "lyra", "action": "ajuster_tir"}, {"type": "act", "actor": "lyra", "action": "ajuster_tir"}]
    assert played(log)["state"]["combatants"][0]["aim_bonus"] == 3  # +2, then capped at Lyra's skill 3


@pytest.mark.parametrize(("perdue", "lost"), [(["gratuite", "simple", "complexe", "interruption"], True), (["simple", "complexe"], False)])
def test_what_loses_the_aim(perdue: list[str], lost: bool) -> None:
    """D13: a free action loses the aim, unless the group's rules keep it."""
    log = [*fight({"visee_perdue": perdue, "cout_simple": 1}, "lyra"), {"type": "act", "actor": "lyra", "action": "encocher_fleche"},
           {"type": "act", "actor": "lyra", "action": "ajuster_tir"}]
    state = played(log)["state"]
    assert ("loses_aim" in engine.view(state)["combatants"]["lyra"]["actions"]["dire_phrase"]) is lost
    r = engine.apply(state, {"type": "act", "actor": "lyra", "action": "dire_phrase"})
    assert any(e["type"] == "aim_lost" for e in r["events"]) is lost
    assert r["state"]["combatants"][0]["aim_bonus"] == (0 if lost else 1)


def test_the_charge_s_numbers() -> None:
    regles = {"charge_attaque": 3, "charge_portee": 4, "charge_parade": -2, "charge_sans_esquive": False}
    log = fight(regles, "aldric", "orque", rolls={"aldric": 6, "orque": 1})
    too_far = then(log, {"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 7, "test_result": 2})
    assert (too_far["error"]["code"], too_far["error"]["params"]["base"], too_far["error"]["params"]["reach"]) == ("too_far", 4, 6)
    charge = {"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 6, "test_result": 2}
    e = taken(then(log, charge))
    assert e["tests"][1]["modifiers"] == [{"id": "charge", "value": 3, "rule": "R4.2"}]
    after = [*log, charge]
    assert taken(then(after, {"type": "interrupt", "actor": "aldric", "action": "esquiver"}))["action"] == "esquiver"
    parry = taken(then(after, {"type": "interrupt", "actor": "aldric", "action": "parer"}))
    assert parry["tests"][0]["modifiers"] == [{"id": "apres_charge", "value": -2, "rule": "R4.2"}]


def test_walking_and_the_run_table() -> None:
    log = fight({"marche_metres": 9, "courir_table": [[5, 12], [0, 6]]}, "aldric")
    moved = then(log, {"type": "act", "actor": "aldric", "action": "se_deplacer"})["events"]
    assert next(e for e in moved if e["type"] == "moved")["distance"] == 9
    ran = then(log, {"type": "act", "actor": "aldric", "action": "courir", "test_result": 7})["events"]
    assert next(e for e in ran if e["type"] == "moved")["distance"] == 12


def test_running_as_a_complex_action() -> None:
    """D9 turned: ``courir`` is complex, costs a complex action, and says so everywhere."""
    log = fight({"courir_categorie": "complexe"}, "aldric")
    board = engine.view(played(log)["state"])
    assert board["catalogue"]["courir"]["category"] == "complexe"
    assert board["combatants"]["aldric"]["actions"]["courir"] | {"category": "complexe", "cost": 10} == \
        board["combatants"]["aldric"]["actions"]["courir"]
    e = taken(then(log, {"type": "act", "actor": "aldric", "action": "courir"}))
    assert (e["category"], e["cost"]) == ("complexe", 10)


def test_passing_turned_off() -> None:
    """D5 turned: ``pass`` refused, and the card does not offer it."""
    log = fight({"passer": False}, "aldric")
    r = then(log, {"type": "pass", "actor": "aldric"})
    assert (r["ok"], r["error"]["code"], r["error"]["key"]) == (False, "not_allowed", "passing_off")
    assert engine.view(played(log)["state"])["combatants"]["aldric"]["may"]["pass"]["key"] == "passing_off"


def test_espoir_cost_and_threshold() -> None:
    """R5.2: at P.I. ≤ the threshold an interruption costs the rules' points d'Espoir."""
    log = fight({"espoir_seuil": 20, "espoir_cout": 2}, "aldric", "orque", rolls={"aldric": 6, "orque": 1})
    assert all(0 < c["pi"] <= 20 for c in played(log)["state"]["combatants"])
    r = then(log, {"type": "interrupt", "actor": "orque", "action": "bloquer"})
    assert (r["error"]["code"], r["error"]["key"]) == ("no_hope", "no_hope")  # the Orque has no Espoir
    aldric = [{"type": "update_combatant", "id": "aldric", "changes": {"hope": 2}}, {"type": "end_round"},
              {"type": "start_round", "rolls": {"aldric": 1, "orque": 6}}]
    e = taken(then([*log, *aldric], {"type": "interrupt", "actor": "aldric", "action": "bloquer"}))
    assert (e["pays"], e["cost"], e["hope_after"]) == ("espoir", 2, 0)


def test_the_free_and_simple_costs_and_readying_a_weapon() -> None:
    log = fight({"cout_gratuite_suivante": 2, "cout_simple": 3, "cout_complexe": 7}, "aldric")
    once = [*log, {"type": "act", "actor": "aldric", "action": "dire_phrase"}]
    assert taken(then(once, {"type": "act", "actor": "aldric", "action": "dire_phrase"}))["cost"] == 2
    actions = engine.view(played(log)["state"])["combatants"]["aldric"]["actions"]
    assert (actions["observer"]["cost"], actions["attaque_melee"]["cost"]) == (3, 7)
    assert actions["preparer_arme"]["by_weapon"] == {"dague": 3, "arc": 3, "bouclier": 7}  # the shield is not stowed


# --- set_rules: when, and what is said ---------------------------------------------------

def test_set_rules_applies_from_the_next_round_or_at_once() -> None:
    log = fight({}, "aldric", "orque", rolls={"aldric": 6, "orque": 1})
    later = then(log, {"type": "set_rules", "regles": {"cout_simple": 2}})
    assert [e["type"] for e in later["events"]] == ["rules_set"] and later["events"][0]["at_once"] is False
    board = engine.view(later["state"])
    assert board["regles"]["cout_simple"] == 5 and board["regles"]["a_venir"]["cout_simple"] == 2
    assert board["combatants"]["aldric"]["actions"]["observer"]["cost"] == 5
    nxt = played([*log, {"type": "set_rules", "regles": {"cout_simple": 2}}, {"type": "end_round"},
                  {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}])
    assert engine.view(nxt["state"])["regles"] == {**as_json(Regles(cout_simple=2)), "a_venir": None}
    now = then(log, {"type": "set_rules", "regles": {"cout_simple": 2}, "from_next_round": False})
    assert engine.view(now["state"])["combatants"]["aldric"]["actions"]["observer"]["cost"] == 2
    assert engine.view(now["state"])["regles"]["a_venir"] is None


def test_rules_that_change_nothing_are_accepted_without_event() -> None:
    log = fight({}, "aldric")
    assert then(log, {"type": "set_rules", "regles": {"cout_simple": 5}}) | {"events": []} == \
        then(log, {"type": "set_rules", "regles": {"cout_simple": 5}})


def test_a_whole_value_gives_each_missing_field_its_default() -> None:
    log = [{"type": "set_rules", "regles": {"cout_simple": 2, "de_initiative": 8}},
           {"type": "set_rules", "regles": {"de_initiative": 10}, "whole": True}]
    assert engine.view(played(log)["state"])["regles"] == {**as_json(Regles(de_initiative=10)), "a_venir": None}


def test_the_run_table_of_update_settings_goes_into_the_rules_now_and_to_come() -> None:
    log = [*fight({}, "aldric"), {"type": "set_rules", "regles": {"cout_simple": 2}},
           {"type": "update_settings", "settings": {"run_table": [[0, 7]]}}]
    board = engine.view(played(log)["state"])
    assert board["settings"] == {"run_table": [[0, 7]]}
    assert board["regles"]["courir_table"] == board["regles"]["a_venir"]["courir_table"] == [[0, 7]]


def test_the_journal_says_what_changed_in_french_and_english() -> None:
    table = Table()
    for command in fight({}, "aldric"):
        assert table.apply(command)["ok"]
    assert table.apply({"type": "set_rules", "regles": {"cout_interruption": 4, "passer": False}})["ok"]
    entry = table.journal()["entries"][-1]
    assert entry["kind"] == "rules" and entry["when"] == "next_round"
    assert entry["changes"] == [{"field": "cout_interruption", "before": 5, "after": 4},
                                {"field": "passer", "before": True, "after": False}]
    assert entry["lines"]["fr"] == ("Règles du groupe changées, dès le prochain tour : coût d'une interruption (R3.2) 5 → 4 ; "
                                    "passer permis (D5) oui → non.")
    assert entry["lines"]["en"] == ("House rules changed, from the next round: cost of an interruption (R3.2) 5 → 4; "
                                    "passing allowed (D5) yes → no.")
    table.apply({"type": "end_round"})
    table.apply({"type": "start_round"})
    started = table.journal()["entries"][-1]
    assert (started["kind"], started["when"], started["round"]) == ("rules", "round_start", 2)
    assert table.show(players=True)["board"]["regles"]["cout_interruption"] == 4


def test_undo_and_redo_of_set_rules_are_exact() -> None:
    table = Table()
    for command in fight({}, "aldric", "orque"):
        table.apply(command)
    before = table.show()["board"]
    after = table.apply({"type": "set_rules", "regles": {"cout_simple": 1}, "from_next_round": False})["board"]
    assert table.undo()["board"] == before
    assert table.redo()["board"] == after and after["regles"]["cout_simple"] == 1


def test_a_new_fight_keeps_the_group_s_rules() -> None:
    table = Table()
    table.apply({"type": "set_rules", "regles": {"de_initiative": 8}})
    table.apply({"type": "add_combatant", "combatant": {**CASTS["aldric"]}})
    assert table.new(True)["board"]["regles"]["de_initiative"] == 8
    assert table.new()["board"]["regles"] == {**as_json(Regles(de_initiative=8)), "a_venir": None}
    assert Table().new()["undo"] == 0  # RULES.md's own rules: nothing to carry


# --- carried: saves, files, links ---------------------------------------------------------

def test_the_rules_go_with_the_save_the_file_and_the_link() -> None:
    table = Table()
    for command in [*fight({"cout_simple": 3, "courir_categorie": "complexe"}, "aldric", "orque"),
                    {"type": "set_rules", "regles": {"visee_perdue": ["complexe"], "visee_plafond": 4}}]:
        assert table.apply(command)["ok"]
    board = table.show()["board"]
    for text in (table.export(True)["text"], table.export(False)["text"], table.link()["text"]):
        other = Table()
        assert other.load(text)["ok"]
        assert other.show()["board"] == board
    assert save.parse(table.link()["text"])["ok"]


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).parent / "saves").iterdir()))
def test_a_save_or_link_of_an_earlier_release_opens_with_rules_md_s_rules(name: str) -> None:
    text = (Path(__file__).parent / "saves" / name).read_text(encoding="utf-8").strip()
    if text.startswith("#c="):  # a link as the page wrote them before ``#z=`` (tests/test_link.py)
        text = zlib.decompress(base64.urlsafe_b64decode(text[3:] + "=" * (-len(text[3:]) % 4)), -15).decode("utf-8")
    table = Table()
    assert table.load(text)["ok"]
    assert table.show()["board"]["regles"] == {**as_json(DEFAUT), "a_venir": None}


# --- checked field by field ---------------------------------------------------------------

@pytest.mark.parametrize(("regles", "fields"), [
    ({"de_initiative": 1}, [("regles.de_initiative", "range")]),
    ({"cout_simple": -1, "passer": 1}, [("regles.cout_simple", "range"), ("regles.passer", "boolean")]),
    ({"cout_complexe": 4}, [("regles.cout_complexe", "at_least")]),
    ({"visee_pas": 3, "visee_plafond": 2}, [("regles.visee_plafond", "at_least")]),
    ({"visee_perdue": ["simple", "simple"]}, [("regles.visee_perdue", "duplicate")]),
    ({"courir_categorie": "gratuite"}, [("regles.courir_categorie", "choice")]),
    ({"courir_table": [[0, 6], [0, 7]]}, [("regles.courir_table", "duplicate")]),
    ({"couleur": "rouge"}, [("regles.couleur", "unknown_field")]),
])
def test_bad_rules_are_refused_field_by_field(regles: dict[str, Any], fields: list[tuple[str, str]]) -> None:
    r = engine.apply(engine.new_encounter(), {"type": "set_rules", "regles": regles})
    assert r["error"]["code"] == "bad_value"
    assert [(f["field"], f["key"]) for f in r["error"]["fields"]] == fields
    assert Table().check({"type": "set_rules", "regles": regles})["fields"] == r["error"]["fields"]


def test_a_refused_rule_is_said_in_french_and_in_english() -> None:
    from engine.errors import sentence

    r = engine.apply(engine.new_encounter(), {"type": "set_rules", "regles": {"cout_simple": 11}})["error"]
    assert r["message"] == "« regles.cout_simple » : au plus 10, la valeur de cout_complexe (les règles du groupe)."
    assert sentence("en", r["key"], r["params"]) == "« regles.cout_simple »: at most 10, the value of cout_complexe (the group's rules)."


# --- rule sets imported (a file of them, or a rule set's link) ---------------------------

def test_a_rule_sets_file_reads_back_what_the_page_exports() -> None:
    from engine.table import Table

    exported = {"app": "riposte", "regles": [{"name": "Maison", "regles": {**as_json(DEFAUT), "cout_interruption": 4}},
                                             {"name": "Rapide", "regles": {"passer": False}}]}
    answer = Table().rule_sets(json.dumps(exported))
    assert answer["ok"]
    assert [s["name"] for s in answer["sets"]] == ["Maison", "Rapide"]
    assert answer["sets"][0]["regles"]["cout_interruption"] == 4 and len(answer["sets"][0]["regles"]) == 21
    assert answer["sets"][1]["regles"] == {**as_json(DEFAUT), "passer": False}  # each missing field the book's


@pytest.mark.parametrize("text", ["", "pas du json", "[]", '{"app": "riposte"}', '{"app": "autre", "regles": []}',
                                  '{"app": "riposte", "regles": []}', '{"app": "riposte", "regles": [1]}',
                                  '{"app": "riposte", "regles": {"cout_simple": 4}}', '{"format": 3, "commands": []}',
                                  '{"app": "riposte", "regles": [{"name": "A"}]}'])
def test_a_file_that_is_no_rule_sets_is_refused_in_french(text: str) -> None:
    from engine.table import Table

    answer = Table().rule_sets(text)
    assert answer["ok"] is False and answer["error"]["key"] in ("not_rule_sets", "not_json")
    assert answer["error"]["message"].startswith("Ce n'est pas")


def test_each_bad_field_of_each_set_is_named() -> None:
    from engine.table import Table

    text = json.dumps({"app": "riposte", "regles": [
        {"name": "Bonne", "regles": {"cout_simple": 4}},
        {"name": "Dure", "regles": {"cout_interruption": 100, "passer": "non", "inconnu": 1}},
        {"name": "  ", "regles": {"de_initiative": 1}}]})
    answer = Table().rule_sets(text)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_value"
    assert [(f["set"], f["name"], f["field"], f["key"]) for f in answer["fields"]] == [
        (1, "Dure", "regles[1].regles.cout_interruption", "range"),
        (1, "Dure", "regles[1].regles.passer", "boolean"),
        (1, "Dure", "regles[1].regles.inconnu", "unknown_field"),
        (2, "", "regles[2].name", "required"),
        (2, "", "regles[2].regles.de_initiative", "range")]
    assert "sets" not in answer  # nothing of the file is kept, not even its good set
