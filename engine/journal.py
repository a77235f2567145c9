"""The journal of a fight: what happened, round by round, read from the resolved log.

Each entry is plain data with the names as they were at that moment; the page words
it in the reader's language. Refused commands are never in the log, so never here.

>>> log = [{"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}},
...        {"type": "start_round", "rolls": {"c1": 4}},
...        {"type": "act", "actor": "c1", "action": "observer"}]
>>> [e["kind"] for e in journal(log)]
['joined', 'round_started', 'action', 'round_ended']
>>> e = journal(log)[2]
>>> e["round"], e["name"], e["cost"], e["pi_before"], e["pi_after"]
(1, 'Aldric', 5, 4, -1)
"""

from __future__ import annotations

from typing import Any

from .commands import resolve
from .decide import decide
from .errors import Refusal
from .evolve import evolve
from .model import Encounter

Entry = dict[str, Any]


def _no_dice() -> int:
    raise Refusal("bad_command", "Le journal lit des commandes résolues (dés déjà notés).")


def journal(commands: list[Any]) -> list[Entry]:
    """The entries of a resolved command log (as ``replay`` returns it). A log that
    does not replay ends the journal where it stops."""
    enc = Encounter()
    out: list[Entry] = []
    for command in commands:
        try:
            events = decide(enc, resolve(enc, command, _no_dice))
        except Exception:  # a log that is not resolved, or not a log: the journal stops there
            break
        for event in events:
            out.extend(_entries(enc, event))
            enc = evolve(enc, event)
    return out


def _name(enc: Encounter, cid: object) -> str:
    c = enc.combatant(cid)
    return c.name if c else str(cid)


def _entries(enc: Encounter, e: dict[str, Any]) -> list[Entry]:
    kind = e["type"]
    at = {"round": enc.round}
    if kind == "combatant_added":
        return [{**at, "kind": "joined", "name": e["combatant"]["name"], "side": e["combatant"]["side"]}]
    if kind == "combatant_removed":
        return [{**at, "kind": "removed", "name": _name(enc, e["id"])}]
    if kind == "combatant_updated" and "hors_combat" in e["changes"]:
        return [{**at, "kind": "out" if e["changes"]["hors_combat"] else "back", "name": _name(enc, e["id"])}]
    if kind == "round_started":
        rolls = []
        for i in e["initiatives"]:
            c = enc.combatant(i["id"])
            held = c.weapon(i["weapon"]) if c else None
            rolls.append({"name": _name(enc, i["id"]), "weapon": held.name if held else None, "d6": i["d6"], "initiative": i["initiative"],
                          "rolled_by": i["rolled_by"]})
        return [{"round": e["round"], "kind": "round_started", "initiatives": rolls}]
    if kind == "action_taken":
        options = e["options"]
        return [{
            **at, "kind": "action", "name": _name(enc, e["actor"]), "action": e["action"], "category": e["category"],
            "cost": e["cost"], "pays": e["pays"], "pi_before": e["pi_before"], "pi_after": e["pi_after"],
            "hope_before": e["hope_before"], "hope_after": e["hope_after"], "tests": e["tests"], "outcome": e["outcome"],
            "target": _name(enc, options["target"]) if "target" in options else None,
            "against": _name(enc, options["against"]) if "against" in options else None,
        }]
    if kind == "turn_passed":
        return [{**at, "kind": "passed", "name": _name(enc, e["actor"]), "pi": e["pi"]}]
    if kind == "round_ended":
        return [{**at, "kind": "round_ended", "reason": e["reason"]}]
    return []
