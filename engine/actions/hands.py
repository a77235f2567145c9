"""Hands and objects: ``lacher_objet``, ``prendre_objet``, ``preparer_arme``,
``utiliser_objet``. A bow that leaves the hand loses its arrow (:func:`hands`)."""

from __future__ import annotations

from ..errors import Refusal
from ..events import Event
from ..model import Category, Combatant, Weapon
from ..regles import Regles
from .base import Act, Action, Need, Options, Uses, hands, need

#: ``lacher_objet``: one item, or one in each hand.
MAX_DROPPED = 2


def _held(c: Combatant, options: Options, regles: Regles) -> None:
    if "items" in options:
        items = options["items"]
        need(len(items) <= MAX_DROPPED, "drop_at_most", max=MAX_DROPPED)
        for i in items:
            need(i in c.in_hand, "item_not_in_hand", item=i)


def _drop(act: Act) -> list[Event]:
    """Without ``items``, everything held."""
    c = act.actor
    dropped = act.options.get("items", list(c.in_hand))
    return [hands(c, tuple(i for i in c.in_hand if i not in dropped))]


def _on_sheet(c: Combatant, options: Options, regles: Regles) -> None:
    for i in options.get("items", ()):
        if c.weapon(i) is None:
            raise Refusal("no_such_weapon", field="items", name=c.name, weapon=i)


def _toggle(act: Act) -> list[Event]:
    """Each item not in hand is picked up (D19), each in hand put down; without
    ``items`` the object is off the sheet."""
    c = act.actor
    if "items" not in act.options:
        return []
    toggled = act.options["items"]
    kept = tuple(i for i in c.in_hand if i not in toggled)
    taken = tuple(i for i in toggled if i not in c.in_hand)
    return [hands(c, kept + taken)]


def _ready_cost(weapon: Weapon | None, options: Options, regles: Regles) -> tuple[int, str] | None:
    """R4: readying a weapon not stowed properly is a complex action (R3.2)."""
    if weapon is not None and not weapon.stowed:
        return regles.cout_complexe, "pi"
    return None


def _ready(act: Act) -> list[Event]:
    return [] if act.weapon is None else [hands(act.actor, (*act.actor.in_hand, act.weapon.id))]


LACHER_OBJET = Action(
    "lacher_objet", Category.GRATUITE, ("items",),
    needs=(Need(lambda c: bool(c.in_hand), "nothing_in_hand"),), check=_held, effects=_drop,
)
PRENDRE_OBJET = Action("prendre_objet", Category.SIMPLE, ("items",), check=_on_sheet, effects=_toggle)
PREPARER_ARME = Action(
    "preparer_arme", Category.SIMPLE, ("weapon",),
    uses=Uses(lambda c, w: w.id not in c.in_hand, "nothing_to_ready", unfit_key="weapon_already_in_hand"),
    cost=_ready_cost, effects=_ready, priced_by_weapon=True,
)
UTILISER_OBJET = Action("utiliser_objet", Category.SIMPLE)
