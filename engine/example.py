"""The example fight a first visit offers: a ready cast to learn Riposte with.

Two PJ and three PNJ, added by one command (``add_combatants``: one undo takes the
example back; ``Table.example`` opens it as a new fight, replayed by the same rules as any save):
Lyra, an archer with her bow in hand and an arrow nocked (R4: ``tir_arc`` needs one,
``encocher_fleche`` takes the next from the quiver; D18: arrows are not counted);
Bastien, a swordsman (R1.4: his sword's initiative uses Mêlée); and three brigands, their
leader set up to charge in round 1 (R4.2: not engaged, his note says whom and how far).
No round is started: the fight opens at R1, each fighter to declare and roll.

The fighters' names are the same in every language; their weapons and the leader's note
are in the page's language (``fr`` or ``en``; anything else is French).

>>> log = example_log("en")
>>> [c["name"] for c in log[0]["combatants"]]
['Lyra', 'Bastien', 'Brigand chief', 'Brigand 1', 'Brigand 2']
>>> from engine.table import Table
>>> board = Table().example("fr")["board"]
>>> [(f["name"], f["side"], f["in_hand"]) for f in board["combatants"].values()][:3]
[('Lyra', 'pj', ['arc']), ('Bastien', 'pj', ['epee']), ('Chef brigand', 'pnj', ['hache'])]
>>> board["round"], board["combatants"]["c1"]["arrow_nocked"]
(0, True)
"""

from __future__ import annotations

from typing import Any

__all__ = ["WORDS", "example_log"]

#: The words of the example in each language the page speaks: weapons, the brigands' names
#: and the charge's note (a fighter's notes hold at most 120 characters, engine/sheet.py).
WORDS: dict[str, dict[str, str]] = {
    "fr": {"bow": "Arc long", "dagger": "Dague", "sword": "Épée", "axe": "Hache", "club": "Gourdin",
           "chief": "Chef brigand", "brigand": "Brigand",
           "charge": "Charge Bastien au tour 1 (à 5 m)"},
    "en": {"bow": "Longbow", "dagger": "Dagger", "sword": "Sword", "axe": "Axe", "club": "Club",
           "chief": "Brigand chief", "brigand": "Brigand",
           "charge": "Charges Bastien in round 1 (5 m away)"},
}


def _weapon(wid: str, name: str, kind: str, skill: str) -> dict[str, Any]:
    return {"id": wid, "name": name, "kind": kind, "skill": skill, "stowed": True}


def example_log(lang: object = "fr") -> list[dict[str, Any]]:
    """The example fight as a log of commands, its words in ``lang``."""
    w = WORDS["en" if lang == "en" else "fr"]
    pj: list[dict[str, Any]] = [
        {"name": "Lyra", "side": "pj", "hope": 2,
         "characteristics": {"tir": 8, "melee": 4, "lancer": 5, "derobee": 7, "vue": 6},
         "skills": {"arc": 3, "dague": 1, "esquive": 2, "acrobatie": 2, "vigilance": 2},
         "weapons": [_weapon("arc", w["bow"], "bow", "arc"), _weapon("dague", w["dagger"], "thrown", "dague")],
         "in_hand": ["arc"]},
        {"name": "Bastien", "side": "pj", "hope": 2, "initiative_bonus": 1,
         "characteristics": {"melee": 8, "tir": 3, "derobee": 5, "vue": 4},
         "skills": {"epee": 3, "corps_a_corps": 2, "esquive": 2, "course": 1},
         "weapons": [_weapon("epee", w["sword"], "melee", "epee")], "in_hand": ["epee"]},
    ]
    pnj: list[dict[str, Any]] = [
        {"name": w["chief"], "side": "pnj",
         "characteristics": {"melee": 7, "derobee": 4},
         "skills": {"hache": 2, "course": 2, "corps_a_corps": 1},
         "weapons": [_weapon("hache", w["axe"], "melee", "hache")], "in_hand": ["hache"]},
        {"name": f"{w['brigand']} 1", "side": "pnj",
         "characteristics": {"melee": 5, "derobee": 4},
         "skills": {"gourdin": 1, "esquive": 1},
         "weapons": [_weapon("gourdin", w["club"], "melee", "gourdin")], "in_hand": ["gourdin"]},
        {"name": f"{w['brigand']} 2", "side": "pnj",
         "characteristics": {"melee": 4, "tir": 6, "derobee": 5},
         "skills": {"arc": 2, "esquive": 1},
         "weapons": [_weapon("arc", w["bow"], "bow", "arc")], "in_hand": ["arc"]},
    ]
    # One command, so that one undo takes the whole example back: each fighter's table
    # fields (Lyra's arrow nocked, the chief's note) beside its sheet, set as it joins.
    pj[0]["arrow_nocked"] = True
    pnj[0]["notes"] = w["charge"]
    return [{"type": "add_combatants", "combatants": [*pj, *pnj]}]
