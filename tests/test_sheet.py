"""The GM's corrections (``update_combatant``, engine/sheet.py): each field a change may
set, how it lands on the board, and each bad value refused naming its field."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.model import CHARACTERISTICS
from engine.sheet import NEW_FIELDS, SHEET_FIELDS, WEAPON_FIELDS
from engine.table import Table
from tests.casts import CASTS
from tests.test_commands import refusal, refused, state_after

TRIO = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("aldric", "orque", "lyra")]


def update(changes: Any, who: str = "aldric") -> dict[str, Any]:
    return {"type": "update_combatant", "id": who, "changes": changes}


def fighter_after(*changes: dict[str, Any], who: str = "aldric") -> dict[str, Any]:
    board = engine.view(state_after([*TRIO, *(update(c, who) for c in changes)]))
    fighter: dict[str, Any] = board["combatants"][who]
    return fighter


def test_the_sheet_fields_are_set_as_given() -> None:
    f = fighter_after({"name": "  Aldric le Brave ", "side": "pnj", "initiative_bonus": -2, "wounds": 0, "hope": 0})
    assert (f["name"], f["side"], f["initiative_bonus"], f["wounds"], f["hope"]) == ("Aldric le Brave", "pnj", -2, 0, 0)


def test_characteristics_and_skills_are_merged_into_the_sheet() -> None:
    f = fighter_after({"characteristics": {"melee": 9, "tir": 0}, "skills": {"epee": 4, "hache": 1}})
    assert f["characteristics"] == {"charisme": 4, "derobee": 6, "intelligence": 5, "lancer": 5, "melee": 9, "tir": 0, "vue": 5}
    assert f["skills"]["epee"] == 4 and f["skills"]["hache"] == 1 and f["skills"]["esquive"] == 3


def test_the_table_fields_are_set_as_given() -> None:
    f = fighter_after({"posture": "a_genoux", "cover": True, "hors_combat": True})
    assert (f["posture"], f["cover"], f["hors_combat"]) == ("a_genoux", True, True)


def test_new_weapons_keep_in_hand_only_what_is_still_on_the_sheet() -> None:
    hache = {"id": "hache", "name": "Hache", "kind": "melee", "skill": "hache"}
    f = fighter_after({"in_hand": ["epee", "dague"]}, {"weapons": [CASTS["aldric"]["weapons"][1], hache]})
    assert [w["id"] for w in f["weapons"]] == ["dague", "hache"]
    assert f["weapons"][1] == {**hache, "stowed": True}
    assert f["in_hand"] == ["dague"]
    both = fighter_after({"weapons": [hache], "in_hand": ["hache"]})
    assert both["in_hand"] == ["hache"]


def test_an_arrow_stays_nocked_only_on_a_bow_in_hand() -> None:
    """D18: an arrow is nocked on a bow; without a bow in hand there is none."""
    assert fighter_after({"in_hand": ["arc"], "arrow_nocked": True})["arrow_nocked"] is True
    assert fighter_after({"arrow_nocked": True})["arrow_nocked"] is False
    assert fighter_after({"in_hand": ["arc"], "arrow_nocked": True}, {"in_hand": ["epee"]})["arrow_nocked"] is False


def test_engagements_set_by_the_gm_with_the_other_changes() -> None:
    """D11: ``engaged_with`` names fighters on the tracker (sorted, once each); the other
    changes of the same command still apply."""
    f = fighter_after({"engaged_with": ["orque", "lyra", "orque"], "wounds": 4})
    assert (f["engaged_with"], f["engaged"], f["wounds"]) == (["lyra", "orque"], True, 4)
    g = fighter_after({"engaged_with": ["orque"]}, {"engaged": False, "wounds": 5})
    assert (g["engaged_with"], g["engaged"], g["wounds"]) == ([], False, 5)


@pytest.mark.parametrize(("changes", "field"), [
    ("blessé", "« changes »"), ({"pi": 3}, "« changes.pi »"), ({"name": " "}, "« name »"), ({"side": "mj"}, "« side »"),
    ({"characteristics": {"force": 3}}, "« characteristics.force »"), ({"characteristics": 5}, "« characteristics »"),
    ({"skills": {"epee": -1}}, "« skills.epee »"), ({"skills": []}, "« skills »"),
    ({"initiative_bonus": "2"}, "« initiative_bonus »"), ({"wounds": -1}, "« wounds »"), ({"hope": -1}, "« hope »"),
    ({"weapons": {}}, "« weapons »"), ({"weapons": [{"id": "x", "name": "X", "kind": "laser", "skill": "x"}]}, "« weapons[0].kind »"),
    ({"in_hand": ["hache"]}, "« in_hand »"), ({"hors_combat": "oui"}, "« hors_combat »"), ({"cover": 1}, "« cover »"),
    ({"arrow_nocked": None}, "« arrow_nocked »"), ({"engaged": "non"}, "« engaged »"),
    ({"engaged_with": "orque"}, "« engaged_with »"), ({"engaged_with": [3]}, "« engaged_with[] »"),
    ({"posture": "assis"}, "« posture »"),
])
def test_a_bad_change_is_refused_naming_its_field(changes: Any, field: str) -> None:
    refusal(TRIO, update(changes), "bad_value", field)


def test_an_engagement_with_a_stranger_is_refused() -> None:
    refusal(TRIO, update({"engaged_with": ["zorg"]}), "unknown_combatant", "« engaged_with »", "'zorg'")
    refusal(TRIO, update({"engaged_with": ["aldric"]}), "unknown_combatant", "'aldric'")  # not with oneself


def test_picking_up_a_weapon_not_on_the_sheet_is_refused() -> None:
    log = [*TRIO, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1, "lyra": 1}}]
    refusal(log, {"type": "act", "actor": "aldric", "action": "prendre_objet", "items": ["hache"]}, "bad_value",
            "« items »", "Aldric", "« hache »")


def test_engaged_with_nobody_on_the_tracker_is_engaged_off_it() -> None:
    """D11: ``engaged`` true with no fighter named: engaged with someone off the tracker."""
    off = fighter_after({"engaged": True, "engaged_with": []})
    assert (off["engaged"], off["engaged_with"], off["engaged_off_tracker"]) == (True, [], True)
    on = fighter_after({"engaged": True, "engaged_with": ["orque"]})
    assert (on["engaged"], on["engaged_with"], on["engaged_off_tracker"]) == (True, ["orque"], False)
    named = fighter_after({"engaged": True}, {"engaged_with": ["orque"]})
    assert (named["engaged_with"], named["engaged_off_tracker"]) == (["orque"], False)
    assert fighter_after({"engaged_with": ["aldric"]}, who="orque")["engaged_with"] == ["aldric"]
    board = engine.view(state_after([*TRIO, update({"engaged_with": ["orque"]})]))["combatants"]
    assert (board["orque"]["engaged_with"], board["lyra"]["engaged_with"]) == (["aldric"], [])


def test_engagements_are_events_of_their_own() -> None:
    log = [*TRIO, update({"engaged_with": ["orque"]})]
    result = engine.apply(state_after(log), update({"engaged": False}))
    assert result["events"] == [{"type": "engagements_set", "id": "aldric", "with": [], "off_tracker": False}]


def test_out_of_the_fight_ends_engagements_and_back_in_keeps_none() -> None:
    """D11: hors_combat ends the fighter's engagements; a change that does not put it out
    of the fight leaves them."""
    engaged = [*TRIO, update({"engaged_with": ["orque"]})]
    kept = engine.apply(state_after(engaged), update({"hors_combat": False}))
    assert [e["type"] for e in kept["events"]] == ["combatant_updated"]
    out = engine.apply(state_after(engaged), update({"hors_combat": True}))
    assert [e["type"] for e in out["events"]] == ["combatant_updated", "disengaged"]
    assert engine.view(out["state"])["combatants"]["orque"]["engaged_with"] == []


def test_an_unknown_change_is_refused_listing_what_may_change() -> None:
    message = refusal(TRIO, update({"pi": 3}), "bad_value")
    assert message.startswith("« changes.pi » : champ inconnu (ceux connus : name, side, characteristics, ")
    assert message.endswith(", arrow_nocked, notes, hidden).")


def test_the_table_s_fight_in_memory_is_the_fight_it_saves() -> None:
    """The table keeps the encounter between commands without reading it back from JSON:
    a side, a posture or hands changed by the GM must be the same values as after a load."""
    table = Table()
    for command in [*TRIO, update({"side": "pj"}, "orque"), update({"posture": "a_genoux"}),
                    {"type": "start_round", "rolls": {"aldric": 6, "orque": 1, "lyra": 1}}, update({"posture": "debout"}),
                    update({"in_hand": ["arc"]}, "lyra")]:
        assert table.apply(command)["ok"], command
    assert table.check({"type": "act", "actor": "aldric", "action": "courir", "distance": 8})["ok"]  # standing (R4)
    reopened = Table()
    assert reopened.load(table.export()["text"])["board"] == table.show()["board"]
    assert [c["name"] for c in table.new(True)["board"]["combatants"].values()] == ["Aldric", "Orque", "Lyra"]


def add(sheet: Any) -> dict[str, Any]:
    return {"type": "add_combatant", "combatant": sheet}


SWORD = {"id": "epee", "name": "Épée", "kind": "melee", "skill": "armes"}


@pytest.mark.parametrize(("sheet", "key", "params"), [
    ({"side": "pj"}, "required", {"field": "name"}),
    ({"name": "A", "race": "elfe"}, "unknown_field", {"field": "combatant.race", "known": [*SHEET_FIELDS, *NEW_FIELDS]}),
    ({"name": "A", "characteristics": {"force": 3}}, "unknown_field", {"field": "characteristics.force", "known": list(CHARACTERISTICS)}),
    ({"name": "A", "characteristics": {"tir": -1}}, "range", {"field": "characteristics.tir", "low": 0, "high": 999}),
    ({"name": "A", "skills": {"armes": "3"}}, "integer", {"field": "skills.armes", "low": 0, "high": 999}),
    ({"name": "A", "skills": {"": 3}}, "identifier", {"field": "skills (nom)", "max": 60}),
    ({"name": "A", "weapons": [{**SWORD, "poids": 3}]}, "unknown_field", {"field": "weapons[0].poids", "known": list(WEAPON_FIELDS)}),
    ({"name": "A", "weapons": [SWORD, {"id": "arc", "name": "Arc", "kind": "bow"}]}, "required", {"field": "weapons[1].skill"}),
    ({"name": "A", "weapons": [{**SWORD, "name": ""}]}, "required", {"field": "weapons[0].name"}),
    ({"name": "A", "weapons": [{**SWORD, "stowed": "non"}]}, "boolean", {"field": "weapons[0].stowed"}),
    ({"name": "A", "weapons": [SWORD, SWORD]}, "duplicate", {"field": "weapons"}),
    ({"name": "A", "weapons": [SWORD] * 17}, "too_many", {"field": "weapons", "max": 16}),
    ({"name": "A", "weapons": [SWORD], "in_hand": ["hache"]}, "unknown_weapon", {"field": "in_hand"}),
    ({"name": "A", "weapons": [SWORD], "in_hand": ["epee", "epee"]}, "duplicate", {"field": "in_hand"}),
    ({"name": "A", "weapons": [SWORD], "in_hand": [3]}, "identifier", {"field": "in_hand[]", "max": 60}),
    ({"name": "A", "in_hand": ["epee"] * 17}, "too_many", {"field": "in_hand", "max": 16}),
])
def test_a_bad_new_sheet_is_refused_naming_its_field(sheet: Any, key: str, params: dict[str, Any]) -> None:
    """R1.1: a fighter's sheet is read whole or refused; the refusal names the field the
    form must show in red, and what it must hold (its key and limits)."""
    error = refused([], add(sheet))
    assert (error["code"], error["key"], error["params"]) == ("bad_value", key, params)
    assert error["fields"][0] == {"field": params["field"], "key": key, "params": {k: x for k, x in params.items() if k != "field"}}


def test_sixteen_weapons_and_sixteen_in_hand_are_accepted() -> None:
    """The limits are inclusive: 16 weapons on a sheet, 16 of them in hand."""
    weapons = [{**SWORD, "id": f"epee{i}"} for i in range(16)]
    board = engine.view(state_after([add({"name": "Hydre", "weapons": weapons, "in_hand": [w["id"] for w in weapons]})]))
    (hydre,) = board["combatants"].values()
    assert (len(hydre["weapons"]), len(hydre["in_hand"])) == (16, 16)


# --- free notes or conditions: table state the GM sets from the board
def test_notes_are_set_trimmed_and_cleared() -> None:
    assert fighter_after({"notes": "  aveuglé, saigne "})["notes"] == "aveuglé, saigne"
    assert fighter_after({"notes": "aveuglé"}, {"notes": ""})["notes"] == ""
    assert fighter_after()["notes"] == ""


@pytest.mark.parametrize(("notes", "key"), [(3, "text"), (None, "text"), ("x" * 121, "text_length")])
def test_notes_that_are_not_a_short_text_are_refused(notes: object, key: str) -> None:
    error = refused(TRIO, update({"notes": notes}))
    assert (error["code"], error["key"], error["params"]["field"], error["params"]["max"]) == ("bad_value", key, "notes", 120)


def test_a_state_written_before_notes_existed_still_reads() -> None:
    """A state (an autosave's checkpoint) from before free notes has no ``notes``."""
    state = state_after(TRIO)
    for fighter in state["combatants"]:
        del fighter["notes"]
    assert engine.view(state)["combatants"]["aldric"]["notes"] == ""
    assert engine.apply(state, update({"notes": "à terre"}))["ok"]
