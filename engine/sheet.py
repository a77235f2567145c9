"""The combatant sheet: reading it from a command and changing it (``update_combatant``).

Values follow RULES.md: ``name`` 1 to 60 characters once trimmed; characteristics,
skills, ``wounds`` and ``hope`` integers >= 0; ``initiative_bonus`` an integer; ``side``
``pj`` or ``pnj``; weapons of kind ``melee``, ``bow``, ``thrown`` or ``shield``.

A sheet (or the changes to one) is read in one walk (:func:`read`): each field once, by
its check, every refusal kept. The engine refuses with the first (:func:`parse_combatant`,
:func:`check_changes`), and that refusal carries them all (``fields``), which the
fighter form shows next to each field (:func:`field_errors`).

>>> c = parse_combatant({"name": " Aldric ", "side": "pj"}, "c1", entry=0)
>>> (c.name, c.side, c.hope)
('Aldric', <Side.PJ: 'pj'>, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
TABLE_FIELDS = ("engaged", "engaged_with", "hors_combat", "posture", "cover", "arrow_nocked", "notes", "hidden")
#: What a new fighter may carry besides its sheet: its id, and hidden from the players from
#: the start (an ambush prepared before they see the board, D26).
NEW_FIELDS = ("id", "hidden")
#: The fields of a weapon, and those it must have.
WEAPON_FIELDS = ("id", "name", "kind", "skill", "stowed")
WEAPON_REQUIRED = ("id", "name", "kind", "skill")

#: The longest notes a fighter may carry (free text, ``update_combatant``).
MAX_NOTES = 120

#: The limits of a sheet, as the form shows them (``Table.limits``): the same numbers the
#: checks below use.
LIMITS = {
    "name": v.MAX_NAME,
    "value": {"low": 0, "high": v.MAX_VALUE},
    "initiative_bonus": {"low": -v.MAX_VALUE, "high": v.MAX_VALUE},
    "weapons": v.MAX_WEAPONS,
}


class Walk:
    """One walk over a sheet: each value read by its check, a refusal kept rather than
    raised (``errors``, in the order of the fields), so that every bad field is known."""

    def __init__(self) -> None:
        self.errors: list[Refusal] = []

    def read(self, check: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``check(*args, **kwargs)``, or ``None`` when it refuses (the refusal kept)."""
        try:
            return check(*args, **kwargs)
        except Refusal as refusal:
            self.errors.append(refusal)
            return None

    def refuse(self, refusal: Refusal) -> None:
        self.errors.append(refusal)


# --- one field each ----------------------------------------------------------------------
def _numbers(walk: Walk, value: object, field: str, known: tuple[str, ...] | None) -> dict[str, int] | None:
    """Characteristics (``known``: their names) or skills (any id): name -> integer >= 0,
    each entry checked on its own."""
    entries = walk.read(v.mapping, value, field)
    if entries is None:
        return None
    out = {}
    for key, n in entries.items():
        if known is not None and key not in known:
            walk.refuse(v.bad(f"{field}.{key}", "unknown_field", known=list(known)))
            continue
        name = key if known is not None else walk.read(v.identifier, key, f"{field} (nom)")
        number = walk.read(v.integer, n, f"{field}.{name}", low=0) if name is not None else None
        if number is not None:
            out[name] = number
    return out


def _weapon(walk: Walk, value: object, field: str) -> Weapon | None:
    data = walk.read(v.mapping, value, field)
    if data is None:
        return None
    known = [key for key in data if key in WEAPON_FIELDS]
    for key in data:
        if key not in WEAPON_FIELDS:
            walk.refuse(v.bad(f"{field}.{key}", "unknown_field", known=list(WEAPON_FIELDS)))
    for key in WEAPON_REQUIRED:
        if key not in data:
            walk.refuse(v.bad(f"{field}.{key}", "required"))
    parts = {
        "id": lambda x: v.identifier(x, f"{field}.id"),
        "name": lambda x: v.name(x, f"{field}.name"),
        "kind": lambda x: WeaponKind(v.choice(x, f"{field}.kind", tuple(WeaponKind))),
        "skill": lambda x: v.identifier(x, f"{field}.skill"),
        "stowed": lambda x: v.boolean(x, f"{field}.stowed"),
    }
    read = {key: walk.read(parts[key], data[key]) for key in known}
    if any(read.get(key) is None for key in WEAPON_REQUIRED) or ("stowed" in read and read["stowed"] is None):
        return None
    return Weapon(**read)


def _weapons(walk: Walk, value: object) -> tuple[Weapon, ...] | None:
    listed = walk.read(v.sequence, value, "weapons", v.MAX_WEAPONS)
    if listed is None:
        return None
    weapons = [_weapon(walk, w, f"weapons[{i}]") for i, w in enumerate(listed)]
    if any(w is None for w in weapons):
        return None
    ids = [w.id for w in weapons if w is not None]
    if len(set(ids)) != len(ids):
        walk.refuse(v.bad("weapons", "duplicate"))
        return None
    return tuple(w for w in weapons if w is not None)


def _in_hand(walk: Walk, value: object, weapons: tuple[Weapon, ...]) -> tuple[str, ...] | None:
    """D2's hands: ids of weapons on the sheet, each once."""
    listed = walk.read(v.sequence, value, "in_hand", v.MAX_WEAPONS)
    if listed is None:
        return None
    held = [walk.read(v.identifier, w, "in_hand[]") for w in listed]
    if any(w is None for w in held):
        return None
    known = {w.id for w in weapons}
    if any(w not in known for w in held):
        walk.refuse(v.bad("in_hand", "unknown_weapon"))
        return None
    if len(set(held)) != len(held):
        walk.refuse(v.bad("in_hand", "duplicate"))
        return None
    return tuple(held)


def _engaged_with(value: object, others: tuple[str, ...] | None) -> list[str]:
    """D11: the fighters on the tracker it is engaged with (``others``; None: unchecked)."""
    ids = [v.identifier(i, "engaged_with[]") for i in v.sequence(value, "engaged_with")]
    for i in ids:
        if others is not None and i not in others:
            raise Refusal("unknown_combatant", id=v.shown(i), field="engaged_with")
    return sorted(set(ids))


#: How each field is read, but the weapons and the hands (read together, below).
READERS: dict[str, Callable[[Walk, object, tuple[str, ...] | None], Any]] = {
    "name": lambda walk, x, _: walk.read(v.name, x, "name"),
    "side": lambda walk, x, _: walk.read(v.choice, x, "side", tuple(Side)),
    "characteristics": lambda walk, x, _: _numbers(walk, x, "characteristics", CHARACTERISTICS),
    "skills": lambda walk, x, _: _numbers(walk, x, "skills", None),
    "initiative_bonus": lambda walk, x, _: walk.read(v.integer, x, "initiative_bonus"),
    "wounds": lambda walk, x, _: walk.read(v.integer, x, "wounds", low=0),
    "hope": lambda walk, x, _: walk.read(v.integer, x, "hope", low=0),
    "engaged": lambda walk, x, _: walk.read(v.boolean, x, "engaged"),
    "hors_combat": lambda walk, x, _: walk.read(v.boolean, x, "hors_combat"),
    "cover": lambda walk, x, _: walk.read(v.boolean, x, "cover"),
    "arrow_nocked": lambda walk, x, _: walk.read(v.boolean, x, "arrow_nocked"),
    "engaged_with": lambda walk, x, others: walk.read(_engaged_with, x, others),
    "posture": lambda walk, x, _: walk.read(v.choice, x, "posture", tuple(Posture)),
    "notes": lambda walk, x, _: walk.read(v.text, x, "notes", MAX_NOTES, min_len=0),
    "hidden": lambda walk, x, _: walk.read(v.boolean, x, "hidden"),
}


# --- the walk ----------------------------------------------------------------------------
def read(data: object, fighter: Combatant | None = None,
         others: tuple[str, ...] | None = None) -> tuple[dict[str, Any], list[Refusal]]:
    """One walk over a new sheet (``fighter`` None: ``add_combatant``'s ``combatant``) or
    over the changes to ``fighter``'s (``update_combatant``'s ``changes``, the table's
    fields too; ``others``: the ids ``engaged_with`` may name, None for any). Returns the
    values read (the fields given and accepted) and every refusal, in the order of the
    fields: unknown ones first.

    >>> values, errors = read({"name": "Orque", "wounds": -1, "colour": "vert"})
    >>> values, [(e.params["field"], e.key) for e in errors]
    ({'name': 'Orque'}, [('combatant.colour', 'unknown_field'), ('wounds', 'range')])
    """
    walk = Walk()
    root = "combatant" if fighter is None else "changes"
    sheet = walk.read(v.mapping, data, root)
    if sheet is None:
        return {}, walk.errors
    fields = SHEET_FIELDS + (NEW_FIELDS if fighter is None else TABLE_FIELDS)
    for key in sheet:
        if key not in fields:
            walk.refuse(v.bad(f"{root}.{key}", "unknown_field", known=list(fields)))
    if fighter is None and "name" not in sheet:
        walk.refuse(v.bad("name", "required"))
    values: dict[str, Any] = {}
    for key in fields:
        if key in sheet and key in READERS:
            values[key] = READERS[key](walk, sheet[key], others)
    weapons: tuple[Weapon, ...] | None = () if fighter is None else fighter.weapons
    if "weapons" in sheet:
        weapons = values["weapons"] = _weapons(walk, sheet["weapons"])
    if "in_hand" in sheet and weapons is not None:  # judged against the weapons it will have
        values["in_hand"] = _in_hand(walk, sheet["in_hand"], weapons)
    return {k: x for k, x in values.items() if x is not None}, walk.errors


def _refused(errors: list[Refusal]) -> Refusal:
    """The first refusal of a walk, carrying every field the walk refused (``fields``)."""
    first = errors[0]
    first.fields = [e.field_json() for e in errors]
    return first


def field_errors(data: object, fighter: Combatant | None = None) -> list[dict[str, Any]]:
    """Every field of a sheet (or, for ``fighter``, of the changes to it) that the engine
    refuses, all at once, each as ``{"field", "key", "params"}`` (errors.py CHECKS): the
    fighter form shows them next to their fields; ``[]`` when the engine takes it.

    >>> [(e["field"], e["key"]) for e in field_errors({"name": " ", "wounds": -1, "characteristics": {"tir": "x"}})]
    [('name', 'required'), ('characteristics.tir', 'integer'), ('wounds', 'range')]
    >>> field_errors({"name": "Orque", "weapons": [{"id": "h", "name": "Hache", "kind": "melee", "skill": "hache"}]})
    []
    """
    return [e.field_json() for e in read(data, fighter)[1]]


def _pairs(values: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(values.items()))


def parse_combatant(data: object, combatant_id: str, entry: int) -> Combatant:
    """A new fighter from the ``combatant`` of ``add_combatant``; refused, the refusal of
    its first bad field, carrying them all (``fields``)."""
    values, errors = read(data)
    if errors:
        raise _refused(errors)
    return Combatant(
        id=combatant_id,
        name=values["name"],
        side=Side(values.get("side", Side.PNJ)),
        characteristics=_pairs(values.get("characteristics", {})),
        skills=_pairs(values.get("skills", {})),
        initiative_bonus=values.get("initiative_bonus", 0),
        wounds=values.get("wounds", 0),
        hope=values.get("hope", 0),
        weapons=values.get("weapons", ()),
        in_hand=values.get("in_hand", ()),
        entry=entry,
        hidden=values.get("hidden", False),
    )


def check_changes(c: Combatant, changes: object, others: tuple[str, ...]) -> dict[str, Any]:
    """The ``changes`` of ``update_combatant``, checked and normalised for the event (JSON
    values: weapons as objects, lists); refused as :func:`parse_combatant` is.

    ``others`` are the ids of the other fighters on the tracker (``engaged_with``).
    """
    values, errors = read(changes, c, others)
    if errors:
        raise _refused(errors)
    if "weapons" in values:
        values["weapons"] = [weapon_json(w) for w in values["weapons"]]
    if "in_hand" in values:
        values["in_hand"] = list(values["in_hand"])
    return values


def merge_changes(c: Combatant, changes: Mapping[str, Any]) -> Combatant:
    """The fighter with checked ``changes`` merged in; engagements are not among them
    (D11: ``decide`` sends them as events of their own)."""
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
        else:
            fields[key] = value
    new = replace(c, **fields)
    if "weapons" in changes and "in_hand" not in changes:
        known = {w.id for w in new.weapons}
        new = replace(new, in_hand=tuple(w for w in new.in_hand if w in known))
    if new.arrow_nocked and not any(w.kind is WeaponKind.BOW for w in new.held()):
        new = replace(new, arrow_nocked=False)
    return new
