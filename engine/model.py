"""The encounter as plain immutable data.

Everything here is a frozen dataclass, a tuple or an enum: a state is a value, commands
build new ones (:mod:`engine.evolve`) and nothing is ever changed in place. The JSON
form of these values lives in :mod:`engine.codec`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .regles import DEFAUT, Regles

CombatantId = str
WeaponId = str


class Side(StrEnum):
    """PJ (player character) or PNJ (non-player character)."""

    PJ = "pj"
    PNJ = "pnj"


class WeaponKind(StrEnum):
    """R1.4: the kind of a weapon picks the characteristic used for initiative."""

    MELEE = "melee"
    BOW = "bow"
    THROWN = "thrown"
    SHIELD = "shield"


class Posture(StrEnum):
    """R4 ``se_jeter_au_sol`` / ``se_relever``."""

    DEBOUT = "debout"
    A_GENOUX = "a_genoux"
    A_TERRE = "a_terre"


class Category(StrEnum):
    """R3: the four kinds of action and what they cost."""

    GRATUITE = "gratuite"
    SIMPLE = "simple"
    COMPLEXE = "complexe"
    INTERRUPTION = "interruption"


CHARACTERISTICS = ("melee", "tir", "lancer", "derobee", "vue", "charisme", "intelligence")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon on the sheet; ``skill`` names the skill it uses (R1.5)."""

    id: WeaponId
    name: str
    kind: WeaponKind
    skill: str
    stowed: bool = True


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition the game master puts on a fighter (« étourdi », « saigne », « aveuglé »,
    or the game master's own words), shown as a badge; no rule reads it (D25). ``until``:
    the round at whose end it ends, announced then; ``None``, until it is removed."""

    text: str
    until: int | None = None


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter: its sheet, what it holds and does, and its part of this round.

    ``characteristics`` and ``skills`` are sorted ``(name, value)`` pairs. Round fields
    (``in_round``, ``pi``, ``initiative``, ``d6``, ``declared``, ``charged``, ``passed``)
    are reset by ``start_round`` (R1); ``in_round`` is false for a fighter that rolled no
    initiative this round (D6, D7).
    """

    id: CombatantId
    name: str
    side: Side
    characteristics: tuple[tuple[str, int], ...]
    skills: tuple[tuple[str, int], ...]
    initiative_bonus: int
    wounds: int
    hope: int
    weapons: tuple[Weapon, ...]
    in_hand: tuple[WeaponId, ...]
    entry: int
    posture: Posture = Posture.DEBOUT
    aim_bonus: int = 0
    aim_weapon: WeaponId | None = None
    arrow_nocked: bool = False
    cover: bool = False
    engaged_with: tuple[CombatantId, ...] = ()
    engaged_off_tracker: bool = False
    hors_combat: bool = False
    in_round: bool = False
    pi: int = 0
    initiative: int | None = None
    d6: int | None = None
    declared: WeaponId | None = None
    charged: bool = False
    passed: bool = False
    #: The GM's free notes or conditions ("aveuglé, saigne"), shown as badges.
    notes: str = ""
    #: Conditions with an end (D25), in the order they were put on.
    conditions: tuple[Condition, ...] = ()
    #: Hidden from the players (an ambush): nothing of it reaches the live
    #: table's players (engine/journal.py for players; web/live/protocol.js playersBoard).
    #: No rule reads it (D26).
    hidden: bool = False

    def characteristic(self, name: str) -> int:
        """The characteristic's value (0 when the sheet lacks it)."""
        for key, value in self.characteristics:
            if key == name:
                return value
        return 0

    def skill(self, name: str) -> int:
        """The skill's level; R1.5: a skill the sheet lacks counts 0."""
        for key, value in self.skills:
            if key == name:
                return value
        return 0

    def weapon(self, weapon_id: WeaponId | None) -> Weapon | None:
        for w in self.weapons:
            if w.id == weapon_id:
                return w
        return None

    def held(self) -> tuple[Weapon, ...]:
        """The weapons in hand, in sheet order."""
        return tuple(w for w in self.weapons if w.id in self.in_hand)

    @property
    def engaged(self) -> bool:
        """D11: engaged in melee with someone, on the tracker or off it."""
        return bool(self.engaged_with) or self.engaged_off_tracker

    @property
    def still_in_round(self) -> bool:
        """D21: rolled this round, has not passed and is not out of the fight."""
        return self.in_round and not self.passed and not self.hors_combat


@dataclass(frozen=True, slots=True)
class Settings:
    """R4.3: the run table (min test result, metres) that ``update_settings`` sets in the
    fight's rules (``Regles.courir_table``), as its event carries it."""

    run_table: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Encounter:
    """The whole fight.

    ``round_over`` is true before the first round and once R2.4 ends a round.
    ``phase`` names the fighter whose phase is open after a free action at 0 (D8, D22).
    ``regles``: the rules in force; ``regles_a_venir``: those a ``set_rules`` gave for the
    next round, in force from its ``start_round`` (``None``: the same).
    """

    round: int = 0
    round_over: bool = True
    phase: CombatantId | None = None
    next_id: int = 1
    regles: Regles = DEFAUT
    regles_a_venir: Regles | None = None
    combatants: tuple[Combatant, ...] = ()

    @property
    def regles_du_tour_suivant(self) -> Regles:
        """The rules the next round starts with (its initiative die and divisor, R1)."""
        return self.regles if self.regles_a_venir is None else self.regles_a_venir

    def combatant(self, combatant_id: object) -> Combatant | None:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        return None

    def with_combatant(self, new: Combatant) -> Encounter:
        """A copy with ``new`` in place of the fighter that has its id."""
        return replace(
            self, combatants=tuple(new if c.id == new.id else c for c in self.combatants)
        )
