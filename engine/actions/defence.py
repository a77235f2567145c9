"""Defence, the interruptions (R5.3): ``bloquer``, ``esquiver``, ``parer``,
``intercepter`` and ``esquive_acrobatique`` (R4.4, D12). After a charge this round no
dodge and a parry at −4 (R4.2, in :mod:`engine.actions.movement`)."""

from __future__ import annotations

from ..model import Category, Weapon
from .base import OUTCOME, WEAPON_SKILL, Action, Options, TestSpec, Uses, in_hand, is_melee
from .movement import NOT_AFTER_CHARGE, parry_after_charge


def _acrobatic_cost(weapon: Weapon | None, options: Options) -> tuple[int, str] | None:
    """R4.4: both tests passed, the defender pays nothing; else the interruption's cost."""
    tests = options.get("tests")
    if tests and tests["esquive"] and tests["acrobatie"]:
        return 0, "rien"
    return None


BLOQUER = Action(
    "bloquer", Category.INTERRUPTION, ("against", *OUTCOME), tests=(TestSpec("melee", "corps_a_corps"),),
)
ESQUIVER = Action(
    "esquiver", Category.INTERRUPTION, ("against", *OUTCOME), needs=(NOT_AFTER_CHARGE,),
    tests=(TestSpec("derobee", "esquive"),),
)
PARER = Action(
    "parer", Category.INTERRUPTION, ("weapon", "against", *OUTCOME),
    uses=Uses(lambda c, w: is_melee(w) and in_hand(c, w), "needs_parry_weapon"),
    tests=(TestSpec("melee", WEAPON_SKILL),), modifiers=parry_after_charge,
)
INTERCEPTER = Action("intercepter", Category.INTERRUPTION, ("against", *OUTCOME))
ESQUIVE_ACROBATIQUE = Action(
    "esquive_acrobatique", Category.INTERRUPTION, ("against", "tests", "difficulty"),
    required=("tests",), needs=(NOT_AFTER_CHARGE,),
    tests=(TestSpec("derobee", "esquive"), TestSpec("derobee", "acrobatie")), cost=_acrobatic_cost,
)
