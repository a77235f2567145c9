"""Events applied to state: ``evolve(state, event) -> state``. Each event says what
happened (past tense); applying it only builds new values, it judges nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, assert_never

from .events import (
    ActionTaken,
    AimAdjusted,
    AimLost,
    AimUsed,
    ArrowLoosed,
    ArrowNocked,
    Attacked,
    Charged,
    CombatantAdded,
    CombatantRemoved,
    CombatantUpdated,
    ConditionAdded,
    ConditionEnded,
    ConditionRemoved,
    CoverLost,
    CoverTaken,
    Disengaged,
    Engaged,
    EngagementsSet,
    Event,
    HandsChanged,
    Moved,
    PostureChanged,
    RoundEnded,
    RoundStarted,
    RulesSet,
    SettingsUpdated,
    TurnPassed,
)
from .model import Category, Combatant, CombatantId, Condition, Encounter
from .sheet import merge_changes

#: The events that change one fighter's marks (what it holds, aims, where it stands).
Marks = AimLost | AimUsed | AimAdjusted | ArrowNocked | ArrowLoosed | HandsChanged | PostureChanged | CoverTaken | CoverLost | Charged
#: The events that change who is on the tracker, and their sheets.
Roster = CombatantAdded | CombatantUpdated | CombatantRemoved
#: The events of the melee (D11).
Melee = Engaged | Disengaged | EngagementsSet


def evolve(enc: Encounter, event: Event) -> Encounter:
    """The encounter after ``event``: by what it changes (the round, the tracker, the
    melee, a fighter's marks); an event that only tells (a move, an attack) changes
    nothing."""
    match event:
        case ActionTaken():
            return _action_taken(enc, event)
        case RoundStarted():
            return _round_started(enc, event)
        case RoundEnded():
            return replace(enc, round_over=True, phase=None)
        case TurnPassed(actor=a):
            enc = _set(enc, a, passed=True)
            return replace(enc, phase=None) if enc.phase == a else enc
        case CombatantAdded() | CombatantUpdated() | CombatantRemoved():
            return _roster(enc, event)
        case Engaged() | Disengaged() | EngagementsSet():
            return _melee(enc, event)
        case SettingsUpdated(settings=settings):  # R4.3: at once, and for the rules to come
            coming = enc.regles_a_venir
            return replace(enc, regles=replace(enc.regles, courir_table=settings.run_table),
                           regles_a_venir=None if coming is None else replace(coming, courir_table=settings.run_table))
        case RulesSet(regles=regles, at_once=True):
            return replace(enc, regles=regles, regles_a_venir=None)
        case RulesSet(regles=regles):
            return replace(enc, regles_a_venir=None if regles == enc.regles else regles)
        case ConditionAdded() | ConditionRemoved() | ConditionEnded():
            return _condition(enc, event)
        case Moved() | Attacked():
            return enc
        case _:
            return _marks(enc, event)


def _marks(enc: Encounter, event: Marks) -> Encounter:
    """R4.1, D13, D17, D18, D19, D10, R4.2: one fighter's aim, arrow, hands, posture,
    cover, charge."""
    match event:
        case AimLost(actor=a) | AimUsed(actor=a):
            return _set(enc, a, aim_bonus=0, aim_weapon=None)
        case AimAdjusted(actor=a, weapon=w, bonus=bonus):
            return _set(enc, a, aim_bonus=bonus, aim_weapon=w)
        case ArrowNocked(actor=a):
            return _set(enc, a, arrow_nocked=True)
        case ArrowLoosed(actor=a):
            return _set(enc, a, arrow_nocked=False)
        case HandsChanged(actor=a, in_hand=held, arrow_lost=lost):
            return _set(enc, a, in_hand=held, arrow_nocked=False) if lost else _set(enc, a, in_hand=held)
        case PostureChanged(actor=a, posture=posture):
            return _set(enc, a, posture=posture)
        case CoverTaken(actor=a):
            return _set(enc, a, cover=True)
        case CoverLost(actor=a):
            return _set(enc, a, cover=False)
        case Charged(actor=a):
            return _set(enc, a, charged=True)
        case _:
            assert_never(event)


def _roster(enc: Encounter, event: Roster) -> Encounter:
    """A fighter added (D7: into the current round with its roll), changed, removed (D11:
    its engagements end)."""
    match event:
        case CombatantAdded(combatant=c, joins=joins):
            if joins is not None:
                c = replace(c, in_round=True, pi=joins.initiative, initiative=joins.initiative, d6=joins.d6,
                            declared=joins.weapon)
            return replace(enc, combatants=(*enc.combatants, c), next_id=enc.next_id + 1)
        case CombatantUpdated(id=cid, changes=changes):
            enc = enc.with_combatant(merge_changes(_fighter(enc, cid), changes))
            return replace(enc, phase=None) if changes.get("hors_combat") and enc.phase == cid else enc
        case CombatantRemoved(id=cid):
            enc = replace(enc, combatants=tuple(c for c in enc.combatants if c.id != cid),
                          phase=None if enc.phase == cid else enc.phase)
            return _map(enc, _without(cid))
        case _:
            assert_never(event)


def _melee(enc: Encounter, event: Melee) -> Encounter:
    """D11: engaged by an attack or a charge, disengaged by moving, set by the GM."""
    match event:
        case Engaged(actor=a, target=b):
            return _engaged(enc, a, b)
        case Disengaged(actor=a):
            return _disengaged(enc, a)
        case EngagementsSet(id=cid, with_=others, off_tracker=off):
            enc = _disengaged(enc, cid)
            for other in others:
                enc = _engaged(enc, cid, other)
            return _set(enc, cid, engaged_off_tracker=off)
        case _:
            assert_never(event)


def _condition(enc: Encounter, event: ConditionAdded | ConditionRemoved | ConditionEnded) -> Encounter:
    """D25: a condition put on (in place of one of the same text), taken off, or ended."""
    c = _fighter(enc, event.id)
    kept = tuple(x for x in c.conditions if x.text != event.text)
    if isinstance(event, ConditionAdded):
        kept = (*kept, Condition(text=event.text, until=event.until))
    return enc.with_combatant(replace(c, conditions=kept))


def _fighter(enc: Encounter, cid: str) -> Combatant:
    """The fighter an event names: decided on this very encounter, it is there."""
    c = enc.combatant(cid)
    if c is None:
        raise LookupError(f"no fighter {cid!r}: an event applied to an encounter it was not decided on")
    return c


def _set(enc: Encounter, cid: str, **fields: Any) -> Encounter:
    return enc.with_combatant(replace(_fighter(enc, cid), **fields))


def _map(enc: Encounter, fn: Callable[[Combatant], Combatant]) -> Encounter:
    return replace(enc, combatants=tuple(fn(c) for c in enc.combatants))


def _without(cid: str) -> Callable[[Combatant], Combatant]:
    def drop(c: Combatant) -> Combatant:
        if cid in c.engaged_with:
            return replace(c, engaged_with=tuple(x for x in c.engaged_with if x != cid))
        return c

    return drop


def _disengaged(enc: Encounter, cid: CombatantId) -> Encounter:
    enc = _set(enc, cid, engaged_with=(), engaged_off_tracker=False)
    return _map(enc, _without(cid))


def _engaged(enc: Encounter, a: CombatantId, b: CombatantId) -> Encounter:
    """D11: attacker and target engaged with each other."""

    def engage(c: Combatant) -> Combatant:
        other = b if c.id == a else a if c.id == b else None
        if other is None or other in c.engaged_with:
            return c
        return replace(c, engaged_with=(*c.engaged_with, other))

    return _map(enc, engage)


def _round_started(enc: Encounter, e: RoundStarted) -> Encounter:
    """R1: new P.I. for everyone who rolled; D3: what was left is discarded; the round's
    marks (charge, pass) are cleared; the rules given for this round come into force."""
    rolled = {i.id: i for i in e.initiatives}

    def start(c: Combatant) -> Combatant:
        i = rolled.get(c.id)
        if i is None:
            return replace(c, in_round=False, pi=0, initiative=None, d6=None, declared=None,
                           charged=False, passed=False)
        return replace(c, in_round=True, pi=i.initiative, initiative=i.initiative, d6=i.d6,
                       declared=i.weapon, charged=False, passed=False)

    enc = _map(enc, start)
    return replace(enc, round=e.round, round_over=False, phase=None, regles=enc.regles_du_tour_suivant, regles_a_venir=None)


def _action_taken(enc: Encounter, e: ActionTaken) -> Encounter:
    """R3.3: the cost is paid after the action; D8: a free action at 0 keeps the phase
    open, anything that pays ends it; an interruption leaves phases alone (R5.1)."""
    enc = _set(enc, e.actor, pi=e.pi_after, hope=e.hope_after)
    if e.category == Category.INTERRUPTION:
        return enc
    phase = e.actor if e.category == Category.GRATUITE and e.cost == 0 else None
    return replace(enc, phase=phase)
