"""The players' board: what the players may see of the game master's board (D26, D4).

One board for every reader at the table who is not the game master: the players' view on
the game master's own device (``#vue=joueurs``, a screen turned to the table) and every
player's phone on the live table are drawn from it, and every message to a player's phone
is cut from it (docs/TABLE.md). It is derived from the game master's board
(:func:`engine.view.board`) by one pure function:

- a fighter hidden from the players (an ambush, D26) is not in it at all: not its card,
  not its name in another's engagements, not its turn, not an attack it makes;
- a PNJ's P.I., initiative, die, wounds and Espoir are ``None`` unless the game master
  shows them (``pnj_details``); then nothing in it lets a player work them out: the PJ
  come first (their P.I. are the players' own), then the PNJ in their order of entry,
  and in a tie at the top between PJ and PNJ (D4) only the PJ are said to act (a PNJ is
  shown acting when it acts alone, as the table sees it);
- its ``order`` is the fighters whose cards the players see: none out of the fight (D6);
- each fighter's ``targets`` (:func:`engine.view.targets`) are among the fighters the
  players see, ranked in their ``order`` (the game master's order would tell the PNJ's P.I.);
- a PJ keeps its declarations with their R1.3 breakdown (its player's start-of-round
  form), whether it may pass or interrupt (``may``: D5, D6) and its verdicts (``mine``:
  what its player's phone may play, R2-R5).

>>> from engine import apply, new_encounter, view
>>> s = new_encounter()
>>> for sheet in ({"name": "Aldric", "side": "pj"}, {"name": "Orque"}, {"name": "Gobelin", "hidden": True}):
...     s = apply(s, {"type": "add_combatant", "combatant": sheet})["state"]
>>> s = apply(s, {"type": "start_round", "rolls": {"c1": 3, "c2": 6, "c3": 6}})["state"]
>>> seen = players_board(view(s))
>>> seen["order"], seen["active"], seen["combatants"]["c2"]["pi"]
(['c1', 'c2'], ['c2'], None)
>>> players_board(view(s), pnj_details=True)["combatants"]["c2"]["pi"] > 0
True
"""

from __future__ import annotations

from typing import Any

from .view import targets

__all__ = ["ahead", "players_attack", "players_board"]

#: The fields of a fighter the players' cards show; the rest (the sheet's characteristics
#: and skills, the notes, the verdicts) stays with the game master.
SHOWN = ("id", "name", "side", "entry", "in_round", "hors_combat", "passed", "pi", "initiative", "d6",
         "declared", "aim_bonus", "charged", "posture", "arrow_nocked", "cover", "engaged", "engaged_with",
         "in_hand", "wounds", "hope", "conditions")

#: What the game master may keep for himself: a PNJ's P.I., initiative, die, wounds, Espoir.
PNJ_DETAILS = ("pi", "initiative", "d6", "wounds", "hope")

#: A PJ's declaration as its player's form needs it (R1.3): the breakdown before the die.
DECLARATION = ("weapon", "name", "initiative", "characteristic", "characteristic_value", "half",
               "initiative_bonus", "skill", "skill_level", "wounds", "by_die")


def players_board(board: dict[str, Any], pnj_details: bool = False) -> dict[str, Any]:
    """The players' board of the game master's ``board`` (this module's rules).

    ``order``: the fighters the players' cards show, in order; ``targets``: each fighter's,
    among those the players see. ``mine``: for each PJ shown, what its player's phone may play (its verdicts, its
    likely actions, those it can never do); ``catalogue``: the actions as the page words
    them (R4).

    >>> board = {"round": 1, "round_over": False, "active": ["b", "a"], "phase": None, "order": ["b", "a"],
    ...          "catalogue": {}, "combatants": {
    ...     "a": {"id": "a", "side": "pj", "entry": 0, "pi": 5, "hidden": False, "hors_combat": False, "engaged_with": [], "weapons": [],
    ...           "declarations": [], "actions": {}, "likely": [], "never": []},
    ...     "b": {"id": "b", "side": "pnj", "entry": 1, "pi": 5, "hidden": False, "hors_combat": False, "engaged_with": [],
    ...           "weapons": []}}}
    >>> shown = players_board(board)
    >>> shown["active"], shown["order"], shown["combatants"]["b"]["pi"], list(shown["mine"]), shown["targets"]["a"]
    (['a'], ['a', 'b'], None, ['a'], ['b'])
    >>> players_board(board, pnj_details=True)["active"]
    ['b', 'a']
    """
    fighters_of = board["combatants"]

    def seen(fid: object) -> bool:
        return isinstance(fid, str) and fid in fighters_of and not fighters_of[fid].get("hidden", False)

    fighters = [fighters_of[fid] for fid in board["order"] if seen(fid)]
    order = [f["id"] for f in fighters]
    active = [fid for fid in board["active"] if seen(fid)]
    if not pnj_details:
        pj = [f for f in fighters if f["side"] == "pj"]
        pnj = sorted((f for f in fighters if f["side"] != "pj"), key=lambda f: f["entry"])
        order = [f["id"] for f in (*pj, *pnj)]
        pj_active = [fid for fid in active if fighters_of[fid]["side"] == "pj"]
        active = pj_active or active[:1]
    combatants: dict[str, dict[str, Any]] = {}
    mine: dict[str, dict[str, Any]] = {}
    for f in fighters:
        shown = {k: f.get(k) for k in SHOWN}
        shown["engaged_with"] = [fid for fid in f.get("engaged_with", []) if seen(fid)]
        shown["weapons"] = [{"id": w["id"], "name": w["name"], "skill": w.get("skill")} for w in f["weapons"]]
        if f["side"] == "pj":
            shown["declarations"] = [{k: d.get(k) for k in DECLARATION} for d in f.get("declarations", [])]
            shown["suggested_declaration"] = f.get("suggested_declaration")
            shown["may"] = f.get("may")
            mine[f["id"]] = {"actions": f.get("actions", {}), "likely": f.get("likely", []), "never": f.get("never", [])}
        elif not pnj_details:
            shown.update(dict.fromkeys(PNJ_DETAILS))
        combatants[f["id"]] = shown
    phase = board.get("phase") if seen(board.get("phase")) else None
    shown_order = [fid for fid in order if not combatants[fid]["hors_combat"]]
    going = board["round"] > 0 and not board["round_over"]
    return {"round": board["round"], "round_over": board["round_over"], "active": active, "phase": phase,
            "order": shown_order, "combatants": combatants,
            "targets": targets(order, combatants), "mine": mine, "catalogue": board.get("catalogue", {}),
            "regles": board.get("regles"), "ahead": ahead(shown_order, combatants) if going else {"pj": {}, "unseen": False}}


def ahead(order: list[str], combatants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """When each PJ's turn comes, as the players may know it (R2.1, D21): for each PJ still
    in the round with P.I. > 0, how many fighters of the players' board still in the round
    have more P.I. than it (``pj``: id → count; they act before it, unless it interrupts);
    ``unseen``: a fighter still in the round whose P.I. the players do not see (a PNJ whose
    details the game master keeps) may act before any of them too. Counted only from what
    the board shows, so it tells nothing of a PNJ's hidden P.I.

    >>> fighters = {"a": {"side": "pj", "pi": 6, "in_round": True, "passed": False, "hors_combat": False},
    ...             "b": {"side": "pj", "pi": 9, "in_round": True, "passed": False, "hors_combat": False},
    ...             "c": {"side": "pnj", "pi": None, "in_round": True, "passed": False, "hors_combat": False},
    ...             "d": {"side": "pj", "pi": 12, "in_round": True, "passed": True, "hors_combat": False}}
    >>> ahead(["b", "a", "c", "d"], fighters)
    {'pj': {'b': 0, 'a': 1}, 'unseen': True}
    """

    def still(f: dict[str, Any]) -> bool:  # still in the round (D21)
        return bool(f.get("in_round")) and not f.get("passed") and not f.get("hors_combat")

    seen = [combatants[fid] for fid in order if still(combatants[fid])]
    counts = {fid: sum(1 for g in seen if g["pi"] is not None and g["pi"] > f["pi"])
              for fid in order if (f := combatants[fid])["side"] == "pj" and still(f) and f["pi"] is not None and f["pi"] > 0}
    return {"pj": counts, "unseen": any(g["pi"] is None for g in seen)}


def players_attack(shown: dict[str, Any], last: object) -> dict[str, str] | None:
    """The attack the players are told of (R5.3, D23): the last command, when it is an
    attack (the catalogue's ``attack``) by a fighter on the players' board ``shown`` on
    another one there; ``None`` otherwise, an attack by a fighter hidden from them (D26)
    included: its target's answers are then the game master's to give.

    >>> shown = {"catalogue": {"attaque_melee": {"attack": True}}, "combatants": {"a": {}, "b": {}}}
    >>> players_attack(shown, {"type": "act", "actor": "b", "action": "attaque_melee", "target": "a"})
    {'target': 'a', 'by': 'b', 'action': 'attaque_melee'}
    >>> players_attack(shown, {"type": "act", "actor": "x", "action": "attaque_melee", "target": "a"}) is None
    True
    """
    if not isinstance(last, dict) or last.get("type") != "act":
        return None
    spec = shown["catalogue"].get(last.get("action"), {})
    actor, target = last.get("actor"), last.get("target")
    if not spec.get("attack") or actor not in shown["combatants"] or target not in shown["combatants"]:
        return None
    return {"target": target, "by": actor, "action": last["action"]}
