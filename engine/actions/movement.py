"""Movement and charge: ``se_deplacer``, ``courir`` (R4.3, D9), ``charge`` (R4.2),
``se_mettre_a_couvert``, ``se_jeter_au_sol``, ``se_relever``.

Moving leaves cover (D10); walking and running leave melee, a charge engages (D11). All of
R4.2 is in the charge's section below, its penalties on defence included.
"""

from __future__ import annotations

from ..errors import Refusal
from ..events import Charged, CoverLost, CoverTaken, Disengaged, Engaged, Event, Modifier, Moved, PostureChanged
from ..model import Category, Combatant, Encounter, Posture, Weapon
from ..regles import Regles
from .base import OUTCOME, WEAPON_SKILL, Act, Action, Need, Options, TestSpec, Uses, in_hand, is_melee, need


def _leave_cover(c: Combatant) -> list[Event]:
    """D10: cover lasts until the fighter moves."""
    return [CoverLost(actor=c.id)] if c.cover else []


def _leave_melee(c: Combatant) -> list[Event]:
    """D11: walking and running end every engagement of the mover."""
    return [Disengaged(actor=c.id)] if c.engaged else []


def _walk(act: Act) -> list[Event]:
    """R4: a walk covers the rules' metres (``marche_metres``, 6 m)."""
    c = act.actor
    return [*_leave_cover(c), *_leave_melee(c), Moved(actor=c.id, how="marche", distance=act.enc.regles.marche_metres)]


def run_distance(enc: Encounter, result: int | None) -> int | None:
    """R4.3: the row of the group's table (``courir_table``) with the highest minimum not
    above the result; below every row 0 m; with no table or no result, unknown."""
    table = enc.regles.courir_table
    if result is None or not table:
        return None
    metres = 0
    for minimum, m in table:
        if minimum <= result:
            metres = m
    return metres


def _run(act: Act) -> list[Event]:
    """R4.3: the distance typed wins over the group's run table."""
    c, options = act.actor, act.options
    distance = options.get("distance", run_distance(act.enc, options.get("test_result")))
    return [*_leave_cover(c), *_leave_melee(c), Moved(actor=c.id, how="course", distance=distance)]


# R4.2 Charge ---------------------------------------------------------------------------

# The numbers are the fight's rules (engine/regles.py): ``charge_portee`` (6 m),
# ``charge_attaque`` (+4), ``charge_parade`` (−4), ``charge_sans_esquive``.


def charge_reach(options: Options, regles: Regles) -> int:
    """R4.2: the rules' base (6 m) plus the Mêlée / Course test result."""
    reach: int = regles.charge_portee + options["test_result"]
    return reach


def _charge_in_reach(c: Combatant, options: Options, regles: Regles) -> None:
    reach = charge_reach(options, regles)
    if options["distance"] > reach:
        raise Refusal("too_far", distance=options["distance"], base=regles.charge_portee, result=options["test_result"], reach=reach)


def _charge_bonus(c: Combatant, w: Weapon | None, spec: TestSpec, regles: Regles) -> tuple[Modifier, ...]:
    """+4 on the attack (not on the range test)."""
    if spec.skill != WEAPON_SKILL or not regles.charge_attaque:
        return ()
    return (Modifier(id="charge", value=regles.charge_attaque, rule="R4.2"),)


def _charge(act: Act) -> list[Event]:
    """Leaves cover (D10), marks the round (no dodge, parry at −4) and engages (D11)."""
    c, options = act.actor, act.options
    events = [*_leave_cover(c), Charged(actor=c.id, distance=options["distance"], reach=charge_reach(options, act.enc.regles))]
    if "target" in options:
        events.append(Engaged(actor=c.id, target=options["target"]))
    return events


#: R4.2: no dodge (``esquiver``, ``esquive_acrobatique``) after charging this round,
#: unless the group's rules allow it (``charge_sans_esquive``).
NOT_AFTER_CHARGE = Need(lambda c: not c.charged, "no_dodge_after_charge", applies=lambda r: r.charge_sans_esquive)


def parry_after_charge(c: Combatant, w: Weapon | None, spec: TestSpec, regles: Regles) -> tuple[Modifier, ...]:
    """R4.2: ``parer`` at −4 after charging this round (none when the rules say 0)."""
    if not c.charged or not regles.charge_parade:
        return ()
    return (Modifier(id="apres_charge", value=regles.charge_parade, rule="R4.2"),)


CHARGE = Action(
    "charge", Category.COMPLEXE, ("weapon", "target", "distance", "test_result", *OUTCOME),
    required=("distance", "test_result"),
    needs=(Need(lambda c: not c.engaged, "engaged_no_charge"),),
    uses=Uses(lambda c, w: is_melee(w) and in_hand(c, w), "needs_melee", bare_hands=True),
    tests=(TestSpec("melee", "course", None, "portee"), TestSpec("melee", WEAPON_SKILL)),
    check=_charge_in_reach, modifiers=_charge_bonus, effects=_charge,
)

# ---------------------------------------------------------------------------------------


def _posture_given(c: Combatant, options: Options, regles: Regles) -> None:
    need(options.get("posture", Posture.A_TERRE.value) != c.posture.value, "same_posture")


def _drop(act: Act) -> list[Event]:
    return [PostureChanged(actor=act.actor.id, posture=Posture(act.options.get("posture", Posture.A_TERRE.value)))]


SE_DEPLACER = Action(
    "se_deplacer", Category.SIMPLE, OUTCOME, tests=(TestSpec("derobee", "discretion"),), effects=_walk,
)
COURIR = Action(
    "courir", Category.SIMPLE, ("distance", "test_result", "difficulty"),
    needs=(Need(lambda c: c.posture is Posture.DEBOUT, "standing_to_run"),),
    tests=(TestSpec("melee", "course", 0),), effects=_run,
    category_from=lambda r: Category(r.courir_categorie),  # D9
)
SE_METTRE_A_COUVERT = Action(
    "se_mettre_a_couvert", Category.SIMPLE,
    needs=(Need(lambda c: not c.cover, "already_in_cover"),),
    effects=lambda act: [CoverTaken(actor=act.actor.id)],
)
SE_JETER_AU_SOL = Action(
    "se_jeter_au_sol", Category.GRATUITE, ("posture",),
    needs=(Need(lambda c: c.posture is not Posture.A_TERRE, "already_prone"),),
    check=_posture_given, effects=_drop,
)
SE_RELEVER = Action(
    "se_relever", Category.SIMPLE,
    needs=(Need(lambda c: c.posture is not Posture.DEBOUT, "already_standing"),),
    effects=lambda act: [PostureChanged(actor=act.actor.id, posture=Posture.DEBOUT)],
)
