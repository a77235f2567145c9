"""The combatant sheet: reading it from a command and changing it (``update_combatant``).

Values follow RULES.md: ``name`` 1 to 60 characters once trimmed; characteristics,
skills, ``wounds`` and ``hope`` integers >= 0; ``initiative_bonus`` an integer; ``side``
``pj`` or ``pnj``; weapons of kind ``melee``, ``bow``, ``thrown`` or ``shield``.

>>> c = parse_combatant({"name": " Aldric ", "side": "pj"}, "c1", entry=0)
>>> (c.name, c.side, c.hope)
('Aldric', <Side.PJ: 'pj'>, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from . import values as v
from .codec import weapon_from_json, weapon_json
from .errors import Refusal
from .model import CHARACTERISTICS, Combatant, Posture, Side, Weapon, WeaponKind

SHEET_FIELDS = (
    "name",
    "side",
    "characteristics",
    "skills",
    "initiative_bonus",
    "wounds",
    "hope",
    "weapons",
    "in_hand",
)
#: What the GM may also set by hand with ``update_combatant`` (D6, D11 and corrections).
TABLE_FIELDS = ("engaged", "engaged_with", "hors_combat", "posture", "cover", "arrow_nocked", "notes")

#: The longest notes a fighter may carry (free text, ``update_combatant``).
MAX_NOTES = 120


def _characteristics(value: object, field: str) -> dict[str, int]:
    out = {}
    for key, n in v.mapping(value, field).items():
        if key not in CHARACTERISTICS:
            raise v.bad(f"{field}.{key}", "une caractéristique connue (" + ", ".join(CHARACTERISTICS) + ")", key,
                        "unknown_field")
        out[key] = v.integer(n, f"{field}.{key}", low=0)
    return out


def _skills(value: object, field: str) -> dict[str, int]:
    out = {}
    for key, n in v.mapping(value, field).items():
        name = v.identifier(key, f"{field} (nom)")
        out[name] = v.integer(n, f"{field}.{name}", low=0)
    return out


def _weapon(value: object, field: str) -> Weapon:
    data = v.mapping(value, field)
    for key in data:
        if key not in ("id", "name", "kind", "skill", "stowed"):
            raise v.bad(f"{field}.{key}", "un champ d'arme (id, name, kind, skill, stowed)", key, "unknown_field")
    for key in ("id", "name", "kind", "skill"):
        if key not in data:
            raise v.missing(f"{field}.{key}", f"« {field}.{key} » manque.")
    return Weapon(
        id=v.identifier(data["id"], f"{field}.id"),
        name=v.text(data["name"], f"{field}.name"),
        kind=WeaponKind(v.choice(data["kind"], f"{field}.kind", tuple(WeaponKind))),
        skill=v.identifier(data["skill"], f"{field}.skill"),
        stowed=v.boolean(data.get("stowed", True), f"{field}.stowed"),
    )


def _weapons(value: object) -> tuple[Weapon, ...]:
    weapons = tuple(_weapon(w, f"weapons[{i}]") for i, w in enumerate(v.sequence(value, "weapons", v.MAX_WEAPONS)))
    ids = [w.id for w in weapons]
    if len(set(ids)) != len(ids):
        raise v.bad("weapons", "une liste d'armes aux id distincts", ids, "duplicate")
    return weapons


def _in_hand(value: object, weapons: tuple[Weapon, ...]) -> tuple[str, ...]:
    held = tuple(v.identifier(w, "in_hand[]") for w in v.sequence(value, "in_hand", v.MAX_WEAPONS))
    known = {w.id for w in weapons}
    for w in held:
        if w not in known:
            raise v.bad("in_hand", "des id d'armes de la fiche", w, "unknown_weapon")
    if len(set(held)) != len(held):
        raise v.bad("in_hand", "une liste sans doublon", list(held), "duplicate")
    return held


#: The limits of a sheet, as the form shows them (``Table.limits``): the same numbers the
#: checks above use.
LIMITS = {
    "name": v.MAX_NAME,
    "value": {"low": 0, "high": v.MAX_VALUE},
    "initiative_bonus": {"low": -v.MAX_VALUE, "high": v.MAX_VALUE},
    "weapons": v.MAX_WEAPONS,
}


def field_errors(data: object, partial: bool = False) -> list[dict[str, Any]]:
    """Every field of a sheet that :func:`parse_combatant` (or, ``partial``, the sheet
    part of :func:`check_changes`) would refuse, all at once, each as ``{"field", "key",
    "params"}`` (errors.py CHECKS): the fighter form shows them next to their fields.
    The same checks as the parser, run field by field; ``[]`` when the sheet is accepted.

    >>> [(e["field"], e["key"]) for e in field_errors({"name": " ", "wounds": -1, "characteristics": {"tir": "x"}})]
    [('name', 'text_length'), ('characteristics.tir', 'integer'), ('wounds', 'range')]
    >>> field_errors({"name": "Orque", "weapons": [{"id": "h", "name": "Hache", "kind": "melee", "skill": "hache"}]})
    []
    """
    errors: list[dict[str, Any]] = []

    def check(fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Refusal as refusal:
            errors.append(refusal.field_json())
            return None

    sheet = check(v.mapping, data, "combatant")
    if sheet is None:
        return errors
    for key in sheet:
        if key not in SHEET_FIELDS and key != "id" and not (partial and key in TABLE_FIELDS):
            errors.append(v.bad(f"combatant.{key}", "un champ de fiche", key, "unknown_field").field_json())
    if "name" in sheet:
        check(v.text, sheet["name"], "name")
    elif not partial:
        errors.append(v.missing("name", "").field_json())
    if "side" in sheet:
        check(v.choice, sheet["side"], "side", tuple(Side))
    characteristics = check(v.mapping, sheet.get("characteristics", {}), "characteristics") or {}
    for key, n in characteristics.items():
        check(_characteristics, {key: n}, "characteristics")
    skills = check(v.mapping, sheet.get("skills", {}), "skills") or {}
    for key, n in skills.items():
        check(_skills, {key: n}, "skills")
    if "initiative_bonus" in sheet:
        check(v.integer, sheet["initiative_bonus"], "initiative_bonus")
    for key in ("wounds", "hope"):
        if key in sheet:
            check(v.integer, sheet[key], key, low=0)
    listed = check(v.sequence, sheet.get("weapons", []), "weapons", v.MAX_WEAPONS) or []
    weapons = [check(_weapon, w, f"weapons[{i}]") for i, w in enumerate(listed)]
    if all(w is not None for w in weapons):
        ok = check(_weapons, listed) if listed else ()
        if ok is not None and "in_hand" in sheet:
            check(_in_hand, sheet["in_hand"], ok)
    return errors


def _pairs(values: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(values.items()))


def parse_combatant(data: object, combatant_id: str, entry: int) -> Combatant:
    """A new fighter from the ``combatant`` of ``add_combatant``."""
    sheet = v.mapping(data, "combatant")
    for key in sheet:
        if key not in SHEET_FIELDS and key != "id":
            raise v.bad(f"combatant.{key}", "un champ de fiche (" + ", ".join(SHEET_FIELDS) + ")", key, "unknown_field")
    if "name" not in sheet:
        raise v.missing("name", "« name » manque : un combattant a un nom.")
    weapons = _weapons(sheet.get("weapons", []))
    return Combatant(
        id=combatant_id,
        name=v.text(sheet["name"], "name"),
        side=Side(v.choice(sheet.get("side", "pnj"), "side", tuple(Side))),
        characteristics=_pairs(_characteristics(sheet.get("characteristics", {}), "characteristics")),
        skills=_pairs(_skills(sheet.get("skills", {}), "skills")),
        initiative_bonus=v.integer(sheet.get("initiative_bonus", 0), "initiative_bonus"),
        wounds=v.integer(sheet.get("wounds", 0), "wounds", low=0),
        hope=v.integer(sheet.get("hope", 0), "hope", low=0),
        weapons=weapons,
        in_hand=_in_hand(sheet.get("in_hand", []), weapons),
        entry=entry,
    )


def check_changes(c: Combatant, changes: object, others: tuple[str, ...]) -> dict[str, Any]:
    """The ``changes`` of ``update_combatant``, checked and normalised for the event.

    ``others`` are the ids of the other fighters on the tracker (``engaged_with``).
    """
    data = v.mapping(changes, "changes")
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "name":
            out[key] = v.text(value, "name")
        elif key == "side":
            out[key] = v.choice(value, "side", tuple(Side))
        elif key == "characteristics":
            out[key] = _characteristics(value, "characteristics")
        elif key == "skills":
            out[key] = _skills(value, "skills")
        elif key == "initiative_bonus":
            out[key] = v.integer(value, key)
        elif key in ("wounds", "hope"):
            out[key] = v.integer(value, key, low=0)
        elif key == "weapons":
            out[key] = [weapon_json(w) for w in _weapons(value)]
        elif key == "in_hand":
            pass  # checked below, against the new weapons if they change too
        elif key in ("engaged", "hors_combat", "cover", "arrow_nocked"):
            out[key] = v.boolean(value, key)
        elif key == "engaged_with":
            ids = [v.identifier(i, "engaged_with[]") for i in v.sequence(value, key)]
            for i in ids:
                if i not in others:
                    raise Refusal("unknown_combatant", f"« engaged_with » : aucun autre combattant n'a l'id {i!r}.")
            out[key] = sorted(set(ids))
        elif key == "posture":
            out[key] = v.choice(value, "posture", tuple(Posture))
        elif key == "notes":
            if not isinstance(value, str) or len(value.strip()) > MAX_NOTES:
                raise v.bad("notes", f"un texte de 0 à {MAX_NOTES} caractères", value)
            out[key] = value.strip()
        else:
            raise v.bad(f"changes.{key}", "un champ modifiable (" + ", ".join(SHEET_FIELDS + TABLE_FIELDS) + ")", key)
    if "in_hand" in data:
        weapons = _weapons(data["weapons"]) if "weapons" in data else c.weapons
        out["in_hand"] = list(_in_hand(data["in_hand"], weapons))
    return out


def merge_changes(c: Combatant, changes: Mapping[str, Any]) -> Combatant:
    """The fighter with checked ``changes`` merged in (engagements are the caller's)."""
    fields: dict[str, Any] = {}
    for key, value in changes.items():
        if key in ("characteristics", "skills"):
            merged = dict(getattr(c, key))
            merged.update(value)
            fields[key] = _pairs(merged)
        elif key == "side":
            fields[key] = Side(value)
        elif key == "posture":
            fields[key] = Posture(value)
        elif key == "weapons":
            fields[key] = tuple(weapon_from_json(w) for w in value)
        elif key == "in_hand":
            fields[key] = tuple(value)
        elif key in ("engaged", "engaged_with"):
            continue
        else:
            fields[key] = value
    new = replace(c, **fields)
    if "weapons" in changes and "in_hand" not in changes:
        known = {w.id for w in new.weapons}
        new = replace(new, in_hand=tuple(w for w in new.in_hand if w in known))
    if new.arrow_nocked and not any(w.kind is WeaponKind.BOW for w in new.held()):
        new = replace(new, arrow_nocked=False)
    return new
