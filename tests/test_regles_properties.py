"""The engine's invariants under the group's rules (engine/regles.py), with Hypothesis:
random valid rules and random fights (the machine of tests/test_properties.py, its
invariants and its teardown: P.I. only fall within a round, refusals leave the state
unchanged, the board's verdicts are the commands' own, replay and a share link rebuild
the state, a JSON round trip changes nothing), and random invalid rules, each refused
with its field named."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule
from strategies import BAD_RULES, regles

import engine
from engine.regles import FIELDS, as_json, read
from tests import test_properties


class FightUnderRules(test_properties.Fight):
    """Random fights, each under random rules set before it starts, and changed as it goes
    (at once or from the next round)."""

    @initialize(value=regles())
    def house_rules(self, value: dict[str, Any]) -> None:
        r = self.send({"type": "set_rules", "regles": value, "whole": True, "from_next_round": False})
        assert r["ok"], r["error"]

    @rule(data=st.data())
    def start_round(self, data: st.DataObject) -> None:
        """The dice of the rules the round starts with (now and then one too high: refused)."""
        if not self.state["round_over"]:
            return
        shown = self.board["regles"]
        faces = (shown["a_venir"] or shown)["de_initiative"]
        rolls = {c: data.draw(st.integers(1, faces + (1 if data.draw(st.integers(0, 9)) == 0 else 0)))
                 for c, f in self.board["combatants"].items() if not f["hors_combat"] and data.draw(st.booleans())}
        r = self.send({"type": "start_round", "rolls": rolls})
        # Refused too when nobody is left to fight (every fighter out of the fight: R1).
        fighting = any(not f["hors_combat"] for f in self.board["combatants"].values())
        assert r["ok"] == (all(d <= faces for d in rolls.values()) and fighting), r.get("error")

    @rule(value=regles(), at_once=st.booleans(), fields=st.sets(st.sampled_from(FIELDS), max_size=4))
    def change_rules(self, value: dict[str, Any], at_once: bool, fields: set[str]) -> None:
        """Some fields of new rules, or a whole value; a partial value that breaks a pair
        with the rules it changes (a cap below the step, complex below simple) is refused."""
        partial = {k: x for k, x in value.items() if k in fields}
        whole = not fields
        r = self.send({"type": "set_rules", "regles": value if whole else partial, "whole": whole, "from_next_round": not at_once})
        if not r["ok"]:
            assert r["error"]["key"] in ("at_least", "at_most"), r["error"]
            return
        shown = self.board["regles"]
        in_force = shown if at_once or self.board["round"] == 0 else shown["a_venir"] or shown
        given = value if whole else partial
        assert {k: in_force[k] for k in given} == {k: x for k, x in as_json(read(value)).items() if k in given}


TestFightUnderRules = FightUnderRules.TestCase


@given(field=st.sampled_from(sorted(BAD_RULES)), data=st.data(), value=regles())
def test_invalid_rules_are_refused_with_their_field_named(field: str, data: st.DataObject, value: dict[str, Any]) -> None:
    """A bad value of any field, beside valid ones, is refused (``bad_value``) naming that
    field, and the state stays as it was."""
    bad = data.draw(st.sampled_from(BAD_RULES[field]))
    state = engine.new_encounter()
    r = engine.apply(state, {"type": "set_rules", "regles": {**value, field: bad}})
    assert not r["ok"] and r["state"] is state
    assert r["error"]["code"] == "bad_value"
    # The field, or one of its items (« regles.visee_perdue[2] »).
    [named] = [f["field"] for f in r["error"]["fields"]]
    assert named == f"regles.{field}" or named.startswith(f"regles.{field}["), named
    assert r["error"]["params"]["field"] == named


@given(name=st.text(min_size=1, max_size=20).filter(lambda n: n not in FIELDS), value=regles())
def test_an_unknown_field_is_refused_by_name(name: str, value: dict[str, Any]) -> None:
    r = engine.apply(engine.new_encounter(), {"type": "set_rules", "regles": {**value, name: 1}})
    assert (r["error"]["key"], r["error"]["params"]["field"]) == ("unknown_field", f"regles.{name[:40]}")


@given(value=regles())
def test_a_valid_value_is_accepted_and_shown_as_given(value: dict[str, Any]) -> None:
    r = engine.apply(engine.new_encounter(), {"type": "set_rules", "regles": value})
    assert r["ok"], r["error"]
    shown = engine.view(r["state"])["regles"]
    order = ("gratuite", "simple", "complexe", "interruption")
    assert {k: shown[k] for k in value} == {**value, "visee_perdue": [c for c in order if c in value["visee_perdue"]],
                                           "courir_table": sorted(value["courir_table"])}
