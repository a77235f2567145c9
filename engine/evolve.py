"""Events applied to state: ``evolve(state, event) -> state``. Each event says what
happened (past tense); applying it only builds new values, it judges nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from .codec import sheet_from_json
from .model import Category, Combatant, Encounter, Posture, Settings
from .sheet import merge_changes

Event = Mapping[str, Any]


def evolve(enc: Encounter, event: Event) -> Encounter:
    return _APPLY[event["type"]](enc, event)


def _set(enc: Encounter, cid: str, **fields: Any) -> Encounter:
    c = enc.combatant(cid)
    assert c is not None, cid
    return enc.with_combatant(replace(c, **fields))


def _map(enc: Encounter, fn: Callable[[Combatant], Combatant]) -> Encounter:
    return replace(enc, combatants=tuple(fn(c) for c in enc.combatants))


def _combatant_added(enc: Encounter, e: Event) -> Encounter:
    c = sheet_from_json(e["combatant"])
    joins = e["joins"]
    if joins is not None:  # D7: enters the current round with this initiative
        c = replace(c, in_round=True, pi=joins["initiative"], initiative=joins["initiative"],
                    d6=joins["d6"], declared=joins["weapon"])
    return replace(enc, combatants=(*enc.combatants, c), next_id=enc.next_id + 1)


def _combatant_updated(enc: Encounter, e: Event) -> Encounter:
    c = enc.combatant(e["id"])
    assert c is not None
    enc = enc.with_combatant(merge_changes(c, e["changes"]))
    if e["changes"].get("hors_combat") and enc.phase == c.id:
        enc = replace(enc, phase=None)
    return enc


def _without(cid: str) -> Callable[[Combatant], Combatant]:
    def drop(c: Combatant) -> Combatant:
        if cid in c.engaged_with:
            return replace(c, engaged_with=tuple(x for x in c.engaged_with if x != cid))
        return c

    return drop


def _combatant_removed(enc: Encounter, e: Event) -> Encounter:
    cid = e["id"]
    enc = replace(enc, combatants=tuple(c for c in enc.combatants if c.id != cid),
                  phase=None if enc.phase == cid else enc.phase)
    return _map(enc, _without(cid))  # D11: removal ends engagements


def _disengaged(enc: Encounter, e: Event) -> Encounter:
    cid = e["actor"]
    enc = _set(enc, cid, engaged_with=(), engaged_off_tracker=False)
    return _map(enc, _without(cid))


def _engagements_set(enc: Encounter, e: Event) -> Encounter:
    cid = e["id"]
    enc = _disengaged(enc, {"actor": cid})
    for other in e["with"]:
        enc = _engaged(enc, {"actor": cid, "target": other})
    return _set(enc, cid, engaged_off_tracker=e["off_tracker"])


def _engaged(enc: Encounter, e: Event) -> Encounter:
    a, b = e["actor"], e["target"]

    def engage(c: Combatant) -> Combatant:
        other = b if c.id == a else a if c.id == b else None
        if other is None or other in c.engaged_with:
            return c
        return replace(c, engaged_with=(*c.engaged_with, other))

    return _map(enc, engage)


def _round_started(enc: Encounter, e: Event) -> Encounter:
    """R1: new P.I. for everyone who rolled; D3: what was left is discarded; the round's
    marks (charge, pass) are cleared."""
    rolled = {i["id"]: i for i in e["initiatives"]}

    def start(c: Combatant) -> Combatant:
        i = rolled.get(c.id)
        if i is None:
            return replace(c, in_round=False, pi=0, initiative=None, d6=None, declared=None,
                           charged=False, passed=False)
        return replace(c, in_round=True, pi=i["initiative"], initiative=i["initiative"], d6=i["d6"],
                       declared=i["weapon"], charged=False, passed=False)

    enc = _map(enc, start)
    return replace(enc, round=e["round"], round_over=False, phase=None)


def _action_taken(enc: Encounter, e: Event) -> Encounter:
    """R3.3: the cost is paid after the action; D8: a free action at 0 keeps the phase
    open, anything that pays ends it; an interruption leaves phases alone (R5.1)."""
    enc = _set(enc, e["actor"], pi=e["pi_after"], hope=e["hope_after"])
    if e["category"] == Category.INTERRUPTION:
        return enc
    phase = e["actor"] if e["category"] == Category.GRATUITE and e["cost"] == 0 else None
    return replace(enc, phase=phase)


def _hands_changed(enc: Encounter, e: Event) -> Encounter:
    fields: dict[str, Any] = {"in_hand": tuple(e["in_hand"])}
    if e["arrow_lost"]:
        fields.update(arrow_nocked=False)
    return _set(enc, e["actor"], **fields)


def _turn_passed(enc: Encounter, e: Event) -> Encounter:
    enc = _set(enc, e["actor"], passed=True)
    return replace(enc, phase=None) if enc.phase == e["actor"] else enc


def _round_ended(enc: Encounter, e: Event) -> Encounter:
    return replace(enc, round_over=True, phase=None)


def _nothing(enc: Encounter, e: Event) -> Encounter:
    return enc


_APPLY: dict[str, Callable[[Encounter, Event], Encounter]] = {
    "combatant_added": _combatant_added,
    "combatant_updated": _combatant_updated,
    "combatant_removed": _combatant_removed,
    "engagements_set": _engagements_set,
    "engaged": _engaged,
    "disengaged": _disengaged,
    "round_started": _round_started,
    "round_ended": _round_ended,
    "action_taken": _action_taken,
    "turn_passed": _turn_passed,
    "aim_lost": lambda enc, e: _set(enc, e["actor"], aim_bonus=0, aim_weapon=None),
    "aim_adjusted": lambda enc, e: _set(enc, e["actor"], aim_bonus=e["bonus"], aim_weapon=e["weapon"]),
    "aim_used": lambda enc, e: _set(enc, e["actor"], aim_bonus=0, aim_weapon=None),
    "arrow_nocked": lambda enc, e: _set(enc, e["actor"], arrow_nocked=True),
    "arrow_loosed": lambda enc, e: _set(enc, e["actor"], arrow_nocked=False),
    "hands_changed": _hands_changed,
    "posture_changed": lambda enc, e: _set(enc, e["actor"], posture=Posture(e["posture"])),
    "cover_taken": lambda enc, e: _set(enc, e["actor"], cover=True),
    "cover_lost": lambda enc, e: _set(enc, e["actor"], cover=False),
    "charged": lambda enc, e: _set(enc, e["actor"], charged=True),
    "moved": _nothing,
    "attacked": _nothing,
    "settings_updated": lambda enc, e: replace(
        enc, settings=Settings(tuple((a, b) for a, b in e["settings"]["run_table"]))),
}
