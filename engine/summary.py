"""The story of a fight in numbers, rebuilt from its log: an old fight has one too.

Rounds played, and for each fighter what it did: its actions by category (R3.2), its
passes (R2.3), the P.I. and the Espoir they cost (R3, R5.2), its interruptions (R5), the
wounds it took (R1.7), the rounds it acted first in (R2.1) and whether it left the fight
(D6). For each round: who acted first, how many actions and interruptions, and how it
ended (every P.I. spent, R2.4, or the game master's « Finir le tour », with who could
still act, D21). Plain data; the page words it and draws it.

With the wall-clock ``times`` the table keeps beside the log (engine/table.py, never in
it: the rules know no clock), how long each round took (from its ``start_round`` to the
command that ended it) and each fighter's turns (an action in its phase or a pass, from
the command before it: when the turn came to it); ``None`` where a time is not known (a
fight of an earlier release), which the page says « — ».

>>> log = [{"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}},
...        {"type": "add_combatant", "combatant": {"name": "Orque"}},
...        {"type": "start_round", "rolls": {"c1": 6, "c2": 1}},
...        {"type": "act", "actor": "c1", "action": "observer"},
...        {"type": "pass", "actor": "c2"},
...        {"type": "end_round"}]
>>> s = summary(log)
>>> s["rounds"][0]["first"], s["rounds"][0]["actions"], s["rounds"][0]["ended"], s["rounds"][0]["holding"]
('c1', 1, 'mj', ['c1'])
>>> aldric = s["fighters"][0]
>>> aldric["name"], aldric["actions"]["simple"], aldric["pi_spent"], aldric["first"]
('Aldric', 1, 5, 1)
>>> s["fighters"][1]["passes"]
1
>>> timed = summary(log, times=[None, None, 100, 130, 135, 140])
>>> timed["rounds"][0]["seconds"], timed["fighters"][0]["seconds"], timed["fighters"][1]["longest"], timed["totals"]["seconds"]
(40, 30, 5, 40)
>>> summary(log)["rounds"][0]["seconds"] is None
True
"""

from __future__ import annotations

from typing import Any

from .commands import resolve
from .decide import step
from .errors import Refusal
from .events import ActionTaken, CombatantAdded, CombatantRemoved, CombatantUpdated, Event, RoundEnded, RoundStarted, TurnPassed
from .journal import _no_dice  # a log without its dice stops here, as the journal does
from .model import Category, Encounter

#: The categories of an action (R3), in the order the summary gives them.
CATEGORIES = tuple(c.value for c in Category)


def _fighter(cid: str, name: str, side: str) -> dict[str, Any]:
    return {"id": cid, "name": name, "side": side, "actions": dict.fromkeys(CATEGORIES, 0), "passes": 0,
            "pi_spent": 0, "hope_spent": 0, "interruptions": 0, "wounds_taken": 0, "first": 0,
            "out": False, "removed": False, "seconds": None, "turns_timed": 0, "longest": None}


def summary(commands: list[Any], start: Encounter | None = None,
            times: list[int | None] | None = None) -> dict[str, Any]:
    """The summary of a resolved command log (as the table keeps it), from ``start`` (an
    empty fight by default). A log that stops replaying (a command refused, one without
    its dice) is summed up to there, as the journal is (engine/journal.py).

    Each fighter is named as it is at the end of the log (or when it was removed), in
    the order it joined; a removed one is kept, marked ``removed``: what it did happened.
    """
    enc = Encounter() if start is None else start
    fighters: dict[str, dict[str, Any]] = {
        c.id: _fighter(c.id, c.name, c.side.value) for c in enc.combatants}
    rounds: list[dict[str, Any]] = []
    clock = list(times or [])[:len(commands)]
    clock += [None] * (len(commands) - len(clock))
    for i, command in enumerate(commands):
        try:
            after, events = step(enc, resolve(enc, command, _no_dice) if isinstance(command, dict) else command)
        except Refusal:
            break
        for event in events:
            _count(enc, event, fighters, rounds)
            _time(event, clock[i], clock[i - 1] if i else None, fighters, rounds)
        enc = after
    for c in enc.combatants:
        fighters[c.id]["name"] = c.name
        fighters[c.id]["side"] = c.side.value
    ended = [r["seconds"] for r in rounds if r["ended"] is not None]  # a round under way has no length yet
    timed = ended if ended and None not in ended else []  # a total of some rounds would mislead
    for r in rounds:
        del r["started_at"]
    return {"rounds": rounds, "fighters": list(fighters.values()),
            "totals": {"rounds": len(rounds), "actions": sum(r["actions"] for r in rounds),
                       "interruptions": sum(r["interruptions"] for r in rounds),
                       "hope_spent": sum(f["hope_spent"] for f in fighters.values()),
                       "seconds": sum(timed) if timed else None}}


def _time(event: Event, at: int | None, before: int | None, fighters: dict[str, dict[str, Any]],
          rounds: list[dict[str, Any]]) -> None:
    """The time of one event's command (``at``, seconds; ``before``: the command before
    it), added to the round's and the fighter's durations; nothing when either is unknown."""
    if isinstance(event, RoundStarted) and rounds:
        rounds[-1]["started_at"] = at
    elif isinstance(event, RoundEnded) and rounds:
        started = rounds[-1]["started_at"]
        rounds[-1]["seconds"] = None if at is None or started is None else max(0, at - started)
    elif (isinstance(event, TurnPassed) or (isinstance(event, ActionTaken) and event.category != "interruption")) \
            and event.actor in fighters and at is not None and before is not None:
        f = fighters[event.actor]
        took = max(0, at - before)
        f["seconds"] = (f["seconds"] or 0) + took
        f["turns_timed"] += 1
        f["longest"] = took if f["longest"] is None else max(f["longest"], took)


def _count(enc: Encounter, event: Event, fighters: dict[str, dict[str, Any]], rounds: list[dict[str, Any]]) -> None:
    """One event, added to the tallies (``enc``: the fight before it)."""
    if isinstance(event, CombatantAdded):
        c = event.combatant
        fighters[c.id] = _fighter(c.id, c.name, c.side.value)
    elif isinstance(event, CombatantRemoved) and event.id in fighters:
        fighters[event.id]["removed"] = True
    elif isinstance(event, CombatantUpdated) and event.id in fighters:
        before = enc.combatant(event.id)
        wounds = event.changes.get("wounds")
        if before is not None and isinstance(wounds, int) and wounds > before.wounds:  # R1.7
            fighters[event.id]["wounds_taken"] += wounds - before.wounds
        if "hors_combat" in event.changes:  # D6
            fighters[event.id]["out"] = event.changes["hors_combat"] is True
    elif isinstance(event, RoundStarted):
        rounds.append({"round": event.round, "first": None, "actions": 0, "passes": 0, "interruptions": 0,
                       "ended": None, "holding": [], "seconds": None, "started_at": None})
    elif isinstance(event, RoundEnded) and rounds:
        rounds[-1]["ended"] = event.reason
        rounds[-1]["holding"] = list(event.holding)
    elif isinstance(event, (ActionTaken, TurnPassed)) and event.actor in fighters:
        f = fighters[event.actor]
        r = rounds[-1] if rounds else None
        if r is not None and r["first"] is None:  # R2.1: the highest P.I. acts first
            r["first"] = event.actor
            f["first"] += 1
        if isinstance(event, TurnPassed):
            f["passes"] += 1
            if r is not None:
                r["passes"] += 1
            return
        if event.category in f["actions"]:
            f["actions"][event.category] += 1
        f["pi_spent"] += max(0, event.pi_before - event.pi_after)  # R3
        f["hope_spent"] += max(0, event.hope_before - event.hope_after)  # R5.2
        if r is not None:
            r["actions"] += 1
        if event.category == "interruption":  # R5
            f["interruptions"] += 1
            if r is not None:
                r["interruptions"] += 1
