"""R2, R3, R5: whether a fighter may take an action now, what it costs, the weapon it
uses and the tests it names; the generic judgement, the same for every action. What is
particular to one action is its record in :mod:`engine.actions`.

:func:`plan` is the one place where an action is judged: :mod:`engine.decide` uses it to
refuse or accept a command, :mod:`engine.view` to show every action as allowed or not
with its reason, so the page and the engine can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .actions.base import NAMED_SKILL, WEAPON_SKILL, Action, TestSpec, Uses
from .errors import Refusal
from .events import NamedTest
from .initiative import BARE_HANDED_SKILL
from .model import Category, Combatant, Encounter, Weapon
from .regles import DEFAUT, Regles


@dataclass(frozen=True, slots=True)
class Turn:
    """What the round means for one fighter right now."""

    started: bool  # a round has been started (R1)
    over: bool  # the round is over (R2.4)
    ready: bool  # may start a phase now (R2.1, D4)
    own_phase: bool  # its phase is open (D8)
    other_phase: bool  # someone else's phase is open (D22)
    regles: Regles = DEFAUT  # the rules in force
    prochaines: Regles = DEFAUT  # the rules the next round starts with (its initiative, R1)


def turn_of(enc: Encounter, c: Combatant, ready_ids: tuple[str, ...]) -> Turn:
    return Turn(
        started=enc.round > 0,
        over=enc.round_over,
        ready=c.id in ready_ids,
        own_phase=enc.phase == c.id,
        other_phase=enc.phase is not None and enc.phase != c.id,
        regles=enc.regles,
        prochaines=enc.regles_du_tour_suivant,
    )


@dataclass(frozen=True, slots=True)
class Plan:
    """An action judged allowed: what it costs, how it is paid, the weapon it uses."""

    cost: int
    pays: str  # "pi", "espoir" or "rien"
    weapon: Weapon | None


def weapon_for(c: Combatant, uses: Uses, chosen: str | None) -> Weapon | None:
    """The weapon an action uses: the one named, else the first that fits on the sheet
    (the only candidate, else the first); ``None`` bare-handed where that is allowed.
    """
    if chosen is not None:
        w = c.weapon(chosen)
        if w is None:
            raise Refusal("no_such_weapon", field="weapon", name=c.name, weapon=chosen)
        if not uses.fits(c, w):
            raise Refusal(uses.unfit_key, weapon=w.name, why=uses.key)
        return w
    for w in c.weapons:
        if uses.fits(c, w):
            return w
    if uses.bare_hands:
        return None
    raise Refusal(uses.key)


def never_fits(c: Combatant, uses: Uses, hands: tuple[Combatant, Combatant] | None = None) -> bool:
    """No change of hands can give ``c`` a weapon that fits (R4: a bow, a thrown weapon, a
    melee weapon or shield to parry): judged with every weapon in hand and an arrow
    nocked, and with nothing in hand (``hands``: :func:`other_hands` of ``c``, when the
    caller asks for several actions). Bare hands fit where they may."""
    if uses.bare_hands or any(uses.fits(c, w) for w in c.weapons):
        return False
    every, empty = hands or other_hands(c)
    return not any(uses.fits(every, w) or uses.fits(empty, w) for w in c.weapons)


def other_hands(c: Combatant) -> tuple[Combatant, Combatant]:
    """``c`` with every weapon in hand and an arrow nocked, and ``c`` with nothing in hand."""
    return replace(c, in_hand=tuple(w.id for w in c.weapons), arrow_nocked=True), replace(c, in_hand=())


def eligibility(c: Combatant, turn: Turn, action: Action) -> str:
    """R2.3, R5, D5, D6, D7, D22: may this fighter act now at all? Returns how an
    interruption would be paid ("pi" or "espoir"), or "pi" for a phase action. Whether an
    interruption can be paid (R5.2) is :func:`affordable`, asked after the action's own
    preconditions (D24: the most specific reason first).
    """
    in_the_round(c, turn)
    if action.category is Category.INTERRUPTION:
        if turn.own_phase:
            raise Refusal("interrupt_own_phase")
        return payer(c, action, turn.regles)
    taking_phases(c, turn)
    if turn.other_phase:
        raise Refusal("other_phase")
    if c.pi <= 0:
        raise Refusal("no_pi", name=c.name)
    if not turn.ready:
        raise Refusal("not_highest")
    return "pi"


def in_the_round(c: Combatant, turn: Turn) -> None:
    """R1, D6, D7: a round has started, and the fighter rolled for it and is not out of
    the fight (what any action, and passing, needs)."""
    if not turn.started:
        raise Refusal("round_not_started")
    if c.hors_combat:
        raise Refusal("hors_combat", name=c.name)
    if not c.in_round:
        raise Refusal("not_in_round", name=c.name)


def taking_phases(c: Combatant, turn: Turn) -> None:
    """R2.4, D5: the round goes on and the fighter has not passed (what a phase action,
    and passing, needs)."""
    if turn.over:
        raise Refusal("round_finished")
    if c.passed:
        raise Refusal("passed", name=c.name)


def may_pass(c: Combatant, turn: Turn) -> None:
    """D5: passing needs what a phase action needs of the round (:func:`in_the_round`,
    :func:`taking_phases`), and rules that allow it (``passer``)."""
    in_the_round(c, turn)
    taking_phases(c, turn)
    if not turn.regles.passer:
        raise Refusal("passing_off")


def affordable(c: Combatant, pays: str, regles: Regles) -> None:
    """R5.2: an interruption at P.I. <= 0 needs a point d'Espoir (``espoir_cout``); with
    too few left, refused."""
    if pays == "espoir" and c.hope < regles.espoir_cout:
        raise Refusal("no_hope", name=c.name)


def payer(c: Combatant, action: Action, regles: Regles) -> str:
    """R5.2: how ``c`` pays ``action``: an interruption at P.I. <= 0 (``espoir_seuil``) with
    points d'Espoir, anything else with P.I. (``"pi"`` or ``"espoir"``)."""
    return "espoir" if action.category is Category.INTERRUPTION and c.pi <= regles.espoir_seuil else "pi"


def plan(c: Combatant, turn: Turn, action: Action, options: Mapping[str, Any], probe: bool = False) -> Plan:
    """Judge ``action`` by ``c`` now; raise :class:`Refusal` or say what it costs.

    Eligibility, then the required options, the preconditions, the weapon and the option
    checks; an interruption's preconditions and weapon come before whether it can be paid
    (D24: « not after its own charge » says more than « no P.I. nor Espoir »), and its
    payment before its options (the contract: eligibility before the outcome). With
    ``probe`` (the board's view), options are neither asked for nor checked.
    """
    pays = eligibility(c, turn, action)
    if action.category is Category.INTERRUPTION:
        weapon = _prepared(c, action, options, turn.regles)
        affordable(c, pays, turn.regles)
        _required(action, options, probe)
    else:
        _required(action, options, probe)
        weapon = _prepared(c, action, options, turn.regles)
    if not probe:
        action.check(c, options, turn.regles)
    return Plan(*price(turn, action, weapon, pays, options), weapon)


def _required(action: Action, options: Mapping[str, Any], probe: bool) -> None:
    """The options the action cannot go without (not asked for by the board's probe)."""
    if not probe:
        for name in action.required:
            if name not in options:
                raise Refusal("option_required", action=action.id, field=name)


def _prepared(c: Combatant, action: Action, options: Mapping[str, Any], regles: Regles) -> Weapon | None:
    """The action's preconditions (R4 table, those the rules apply) and the weapon it uses;
    first, when no weapon of the sheet could ever do it (D24: « a bow » says more than « no
    arrow nocked »); then the action's guard on that weapon (D17 turned off)."""
    uses = action.uses
    if uses is not None and "weapon" not in options and never_fits(c, uses):
        raise Refusal(uses.key)
    for need in action.needs:
        if not need.holds(c) and need.applies(regles):
            raise Refusal(need.key)
    weapon = weapon_for(c, action.uses, options.get("weapon")) if action.uses is not None else None
    action.guard(c, weapon, regles)
    return weapon


def price(turn: Turn, action: Action, weapon: Weapon | None, pays: str, options: Mapping[str, Any]) -> tuple[int, str]:
    """R3 by the fight's rules: free 0 then 5 in the same phase, simple 5, complex 10,
    interruption 5 P.I. or 1 Espoir (R5.2); unless the action prices itself
    (``preparer_arme``, R4.4)."""
    regles = turn.regles
    own = action.cost(weapon, options, regles)
    if own is not None:
        return own
    category = action.category_in(regles)
    if category is Category.INTERRUPTION:
        return (regles.cout_interruption, "pi") if pays == "pi" else (regles.espoir_cout, "espoir")
    if category is Category.GRATUITE:
        return (regles.cout_gratuite_suivante if turn.own_phase else 0), "pi"
    return (regles.cout_simple if category is Category.SIMPLE else regles.cout_complexe), "pi"


def loses_aim(c: Combatant, action: Action, weapon: Weapon | None, regles: Regles) -> bool:
    """R4.1, D13: whether taking ``action`` with ``weapon`` loses ``c``'s aim: any action
    of a category the rules name (``visee_perdue``: all of them), but aiming again with
    the weapon aimed and the attack that uses the aim."""
    keeps = action.keeps_aim and weapon is not None and c.aim_weapon == weapon.id
    return bool(c.aim_bonus) and not keeps and action.category_in(regles).value in regles.visee_perdue


def describe_tests(c: Combatant, action: Action, weapon: Weapon | None, options: Mapping[str, Any],
                   regles: Regles) -> tuple[NamedTest, ...]:
    """D14: the tests an action names, with the fighter's values and modifiers.

    The engine rolls nothing: it says what to roll, e.g. a charge's attack at +4 (R4.2),
    a shot with its aim bonus (R4.1), a parry at -4 after a charge (R4.2).
    """
    if action.untested(options):
        return ()
    out = []
    for spec in action.tests:
        skill = _skill_name(spec, weapon, options)
        out.append(NamedTest(
            id=spec.id,
            characteristic=spec.characteristic,
            characteristic_value=c.characteristic(spec.characteristic) if spec.characteristic else None,
            skill=skill,
            skill_level=c.skill(skill) if skill else None,
            difficulty=options.get("difficulty", spec.difficulty),
            modifiers=action.modifiers(c, weapon, spec, regles),
        ))
    return tuple(out)


def _skill_name(spec: TestSpec, weapon: Weapon | None, options: Mapping[str, Any]) -> str:
    if spec.skill == WEAPON_SKILL:
        return weapon.skill if weapon else BARE_HANDED_SKILL
    if spec.skill == NAMED_SKILL:
        return str(options.get("skill", ""))
    return spec.skill
