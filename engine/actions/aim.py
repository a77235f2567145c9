"""Aim and shooting: ``ajuster_tir`` (R4.1, D13, D17), ``encocher_fleche`` (D18),
``tir_arc`` and ``lancer_arme`` (D19)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Refusal
from ..events import AimAdjusted, AimUsed, ArrowLoosed, ArrowNocked, Attacked, Event, Modifier
from ..model import Category, Combatant, Weapon
from ..regles import Regles
from .base import OUTCOME, WEAPON_SKILL, Act, Action, Need, TestSpec, Uses, hands, in_hand, is_bow, is_thrown


def _aimable(c: Combatant, w: Weapon) -> bool:
    """R4.1: a bow in hand with an arrow nocked, or a throwing weapon in hand."""
    if is_bow(w):
        return in_hand(c, w) and c.arrow_nocked
    return is_thrown(w) and in_hand(c, w)


def aim_cap(c: Combatant, w: Weapon, regles: Regles) -> int:
    """R4.1: the rules' cap, else the weapon's skill level; at least one step (``visee_pas``)."""
    return max(regles.visee_pas, c.skill(w.skill) if regles.visee_plafond is None else regles.visee_plafond)


def _aim(act: Act) -> list[Event]:
    """R4.1, D17: a step (+1) up to the cap (the skill level, at least a step); at the
    cap, nothing more."""
    c, w, regles = act.actor, act.weapon, act.enc.regles
    if w is None:
        return []
    cap, step = aim_cap(c, w, regles), regles.visee_pas
    bonus = min(cap, c.aim_bonus + step) if act.keeps_aim else min(cap, step)
    return [AimAdjusted(actor=c.id, weapon=w.id, bonus=bonus, capped=act.keeps_aim and c.aim_bonus >= cap)]


def _below_cap(c: Combatant, w: Weapon | None, regles: Regles) -> None:
    """D17, as a group may turn it: aiming again at the cap refused."""
    if not regles.visee_au_plafond and w is not None and c.aim_weapon == w.id and c.aim_bonus >= aim_cap(c, w, regles):
        raise Refusal("aim_capped", name=c.name, max=c.aim_bonus)


def aim_bonus(c: Combatant, w: Weapon | None, spec: TestSpec, regles: Regles) -> tuple[Modifier, ...]:
    """R4.1: the attack with the aimed weapon gets the aim bonus."""
    if w is not None and c.aim_weapon == w.id and c.aim_bonus:
        return (Modifier(id="visee", value=c.aim_bonus, rule="R4.1"),)
    return ()


def _release(act: Act, leaves: Callable[[Combatant, Weapon], Event]) -> list[Event]:
    """A shot or a throw: the aim is used up (R4.1), the missile leaves (``leaves``), the
    target is attacked."""
    c, w = act.actor, act.weapon
    if w is None:
        return []
    events: list[Event] = []
    if act.keeps_aim:
        events.append(AimUsed(actor=c.id, weapon=w.id, bonus=c.aim_bonus))
    events.append(leaves(c, w))
    if "target" in act.options:
        events.append(Attacked(actor=c.id, target=act.options["target"]))
    return events


def _shot(act: Act) -> list[Event]:
    """D18: the arrow leaves the bow."""
    return _release(act, lambda c, w: ArrowLoosed(actor=c.id, weapon=w.id))


def _throw(act: Act) -> list[Event]:
    """D19: the thrown weapon leaves the hand and stays on the sheet."""
    return _release(act, lambda c, w: hands(c, tuple(i for i in c.in_hand if i != w.id)))


def _nock(act: Act) -> list[Event]:
    return [] if act.weapon is None else [ArrowNocked(actor=act.actor.id, weapon=act.weapon.id)]


_BOW_IN_HAND = Uses(lambda c, w: is_bow(w) and in_hand(c, w), "needs_bow")

AJUSTER_TIR = Action(
    "ajuster_tir", Category.SIMPLE, ("weapon",),
    uses=Uses(_aimable, "needs_aimable"),
    effects=_aim, keeps_aim=True, guard=_below_cap,
)
ENCOCHER_FLECHE = Action(
    "encocher_fleche", Category.SIMPLE, ("weapon",),
    needs=(Need(lambda c: not c.arrow_nocked, "arrow_already_nocked"),),
    uses=_BOW_IN_HAND, effects=_nock,
)
TIR_ARC = Action(
    "tir_arc", Category.SIMPLE, ("weapon", "target", *OUTCOME),
    needs=(Need(lambda c: c.arrow_nocked, "no_arrow_nocked"),),
    uses=_BOW_IN_HAND, tests=(TestSpec("tir", WEAPON_SKILL),),
    modifiers=aim_bonus, effects=_shot, keeps_aim=True,
)
LANCER_ARME = Action(
    "lancer_arme", Category.SIMPLE, ("weapon", "target", *OUTCOME),
    uses=Uses(lambda c, w: is_thrown(w) and in_hand(c, w), "needs_thrown"),
    tests=(TestSpec("lancer", WEAPON_SKILL),), modifiers=aim_bonus, effects=_throw, keeps_aim=True,
)
