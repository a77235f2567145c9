"""The board: what the page shows, derived from the state (RULES.md ``view``).

Every action of every fighter is judged by :func:`engine.rules.plan`, the same function
that judges commands, so a button shown as allowed is a command the engine accepts, and
priced by :func:`engine.rules.price`, refused or not. A fighter's part of the board
depends only on the fighter and on its :class:`Turn`: :class:`Boards` (one per table
session, engine/table.py) keeps the parts it drew, so a tap that changes one fighter
recomputes one fighter. Boards are values: never change one in place.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .actions import ACTIONS
from .actions.base import is_melee
from .actions.defence import ANSWERS
from .codec import combatant_json, named_test_json
from .decide import condition_rounds_from, model_name
from .errors import Refusal
from .initiative import board_order, breakdown, declarable, declaring, ready, suggested_declaration
from .model import Category, Combatant, Encounter
from .regles import Regles, as_json
from .rules import (
    Turn,
    describe_tests,
    eligibility,
    in_the_round,
    loses_aim,
    may_pass,
    never_fits,
    other_hands,
    payer,
    plan,
    price,
    turn_of,
)

#: The actions that attack a fighter: after one, the page offers the target's answers
#: (R5.3) at once, those that fit the attack (D23, ``answers`` in the catalogue).
ATTACKS = tuple(ANSWERS)

@lru_cache(maxsize=16)
def catalogue(regles: Regles) -> dict[str, dict[str, Any]]:
    """R4 as the page needs it: each action's category under the fight's rules (D9) and
    options (the page words actions by id), whether it attacks its target and, if so, the
    interruptions that answer it (D23). One dict per rules value: never change it."""
    return {
        a.id: {"category": a.category_in(regles).value, "options": list(a.options), "required": list(a.required),
               "attack": a.id in ATTACKS, **({"answers": list(ANSWERS[a.id])} if a.id in ATTACKS else {})}
        for a in ACTIONS.values()
    }


@lru_cache(maxsize=16)
def rules_shown(regles: Regles, a_venir: Regles | None) -> dict[str, Any]:
    """The board's ``regles``: those in force, and ``a_venir``, those the next round starts
    with when a ``set_rules`` gave them for it (else ``None``). Never change it."""
    return {**as_json(regles), "a_venir": None if a_venir is None else as_json(a_venir)}


class Boards:
    """The boards of one fight as it goes (a table session's): each fighter's part drawn
    once per distinct fighter and turn and kept for the next boards (the 2,048 last drawn):
    a tap that changes one fighter draws one fighter, and a turn that comes back (a phase
    closed, an undo) finds its parts drawn. The memo lives and goes with its session.

    >>> from engine.sheet import parse_combatant
    >>> boards, enc = Boards(), Encounter(combatants=(parse_combatant({"name": "Aldric"}, "c1", 0),))
    >>> boards.board(enc)["combatants"]["c1"] is boards.board(enc)["combatants"]["c1"]
    True
    """

    def __init__(self, size: int = 2048) -> None:
        self._part = lru_cache(maxsize=size)(fighter)

    def board(self, enc: Encounter) -> dict[str, Any]:
        ready_ids = ready(enc)
        ordered = sorted(enc.combatants, key=board_order)
        return {
            "round": enc.round,
            "round_over": enc.round_over,
            "active": list(ready_ids),
            "phase": enc.phase,
            "order": [c.id for c in ordered],
            "conditions_from": condition_rounds_from(enc),
            "declaring": list(declaring(enc)),
            "settings": {"run_table": [list(r) for r in enc.regles.courir_table]},
            "regles": rules_shown(enc.regles, enc.regles_a_venir),
            "catalogue": catalogue(enc.regles),
            "combatants": (fighters := {c.id: self._part(c, turn_of(enc, c, ready_ids)) for c in ordered}),
            "targets": targets([c.id for c in ordered], fighters),
        }


def board(enc: Encounter) -> dict[str, Any]:
    """The board of ``enc``, drawn whole (``engine.view``; a table session draws its boards
    with :class:`Boards`)."""
    return Boards().board(enc)


def targets(order: list[str], fighters: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Each fighter's targets, the fighters its action sheet and its card's chips offer as
    ``target`` or ``against`` (RULES.md: "another fighter on the tracker"), most likely
    first: those it is engaged with (D11), then the other side, then its own side, each in
    ``order``; never itself, none out of the fight (D6: it takes no part). ``intercepter``'s
    ``against`` (R4: "an enemy passing close or leaving melee") reads the same list: the
    enemies come before its own side. ``fighters``: id → a board's fighter (``side``,
    ``hors_combat``, ``engaged_with``). One pass over ``order``, then per fighter a copy of
    its side's list: a board of 64 fighters stays cheap on every tap.

    >>> def f(side: str, out: bool = False, engaged: tuple[str, ...] = ()) -> dict[str, Any]:
    ...     return {"side": side, "hors_combat": out, "engaged_with": list(engaged)}
    >>> order = ["a", "b", "c", "d", "e"]
    >>> board = {"a": f("pj"), "b": f("pnj"), "c": f("pj", engaged=("e",)), "d": f("pnj", out=True),
    ...          "e": f("pnj", engaged=("c",))}
    >>> targets(order, board)["c"], targets(order, board)["a"], targets(order, board)["b"]
    (['e', 'b', 'a'], ['b', 'e', 'c'], ['a', 'c', 'e'])
    """
    in_fight: dict[str, list[str]] = {}
    for fid in order:
        f = fighters[fid]
        if not f["hors_combat"]:
            in_fight.setdefault(f["side"], []).append(fid)
    # Per side, the other side then its own (two sides, pj and pnj): a fighter's list is
    # its side's, less itself and, put first, those it is engaged with.
    ranked = {side: [x for other, ids in in_fight.items() if other != side for x in ids] + own
              for side, own in in_fight.items()}
    everyone = [x for ids in in_fight.values() for x in ids]
    at: dict[str, int] = {}  # each fighter's place in ``order``, once someone is engaged
    out: dict[str, list[str]] = {}
    for fid in order:
        f = fighters[fid]
        mine = ranked.get(f["side"], everyone).copy()
        if not f["hors_combat"]:
            mine.remove(fid)
        if f["engaged_with"]:
            at = at or {x: n for n, x in enumerate(order)}
            first = sorted({x for x in f["engaged_with"] if x in at and x != fid and not fighters[x]["hors_combat"]},
                           key=at.__getitem__)
            for x in first:
                mine.remove(x)
            mine[:0] = first
        out[fid] = mine
    return out


def fighter(c: Combatant, turn: Turn) -> dict[str, Any]:
    """One fighter on the board: its state (as the codec writes it), marks for the
    badges, what it may declare and the declaration its form offers first, the name a
    model made from it takes, and every action's verdict."""
    out = combatant_json(c)
    out.update(
        engaged=c.engaged,
        ready=turn.ready,
        declarations=_declarations(c, turn.prochaines),
        not_declarable=not_declarable(c),
        suggested_declaration=suggested_declaration(c),
        model_name=model_name(c.name),
        actions=_verdicts(c, turn),
        may=may(c, turn),
    )
    out.update(likely=likely(c, out["actions"]), never=never(c))
    return out


def may(c: Combatant, turn: Turn) -> dict[str, dict[str, Any]]:
    """What a card offers besides its actions, judged by the rules the commands use: to
    ``pass`` (D5: in the round, not out of it, the round going on, not passed yet, rules
    that allow it) and to
    ``interrupt`` (R5, D6: in the round and not out of it; which interruption, and how it
    is paid, is each one's own verdict).

    >>> from engine.sheet import parse_combatant
    >>> from engine.rules import Turn
    >>> brune = parse_combatant({"name": "Brune"}, "c1", 0)
    >>> may(brune, Turn(started=False, over=True, ready=False, own_phase=False, other_phase=False))["pass"]["key"]
    'round_not_started'
    """
    def verdict(*checks: Any) -> dict[str, Any]:
        try:
            for check in checks:
                check(c, turn)
        except Refusal as r:
            return {"allowed": False, "reason": r.message, "code": r.code, "key": r.key, "params": r.params}
        return {"allowed": True}

    return {"pass": verdict(may_pass), "interrupt": verdict(in_the_round)}


#: The actions a card offers at once, in this order (docs/TABLE.md, "The board is the
#: cockpit"): the attacks and what prepares them, then moving.
LIKELY = ("attaque_melee", "tir_arc", "lancer_arme", "encocher_fleche", "ajuster_tir", "charge", "se_deplacer")


def likely(c: Combatant, verdicts: dict[str, dict[str, Any]]) -> list[str]:
    """The actions a card offers directly: those of :data:`LIKELY` that are allowed now
    (the verdicts, so by the same :func:`engine.rules.plan` as commands), except a melee
    attack or a charge by a fighter holding only a bow or a thrown weapon (R4: allowed
    bare-handed, but not what that fighter does). Interruptions never: they answer an attack.

    >>> from engine.sheet import parse_combatant
    >>> lyra = parse_combatant({"name": "Lyra", "weapons": [{"id": "arc", "name": "Arc", "kind": "bow", "skill": "arc"}],
    ...                         "in_hand": ["arc"]}, "c1", 0)
    >>> likely(lyra, {a: {"allowed": a != "lancer_arme"} for a in ACTIONS})
    ['tir_arc', 'encocher_fleche', 'ajuster_tir', 'se_deplacer']
    """
    held = c.held()
    melee = not held or any(is_melee(w) for w in held)
    return [a for a in LIKELY if verdicts[a]["allowed"] and (melee or a not in ("attaque_melee", "charge"))]


def never(c: Combatant) -> list[str]:
    """The actions no change of hands can allow this fighter: the weapon they use (R4: a
    bow, a thrown weapon, a melee weapon or shield to parry) is not on its sheet. Judged
    with every weapon in hand and an arrow nocked, and with nothing in hand
    (``preparer_arme``); actions that may be done bare-handed never are.

    >>> from engine.sheet import parse_combatant
    >>> never(parse_combatant({"name": "Orque"}, "c1", 0))
    ['ajuster_tir', 'encocher_fleche', 'lancer_arme', 'preparer_arme', 'tir_arc', 'parer']
    """
    hands = other_hands(c)  # once, not once an action: two copies of the fighter each
    return [a.id for a in ACTIONS.values() if a.uses is not None and never_fits(c, a.uses, hands)]


def not_declarable(c: Combatant) -> list[dict[str, Any]]:
    """The weapons on the sheet that the fighter may not declare (D2: not in hand, a shield
    as any other), each with the refusal a start of round would give, so that the forms
    show them and why.

    >>> from engine.sheet import parse_combatant
    >>> shield = {"id": "bouclier", "name": "Bouclier", "kind": "shield", "skill": "bouclier"}
    >>> [(d["weapon"], d["key"]) for d in not_declarable(parse_combatant({"name": "Brune", "weapons": [shield]}, "c1", 0))]
    [('bouclier', 'not_declarable')]
    """
    held = declarable(c)
    out = []
    for w in c.weapons:
        if w not in held:
            r = Refusal("not_declarable", name=c.name, weapon=w.name)
            out.append({"weapon": w.id, "name": w.name, "reason": r.message, "key": r.key, "params": r.params})
    return out


def _declarations(c: Combatant, regles: Regles) -> list[dict[str, Any]]:
    """R1: what the fighter may declare (D2: weapons in hand, or none) and the R1.3
    breakdown of each before the die, by the rules the next round starts with: its
    ``initiative`` is the total less the die, and ``by_die`` the total with each face of
    the die (1 to 6, or the rules' faces), which the forms show.

    >>> from engine.sheet import parse_combatant
    >>> _declarations(parse_combatant({"name": "Brune", "characteristics": {"melee": 7}, "wounds": 2}, "c1", 0), Regles())[0]["by_die"]
    [2, 3, 4, 5, 6, 7]
    """
    choices: list[dict[str, Any]] = []
    for weapon, name in ((None, None), *((w.id, w.name) for w in declarable(c))):
        terms = breakdown(c, weapon, 0, regles)
        choices.append({"weapon": weapon, "name": name, **terms,
                        "by_die": [terms["initiative"] + die for die in range(1, regles.de_initiative + 1)]})
    return choices


#: A phase action, for the eligibility every phase action shares (:func:`_verdicts`).
PHASE_ACTION = next(a for a in ACTIONS.values() if a.category is not Category.INTERRUPTION)


def _verdicts(c: Combatant, turn: Turn) -> dict[str, dict[str, Any]]:
    """Every action's verdict for ``c`` now. Whether a fighter may take a phase action at all
    (R2.3, R5, D5-D7: :func:`engine.rules.eligibility`) does not depend on the action, so it
    is judged once for them all: a fighter whose turn it is not has the same refusal for
    each (20 of 25 actions, on most cards of a board; the first board's time)."""
    phase: Refusal | None = None
    try:
        eligibility(c, turn, PHASE_ACTION)
    except Refusal as r:
        phase = r
    return {a: _verdict(c, turn, a, phase) for a in ACTIONS}


def _verdict(c: Combatant, turn: Turn, action_id: str, phase: Refusal | None = None) -> dict[str, Any]:
    """One action by ``c`` now: allowed or not (and why), what it would cost and who pays
    (R3, R5.2: the rules' price, refused as allowed), the weapon and the tests (D14), and
    the aim it would lose (``loses_aim``: R4.1, D13, any action but the attack that uses it
    or the aim adjusted again), said before it is taken.
    ``phase``: the refusal every phase action of ``c`` gets now, if any (:func:`_verdicts`)."""
    action = ACTIONS[action_id]
    out: dict[str, Any] = {"category": action.category_in(turn.regles).value}
    refused = phase if action.category is not Category.INTERRUPTION else None
    if refused is None:
        try:
            p = plan(c, turn, action, {}, probe=True)
        except Refusal as r:
            refused = r
    if refused is not None:
        cost, pays = price(turn, action, None, payer(c, action, turn.regles), {})
        out.update(cost=cost, allowed=False, reason=refused.message, code=refused.code, key=refused.key, params=refused.params)
        if action.category is Category.INTERRUPTION:
            out["pays"] = pays
        return out
    out.update(cost=p.cost, allowed=True)
    if action.category is Category.INTERRUPTION:
        out["pays"] = p.pays
    if action.priced_by_weapon and action.uses is not None:
        out["by_weapon"] = {w.id: price(turn, action, w, p.pays, {})[0] for w in c.weapons if action.uses.fits(c, w)}
    if p.weapon is not None:
        out["weapon"] = p.weapon.id
    if loses_aim(c, action, p.weapon, turn.regles):
        out["loses_aim"] = c.aim_bonus
    tests = describe_tests(c, action, p.weapon, {}, turn.regles)
    if tests:
        out["tests"] = [named_test_json(t) for t in tests]
    if "tests" in action.options:  # R4.4: what it costs when every test it names is passed
        cost, pays = price(turn, action, p.weapon, p.pays, {"tests": {spec.skill: True for spec in action.tests}})
        out["if_passed"] = {"cost": cost, "pays": pays}
    return out
