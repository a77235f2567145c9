"""The JSON codec (engine/codec.py), derived from the dataclass fields.

The module builds its writers and readers once, at import; these tests derive them
again (``writer``, ``reader``, ``event_writer``: the codec's own way to derive one for a
class) and check what they write, field by field, against JSON written out by hand: a field under its name (a trailing ``_``
dropped), an enum as its value, a tuple as a list, named pairs as an object, a nested
dataclass as an object, ``None`` as null. Saves of every release rest on this shape."""

from __future__ import annotations

import typing
from dataclasses import dataclass, replace
from typing import Any

import pytest

import engine
from engine import codec
from engine.decide import step
from engine.events import (
    Charged,
    CombatantAdded,
    EngagementsSet,
    Event,
    Initiative,
    Modifier,
    Moved,
    NamedTest,
    PostureChanged,
    RoundStarted,
    SettingsUpdated,
    type_name,
)
from engine.model import Combatant, Condition, Encounter, Posture, Settings, Side, Weapon, WeaponKind
from engine.regles import Regles, as_json
from tests.casts import CASTS

ARC = Weapon("arc", "Arc court", WeaponKind.BOW, "arc", stowed=False)
ARC_JSON = {"id": "arc", "name": "Arc court", "kind": "bow", "skill": "arc", "stowed": False}
LYRA = Combatant("lyra", "Lyra", Side.PJ, (("tir", 8),), (("arc", 3),), 0, 1, 2, (ARC,), ("arc",), entry=3,
                 posture=Posture.A_GENOUX, aim_bonus=2, aim_weapon="arc", engaged_with=("orque",), pi=7, initiative=12,
                 conditions=(Condition("étourdie", 3), Condition("saigne")))
LYRA_SHEET = {"id": "lyra", "name": "Lyra", "side": "pj", "characteristics": {"tir": 8}, "skills": {"arc": 3},
              "initiative_bonus": 0, "wounds": 1, "hope": 2, "weapons": [ARC_JSON], "in_hand": ["arc"], "entry": 3}
LYRA_JSON = {**LYRA_SHEET, "posture": "a_genoux", "aim_bonus": 2, "aim_weapon": "arc", "arrow_nocked": False,
             "cover": False, "engaged_with": ["orque"], "engaged_off_tracker": False, "hors_combat": False,
             "in_round": False, "pi": 7, "initiative": 12, "d6": None, "declared": None, "charged": False, "passed": False, "notes": "",
             "conditions": [{"text": "étourdie", "until": 3}, {"text": "saigne", "until": None}], "hidden": False}


def roundtrip(cls: type, value: Any, expected: dict[str, Any]) -> None:
    """Derived again, the encoder writes ``expected`` and the decoder reads it back."""
    written = codec.writer(cls)(value)
    assert written == expected
    assert codec.reader(cls)(written) == value


def test_a_weapon_is_written_field_by_field() -> None:
    roundtrip(Weapon, ARC, ARC_JSON)


def test_a_fighter_is_written_with_pairs_as_objects_tuples_as_lists_and_enums_as_values() -> None:
    roundtrip(Combatant, LYRA, LYRA_JSON)
    assert codec.writer(Combatant, codec.SHEET)(LYRA) == LYRA_SHEET  # the sheet: those fields alone


def test_a_fighter_written_before_notes_and_conditions_reads_without_them() -> None:
    """A state of an earlier release (codec.LATER): no ``notes`` nor
    ``conditions`` (D25); they read as empty."""
    old = {k: x for k, x in LYRA_JSON.items() if k not in ("notes", "conditions")}
    assert codec.reader(Combatant)(old) == replace(LYRA, notes="", conditions=())


def test_an_encounter_nests_its_rules_and_fighters() -> None:
    regles = Regles(courir_table=((0, 6), (3, 10)), visee_plafond=2, visee_perdue=("simple", "complexe"))
    written = {**as_json(Regles()), "courir_table": [[0, 6], [3, 10]], "visee_plafond": 2, "visee_perdue": ["simple", "complexe"]}
    enc = Encounter(round=2, round_over=False, phase="lyra", next_id=4, regles=regles, regles_a_venir=Regles(de_initiative=8),
                    combatants=(LYRA,))
    roundtrip(Encounter, enc, {"round": 2, "round_over": False, "phase": "lyra", "next_id": 4, "regles": written,
                               "regles_a_venir": {**as_json(Regles()), "de_initiative": 8}, "combatants": [LYRA_JSON]})
    assert codec.encode(enc) == {"format": codec.STATE_FORMAT, **codec.writer(Encounter)(enc)}


def test_a_state_written_before_the_rules_reads_its_run_table_into_them() -> None:
    """A state of an earlier release: ``settings`` (the run table, R4.3), no ``regles``;
    rules written before a field was added read it as its default (codec.LATER_WHOLE)."""
    old = {"format": codec.STATE_FORMAT, "round": 0, "round_over": True, "phase": None, "next_id": 1,
           "settings": {"run_table": [[0, 6], [3, 10]]}, "combatants": []}
    assert codec.decode(old) == Encounter(regles=Regles(courir_table=((0, 6), (3, 10))))
    assert codec.decode({**old, "regles": {"cout_simple": 4}}).regles == Regles(cout_simple=4)


def test_a_named_test_writes_its_modifiers_and_its_missing_values_as_null() -> None:
    test = NamedTest(id=None, characteristic="tir", characteristic_value=None, skill="arc", skill_level=3, difficulty=None,
                     modifiers=(Modifier(id="visee", value=2, rule="R4.1"),))
    roundtrip(NamedTest, test, {"id": None, "characteristic": "tir", "characteristic_value": None, "skill": "arc",
                                "skill_level": 3, "difficulty": None,
                                "modifiers": [{"id": "visee", "value": 2, "rule": "R4.1"}]})


@pytest.mark.parametrize(("event", "expected"), [
    (EngagementsSet(id="lyra", with_=("orque", "gobelin"), off_tracker=True),
     {"type": "engagements_set", "id": "lyra", "with": ["orque", "gobelin"], "off_tracker": True}),
    (PostureChanged(actor="lyra", posture=Posture.A_TERRE), {"type": "posture_changed", "actor": "lyra", "posture": "a_terre"}),
    (Charged(actor="lyra", distance=4.5, reach=8), {"type": "charged", "actor": "lyra", "distance": 4.5, "reach": 8}),
    (Moved(actor="lyra", how="course", distance=None), {"type": "moved", "actor": "lyra", "how": "course", "distance": None}),
    (SettingsUpdated(settings=Settings(run_table=((2, 9),))), {"type": "settings_updated", "settings": {"run_table": [[2, 9]]}}),
    (RoundStarted(round=3, initiatives=(Initiative(id="lyra", weapon=None, d6=4, rolled_by="engine", initiative=9,
                                                   breakdown={"d6": 4}),)),
     {"type": "round_started", "round": 3, "initiatives": [{"id": "lyra", "weapon": None, "d6": 4, "rolled_by": "engine",
                                                            "initiative": 9, "breakdown": {"d6": 4}}]}),
    (CombatantAdded(combatant=LYRA, joins=None), {"type": "combatant_added", "combatant": LYRA_SHEET, "joins": None}),
])
def test_an_event_is_written_with_its_type(event: Event, expected: dict[str, Any]) -> None:
    assert codec.event_writer(type(event))(event) == expected
    assert codec.event_json(event) == expected


def test_every_event_of_a_fight_is_written_as_the_contract_says() -> None:
    """The events of a played fight, each written by an encoder derived again, are those
    ``engine.apply`` answered."""
    log = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("aldric", "orque", "lyra")]
    log += [{"type": "start_round", "declarations": {"aldric": "epee"}, "rolls": {"aldric": 6, "orque": 2, "lyra": 1}},
            {"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 5, "test_result": 1},
            {"type": "interrupt", "actor": "orque", "action": "parer", "against": "aldric"}]
    enc, kinds = Encounter(), set()
    for command in log:
        result = engine.apply(codec.encode(enc), command)
        assert result["ok"], result
        enc, events = step(enc, result["command"])
        assert [codec.event_writer(type(e))(e) for e in events] == result["events"]
        kinds |= {type_name(type(e)) for e in events}
    assert {"combatant_added", "round_started", "action_taken", "charged", "engaged"} <= kinds
    assert {type_name(cls) for cls in typing.get_args(Event)} >= kinds


@dataclass(frozen=True)
class Loose:
    """A record with what the engine's records hold too: an optional number, an optional
    nested record."""

    count: int | None
    weapon: Weapon | None


@dataclass(frozen=True)
class Unwritable:
    tags: set[int]


@dataclass(frozen=True)
class Either:
    """One of two records: the codec could not tell which it read back."""

    held: Weapon | Condition | None


class Plain:
    """Not a dataclass: nothing says its fields."""


@dataclass(frozen=True)
class Kept:
    plain: Plain


@dataclass(frozen=True)
class Counts:
    by_name: typing.Mapping[str, int]


@pytest.mark.parametrize("cls, named", [(Unwritable, "set[int]"), (Either, "engine.model.Weapon | engine.model.Condition | None"),
                                        (Kept, "<class 'tests.test_codec.Plain'>")])
def test_a_type_without_a_json_form_is_refused_when_the_codec_is_derived(cls: type, named: str) -> None:
    """A field the codec cannot write and read back the same is a mistake of the engine's
    types, said (with the type) when the codec is derived, never a save written wrong."""
    for derive in (codec.writer, codec.reader):
        with pytest.raises(TypeError) as refused:
            derive(cls)
        assert str(refused.value) == f"no JSON form for {named}"


def test_an_optional_number_or_record_is_written_as_null_when_missing() -> None:
    roundtrip(Loose, Loose(None, None), {"count": None, "weapon": None})
    roundtrip(Loose, Loose(3, ARC), {"count": 3, "weapon": ARC_JSON})


def test_a_mapping_field_is_written_as_it_is() -> None:
    roundtrip(Counts, Counts({"a": 1}), {"by_name": {"a": 1}})
    roundtrip(Loose, Loose(None, None), {"count": None, "weapon": None})
    roundtrip(Loose, Loose(3, ARC), {"count": 3, "weapon": ARC_JSON})
