"""The journal (engine/journal.py): the fight told round by round from the resolved log."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import journal as journal_module
from engine.journal import journal
from tests.casts import CASTS
from tests.strategies import MALFORMED
from tests.test_save import fight


def test_the_journal_tells_a_round_with_costs_and_tests() -> None:
    log = fight()
    entries = journal(log)
    assert [e["kind"] for e in entries] == ["joined", "joined", "round_started", "action"]
    start = entries[2]
    assert start["round"] == 1
    assert [(i["name"], i["d6"]) for i in start["initiatives"]] == [("Aldric", 5), ("Orque", 2)]
    action = entries[3]
    assert (action["name"], action["action"], action["cost"], action["pays"]) == ("Aldric", "observer", 5, "pi")
    assert action["pi_after"] == action["pi_before"] - 5  # R3.2: a simple action costs 5
    assert action["tests"][0]["characteristic"] == "vue"  # D14: the test named with its values


def test_an_interruption_paid_with_espoir_is_told() -> None:
    """R5.2: at P.I. <= 0 an interruption costs one point d'Espoir, and the P.I. stay."""
    log = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "start_round", "rolls": {"aldric": 1, "orque": 6}},  # Aldric 5 P.I., Orque 10
           {"type": "act", "actor": "orque", "action": "attaque_melee", "target": "aldric"},  # Orque 10 → 0
           {"type": "act", "actor": "aldric", "action": "attaque_melee"}]  # Aldric 5 → −5
    state = engine.replay(log)["state"]
    assert engine.view(state)["combatants"]["aldric"]["pi"] == -5
    result = engine.apply(state, {"type": "interrupt", "actor": "aldric", "action": "esquiver", "against": "orque"})
    assert result["ok"], result
    log.append(result["command"])
    last = journal(engine.replay(log)["commands"])[-1]
    assert (last["kind"], last["action"], last["against"]) == ("action", "esquiver", "Orque")
    assert last["pays"] == "espoir"
    assert (last["hope_before"], last["hope_after"]) == (2, 1)
    assert (last["pi_before"], last["pi_after"]) == (-5, -5)


def test_passing_ending_and_leaving_are_told() -> None:
    log = [*fight(), {"type": "pass", "actor": "orque"}, {"type": "end_round"},
           {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}},
           {"type": "remove_combatant", "id": "orque"}]
    kinds = [(e["kind"], e.get("name")) for e in journal(engine.replay(log)["commands"])[4:]]
    assert ("passed", "Orque") in kinds
    assert ("round_ended", None) in kinds
    assert kinds[-2:] == [("out", "Orque"), ("removed", "Orque")]


def test_names_are_those_of_the_moment() -> None:
    log = [*fight(), {"type": "update_combatant", "id": "aldric", "changes": {"name": "Aldric le Brave"}},
           {"type": "interrupt", "actor": "aldric", "action": "bloquer"}]
    result = engine.replay(log)
    assert result["ok"], result
    entries = journal(result["commands"])
    assert entries[3]["name"] == "Aldric"
    assert entries[-1]["name"] == "Aldric le Brave"


# At most the profile's count (15 under `make mutants`, where it runs once per mutant).
@settings(max_examples=min(50, settings.default.max_examples))
@given(st.lists(MALFORMED, max_size=3))
def test_the_journal_never_raises(log: list[Any]) -> None:
    assert isinstance(journal(log), list)


def test_every_kind_of_entry_says_exactly_what_happened() -> None:
    """Two rounds told whole: arrivals (round 0), initiatives with the declared weapon or
    none and who rolled (R1.3, R1.5, D7), a charge with its two named tests (R4.2, D14),
    interruptions paid in P.I. then in Espoir after the round ended (R5.1, R5.2, R5.4), out
    of the fight and back (D6, D21), a pass (D5), the GM ending a round, a removal."""
    log = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 4, "orque": 1}},
           {"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 5, "test_result": 0},
           {"type": "interrupt", "actor": "orque", "action": "bloquer", "against": "aldric"},
           {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}},
           {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": False}},
           {"type": "interrupt", "actor": "aldric", "action": "bloquer"},
           {"type": "start_round", "rolls": {"aldric": 3, "orque": 2}, "engine_rolled": ["orque"]},
           {"type": "pass", "actor": "orque"},
           {"type": "end_round"},
           {"type": "remove_combatant", "id": "orque"}]
    result = engine.replay(log)
    assert result["ok"], result
    melee = {"id": None, "characteristic": "melee", "difficulty": None, "modifiers": []}
    assert journal(result["commands"]) == [
        {"round": 0, "kind": "joined", "name": "Aldric", "side": "pj"},
        {"round": 0, "kind": "joined", "name": "Orque", "side": "pnj"},
        # R1.3: Aldric 7 // 2 + 1 + 3 + 4 - 2 = 9, Orque 6 // 2 + 0 + 2 + 1 - 0 = 6
        {"round": 1, "kind": "round_started", "initiatives": [
            {"id": "aldric", "name": "Aldric", "weapon": "Épée", "d6": 4, "initiative": 9, "rolled_by": "table"},
            {"id": "orque", "name": "Orque", "weapon": "Hache", "d6": 1, "initiative": 6, "rolled_by": "table"}]},
        {"round": 1, "kind": "action", "name": "Aldric", "action": "charge", "category": "complexe", "cost": 10,
         "pays": "pi", "pi_before": 9, "pi_after": -1, "hope_before": 2, "hope_after": 2,
         "tests": [{**melee, "characteristic_value": 7, "skill": "course", "skill_level": 2, "id": "portee"},
                   {**melee, "characteristic_value": 7, "skill": "epee", "skill_level": 3, "skill_name": "Épée",
                    "modifiers": [{"id": "charge", "rule": "R4.2", "value": 4}]}],
         "outcome": {"test_result": 0}, "target": "Orque", "against": None, "distance": 5, "by_player": False},
        {"round": 1, "kind": "action", "name": "Orque", "action": "bloquer", "category": "interruption", "cost": 5,
         "pays": "pi", "pi_before": 6, "pi_after": 1, "hope_before": 0, "hope_after": 0,
         "tests": [{**melee, "characteristic_value": 6, "skill": "corps_a_corps", "skill_level": 1}],
         "outcome": {}, "target": None, "against": "Aldric", "distance": None, "by_player": False},
        {"round": 1, "kind": "out", "name": "Orque"},
        {"round": 1, "kind": "round_ended", "reason": "pi"},  # D21: nobody left in the round with P.I. > 0
        {"round": 1, "kind": "back", "name": "Orque"},
        {"round": 1, "kind": "action", "name": "Aldric", "action": "bloquer", "category": "interruption", "cost": 1,
         "pays": "espoir", "pi_before": -1, "pi_after": -1, "hope_before": 2, "hope_after": 1,
         "tests": [{**melee, "characteristic_value": 7, "skill": "corps_a_corps", "skill_level": 2}],
         "outcome": {}, "target": None, "against": None, "distance": None, "by_player": False},
        # R1.5: no declaration, so corps_a_corps: Aldric 3 + 1 + 2 + 3 - 2 = 7, Orque 3 + 0 + 1 + 2 = 6
        {"round": 2, "kind": "round_started", "initiatives": [
            {"id": "aldric", "name": "Aldric", "weapon": None, "d6": 3, "initiative": 7, "rolled_by": "table"},
            {"id": "orque", "name": "Orque", "weapon": None, "d6": 2, "initiative": 6, "rolled_by": "engine"}]},
        {"round": 2, "kind": "passed", "name": "Orque", "pi": 6, "by_player": False},
        # R2.4: the GM ends it while Aldric could still act (Orque passed, D5, D21)
        {"round": 2, "kind": "round_ended", "reason": "mj", "holding": [{"id": "aldric", "name": "Aldric", "pi": 7}]},
        {"round": 2, "kind": "removed", "name": "Orque"},
    ]


def test_the_journal_stops_at_a_command_whose_dice_were_not_written() -> None:
    """The journal reads resolved logs: a start_round without its dice is where it stops."""
    log = [*fight()[:2], {"type": "start_round"}, {"type": "act", "actor": "aldric", "action": "observer"}]
    assert [e["kind"] for e in journal(log)] == ["joined", "joined"]


@pytest.mark.parametrize("refused", [
    {"type": "pass", "actor": "nobody"},  # the rules refuse it (unknown_combatant)
    {"type": "act", "actor": "aldric", "action": "voler"},  # an action the catalogue lacks (R4)
    {"type": "jump"},  # a malformed command the codec refuses (unknown_type)
    ["act", "aldric"], "pass", 7, None,  # not a command at all (not_a_command)
])
def test_the_journal_stops_at_a_command_refused(refused: Any) -> None:
    """A log may hold what the engine refuses (a file edited by hand): its journal is that
    of the commands before it."""
    log = [*fight(), refused, {"type": "act", "actor": "orque", "action": "observer"}]
    assert [e["kind"] for e in journal(log)] == ["joined", "joined", "round_started", "action"]


def test_a_fault_of_a_rule_while_reading_the_log_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that fails (an exception that is no refusal) is a fault of the engine's code:
    raised out of the journal, not told as a shorter journal."""
    real = journal_module.step
    steps: list[Any] = []

    def failing_third(enc: Any, command: Any) -> Any:
        steps.append(command)
        if len(steps) == 3:
            raise RuntimeError("a rule's bug")
        return real(enc, command)

    monkeypatch.setattr(journal_module, "step", failing_third)
    with pytest.raises(RuntimeError, match="a rule's bug"):
        journal(fight())


def test_a_new_name_is_told_before_the_entries_that_use_it() -> None:
    """A copy numbers its original ("Orque" becomes "Orque 1", engine/decide.py
    copy_names) and the game master may rename a fighter: the journal says so, so that
    « Orque 1 » in a later entry is the « Orque » of an earlier one. A sheet saved with
    the same name says nothing; a rename and « hors combat » at once say both, in order."""
    log = [{"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "duplicate_combatant", "id": "orque", "count": 1, "ids": ["orque2"]},
           {"type": "update_combatant", "id": "orque2", "changes": {"name": "Chef orque"}},
           {"type": "update_combatant", "id": "orque", "changes": {"name": "Orque 1"}},
           {"type": "update_combatant", "id": "orque", "changes": {"name": "Orque blessé", "hors_combat": True}}]
    commands = engine.replay(log)["commands"]
    assert len(commands) == len(log)
    assert [(e["kind"], e["name"], e.get("to")) for e in journal(commands)] == [
        ("joined", "Orque", None),
        ("renamed", "Orque", "Orque 1"),
        ("joined", "Orque 2", None),
        ("renamed", "Orque 2", "Chef orque"),
        ("renamed", "Orque 1", "Orque blessé"),
        ("out", "Orque 1", None),
    ]


def test_wounds_espoir_notes_and_conditions_are_told() -> None:
    """Every change of wounds (R1.7) and Espoir (R5.2), from the board's row or
    the form, is in the journal with its value before and after; notes that change;
    conditions put on, taken off, and ended with their round (D25). A sheet saved with the
    same wounds tells nothing."""
    log = [*fight(),
           {"type": "update_combatant", "id": "aldric", "changes": {"wounds": 5}},
           {"type": "update_combatant", "id": "aldric", "changes": {"hope": 1, "wounds": 5}},
           {"type": "update_combatant", "id": "orque", "changes": {"notes": "saigne"}},
           {"type": "update_combatant", "id": "orque", "changes": {"notes": ""}},
           {"type": "add_condition", "id": "orque", "condition": "étourdi", "until": 1},
           {"type": "add_condition", "id": "aldric", "condition": "aveuglé"},
           {"type": "remove_condition", "id": "aldric", "condition": "aveuglé"},
           {"type": "end_round"}]
    result = engine.replay(log)
    assert result["ok"], result
    told = [{k: x for k, x in e.items() if k != "round"} for e in journal(result["commands"])[4:]]
    assert told == [
        {"kind": "wounds", "name": "Aldric", "before": 2, "after": 5},
        {"kind": "hope", "name": "Aldric", "before": 2, "after": 1},
        {"kind": "notes", "name": "Orque", "notes": "saigne"},
        {"kind": "notes", "name": "Orque", "notes": ""},
        {"kind": "condition", "name": "Orque", "condition": "étourdi", "until": 1},
        {"kind": "condition", "name": "Aldric", "condition": "aveuglé", "until": None},
        {"kind": "condition_removed", "name": "Aldric", "condition": "aveuglé"},
        {"kind": "round_ended", "reason": "mj",
         "holding": [{"id": "aldric", "name": "Aldric", "pi": 4}, {"id": "orque", "name": "Orque", "pi": 6}]},
        {"kind": "condition_ended", "name": "Orque", "condition": "étourdi"},
    ]


def test_an_aim_at_its_cap_is_told_so() -> None:
    """R4.1, D17: each aim says the bonus it reached; one at the cap (Lyra's Arc 3) says it
    added nothing, where the journal read « Ajuster un tir — 5 P.I. » alone; the shot names
    its test with the aim and the bow's skill by the bow's name."""
    lyra = {**CASTS["lyra"], "skills": {**CASTS["lyra"]["skills"], "arc": 3}}
    log = [{"type": "add_combatant", "combatant": lyra}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "start_round", "declarations": {"lyra": "arc"}, "rolls": {"lyra": 6, "orque": 1}},
           {"type": "act", "actor": "lyra", "action": "encocher_fleche"}, {"type": "act", "actor": "lyra", "action": "ajuster_tir"},
           {"type": "end_round"},  # the aim lasts across rounds (R4.1)
           {"type": "start_round", "declarations": {"lyra": "arc"}, "rolls": {"lyra": 6, "orque": 1}},
           {"type": "act", "actor": "lyra", "action": "ajuster_tir"}, {"type": "act", "actor": "lyra", "action": "ajuster_tir"},
           {"type": "act", "actor": "orque", "action": "observer"},
           {"type": "act", "actor": "lyra", "action": "ajuster_tir"},  # at the cap: 5 P.I. for nothing (D17); the round ends
           {"type": "start_round", "declarations": {"lyra": "arc"}, "rolls": {"lyra": 6, "orque": 1}},
           {"type": "act", "actor": "lyra", "action": "tir_arc", "target": "orque"}]
    result = engine.replay(log)
    assert result["ok"], result
    actions = [e for e in journal(result["commands"]) if e["kind"] == "action" and e["name"] == "Lyra"]
    assert [e.get("aim") for e in actions] == [None, {"bonus": 1, "capped": False}, {"bonus": 2, "capped": False},
                                              {"bonus": 3, "capped": False}, {"bonus": 3, "capped": True}, None]
    shot = actions[-1]["tests"][0]
    assert (shot["skill"], shot["skill_name"], shot["modifiers"]) == ("arc", "Arc long", [{"id": "visee", "value": 3, "rule": "R4.1"}])


def test_a_test_names_the_weapon_used_among_those_of_the_same_skill() -> None:
    """Two weapons of the sheet train the same skill (an « Épée » and a second blade): the
    journal names the skill after the one the fighter used, not the first on the sheet."""
    aldric = {**CASTS["aldric"], "in_hand": ["glaive"]}
    first = next(w for w in aldric["weapons"] if w["kind"] == "melee")
    second = {"id": "glaive", "name": "Glaive", "kind": "melee", "skill": first["skill"], "stowed": True}
    aldric["weapons"] = [*aldric["weapons"], second]
    log = [{"type": "add_combatant", "combatant": aldric}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "start_round", "declarations": {"aldric": "glaive", "orque": "hache"}, "rolls": {"aldric": 5, "orque": 1}},
           {"type": "act", "actor": "aldric", "action": "attaque_melee", "target": "orque"}]
    result = engine.replay(log)
    assert result["ok"], result
    attack = next(e for e in journal(result["commands"]) if e["kind"] == "action")
    assert [(t["skill"], t.get("skill_name")) for t in attack["tests"]] == [(first["skill"], second["name"])]
