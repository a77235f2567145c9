"""The JSON codec: an :class:`~engine.model.Encounter` to and from the plain dict that
callers hold (``engine.new_encounter()``, ``result["state"]``).

>>> from engine.model import Encounter
>>> decode(encode(Encounter())) == Encounter()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Refusal
from .model import Combatant, Encounter, Posture, Settings, Side, Weapon, WeaponKind

#: The version of the state's JSON shape, for saved encounters (see docs).
STATE_FORMAT = 1


def weapon_json(w: Weapon) -> dict[str, Any]:
    return {"id": w.id, "name": w.name, "kind": w.kind.value, "skill": w.skill, "stowed": w.stowed}


# Enum lookups by value through plain dicts: ``WeaponKind(x)`` is several times slower,
# and decoding runs for every fighter on every call.
_KIND = {k.value: k for k in WeaponKind}
_SIDE = {s.value: s for s in Side}
_POSTURE = {p.value: p for p in Posture}


def weapon_from_json(w: Mapping[str, Any]) -> Weapon:
    return Weapon(w["id"], w["name"], _KIND[w["kind"]], w["skill"], w["stowed"])


def combatant_sheet(c: Combatant) -> dict[str, Any]:
    """The sheet part of a fighter, as ``add_combatant`` takes it (plus ``entry``)."""
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side.value,
        "characteristics": dict(c.characteristics),
        "skills": dict(c.skills),
        "initiative_bonus": c.initiative_bonus,
        "wounds": c.wounds,
        "hope": c.hope,
        "weapons": [weapon_json(w) for w in c.weapons],
        "in_hand": list(c.in_hand),
        "entry": c.entry,
    }


def combatant_json(c: Combatant) -> dict[str, Any]:
    d = combatant_sheet(c)
    d.update(
        posture=c.posture.value,
        aim_bonus=c.aim_bonus,
        aim_weapon=c.aim_weapon,
        arrow_nocked=c.arrow_nocked,
        cover=c.cover,
        engaged_with=list(c.engaged_with),
        engaged_off_tracker=c.engaged_off_tracker,
        hors_combat=c.hors_combat,
        in_round=c.in_round,
        pi=c.pi,
        initiative=c.initiative,
        d6=c.d6,
        declared=c.declared,
        charged=c.charged,
        passed=c.passed,
    )
    return d


def encode(enc: Encounter) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "round": enc.round,
        "round_over": enc.round_over,
        "phase": enc.phase,
        "next_id": enc.next_id,
        "settings": {"run_table": [list(r) for r in enc.settings.run_table]},
        "combatants": [combatant_json(c) for c in enc.combatants],
    }


def sheet_from_json(d: Mapping[str, Any], **fields: Any) -> Combatant:
    """A fighter from its sheet; ``fields`` sets the rest (posture, P.I., marks…)."""
    return Combatant(
        d["id"],
        d["name"],
        _SIDE[d["side"]],
        tuple(sorted(d["characteristics"].items())),
        tuple(sorted(d["skills"].items())),
        d["initiative_bonus"],
        d["wounds"],
        d["hope"],
        tuple([weapon_from_json(w) for w in d["weapons"]]),
        tuple(d["in_hand"]),
        d["entry"],
        **fields,
    )


def _combatant(d: Mapping[str, Any]) -> Combatant:
    return sheet_from_json(
        d,
        posture=_POSTURE[d["posture"]],
        aim_bonus=d["aim_bonus"],
        aim_weapon=d["aim_weapon"],
        arrow_nocked=d["arrow_nocked"],
        cover=d["cover"],
        engaged_with=tuple(d["engaged_with"]),
        engaged_off_tracker=d["engaged_off_tracker"],
        hors_combat=d["hors_combat"],
        in_round=d["in_round"],
        pi=d["pi"],
        initiative=d["initiative"],
        d6=d["d6"],
        declared=d["declared"],
        charged=d["charged"],
        passed=d["passed"],
    )


def decode(state: object) -> Encounter:
    """The encounter a state dict holds; anything else is refused (``bad_value``)."""
    try:
        assert isinstance(state, dict) and state["format"] == STATE_FORMAT
        return Encounter(
            round=state["round"],
            round_over=state["round_over"],
            phase=state["phase"],
            next_id=state["next_id"],
            settings=Settings(tuple((a, b) for a, b in state["settings"]["run_table"])),
            combatants=tuple(_combatant(c) for c in state["combatants"]),
        )
    except (AssertionError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Refusal("bad_value", "« state » n'est pas un état de rencontre Riposte lisible.") from exc
