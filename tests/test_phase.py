"""Whose phase it is (D22: a fighter who has begun acting finishes its phase before anyone
else acts), and when it ends: the fighter passes, is put out of the fight, is removed, or
the round ends; and a fighter who joins a round under way (D7)."""

from __future__ import annotations

from typing import Any

import engine
from tests.casts import CASTS

TWO = [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")]
START = {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}
SPEAK = {"type": "act", "actor": "aldric", "action": "dire_phrase"}  # free: Aldric's phase begins
ORQUE_LOOKS = {"type": "act", "actor": "orque", "action": "observer"}


def after(*commands: dict[str, Any]) -> dict[str, Any]:
    state = engine.new_encounter()
    for command in [*TWO, *commands]:
        result = engine.apply(state, command)
        assert result["ok"], (command, result)
        state = result["state"]
    return state


def test_while_aldric_finishes_his_phase_nobody_else_acts() -> None:
    state = after(START, SPEAK)
    assert engine.view(state)["phase"] == "aldric"
    assert engine.apply(state, ORQUE_LOOKS)["error"]["key"] == "other_phase"


def test_the_phase_ends_when_he_passes() -> None:
    state = after(START, SPEAK, {"type": "pass", "actor": "aldric"})
    assert engine.view(state)["phase"] is None
    assert engine.apply(state, ORQUE_LOOKS)["ok"]


def test_the_phase_ends_when_he_is_put_out_of_the_fight() -> None:
    state = after(START, SPEAK, {"type": "update_combatant", "id": "aldric", "changes": {"hors_combat": True}})
    assert engine.view(state)["phase"] is None
    assert engine.apply(state, ORQUE_LOOKS)["ok"]


def test_another_fighter_put_out_of_the_fight_leaves_the_phase_as_it_is() -> None:
    state = after(START, SPEAK, {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}})
    assert engine.view(state)["phase"] == "aldric"
    state = after(START, SPEAK, {"type": "update_combatant", "id": "aldric", "changes": {"wounds": 1}})
    assert engine.view(state)["phase"] == "aldric"


def test_the_phase_ends_when_he_is_removed_and_not_when_another_is() -> None:
    state = after(START, SPEAK, {"type": "remove_combatant", "id": "aldric"})
    assert engine.view(state)["phase"] is None
    assert engine.apply(state, ORQUE_LOOKS)["ok"]
    state = after(START, SPEAK, {"type": "add_combatant", "combatant": CASTS["lyra"]}, {"type": "remove_combatant", "id": "lyra"})
    assert engine.view(state)["phase"] == "aldric"


def test_the_phase_ends_with_the_round() -> None:
    state = after(START, SPEAK, {"type": "end_round"})
    assert engine.view(state)["phase"] is None
    state = after(START, SPEAK, {"type": "end_round"}, {"type": "start_round", "rolls": {"aldric": 1, "orque": 6}})
    assert engine.view(state)["active"] == ["orque"]
    assert engine.apply(state, ORQUE_LOOKS)["ok"]


def test_a_fighter_who_joins_a_round_under_way_has_its_declared_weapon_and_die() -> None:
    """D7: added during a round with a weapon and a die, a fighter enters it at once."""
    state = after(START, {"type": "add_combatant", "combatant": CASTS["lyra"], "declaration": "arc", "roll": 4})
    lyra = engine.view(state)["combatants"]["lyra"]
    assert lyra["in_round"] and lyra["declared"] == "arc" and lyra["d6"] == 4
    assert lyra["pi"] == lyra["initiative"] > 4


def _tied(*sheets: dict[str, Any], rolls: dict[str, int]) -> list[str]:
    state = engine.new_encounter()
    for command in [*({"type": "add_combatant", "combatant": s} for s in sheets), {"type": "start_round", "rolls": rolls}]:
        state = engine.apply(state, command)["state"]
    return list(engine.view(state)["active"])


def test_among_tied_fighters_the_higher_die_then_the_pj_then_the_first_entered_is_suggested() -> None:
    """D4: every fighter tied at the top is ready; suggested first, the higher d6, then a PJ
    before a PNJ, then the order of entry."""
    pnj = {"id": "pnj", "name": "Orque", "side": "pnj", "characteristics": {"melee": 6}}
    pj = {"id": "pj", "name": "Aldric", "side": "pj", "characteristics": {"melee": 6}}
    assert _tied(pnj, pj, rolls={"pnj": 4, "pj": 4}) == ["pj", "pnj"]  # a PJ first, though entered second
    second = {**pnj, "id": "pnj2", "name": "Gobelin"}
    assert _tied(pnj, second, rolls={"pnj": 4, "pnj2": 4}) == ["pnj", "pnj2"]  # then the order of entry
    strong = {**pnj, "id": "fort", "name": "Ogre", "characteristics": {"melee": 8}}  # half 4: 4 + 3 = 3 + 4
    assert _tied(strong, pnj, rolls={"fort": 3, "pnj": 4}) == ["pnj", "fort"]  # the higher die first
