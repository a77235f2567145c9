"""Events: what happened, one frozen dataclass per kind, named in the past tense.

:mod:`engine.decide` produces them, :mod:`engine.evolve` applies them, and
:func:`engine.codec.event_json` writes them as the plain dicts of the public contract
(RULES.md): ``{"type": "action_taken", ...}``, the type being the class name in
snake case and the other keys the fields (a trailing ``_`` dropped: ``with_`` is
``"with"``).

>>> type_name(ActionTaken), type_name(EngagementsSet)
('action_taken', 'engagements_set')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .model import Combatant, CombatantId, Posture, Settings, WeaponId
from .regles import Regles


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier of a named test (D14): an id the page words, its value, its rule."""

    id: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class NamedTest:
    """D14: a test an action names, with the fighter's values; ``id`` names a test that
    needs words of its own (``portee``, ``geste``), else ``None``."""

    id: str | None
    characteristic: str | None
    characteristic_value: int | None
    skill: str
    skill_level: int | None
    difficulty: int | None
    modifiers: tuple[Modifier, ...]


@dataclass(frozen=True, slots=True)
class Roll:
    """R1, D7: one fighter's declaration and die, and the R1.3 total term by term."""

    weapon: WeaponId | None
    d6: int
    rolled_by: str  # "engine" or "table"
    initiative: int
    breakdown: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Initiative:
    """A :class:`Roll` at the start of a round, with the fighter's id."""

    id: CombatantId
    weapon: WeaponId | None
    d6: int
    rolled_by: str
    initiative: int
    breakdown: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CombatantAdded:
    combatant: Combatant  # written as its sheet (engine.codec.combatant_sheet)
    joins: Roll | None  # D7: enters the current round


@dataclass(frozen=True, slots=True)
class CombatantUpdated:
    id: CombatantId
    changes: Mapping[str, Any]  # checked by engine.sheet.check_changes


@dataclass(frozen=True, slots=True)
class CombatantRemoved:
    id: CombatantId


@dataclass(frozen=True, slots=True)
class EngagementsSet:
    id: CombatantId
    with_: tuple[CombatantId, ...]
    off_tracker: bool


@dataclass(frozen=True, slots=True)
class Engaged:
    actor: CombatantId
    target: CombatantId


@dataclass(frozen=True, slots=True)
class Disengaged:
    actor: CombatantId


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    initiatives: tuple[Initiative, ...]


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    reason: str  # "pi" (R2.4) or "mj"
    #: Ended by the GM: the fighters still in the round (D21) who had P.I. > 0 (R2.4).
    holding: tuple[CombatantId, ...] = ()
    #: Whoever rolled this round and is not out of the fight (D6) with P.I. > 0 as it
    #: ends, passed or not (D5): P.I. kept for interruptions until the next round (R5.4)
    #: discards them (D3). What the page says of a round's end.
    unspent: tuple[CombatantId, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionTaken:
    actor: CombatantId
    action: str
    category: str
    cost: int
    pays: str  # "pi", "espoir" or "rien"
    pi_before: int
    pi_after: int
    hope_before: int
    hope_after: int
    weapon: WeaponId | None
    options: Mapping[str, Any]
    tests: tuple[NamedTest, ...]
    outcome: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TurnPassed:
    actor: CombatantId
    pi: int


@dataclass(frozen=True, slots=True)
class AimLost:
    actor: CombatantId
    bonus: int


@dataclass(frozen=True, slots=True)
class AimAdjusted:
    actor: CombatantId
    weapon: WeaponId
    bonus: int
    capped: bool


@dataclass(frozen=True, slots=True)
class AimUsed:
    actor: CombatantId
    weapon: WeaponId
    bonus: int


@dataclass(frozen=True, slots=True)
class ArrowNocked:
    actor: CombatantId
    weapon: WeaponId


@dataclass(frozen=True, slots=True)
class ArrowLoosed:
    actor: CombatantId
    weapon: WeaponId


@dataclass(frozen=True, slots=True)
class HandsChanged:
    actor: CombatantId
    in_hand: tuple[WeaponId, ...]
    arrow_lost: bool


@dataclass(frozen=True, slots=True)
class PostureChanged:
    actor: CombatantId
    posture: Posture


@dataclass(frozen=True, slots=True)
class CoverTaken:
    actor: CombatantId


@dataclass(frozen=True, slots=True)
class CoverLost:
    actor: CombatantId


@dataclass(frozen=True, slots=True)
class Charged:
    actor: CombatantId
    distance: float | int
    reach: int


@dataclass(frozen=True, slots=True)
class Moved:
    actor: CombatantId
    how: str  # "marche" or "course"
    distance: float | int | None


@dataclass(frozen=True, slots=True)
class Attacked:
    actor: CombatantId
    target: CombatantId


@dataclass(frozen=True, slots=True)
class ConditionAdded:
    """D25: a condition put on a fighter (or its end changed: one of that text is replaced)."""

    id: CombatantId
    text: str
    until: int | None


@dataclass(frozen=True, slots=True)
class ConditionRemoved:
    """D25: a condition taken off by the game master."""

    id: CombatantId
    text: str


@dataclass(frozen=True, slots=True)
class ConditionEnded:
    """D25: a condition whose end came with the end of ``round``."""

    id: CombatantId
    text: str
    round: int


@dataclass(frozen=True, slots=True)
class SettingsUpdated:
    """R4.3: the group's run table, in force at once (``Regles.courir_table``)."""

    settings: Settings


@dataclass(frozen=True, slots=True)
class RulesSet:
    """The fight's rules changed by the group (``set_rules``): ``regles`` whole, in force
    ``at_once`` or from the next round's ``start_round``; ``changes``: the fields that
    differ from the rules they replace."""

    regles: Regles
    at_once: bool
    changes: tuple[str, ...]


Event = (
    CombatantAdded | CombatantUpdated | CombatantRemoved | EngagementsSet | Engaged | Disengaged
    | RoundStarted | RoundEnded | ActionTaken | TurnPassed | AimLost | AimAdjusted | AimUsed
    | ArrowNocked | ArrowLoosed | HandsChanged | PostureChanged | CoverTaken | CoverLost | Charged
    | Moved | Attacked | SettingsUpdated | RulesSet | ConditionAdded | ConditionRemoved | ConditionEnded
)


def type_name(cls: type) -> str:
    """The event's ``type`` in JSON: the class name in snake case."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
