"""The shape of an action record (R4) and the helpers its hooks share.

An :class:`Action` holds everything about one action: its category (R3), the options a
command may carry and those it requires, its preconditions (:class:`Need`), the weapon
it uses (:class:`Uses`), the tests it names (D14) and its hooks: option checks, a cost
other than its category's, test modifiers and effects (the events it produces). The
generic judgement (may this fighter act now, what it pays) is :mod:`engine.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import Refusal
from ..events import Event, HandsChanged, Modifier
from ..model import Category, Combatant, Encounter, Weapon, WeaponKind
from ..regles import Regles

#: The skill of the weapon used (the one in hand, or ``corps_a_corps`` bare-handed).
WEAPON_SKILL = "@arme"
#: The skill named by the command's ``skill`` option (``utiliser_competence``).
NAMED_SKILL = "@competence"
#: The options that record the outcome of a named test (D14).
OUTCOME = ("difficulty", "success")

Options = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TestSpec:
    """A test named by an action (D14): characteristic / skill at a difficulty; ``id``
    names a test the page words on its own (the charge's ``portee``)."""

    characteristic: str | None
    skill: str
    difficulty: int | None = None
    id: str | None = None


def _always(regles: Regles) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Need:
    """A precondition of the R4 table: refused (``not_allowed``) for the reason ``key``
    (engine/errors.py REASONS, worded in engine/lang/) when ``holds`` is false, under the
    rules where it ``applies`` (a group may turn some off: R4.2's no dodge after a charge)."""

    holds: Callable[[Combatant], bool]
    key: str
    applies: Callable[[Regles], bool] = _always


@dataclass(frozen=True, slots=True)
class Uses:
    """The weapon an action uses: which ones ``fit`` (in hand, kind…), whether bare
    hands will do, why none fits (``key``), and why the named one does not
    (``unfit_key``, told with the weapon and, as ``why``, ``key``)."""

    fits: Callable[[Combatant, Weapon], bool]
    key: str
    bare_hands: bool = False
    unfit_key: str = "weapon_unfit"


@dataclass(frozen=True, slots=True)
class Act:
    """An accepted action, as its effects hook sees it."""

    enc: Encounter
    actor: Combatant
    weapon: Weapon | None
    options: Options
    keeps_aim: bool  # R4.1: an aim action with the weapon aimed keeps the bonus


def _no_check(c: Combatant, options: Options, regles: Regles) -> None:
    return None


def _no_guard(c: Combatant, weapon: Weapon | None, regles: Regles) -> None:
    return None


def _no_cost(weapon: Weapon | None, options: Options, regles: Regles) -> tuple[int, str] | None:
    return None


def _no_modifiers(c: Combatant, weapon: Weapon | None, spec: TestSpec, regles: Regles) -> tuple[Modifier, ...]:
    return ()


def _no_effects(act: Act) -> list[Event]:
    return []


def _always_tested(options: Options) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the R4 table with its behaviour (see the module docstring)."""

    id: str
    category: Category
    options: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    needs: tuple[Need, ...] = ()
    uses: Uses | None = None
    tests: tuple[TestSpec, ...] = ()
    #: Option checks, after the preconditions and the weapon (raise Refusal).
    check: Callable[[Combatant, Options, Regles], None] = _no_check
    #: ``(cost, pays)`` when it is not the category's (R3), else None.
    cost: Callable[[Weapon | None, Options, Regles], tuple[int, str] | None] = _no_cost
    #: The modifiers of one of its tests (D14).
    modifiers: Callable[[Combatant, Weapon | None, TestSpec, Regles], tuple[Modifier, ...]] = _no_modifiers
    #: The events it produces after ``action_taken`` (R4 table, D9 to D19).
    effects: Callable[[Act], list[Event]] = _no_effects
    #: True when the options say no test is named (``faire_geste`` with ``familier``).
    untested: Callable[[Options], bool] = _always_tested
    #: R4.1: ``ajuster_tir`` and the attacks it prepares keep the aim of their weapon.
    keeps_aim: bool = False
    #: The board lists its cost weapon by weapon (``preparer_arme``).
    priced_by_weapon: bool = False
    #: A precondition on the weapon it uses under the fight's rules, judged with the
    #: preconditions, the board's too (raise Refusal: D17 turned off, ``ajuster_tir``).
    guard: Callable[[Combatant, Weapon | None, Regles], None] = _no_guard
    #: Its category under the fight's rules, where a group may choose it (D9: ``courir``).
    category_from: Callable[[Regles], Category] | None = None

    def category_in(self, regles: Regles) -> Category:
        """R3: its category under ``regles`` (D9)."""
        return self.category if self.category_from is None else self.category_from(regles)


def need(ok: bool, key: str, **params: Any) -> None:
    """An option check of an action: refused for the reason ``key`` unless ``ok``."""
    if not ok:
        raise Refusal(key, **params)


def is_bow(w: Weapon) -> bool:
    return w.kind is WeaponKind.BOW


def is_thrown(w: Weapon) -> bool:
    return w.kind is WeaponKind.THROWN


def is_melee(w: Weapon) -> bool:
    """A melee weapon or a shield (a shield parries, R4)."""
    return w.kind in (WeaponKind.MELEE, WeaponKind.SHIELD)


def in_hand(c: Combatant, w: Weapon) -> bool:
    return w.id in c.in_hand


def hands(c: Combatant, held: tuple[str, ...]) -> HandsChanged:
    """What the fighter holds now; a bow that leaves the hand loses its arrow."""
    bow_kept = any(is_bow(w) and w.id in held for w in c.weapons)
    return HandsChanged(actor=c.id, in_hand=held, arrow_lost=c.arrow_nocked and not bow_kept)
