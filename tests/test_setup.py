"""Faster set-up, in CPython: the sheet's field errors all at once, copies
numbered from the original (``duplicate_combatant``), and dice rolled by the page's
« Lancer » button recorded as rolled by the app (``app_rolled``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import sheets

import engine
from engine import save
from engine.decide import copy_names
from engine.errors import CHECKS, Refusal
from engine.model import CHARACTERISTICS
from engine.sheet import LIMITS, NEW_FIELDS, SHEET_FIELDS, field_errors, parse_combatant
from engine.table import Table

HERE = Path(__file__).parent
HACHE = {"id": "hache", "name": "Hache", "kind": "melee", "skill": "hache"}
ORQUE = {"name": "Orque", "side": "pnj", "characteristics": {"melee": 6}, "skills": {"hache": 2},
         "weapons": [HACHE], "in_hand": ["hache"]}


def names(answer: dict[str, Any]) -> list[str]:
    fighters = sorted(answer["board"]["combatants"].values(), key=lambda f: f["entry"])
    return [f["name"] for f in fighters]


# --- every field error at once ----------------------------------------------------------
def test_every_bad_field_is_reported_at_once_with_a_key_and_its_limits() -> None:
    sheet = {"name": "  ", "side": "pnj", "characteristics": {"tir": "x", "melee": 1000}, "skills": {"hache": -1},
             "initiative_bonus": 1.5, "wounds": -2, "hope": 3,
             "weapons": [{**HACHE, "name": ""}, {"id": "arc", "name": "Arc", "kind": "fronde", "skill": "arc"}]}
    got = {e["field"]: (e["key"], e["params"]) for e in field_errors(sheet)}
    assert got == {
        "name": ("required", {}),
        "characteristics.tir": ("integer", {"low": 0, "high": 999}),
        "characteristics.melee": ("range", {"low": 0, "high": 999}),
        "skills.hache": ("range", {"low": 0, "high": 999}),
        "initiative_bonus": ("integer", {"low": -999, "high": 999}),
        "wounds": ("range", {"low": 0, "high": 999}),
        "weapons[0].name": ("required", {}),
        "weapons[1].kind": ("choice", {"allowed": ["melee", "bow", "thrown", "shield"]}),
    }
    assert all(e["key"] in CHECKS for e in field_errors(sheet))


def test_a_missing_name_and_a_held_weapon_not_on_the_sheet_are_named() -> None:
    got = [(e["field"], e["key"]) for e in field_errors({"weapons": [HACHE], "in_hand": ["arc"]})]
    assert got == [("name", "required"), ("in_hand", "unknown_weapon")]
    assert [(e["field"], e["key"]) for e in field_errors({**ORQUE, "weapons": [HACHE, HACHE]})] == [("weapons", "duplicate")]


def test_an_update_checks_only_the_fields_it_changes() -> None:
    orque = parse_combatant(ORQUE, "c1", entry=0)
    assert field_errors({"hope": 2, "hors_combat": True}, orque) == []
    assert [e["field"] for e in field_errors({"name": "", "notes": 3}, orque)] == ["name", "notes"]
    assert field_errors({"in_hand": ["hache"]}, orque) == []  # the fighter's own weapons
    assert [e["key"] for e in field_errors({"in_hand": ["arc"]}, orque)] == ["unknown_weapon"]


@given(sheets(), st.dictionaries(st.sampled_from(["name", "wounds", "hope", "initiative_bonus", "side"]),
                                 st.one_of(st.integers(-2000, 2000), st.text(max_size=70), st.none(), st.floats())))
def test_the_field_errors_agree_with_the_parser(sheet: dict[str, Any], damage: dict[str, Any]) -> None:
    """The form's errors are the parser's: none exactly when the engine takes the sheet."""
    sheet = {**sheet, **damage}
    try:
        parse_combatant(sheet, "c1", entry=0)
        accepted = True
    except Refusal:
        accepted = False
    assert (field_errors(sheet) == []) == accepted


def test_the_table_answers_the_fields_and_the_limits_the_form_uses() -> None:
    table = Table()
    answer = table.check({"type": "add_combatant", "combatant": {"name": "Orque", "wounds": 1000, "hope": -1}})
    assert not answer["ok"]
    assert [e["field"] for e in answer["fields"]] == ["wounds", "hope"]
    limits = json.loads(table.call('{"op": "limits"}'))["limits"]
    assert {k: limits[k] for k in LIMITS} == LIMITS
    assert limits["value"] == {"low": 0, "high": 999} and limits["name"] == 60


def test_the_limits_the_table_announces_are_the_ones_it_enforces() -> None:
    """``Table.limits`` (the page's only source for them): a sheet's weapons, the weapon
    ids a command lists, the fighters of a fight, a save's commands and characters."""
    limits = Table().limits()["limits"]
    arms = [{"id": f"a{i}", "name": f"Arme {i}", "kind": "melee", "skill": "a"} for i in range(limits["weapons"] + 1)]
    table = Table()
    assert table.apply({"type": "add_combatant", "combatant": {"name": "Tout", "weapons": arms[:-1]}})["ok"]
    refused = table.check({"type": "add_combatant", "combatant": {"name": "Trop", "weapons": arms}})["error"]
    assert (refused["key"], refused["params"]) == ("too_many", {"field": "weapons", "max": limits["weapons"]})
    table.apply({"type": "start_round", "rolls": {"c1": 6}})
    items = table.check({"type": "act", "actor": "c1", "action": "prendre_objet", "items": [f"a{i}" for i in range(limits["items"] + 1)]})
    assert (items["error"]["key"], items["error"]["params"]) == ("too_many", {"field": "items", "max": limits["items"]})
    notes = table.check({"type": "update_combatant", "id": "c1", "changes": {"notes": "x" * (limits["notes"] + 1)}})["error"]
    assert (notes["key"], notes["params"]["max"]) == ("text_length", limits["notes"])
    assert table.check({"type": "update_combatant", "id": "c1", "changes": {"notes": "x" * limits["notes"]}})["ok"]
    full = Table()
    for n in range(limits["fighters"]):
        assert full.apply({"type": "add_combatant", "combatant": {"name": f"F{n}"}})["ok"]
    one_too_many = full.check({"type": "add_combatant", "combatant": {"name": "Un de trop"}})
    assert one_too_many["error"]["code"] == "too_many_fighters" and one_too_many["fields"] == []  # no field of the sheet to mark
    assert save.checked_texts(["{}"] * limits["commands"], None)
    with pytest.raises(Refusal) as long:
        save.checked_texts(["{}"] * (limits["commands"] + 1), None)
    assert (long.value.code, long.value.params["max"]) == ("too_long", limits["commands"])
    with pytest.raises(Refusal) as big:
        save.checked_texts(['"' + "x" * limits["chars"] + '"'], None)
    assert (big.value.code, big.value.params["max_kb"]) == ("too_big", limits["chars"] // 1000)


# --- copies numbered from the original --------------------------------------------------
def test_copying_orque_renames_it_orque_1_and_names_the_copy_orque_2() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    answer = table.apply({"type": "duplicate_combatant", "id": "c1"})
    assert answer["ok"], answer
    assert names(answer) == ["Orque 1", "Orque 2"]
    assert answer["command"] == {"type": "duplicate_combatant", "id": "c1", "ids": ["c2"]}
    copy = answer["board"]["combatants"]["c2"]
    assert copy["weapons"] == answer["board"]["combatants"]["c1"]["weapons"] and copy["in_hand"] == ["hache"]
    answer = table.apply({"type": "duplicate_combatant", "id": "c2", "count": 2})
    assert names(answer) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"]
    assert table.undo()["ok"] and names(table.show()) == ["Orque 1", "Orque 2"]
    assert names(table.undo()) == ["Orque"]


def test_copies_replay_identically_from_the_save() -> None:
    table = Table(rng=random.Random(3))
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "duplicate_combatant", "id": "c1", "count": 3})
    text = table.export()["text"]
    again = Table()
    assert again.load(text)["ok"]
    assert names(again.show()) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"]
    assert again.export()["text"] == text


def test_copy_names_skip_taken_numbers_and_fit_the_longest_name() -> None:
    assert copy_names("Orque", {"Orque", "Orque 1", "Orque 3"}, 2) == ("Orque 2", ["Orque 4", "Orque 5"])
    long = "x" * 60
    renamed, copies = copy_names(long, {long}, 1)
    assert renamed == "x" * 58 + " 1" and copies == ["x" * 58 + " 2"]
    spaced = "x" * 57 + " yy"  # cut where a word ends: no space left before the number
    renamed, copies = copy_names(spaced, {spaced}, 1)
    assert renamed == "x" * 57 + " 1" and copies == ["x" * 57 + " 2"]


def test_copies_past_64_fighters_are_refused_and_nothing_changes() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "duplicate_combatant", "id": "c1", "count": 62})
    answer = table.apply({"type": "duplicate_combatant", "id": "c1", "count": 2})
    assert answer["error"]["code"] == "too_many_fighters"
    assert len(answer["board"]["combatants"]) == 63
    for bad in ({"count": 0}, {"count": "2"}, {"ids": ["c1"]}, {"count": 2, "ids": ["c90", "c90"]}):
        assert table.apply({"type": "duplicate_combatant", "id": "c1", **bad})["error"]["code"] == "bad_value"


@pytest.mark.parametrize(("bad", "error"), [
    ({"count": 0}, {"code": "bad_value", "key": "range", "params": {"field": "count", "low": 1, "high": 64}}),
    ({"count": "2"}, {"code": "bad_value", "key": "integer", "params": {"field": "count", "low": 1, "high": 64}}),
    ({"ids": "c9"}, {"code": "bad_value", "key": "list", "params": {"field": "ids"}}),
    ({"ids": [""]}, {"code": "bad_value", "key": "identifier", "params": {"field": "ids[]", "max": 60}}),
    ({"count": 2, "ids": ["c8", "c8"]}, {"code": "bad_value", "key": "distinct_ids", "params": {"field": "ids", "count": 2}}),
    ({"count": 2, "ids": ["c8", "c1"]}, {"code": "bad_value", "key": "id_taken", "params": {"field": "ids", "id": "c1"}}),
])
def test_a_bad_copy_is_refused_with_its_field_and_nothing_changes(bad: dict[str, Any], error: dict[str, Any]) -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    answer = table.apply({"type": "duplicate_combatant", "id": "c1", **bad})
    assert {k: answer["error"][k] for k in error} == error
    assert names(answer) == ["Orque"]


def test_copies_join_after_every_fighter_in_the_order_they_were_made() -> None:
    """A copy's place in the order of entry (D4's last tie-break) follows the last fighter
    added, whoever was copied."""
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "add_combatant", "combatant": {**ORQUE, "name": "Gobelin"}})
    answer = table.apply({"type": "duplicate_combatant", "id": "c1", "count": 2})
    entries = {f["name"]: f["entry"] for f in answer["board"]["combatants"].values()}
    assert entries == {"Orque 1": 0, "Gobelin": 1, "Orque 2": 2, "Orque 3": 3}


def test_past_64_fighters_the_refusal_says_how_many_at_most() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "duplicate_combatant", "id": "c1", "count": 63})
    assert table.apply({"type": "duplicate_combatant", "id": "c1"})["error"] == {
        "code": "too_many_fighters", "key": "too_many_fighters", "params": {"max": 64},
        "message": "Au plus 64 combattants dans un combat : retirez-en un avant d'en ajouter un autre."}


# --- dice rolled by the page ------------------------------------------------------------
def test_a_die_rolled_by_the_page_is_recorded_as_rolled_by_the_app() -> None:
    table = Table(rng=random.Random(1))
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "add_combatant", "combatant": {**ORQUE, "name": "Aldric", "side": "pj"}})
    table.apply({"type": "add_combatant", "combatant": {**ORQUE, "name": "Lyra", "side": "pj"}})
    answer = table.apply({"type": "start_round", "rolls": {"c1": 5, "c2": 2}, "app_rolled": ["c1"]})
    assert answer["ok"], answer
    command = answer["command"]
    assert "app_rolled" not in command
    assert command["engine_rolled"] == ["c1", "c3"]  # the page's die, and the one left empty
    rolled = {i["name"]: i["rolled_by"] for i in table.journal()["entries"][-1]["initiatives"]}
    assert rolled == {"Orque": "engine", "Aldric": "table", "Lyra": "engine"}


def test_every_die_rolled_by_the_page_saves_as_compactly_as_the_engines() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply({"type": "start_round", "rolls": {"c1": 4}, "app_rolled": ["c1"]})
    saved = json.loads(table.export()["text"])["commands"][-1]
    assert saved == {"type": "start_round", "rolls": {"c1": 4}, "engine_rolled": True}


def test_typed_dice_stay_typed_and_a_bad_app_rolled_is_refused() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    assert table.check({"type": "start_round", "rolls": {"c1": 4}, "app_rolled": [1]})["error"]["code"] == "bad_value"
    both = {"type": "start_round", "rolls": {"c1": 4}, "engine_rolled": [], "app_rolled": ["c1"]}
    assert table.check(both)["error"]["code"] == "bad_value"
    answer = table.apply({"type": "start_round", "rolls": {"c1": 4}, "app_rolled": []})
    assert answer["command"] == {"type": "start_round", "rolls": {"c1": 4}}


def test_old_saves_open_unchanged() -> None:
    for name in ("format-1.json", "format-2.json"):
        text = (HERE / "saves" / name).read_text(encoding="utf-8")
        before = save.read(text)
        table = Table()
        answer = table.load(text)
        assert answer["ok"], answer
        assert save.parse(table.export()["text"])["commands"] == before["commands"]


def test_copies_of_a_model_are_numbered_with_the_fighters_of_its_name() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    for _ in range(2):
        answer = table.apply({"type": "add_combatant", "combatant": ORQUE, "numbered": True})
    assert names(answer) == ["Orque 1", "Orque 2", "Orque 3"]
    fresh = Table()
    fresh.apply({"type": "add_combatant", "combatant": {**ORQUE, "name": "Aldric", "side": "pj"}})
    assert names(fresh.apply({"type": "add_combatant", "combatant": ORQUE, "numbered": True})) == ["Aldric", "Orque 1"]
    assert fresh.apply({"type": "add_combatant", "combatant": ORQUE, "numbered": 1})["error"]["code"] == "bad_value"
    assert names(fresh.undo()) == ["Aldric"]


@pytest.mark.parametrize(("sheet", "changes", "expected"), [
    ("Orque", False, [{"field": "combatant", "key": "object", "params": {}}]),
    ({**ORQUE, "side": "alien"}, False, [{"field": "side", "key": "choice", "params": {"allowed": ["pj", "pnj"]}}]),
    ({**ORQUE, "characteristics": [6]}, False, [{"field": "characteristics", "key": "object", "params": {}}]),
    ({**ORQUE, "skills": "hache"}, False, [{"field": "skills", "key": "object", "params": {}}]),
    ({**ORQUE, "weapons": {"hache": HACHE}}, False, [{"field": "weapons", "key": "list", "params": {}}]),
    ({**ORQUE, "weapons": [{**HACHE, "id": f"h{i}", "skill": f"h{i}"} for i in range(17)], "in_hand": []}, False,
     [{"field": "weapons", "key": "too_many", "params": {"max": 16}}]),
    ({**ORQUE, "colour": "rouge"}, False,
     [{"field": "combatant.colour", "key": "unknown_field", "params": {"known": [*SHEET_FIELDS, *NEW_FIELDS]}}]),
    ({**ORQUE, "characteristics": {"force": 3}}, False,
     [{"field": "characteristics.force", "key": "unknown_field", "params": {"known": list(CHARACTERISTICS)}}]),
    ({**ORQUE, "in_hand": ["hache", "hache"]}, False, [{"field": "in_hand", "key": "duplicate", "params": {}}]),
    ({**ORQUE, "id": "c1"}, False, []),
    ({**ORQUE, "hors_combat": True}, False,
     [{"field": "combatant.hors_combat", "key": "unknown_field", "params": {"known": [*SHEET_FIELDS, *NEW_FIELDS]}}]),
    ({"hors_combat": True, "notes": "x"}, True, []),
    ({"side": "pj"}, False, [{"field": "name", "key": "required", "params": {}}]),
    ({"side": "pj"}, True, []),
])
def test_each_field_error_names_its_field_exactly(sheet: Any, changes: bool, expected: list[dict[str, Any]]) -> None:
    """The form puts each error next to its field by this name (web/views/cast-view.js), and words it
    by its key and limits (web/infra/i18n.js); ``changes``: the changes to a fighter's sheet."""
    assert field_errors(sheet, parse_combatant(ORQUE, "c1", entry=0) if changes else None) == expected


def _names_after(*sheets: tuple[str, bool]) -> list[str]:
    state = engine.new_encounter()
    for name, numbered in sheets:
        result = engine.apply(state, {"type": "add_combatant", "combatant": {"name": name}, **({"numbered": True} if numbered else {})})
        assert result["ok"], result
        state = result["state"]
    return [f["name"] for f in sorted(engine.view(state)["combatants"].values(), key=lambda f: f["entry"])]


@pytest.mark.parametrize(("sheets", "expected"), [
    ([("Orque", False), ("Orque", True)], ["Orque 1", "Orque 2"]),
    ([("Orque", False), ("Orque", True), ("Orque 7", True)], ["Orque 1", "Orque 2", "Orque 3"]),
    ([("Orque 1", False), ("Orque", True)], ["Orque 1", "Orque 2"]),
    ([("Orque 2", True)], ["Orque 1"]),
    ([("Gobelin", True)], ["Gobelin 1"]),
    ([("Orque", False), ("Orque", False)], ["Orque", "Orque"]),
])
def test_a_model_added_numbered_takes_the_next_number_of_its_name(sheets: list[tuple[str, bool]], expected: list[str]) -> None:
    """Models (docs/TABLE.md): a copy added ``numbered`` is named after the fighters of the
    same name, its own number left out ("Orque 7" of a model is the next Orque); the one
    already there without a number becomes "… 1"."""
    assert _names_after(*sheets) == expected


@pytest.mark.parametrize(("sheet", "key", "params"), [
    ({"name": ""}, "required", {"field": "name"}),
    ({"name": "x" * 61}, "text_length", {"field": "name", "min": 1, "max": 60}),
    ({}, "required", {"field": "name"}),
    ({"name": "A", "side": "x"}, "choice", {"field": "side", "allowed": ["pj", "pnj"]}),
    ({"name": "A", "initiative_bonus": "x"}, "integer", {"field": "initiative_bonus", "low": -999, "high": 999}),
    ({"name": "A", "wounds": -1}, "range", {"field": "wounds", "low": 0, "high": 999}),
    ({"name": "A", "hope": -2}, "range", {"field": "hope", "low": 0, "high": 999}),
    ({"name": "A", "colour": 1}, "unknown_field", {"field": "combatant.colour", "known": [*SHEET_FIELDS, *NEW_FIELDS]}),
    ("A", "object", {"field": "combatant"}),
])
def test_a_sheet_the_engine_refuses_names_its_field(sheet: Any, key: str, params: dict[str, Any]) -> None:
    """parse_combatant: the refusal's key and params, by which the page words it (web/infra/i18n.js)."""
    error = engine.apply(engine.new_encounter(), {"type": "add_combatant", "combatant": sheet})["error"]
    assert (error["code"], error["key"], error["params"]) == ("bad_value", key, params)
