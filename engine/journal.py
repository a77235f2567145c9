"""The journal of a fight: what happened, round by round, read from the resolved log.

Each entry is plain data with the names as they were at that moment; the page words
it in the reader's language. Refused commands are never in the log, so never here.

>>> log = [{"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}},
...        {"type": "start_round", "rolls": {"c1": 4}},
...        {"type": "act", "actor": "c1", "action": "observer"}]
>>> [e["kind"] for e in journal(log)]
['joined', 'round_started', 'action', 'round_ended']
>>> e = journal(log)[2]
>>> e["round"], e["name"], e["cost"], e["pi_before"], e["pi_after"]
(1, 'Aldric', 5, 4, -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .codec import named_test_json
from .commands import resolve
from .decide import step
from .errors import Refusal
from .events import (
    ActionTaken,
    AimAdjusted,
    CombatantAdded,
    CombatantRemoved,
    CombatantUpdated,
    ConditionAdded,
    ConditionEnded,
    ConditionRemoved,
    Event,
    NamedTest,
    RoundEnded,
    RoundStarted,
    TurnPassed,
)
from .model import Combatant, Encounter, Weapon

Entry = dict[str, Any]


def _no_dice() -> int:
    raise Refusal("unresolved_log")


def journal(commands: list[Any]) -> list[Entry]:
    """The entries of a resolved command log (as ``replay`` returns it). A log that
    does not replay ends the journal where it stops."""
    enc = Encounter()
    out: list[Entry] = []
    for command in commands:
        try:
            after, events = step(enc, resolve(enc, command, _no_dice))
        except Exception:  # a log that is not resolved, or not a log: the journal stops there
            break
        entries = [entry for event in events for entry in _entries(enc, event)]  # names and round as they were
        for event in events:
            if isinstance(event, AimAdjusted):  # R4.1, D17: the bonus reached, and whether it was at its cap
                for entry in entries:
                    if entry["kind"] == "action":
                        entry["aim"] = {"bonus": event.bonus, "capped": event.capped}
        out.extend(entries)
        enc = after
    return out


def _name(enc: Encounter, cid: object) -> str:
    c = enc.combatant(cid)
    return c.name if c else str(cid)


def _updated(enc: Encounter, cid: object, changes: Mapping[str, Any], at: Entry) -> list[Entry]:
    """A new name (the game master's, or the original's number given by its first copy,
    "Orque" becoming "Orque 1"): the journal's later entries use it, so it says when.
    Out of the fight or back (D6). Wounds and Espoir that change (R1.7, R5.2: from the
    board's steppers or the form), before and after; notes that change. The rest of a
    sheet's changes are not told."""
    out: list[Entry] = []
    c = enc.combatant(cid)
    before = _name(enc, cid)
    if "name" in changes and changes["name"] != before:
        out.append({**at, "kind": "renamed", "name": before, "to": changes["name"]})
    if "hors_combat" in changes:
        out.append({**at, "kind": "out" if changes["hors_combat"] else "back", "name": before})
    for field, kind in (("wounds", "wounds"), ("hope", "hope")):
        was = getattr(c, field) if c else None
        if field in changes and changes[field] != was:
            out.append({**at, "kind": kind, "name": before, "before": was, "after": changes[field]})
    if "notes" in changes and c is not None and changes["notes"] != c.notes:
        out.append({**at, "kind": "notes", "name": before, "notes": changes["notes"]})
    return out


def _tests(c: Combatant | None, weapon: str | None, tests: tuple[NamedTest, ...]) -> list[Entry]:
    """The tests of an action as the journal keeps them, each weapon's skill with the name
    the sheet gives it (``skill_name``: the weapon's, « Épée » for ``epee``)."""
    out = []
    for t in tests:
        entry = named_test_json(t)
        named = _weapon_of(c, weapon, t.skill)
        if named is not None:
            entry["skill_name"] = named.name
        out.append(entry)
    return out


def _weapon_of(c: Combatant | None, weapon: str | None, skill: str) -> Weapon | None:
    """The weapon whose skill ``skill`` is: the one used, else the first on the sheet."""
    if c is None:
        return None
    used = c.weapon(weapon)
    if used is not None and used.skill == skill:
        return used
    return next((w for w in c.weapons if w.skill == skill), None)


def _entries(enc: Encounter, e: Event) -> list[Entry]:
    at = {"round": enc.round}
    match e:
        case CombatantAdded(combatant=c):
            return [{**at, "kind": "joined", "name": c.name, "side": c.side.value}]
        case CombatantRemoved(id=cid):
            return [{**at, "kind": "removed", "name": _name(enc, cid)}]
        case CombatantUpdated(id=cid, changes=changes):
            return _updated(enc, cid, changes, at)
        case RoundStarted(round=n, initiatives=initiatives):
            rolls = []
            for i in initiatives:
                fighter = enc.combatant(i.id)
                held = fighter.weapon(i.weapon) if fighter else None
                rolls.append({"name": _name(enc, i.id), "weapon": held.name if held else None, "d6": i.d6,
                              "initiative": i.initiative, "rolled_by": i.rolled_by})
            return [{"round": n, "kind": "round_started", "initiatives": rolls}]
        case ActionTaken():
            options = e.options
            return [{
                **at, "kind": "action", "name": _name(enc, e.actor), "action": e.action, "category": e.category,
                "cost": e.cost, "pays": e.pays, "pi_before": e.pi_before, "pi_after": e.pi_after,
                "hope_before": e.hope_before, "hope_after": e.hope_after,
                "tests": _tests(enc.combatant(e.actor), e.weapon, e.tests), "outcome": e.outcome,
                "target": _name(enc, options["target"]) if "target" in options else None,
                "against": _name(enc, options["against"]) if "against" in options else None,
            }]
        case ConditionAdded(id=cid, text=text, until=until):
            return [{**at, "kind": "condition", "name": _name(enc, cid), "condition": text, "until": until}]
        case ConditionRemoved(id=cid, text=text):
            return [{**at, "kind": "condition_removed", "name": _name(enc, cid), "condition": text}]
        case ConditionEnded(id=cid, text=text):
            return [{**at, "kind": "condition_ended", "name": _name(enc, cid), "condition": text}]
        case TurnPassed(actor=a, pi=pi):
            return [{**at, "kind": "passed", "name": _name(enc, a), "pi": pi}]
        case RoundEnded(reason=reason):
            return [{**at, "kind": "round_ended", "reason": reason}]
    return []
