"""R2 to R5: whether a fighter may take an action now, what it costs and what it names.

:func:`plan` is the one place where an action is judged: :mod:`engine.decide` uses it to
refuse or accept a command, :mod:`engine.view` to show every action as allowed or not
with its reason, so the page and the engine can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .catalogue import COST, HOPE_COST, NAMED_SKILL, SECOND_FREE_COST, WEAPON_SKILL, Action, TestSpec
from .errors import Refusal
from .initiative import BARE_HANDED_SKILL
from .model import Category, Combatant, Encounter, Posture, Weapon, WeaponKind


@dataclass(frozen=True, slots=True)
class Turn:
    """What the round means for one fighter right now."""

    started: bool  # a round has been started (R1)
    over: bool  # the round is over (R2.4)
    ready: bool  # may start a phase now (R2.1, D4)
    own_phase: bool  # its phase is open (D8)
    other_phase: bool  # someone else's phase is open (D22)


def turn_of(enc: Encounter, c: Combatant, ready_ids: tuple[str, ...]) -> Turn:
    return Turn(
        started=enc.round > 0,
        over=enc.round_over,
        ready=c.id in ready_ids,
        own_phase=enc.phase == c.id,
        other_phase=enc.phase is not None and enc.phase != c.id,
    )


@dataclass(frozen=True, slots=True)
class Plan:
    """An action judged allowed: what it costs, how it is paid, the weapon it uses."""

    cost: int
    pays: str  # "pi", "espoir" or "rien"
    weapon: Weapon | None


def _is_bow(w: Weapon) -> bool:
    return w.kind is WeaponKind.BOW


def _is_thrown(w: Weapon) -> bool:
    return w.kind is WeaponKind.THROWN


def _is_melee(w: Weapon) -> bool:
    return w.kind in (WeaponKind.MELEE, WeaponKind.SHIELD)


#: action -> (which weapons fit, whether it must be in hand, bare hands allowed, reason if none).
WEAPONS: dict[str, tuple[Callable[[Weapon], bool], bool, bool, str]] = {
    "ajuster_tir": (lambda w: _is_bow(w) or _is_thrown(w), True, False,
                    "il faut un arc avec une flèche encochée ou une arme de jet en main (R4.1)"),
    "encocher_fleche": (_is_bow, True, False, "il faut un arc en main (R4)"),
    "tir_arc": (_is_bow, True, False, "il faut un arc en main (R4)"),
    "lancer_arme": (_is_thrown, True, False, "il faut une arme de jet en main (R4)"),
    "preparer_arme": (lambda w: True, False, False, "aucune arme à préparer : tout est déjà en main (R4)"),
    "attaque_melee": (_is_melee, True, True, "il faut une arme de mêlée en main, ou les mains nues (R4)"),
    "charge": (_is_melee, True, True, "il faut une arme de mêlée en main, ou les mains nues (R4.2)"),
    "parer": (_is_melee, True, False, "il faut une arme de mêlée ou un bouclier en main (R4)"),
}


def _fits(c: Combatant, action_id: str, w: Weapon) -> bool:
    fits, in_hand, _, _ = WEAPONS[action_id]
    if not fits(w):
        return False
    held = w.id in c.in_hand
    if action_id == "preparer_arme":
        return not held
    if action_id == "ajuster_tir" and _is_bow(w):
        return held and c.arrow_nocked
    return held if in_hand else True


def weapon_for(c: Combatant, action_id: str, chosen: str | None) -> Weapon | None:
    """The weapon an action uses: the one named, else the first that fits on the sheet
    (the only candidate, else the first); ``None`` bare-handed where that is allowed.
    """
    _, _, bare, reason = WEAPONS[action_id]
    if chosen is not None:
        w = c.weapon(chosen)
        if w is None:
            raise Refusal("bad_value", f"« weapon » : {c.name} n'a pas d'arme {chosen!r}.")
        if not _fits(c, action_id, w):
            if action_id == "preparer_arme":
                raise Refusal("not_allowed", f"{w.name} est déjà en main (R4).")
            raise Refusal("not_allowed", f"{w.name} ne convient pas : {reason}.")
        return w
    for w in c.weapons:
        if _fits(c, action_id, w):
            return w
    if bare:
        return None
    raise Refusal("not_allowed", reason[0].upper() + reason[1:] + ".")


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise Refusal("not_allowed", message)


#: R4 "needs" column, by the names used in the catalogue.
NEEDS: dict[str, Callable[[Combatant], None]] = {
    "something_in_hand": lambda c: _need(bool(c.in_hand), "Rien en main à lâcher (R4)."),
    "standing_or_kneeling": lambda c: _need(
        c.posture is not Posture.A_TERRE, "Déjà à terre (R4)."),
    "no_arrow": lambda c: _need(not c.arrow_nocked, "Une flèche est déjà encochée (D18)."),
    "standing": lambda c: _need(c.posture is Posture.DEBOUT, "Il faut être debout pour courir (R4)."),
    "not_in_cover": lambda c: _need(not c.cover, "Déjà à couvert (R4, D10)."),
    "not_standing": lambda c: _need(
        c.posture is not Posture.DEBOUT, "Déjà debout : se relever demande d'être à terre ou à genoux (R4)."),
    "arrow_nocked": lambda c: _need(c.arrow_nocked, "Aucune flèche encochée : encochez d'abord (R4)."),
    "not_engaged": lambda c: _need(
        not c.engaged, "Impossible de charger en étant engagé au corps à corps (R4.2)."),
    "not_charged": lambda c: _need(
        not c.charged, "Impossible d'esquiver après avoir chargé durant ce tour (R4.2)."),
}


def eligibility(c: Combatant, turn: Turn, action: Action) -> str:
    """R2.3, R5, D5, D6, D7, D22: may this fighter act now at all? Returns how an
    interruption would be paid ("pi" or "espoir"), or "pi" for a phase action.
    """
    if not turn.started:
        raise Refusal("round_over", "Aucun tour n'a commencé : lancez l'initiative (R1).")
    if c.hors_combat:
        raise Refusal("not_allowed", f"{c.name} est hors combat (D6).")
    if not c.in_round:
        raise Refusal("not_allowed", f"{c.name} n'a pas d'initiative ce tour-ci : il rejoint le prochain tour (D6, D7).")
    if action.category is Category.INTERRUPTION:
        if turn.own_phase:
            raise Refusal("not_allowed", "Une interruption se prend hors de sa propre phase (R5.1, D22).")
        if c.pi > 0:
            return "pi"
        if c.hope >= HOPE_COST:
            return "espoir"
        raise Refusal("no_hope", f"{c.name} n'a plus de P.I. ni de point d'Espoir pour s'interrompre (R5.2).")
    if turn.over:
        raise Refusal("round_over", "Le tour est fini : lancez le suivant (R2.4).")
    if c.passed:
        raise Refusal("not_allowed", f"{c.name} a passé : plus de phase ce tour-ci (D5).")
    if turn.other_phase:
        raise Refusal("not_your_turn", "Un autre combattant termine sa phase (D22).")
    if c.pi <= 0:
        raise Refusal("no_pi", f"{c.name} n'a plus de P.I. : il ne peut plus entamer d'action (R2.3).")
    if not turn.ready:
        raise Refusal("not_your_turn", "Ce n'est pas son tour : le plus haut total de P.I. agit (R2.1).")
    return "pi"


def plan(c: Combatant, turn: Turn, action: Action, options: Mapping[str, Any], probe: bool = False) -> Plan:
    """Judge ``action`` by ``c`` now; raise :class:`Refusal` or say what it costs.

    With ``probe`` (the board's view), options the action requires are not asked for.
    """
    pays = eligibility(c, turn, action)
    if not probe:
        for name in action.required:
            if name not in options:
                raise Refusal("bad_command", f"« {action.id} » demande l'option « {name} ».")
    for need in action.needs:
        if need in NEEDS:
            NEEDS[need](c)
    weapon = weapon_for(c, action.id, options.get("weapon")) if action.id in WEAPONS else None
    if not probe:
        _check_options(c, action, options)
    return Plan(*_cost(c, turn, action, weapon, pays, options), weapon)


def _check_options(c: Combatant, action: Action, options: Mapping[str, Any]) -> None:
    if action.id == "lacher_objet" and "items" in options:
        items = options["items"]
        _need(len(items) <= 2, "On lâche un objet, ou un dans chaque main : deux au plus (R4).")
        for i in items:
            _need(i in c.in_hand, f"{i!r} n'est pas en main (R4).")
    elif action.id == "prendre_objet" and "items" in options:
        for i in options["items"]:
            if c.weapon(i) is None:
                raise Refusal("bad_value", f"« items » : {c.name} n'a pas d'arme {i!r}.")
    elif action.id == "se_jeter_au_sol":
        posture = options.get("posture", Posture.A_TERRE.value)
        _need(posture != c.posture.value, "Déjà dans cette posture (R4).")
    elif action.id == "charge":
        reach = 6 + options["test_result"]
        if options["distance"] > reach:
            distance = f"{options['distance']:g} m > 6 + {options['test_result']} = {reach} m"
            raise Refusal("too_far", f"Trop loin pour charger : {distance} (R4.2).")


def _cost(
    c: Combatant, turn: Turn, action: Action, weapon: Weapon | None, pays: str, options: Mapping[str, Any]
) -> tuple[int, str]:
    """R3: free 0 then 5 in the same phase, simple 5, complex 10, interruption 5 P.I. or
    1 Espoir (R5.2); ``preparer_arme`` complex when the weapon is not stowed properly;
    a successful acrobatic dodge costs nothing (R4.4)."""
    if action.category is Category.INTERRUPTION:
        tests = options.get("tests")
        if action.id == "esquive_acrobatique" and tests and tests["esquive"] and tests["acrobatie"]:
            return 0, "rien"
        return (COST[action.category], "pi") if pays == "pi" else (HOPE_COST, "espoir")
    if action.category is Category.GRATUITE:
        return (SECOND_FREE_COST if turn.own_phase else 0), "pi"
    if action.id == "preparer_arme" and weapon is not None and not weapon.stowed:
        return COST[Category.COMPLEXE], "pi"
    return COST[action.category], "pi"


def describe_tests(c: Combatant, action: Action, weapon: Weapon | None, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """D14: the tests an action names, with the fighter's values and modifiers.

    The engine rolls nothing: it says what to roll, e.g. a charge's attack at +4 (R4.2),
    a shot with its aim bonus (R4.1), a parry at -4 after a charge (R4.2).
    """
    if action.id == "faire_geste" and options.get("familier"):
        return []
    out = []
    for spec in action.tests:
        skill = _skill_name(spec, weapon, options)
        modifiers = _modifiers(c, action, weapon, spec)
        out.append({
            "label": spec.label,
            "characteristic": spec.characteristic,
            "characteristic_value": c.characteristic(spec.characteristic) if spec.characteristic else None,
            "skill": skill,
            "skill_level": c.skill(skill) if skill else None,
            "difficulty": options.get("difficulty", spec.difficulty),
            "modifiers": modifiers,
        })
    return out


def _skill_name(spec: TestSpec, weapon: Weapon | None, options: Mapping[str, Any]) -> str:
    if spec.skill == WEAPON_SKILL:
        return weapon.skill if weapon else BARE_HANDED_SKILL
    if spec.skill == NAMED_SKILL:
        return str(options.get("skill", ""))
    return spec.skill


def _modifiers(c: Combatant, action: Action, weapon: Weapon | None, spec: TestSpec) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    if action.id in ("tir_arc", "lancer_arme") and weapon and c.aim_weapon == weapon.id and c.aim_bonus:
        mods.append({"label": "visée", "value": c.aim_bonus, "rule": "R4.1"})
    if action.id == "charge" and spec.skill == WEAPON_SKILL:
        mods.append({"label": "charge", "value": 4, "rule": "R4.2"})
    if action.id == "parer" and c.charged:
        mods.append({"label": "après une charge", "value": -4, "rule": "R4.2"})
    return mods
