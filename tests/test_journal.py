"""The journal (engine/journal.py): the fight told round by round from the resolved log."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.journal import journal
from tests.strategies import MALFORMED
from tests.test_save import CASTS, fight


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


@settings(max_examples=50)
@given(st.lists(MALFORMED, max_size=3))
def test_the_journal_never_raises(log: list[Any]) -> None:
    assert isinstance(journal(log), list)
