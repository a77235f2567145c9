"""Defence, the interruptions (R5.3): ``bloquer``, ``esquiver``, ``parer``,
``intercepter`` and ``esquive_acrobatique`` (R4.4, D12). After a charge this round no
dodge and a parry at −4 (R4.2, the fight's rules; in :mod:`engine.actions.movement`). Which of them answer
which attack: :data:`ANSWERS` (D23)."""

from __future__ import annotations

from ..model import Category, Weapon
from ..regles import Regles
from .base import OUTCOME, WEAPON_SKILL, Action, Options, TestSpec, Uses, in_hand, is_melee
from .movement import NOT_AFTER_CHARGE, parry_after_charge


def _acrobatic_cost(weapon: Weapon | None, options: Options, regles: Regles) -> tuple[int, str] | None:
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

#: D23: the interruptions that answer a melee attack, in the order the page offers them:
#: to block, dodge and parry is to answer « une attaque en mêlée » (R4 table, the source's
#: words), and the acrobatic dodge is a dodge (R4.4: « un test d'esquive »).
MELEE_ANSWERS = (PARER.id, ESQUIVER.id, BLOQUER.id, ESQUIVE_ACROBATIQUE.id)

#: D23: each attack (an action with a target that strikes it) and the interruptions that
#: answer it. A melee attack and a charge (a melee attack at a run, R4.2) are answered by
#: :data:`MELEE_ANSWERS`; a shot or a throw by none of them (they answer a melee attack);
#: ``intercepter`` answers a move near the interceptor or out of melee, not an attack.
#: The game master may still allow any interruption (D16): the board's full list.
ANSWERS: dict[str, tuple[str, ...]] = {
    "attaque_melee": MELEE_ANSWERS, "charge": MELEE_ANSWERS, "tir_arc": (), "lancer_arme": (),
}
