"""R4: the action catalogue, as data that reads like the table in RULES.md.

Each :class:`Action` names its category (R3), the options a command may carry (any
other is refused), the options it requires, the preconditions checked by
:mod:`engine.rules` (by name) and the tests it names (D14).

>>> ACTIONS["charge"].category
<Category.COMPLEXE: 'complexe'>
>>> ACTIONS["charge"].required
('distance', 'test_result')
>>> len(ACTIONS)
25
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Category

G, S, C, I = Category.GRATUITE, Category.SIMPLE, Category.COMPLEXE, Category.INTERRUPTION

#: The skill of the weapon used (the one in hand, or ``corps_a_corps`` bare-handed).
WEAPON_SKILL = "@arme"
#: The skill named by the command's ``skill`` option (``utiliser_competence``).
NAMED_SKILL = "@competence"

#: R3.1, R3.2: cost in P.I. of each category; a second free action costs 5 (R3.1).
COST = {G: 0, S: 5, C: 10, I: 5}
SECOND_FREE_COST = 5
#: R5.2: an interruption at P.I. <= 0 costs one point d'Espoir instead.
HOPE_COST = 1


@dataclass(frozen=True, slots=True)
class TestSpec:
    """A test named by an action (D14): characteristic / skill at a difficulty."""

    characteristic: str | None
    skill: str
    difficulty: int | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    name: str
    category: Category
    options: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    tests: tuple[TestSpec, ...] = ()
    optional_test: bool = False


_OUTCOME = ("difficulty", "success")

_TABLE = (
    Action("dire_phrase", "Dire une phrase", G),
    Action(
        "faire_geste", "Faire un geste", G, ("familier", *_OUTCOME),
        tests=(TestSpec("intelligence", "", 0, "Intelligence à 0"),), optional_test=True,
    ),
    Action("lacher_objet", "Lâcher un objet", G, ("items",), needs=("something_in_hand",)),
    Action(
        "se_jeter_au_sol", "Se jeter au sol / s'agenouiller", G, ("posture",),
        needs=("standing_or_kneeling",),
    ),
    Action("ajuster_tir", "Ajuster un tir", S, ("weapon",), needs=("aim_weapon",)),
    Action("encocher_fleche", "Encocher une flèche", S, ("weapon",), needs=("bow_in_hand", "no_arrow")),
    Action(
        "lancer_arme", "Lancer une arme", S, ("weapon", "target", *_OUTCOME),
        needs=("thrown_in_hand",), tests=(TestSpec("lancer", WEAPON_SKILL),),
    ),
    Action(
        "observer", "Observer en détail", S, _OUTCOME,
        tests=(TestSpec("vue", "vigilance"),),
    ),
    Action("prendre_objet", "Prendre ou poser un objet", S, ("items",)),
    Action("preparer_arme", "Préparer une arme", S, ("weapon",), needs=("weapon_to_ready",)),
    Action(
        "se_deplacer", "Se déplacer", S, _OUTCOME,
        tests=(TestSpec("derobee", "discretion"),), optional_test=True,
    ),
    Action(
        "courir", "Courir", S, ("distance", "test_result", "difficulty"), needs=("standing",),
        tests=(TestSpec("melee", "course", 0),),
    ),
    Action("se_mettre_a_couvert", "Se mettre à couvert", S, needs=("not_in_cover",)),
    Action("se_relever", "Se relever", S, needs=("not_standing",)),
    Action(
        "tir_arc", "Tir à l'arc", S, ("weapon", "target", *_OUTCOME), needs=("arrow_nocked",),
        tests=(TestSpec("tir", WEAPON_SKILL),),
    ),
    Action("utiliser_objet", "Utiliser un objet", S),
    Action(
        "attaque_melee", "Attaque au corps à corps", C, ("weapon", "target", *_OUTCOME),
        needs=("melee_weapon",), tests=(TestSpec("melee", WEAPON_SKILL),),
    ),
    Action(
        "charge", "Charge", C, ("weapon", "target", "distance", "test_result", *_OUTCOME),
        required=("distance", "test_result"), needs=("not_engaged", "melee_weapon"),
        tests=(TestSpec("melee", "course", None, "portée"), TestSpec("melee", WEAPON_SKILL)),
    ),
    Action(
        "donner_ordre", "Donner un ordre", C, _OUTCOME,
        tests=(TestSpec("charisme", "art_de_la_guerre"),),
    ),
    Action(
        "utiliser_competence", "Utiliser une compétence", C, ("skill", *_OUTCOME),
        required=("skill",), tests=(TestSpec(None, NAMED_SKILL),),
    ),
    Action(
        "bloquer", "Bloquer une attaque", I, ("against", *_OUTCOME),
        tests=(TestSpec("melee", "corps_a_corps"),),
    ),
    Action(
        "esquiver", "Esquiver", I, ("against", *_OUTCOME), needs=("not_charged",),
        tests=(TestSpec("derobee", "esquive"),),
    ),
    Action(
        "parer", "Parer", I, ("weapon", "against", *_OUTCOME), needs=("parry_weapon",),
        tests=(TestSpec("melee", WEAPON_SKILL),),
    ),
    Action("intercepter", "Intercepter", I, ("against", *_OUTCOME)),
    Action(
        "esquive_acrobatique", "Esquive acrobatique", I, ("against", "tests", "difficulty"),
        required=("tests",), needs=("not_charged",),
        tests=(TestSpec("derobee", "esquive"), TestSpec("derobee", "acrobatie")),
    ),
)

#: Every action by id, in the order of the R4 table.
ACTIONS: dict[str, Action] = {a.id: a for a in _TABLE}
