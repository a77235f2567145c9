"""The rest: ``dire_phrase``, ``faire_geste``, ``observer``, ``donner_ordre``,
``utiliser_competence`` and ``attaque_melee`` (D11: it engages its target)."""

from __future__ import annotations

from ..events import Engaged, Event
from ..model import Category
from .base import NAMED_SKILL, OUTCOME, WEAPON_SKILL, Act, Action, TestSpec, Uses, in_hand, is_melee


def _engage(act: Act) -> list[Event]:
    if "target" not in act.options:
        return []
    return [Engaged(actor=act.actor.id, target=act.options["target"])]


DIRE_PHRASE = Action("dire_phrase", Category.GRATUITE)
FAIRE_GESTE = Action(
    "faire_geste", Category.GRATUITE, ("familier", *OUTCOME),
    tests=(TestSpec("intelligence", "", 0, "geste"),), untested=lambda options: bool(options.get("familier")),
)
OBSERVER = Action("observer", Category.SIMPLE, OUTCOME, tests=(TestSpec("vue", "vigilance"),))
DONNER_ORDRE = Action("donner_ordre", Category.COMPLEXE, OUTCOME, tests=(TestSpec("charisme", "art_de_la_guerre"),))
UTILISER_COMPETENCE = Action(
    "utiliser_competence", Category.COMPLEXE, ("skill", *OUTCOME), required=("skill",),
    tests=(TestSpec(None, NAMED_SKILL),),
)
ATTAQUE_MELEE = Action(
    "attaque_melee", Category.COMPLEXE, ("weapon", "target", *OUTCOME),
    uses=Uses(lambda c, w: is_melee(w) and in_hand(c, w), "needs_melee", bare_hands=True),
    tests=(TestSpec("melee", WEAPON_SKILL),), effects=_engage,
)
