"""The page words the engine's ids (#11): every reason the board can give for a refused
action has a stable key, and both languages word every key (web/lang/fr.js, en.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.actions.base import Need, Uses
from engine.errors import REASONS

ROOT = Path(__file__).resolve().parents[1]
CASTS = json.loads((ROOT / "tests" / "scenarios" / "_casts.json").read_text(encoding="utf-8"))


def keys_worded(language: str) -> set[str]:
    """The keys of the ``reasons`` table of web/lang/<language>.js."""
    text = (ROOT / "web" / "lang" / f"{language}.js").read_text(encoding="utf-8")
    block = text[text.index("\n  reasons: {"):]
    block = block[: block.index("\n  },")]
    return set(re.findall(r"^    (\w+): ", block, re.M))


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_reason_is_worded(language: str) -> None:
    assert keys_worded(language) == set(REASONS)


def test_every_precondition_and_weapon_names_a_known_reason() -> None:
    for action in engine.ACTIONS.values():
        for need in action.needs:
            assert isinstance(need, Need) and need.key in REASONS, (action.id, need)
        if action.uses is not None:
            assert isinstance(action.uses, Uses)
            assert action.uses.key in REASONS and action.uses.unfit_key in REASONS, action.id


def test_every_refused_action_on_the_board_carries_its_key() -> None:
    """Fighters in many situations (before a round, acting, waiting, out of P.I., out of
    the fight): each action the board refuses says why by a key the page can word."""
    state = engine.new_encounter()
    for name in ("aldric", "orque"):
        state = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})["state"]
    seen: set[str] = set()
    steps = [None, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}},
             {"type": "act", "actor": "aldric", "action": "charge", "distance": 3, "test_result": 1, "target": "orque"},
             {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}]
    for command in steps:
        if command is not None:
            result = engine.apply(state, command)
            assert result["ok"], result
            state = result["state"]
        for fighter in engine.view(state)["combatants"].values():
            for verdict in fighter["actions"].values():
                if not verdict["allowed"]:
                    assert verdict["key"] in REASONS, verdict
                    seen.add(verdict["key"])
    assert {"round_not_started", "not_highest", "no_dodge_after_charge", "hors_combat"} <= seen, seen


def test_a_refused_command_carries_its_key_and_params() -> None:
    state = engine.new_encounter()
    for name in ("aldric", "orque"):
        state = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})["state"]
    state = engine.apply(state, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})["state"]
    state = engine.apply(state, {"type": "pass", "actor": "aldric"})["state"]
    error = engine.apply(state, {"type": "act", "actor": "aldric", "action": "observer"})["error"]
    assert (error["code"], error["key"], error["params"]) == ("not_allowed", "passed", {"name": "Aldric"})


START = {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}
DODGE = {"type": "interrupt", "actor": "orque", "action": "esquiver"}


@pytest.mark.parametrize(("steps", "command", "expected"), [
    ([], {"type": "act", "actor": "aldric", "action": "observer"}, {"code": "round_over", "key": "round_not_started", "params": {}}),
    ([START], {"type": "act", "actor": "orque", "action": "observer"}, {"code": "not_your_turn", "key": "not_highest", "params": {}}),
    ([START, {"type": "act", "actor": "aldric", "action": "dire_phrase"}], {"type": "interrupt", "actor": "aldric", "action": "esquiver"},
     {"code": "not_allowed", "key": "interrupt_own_phase", "params": {}}),
    ([START, {"type": "act", "actor": "aldric", "action": "dire_phrase"}], {"type": "act", "actor": "orque", "action": "observer"},
     {"code": "not_your_turn", "key": "other_phase", "params": {}}),
    ([START, {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}], DODGE,
     {"code": "not_allowed", "key": "hors_combat", "params": {"name": "Orque"}}),
    ([START, {"type": "end_round"}], {"type": "act", "actor": "aldric", "action": "observer"},
     {"code": "round_over", "key": "round_finished", "params": {}}),
    ([START, {"type": "add_combatant", "combatant": CASTS["lyra"]}], {"type": "interrupt", "actor": "lyra", "action": "esquiver"},
     {"code": "not_allowed", "key": "not_in_round", "params": {"name": "Lyra"}}),
    ([START, DODGE], DODGE, {"code": "no_hope", "key": "no_hope", "params": {"name": "Orque"}}),
])
def test_who_may_act_is_refused_with_a_key_the_page_words(steps: list[dict[str, Any]], command: dict[str, Any],
                                                          expected: dict[str, Any]) -> None:
    """rules.eligibility (R1, R2.1, R2.4, R5.1, R5.2, D6, D7, D22): the code, and the key and
    params by which web/lang/*.js word the refusal in the page's language."""
    state = engine.new_encounter()
    for command_before in [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")] + steps:
        result = engine.apply(state, command_before)
        assert result["ok"], result
        state = result["state"]
    error = engine.apply(state, command)["error"]
    assert {k: error.get(k) for k in expected} == expected


def test_an_interruption_without_p_i_is_paid_with_a_point_d_espoir() -> None:
    """R5.2: out of P.I., an interruption costs a point d'Espoir, and the P.I. stay at 0."""
    state = engine.new_encounter()
    for command in [{"type": "add_combatant", "combatant": CASTS["aldric"]},
                    {"type": "add_combatant", "combatant": {**CASTS["orque"], "hope": 1}}, START, DODGE]:
        state = engine.apply(state, command)["state"]
    orque = engine.view(state)["combatants"]["orque"]
    assert (orque["pi"], orque["hope"]) == (0, 1)
    assert orque["actions"]["esquiver"]["allowed"] and orque["actions"]["esquiver"]["pays"] == "espoir"
    after = engine.view(engine.apply(state, DODGE)["state"])["combatants"]["orque"]
    assert (after["pi"], after["hope"]) == (0, 0)


@pytest.mark.parametrize(("command", "expected"), [
    ({"type": "act", "actor": "aldric", "action": "attaque_melee", "weapon": "arc", "target": "orque"},
     {"code": "not_allowed", "message": "Arc court ne convient pas : il faut une arme de mêlée en main, ou les mains nues (R4).",
      "key": "weapon_unfit", "params": {"weapon": "Arc court", "why": "needs_melee"}}),
    ({"type": "act", "actor": "aldric", "action": "se_jeter_au_sol", "posture": "assis"},
     {"code": "bad_value", "message": "« posture » doit être l'une des valeurs a_genoux, a_terre (reçu : 'assis').",
      "params": {"field": "posture", "check": "choice", "allowed": ["a_genoux", "a_terre"]}}),
    ({"type": "act", "actor": "aldric", "action": "lacher_objet", "items": []},
     {"code": "bad_value", "message": "« items » doit être une liste non vide d'id d'armes distincts (reçu : une liste).",
      "params": {"field": "items", "check": "invalid"}}),
    ({"type": "act", "actor": "aldric", "action": "attaque_melee", "target": ""},
     {"code": "bad_value", "message": "« target » doit être un identifiant (texte de 1 à 60 caractères) (reçu : '').",
      "params": {"field": "target", "check": "identifier", "max": 60}}),
    ({"type": "interrupt", "actor": "orque", "action": "esquive_acrobatique", "tests": {"esquive": 1}},
     {"code": "bad_value", "message": "« tests » doit être un objet {esquive: vrai/faux, acrobatie: vrai/faux} (reçu : un objet).",
      "params": {"field": "tests", "check": "invalid"}}),
])
def test_a_bad_option_or_an_unfit_weapon_is_refused_in_words_and_by_key(command: dict[str, Any], expected: dict[str, Any]) -> None:
    """commands.check_options and rules.weapon_for (R4): the whole refusal, its words as the
    French page shows them and its key and params for the English one."""
    state = engine.new_encounter()
    for before in [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")] + [START]:
        state = engine.apply(state, before)["state"]
    assert engine.apply(state, command)["error"] == expected
