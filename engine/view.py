"""The board: what the page shows, derived from the state (RULES.md ``view``).

Every action of every fighter is judged by :func:`engine.rules.plan`, the same function
that judges commands, so a button shown as allowed is a command the engine accepts.
A fighter's part of the board depends only on the fighter and on its :class:`Turn`, so
it is computed once per distinct pair and shared between boards: a tap that changes one
fighter recomputes one fighter. Boards are values: never change one in place.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .actions import ACTIONS
from .codec import combatant_json, named_test_json
from .errors import Refusal
from .initiative import board_order, breakdown, ready
from .model import COST, HOPE_COST, Category, Combatant, Encounter
from .rules import Turn, describe_tests, plan, price, turn_of

#: R4 as the page needs it: each action's category and options (the page words actions by id).
CATALOGUE = {
    a.id: {"category": a.category.value, "options": list(a.options), "required": list(a.required)}
    for a in ACTIONS.values()
}


def board(enc: Encounter) -> dict[str, Any]:
    ready_ids = ready(enc)
    ordered = sorted(enc.combatants, key=board_order)
    return {
        "round": enc.round,
        "round_over": enc.round_over,
        "active": list(ready_ids),
        "phase": enc.phase,
        "order": [c.id for c in ordered],
        "settings": {"run_table": [list(r) for r in enc.settings.run_table]},
        "catalogue": CATALOGUE,
        "combatants": {c.id: fighter(c, turn_of(enc, c, ready_ids)) for c in ordered},
    }


@lru_cache(maxsize=2048)
def fighter(c: Combatant, turn: Turn) -> dict[str, Any]:
    """One fighter on the board: its state (as the codec writes it), marks for the
    badges, what it may declare, and every action's verdict."""
    out = combatant_json(c)
    out.update(
        engaged=c.engaged,
        ready=turn.ready,
        declarations=_declarations(c),
        actions={a: _verdict(c, turn, a) for a in ACTIONS},
    )
    return out


def _declarations(c: Combatant) -> list[dict[str, Any]]:
    """R1: what the fighter may declare (D2: weapons in hand, or none) and the R1.3
    breakdown of each before the die: its ``initiative`` is the total less the d6."""
    choices: list[dict[str, Any]] = [{"weapon": None, "name": None, **breakdown(c, None, 0)}]
    for w in c.held():
        choices.append({"weapon": w.id, "name": w.name, **breakdown(c, w.id, 0)})
    return choices


def _verdict(c: Combatant, turn: Turn, action_id: str) -> dict[str, Any]:
    action = ACTIONS[action_id]
    out: dict[str, Any] = {"category": action.category.value}
    try:
        p = plan(c, turn, action, {}, probe=True)
    except Refusal as r:
        interruption = action.category is Category.INTERRUPTION
        pays = "pi" if c.pi > 0 or not interruption else "espoir"
        out.update(cost=HOPE_COST if pays == "espoir" else COST[action.category], allowed=False,
                   reason=r.message, code=r.code, key=r.key, params=r.params)
        if interruption:
            out["pays"] = pays
        return out
    out.update(cost=p.cost, allowed=True)
    if action.category is Category.INTERRUPTION:
        out["pays"] = p.pays
    if action.priced_by_weapon and action.uses is not None:
        out["by_weapon"] = {w.id: price(turn, action, w, p.pays, {})[0] for w in c.weapons if action.uses.fits(c, w)}
    if p.weapon is not None:
        out["weapon"] = p.weapon.id
    tests = describe_tests(c, action, p.weapon, {})
    if tests:
        out["tests"] = [named_test_json(t) for t in tests]
    return out
