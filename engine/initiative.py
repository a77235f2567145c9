"""R1 initiative and R2 order of action.

>>> from engine.model import Combatant, Side, Weapon, WeaponKind
>>> epee = Weapon("epee", "Épée", WeaponKind.MELEE, "epee")
>>> c = Combatant("c1", "Aldric", Side.PJ, (("melee", 7),), (("epee", 3),), 1, 2, 0,
...               (epee,), ("epee",), entry=0)
>>> from engine.regles import DEFAUT
>>> breakdown(c, "epee", 4, DEFAUT)["initiative"]   # R1 worked example: 3 + 1 + 3 + 4 - 2
9
"""

from __future__ import annotations

from typing import Any

from .model import Combatant, CombatantId, Encounter, Side, Weapon, WeaponId, WeaponKind
from .regles import Regles

#: R1.4: the characteristic that fits each kind of weapon; a shield is declared with Mêlée.
CHARACTERISTIC_FOR = {
    WeaponKind.MELEE: "melee",
    WeaponKind.SHIELD: "melee",
    WeaponKind.BOW: "tir",
    WeaponKind.THROWN: "lancer",
}
BARE_HANDED_SKILL = "corps_a_corps"


def breakdown(c: Combatant, weapon_id: str | None, d6: int, regles: Regles) -> dict[str, Any]:
    """R1.3: ``floor(C / 2) + initiative_bonus + skill + d6 - wounds``, term by term, the
    divisor (2) and the die (``d6``, whatever its faces) as the rules say.

    R1.4/R1.5: with no weapon, Mêlée and Corps-à-Corps; R1.6: the halving rounds down;
    R1.7: every point of wounds is subtracted.
    """
    weapon = c.weapon(weapon_id)
    characteristic = CHARACTERISTIC_FOR[weapon.kind] if weapon else "melee"
    skill = weapon.skill if weapon else BARE_HANDED_SKILL
    value = c.characteristic(characteristic)
    level = c.skill(skill)
    half = value // regles.diviseur_caracteristique
    total = half + c.initiative_bonus + level + d6 - c.wounds
    return {
        "characteristic": characteristic,
        "characteristic_value": value,
        "half": half,
        "initiative_bonus": c.initiative_bonus,
        "skill": skill,
        "skill_level": level,
        "d6": d6,
        "wounds": c.wounds,
        "initiative": total,
    }


def declarable(c: Combatant) -> tuple[Weapon, ...]:
    """R1.1, D2: the weapons a fighter may declare: those in hand, in sheet order (or
    none: bare hands, always)."""
    return c.held()


def suggested_declaration(c: Combatant) -> WeaponId | None:
    """R1.1, D2: the weapon offered to ``c`` at the start of the next round, by the game
    master's form and a player's alike (docs/ENGINE.md, "Choices where the rules are
    silent"): the one declared for the last round it rolled, weapon or bare hands, while
    it may still be declared (D2: in hand); else the first weapon in hand, in sheet
    order; else none (bare hands).

    >>> from engine.model import Side, Weapon, WeaponKind
    >>> arc, epee = Weapon("arc", "Arc", WeaponKind.BOW, "arc"), Weapon("epee", "Épée", WeaponKind.MELEE, "epee")
    >>> lyra = Combatant("c1", "Lyra", Side.PJ, (), (), 0, 0, 0, (arc, epee), ("epee", "arc"), entry=0)
    >>> suggested_declaration(lyra)  # never rolled: the first weapon in hand, in sheet order
    'arc'
    >>> from dataclasses import replace
    >>> suggested_declaration(replace(lyra, d6=4, declared="epee")), suggested_declaration(replace(lyra, d6=4))
    ('epee', None)
    >>> suggested_declaration(replace(lyra, d6=4, declared="epee", in_hand=("arc",)))  # no longer in hand
    'arc'
    """
    weapons = declarable(c)
    if c.d6 is not None and (c.declared is None or any(w.id == c.declared for w in weapons)):
        return c.declared
    return weapons[0].id if weapons else None


def tie_order(c: Combatant) -> tuple[int, int, int]:
    """D4: among tied fighters, higher d6, then PJ before PNJ, then order of entry."""
    return (-(c.d6 or 0), 0 if c.side is Side.PJ else 1, c.entry)


def board_order(c: Combatant) -> tuple[int, int, int, int, int]:
    """The board: fighters in the round by P.I. (highest first, D4 among ties), then the rest."""
    return (0 if c.still_in_round else 1, -c.pi if c.in_round else 0, *tie_order(c))


def declaring(enc: Encounter) -> tuple[CombatantId, ...]:
    """R1, D6: who declares and rolls at the next start of a round (every fighter not out of
    the fight), in one order every round whatever the last round's P.I.: the PJ first, then
    the PNJ, each in order of entry (the cast's order). The start-of-round form lists them
    so: a row never moves while the game master types the table's dice.

    >>> from engine.model import Side
    >>> from dataclasses import replace
    >>> def fighter(cid: str, side: Side, entry: int, pi: int = 0) -> Combatant:
    ...     return Combatant(cid, cid, side, (), (), 0, 0, 0, (), (), entry=entry, pi=pi, d6=1)
    >>> enc = Encounter(combatants=(fighter("orque", Side.PNJ, 0, pi=12), fighter("aldric", Side.PJ, 1, pi=3),
    ...                             replace(fighter("lyra", Side.PJ, 2), hors_combat=True), fighter("gob", Side.PNJ, 3, pi=9)))
    >>> declaring(enc)
    ('aldric', 'orque', 'gob')
    """
    fighters = sorted((c for c in enc.combatants if not c.hors_combat), key=lambda c: (c.side is not Side.PJ, c.entry))
    return tuple(c.id for c in fighters)


def ready(enc: Encounter) -> tuple[CombatantId, ...]:
    """R2.1, D4, D21, D22: who may take a phase now, in the suggested D4 order.

    Nobody when no round is in progress; the actor alone while its phase is open; else
    every fighter still in the round tied at the highest P.I. > 0.
    """
    if enc.round_over:
        return ()
    if enc.phase is not None:
        return (enc.phase,)
    top = None
    tied: list[Combatant] = []
    for c in enc.combatants:
        if not c.still_in_round or c.pi <= 0:
            continue
        if top is None or c.pi > top:
            top, tied = c.pi, [c]
        elif c.pi == top:
            tied.append(c)
    tied.sort(key=tie_order)
    return tuple(c.id for c in tied)


def round_is_spent(enc: Encounter) -> bool:
    """R2.4 with D21: no fighter still in the round has P.I. > 0."""
    return not any(c.still_in_round and c.pi > 0 for c in enc.combatants)
