"""The lab: the open fight tried under other rules (engine/regles.py), before the group
plays by them. Pure: a log and rules in, numbers out.

- :func:`replay`: the fight's log played again from its start under other rules, each
  recorded command compared: the actions whose cost, payment or P.I. after would change,
  the rounds whose initiatives would, and the first command that would be refused and why.
- :func:`rounds`: random rounds of the fight's fighters under two rule sets, side by side,
  from one seed (``random.Random``): each phase a fighter the board lets act takes an
  action its verdicts allow (one with no required option) or passes; every other fighter
  whose interruption is allowed interrupts at random. A generator: it yields
  ``(done, total)`` every ``every`` rounds, so that a worker can tell its progress and stop;
  its return value is the comparison (:func:`compare` runs it to the end).

>>> from tests.casts import CASTS
>>> log = [{"type": "add_combatant", "combatant": {**CASTS[n], "id": n}} for n in ("aldric", "orque")]
>>> log += [{"type": "start_round", "rolls": {"aldric": 5, "orque": 1}}, {"type": "pass", "actor": "aldric"}]
>>> r = replay(log, {"de_initiative": 4})
>>> r["refused"]["index"], r["refused"]["key"]
(2, 'range')
>>> compare(log, {"cout_interruption": 4}, rounds=20, seed=1)["b"]["rounds"]
20
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from typing import Any

from . import values as v
from .actions import ACTIONS
from .codec import combatant_sheet
from .errors import Refusal
from .initiative import ready
from .model import Category, Encounter
from .play import attempt, fold
from .regles import WORDS, Regles, _value, as_json, differences, read
from .rules import plan, turn_of
from .view import catalogue

#: A round stops after this many phases (a table whose free actions cost nothing never ends).
MAX_PHASES = 200
#: The chance that a fighter whose interruption is allowed interrupts, each phase.
INTERRUPT = 0.15
#: The chance that a fighter who may act passes instead.
PASS = 0.1
#: The most random rounds asked at once.
MAX_ROUNDS = 10_000
#: The page's lab plays this many rounds per call (Table.labo): its progress and its stop.
LABO_EVERY = 25


def _rules_of(log: list[Any]) -> Regles:
    """The rules the fight's next round starts with (its ``set_rules`` folded)."""
    enc, _ = fold(log, with_events=False)
    return enc.regles_du_tour_suivant


def _figures(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What a command's events say that the rules change: each action's cost, payment and
    P.I. after, each round's initiatives."""
    out: dict[str, Any] = {}
    for e in events:
        if e["type"] == "action_taken":
            out["action"] = {"actor": e["actor"], "action": e["action"], "cost": e["cost"], "pays": e["pays"],
                             "pi_after": e["pi_after"], "hope_after": e["hope_after"]}
        elif e["type"] == "round_started":
            out["initiatives"] = {i["id"]: i["initiative"] for i in e["initiatives"]}
    return out


def replay(log: list[Any], regles: object) -> dict[str, Any]:
    """The log played again with ``regles`` (a rules value, each missing field as the fight
    has it) in force from its start, its own ``set_rules`` left out: ``changed``, each
    recorded command whose figures would change (``index``, ``type``, ``before`` and
    ``after``: an action's ``cost``, ``pays``, ``pi_after``, or a round's ``initiatives``),
    and ``refused``, the first command the other rules refuse (``index``, ``type``, ``key``,
    ``params``, ``message``), or ``None``. Refused (``bad_value``) when ``regles`` is."""
    base = _rules_of(log)
    other = read(regles, base)
    theirs = Encounter()
    ours, _ = attempt(Encounter(), {"type": "set_rules", "regles": as_json(other), "whole": True})
    changed: list[dict[str, Any]] = []
    refused = None
    kept = 0
    for index, command in enumerate(log):
        theirs, was = attempt(theirs, command, with_events=True)
        if not was["ok"]:  # a log that does not replay as it is: compared up to there
            break
        if isinstance(command, dict) and command.get("type") == "set_rules":
            continue
        kept += 1
        ours, now = attempt(ours, command, with_events=True)
        if not now["ok"]:
            error = now["error"]
            refused = {"index": index, "type": command.get("type") if isinstance(command, dict) else None,
                       "key": error.get("key"), "params": error.get("params", {}), "message": error.get("message")}
            break
        before, after = _figures(was["events"]), _figures(now["events"])
        if before != after:
            changed.append({"index": index, "type": command.get("type"), "before": before, "after": after})
    return {"ok": True, "commands": kept, "changed": changed, "refused": refused,
            "differences": differences(base, other)}


# --- random rounds ---------------------------------------------------------------------------

def _cast(log: list[Any]) -> list[dict[str, Any]]:
    """The fight's fighters in it (not out of the fight), as ``add_combatant`` takes them."""
    enc, _ = fold(log, with_events=False)
    sheets = [{**combatant_sheet(c), "id": c.id} for c in enc.combatants if not c.hors_combat]
    return [{k: v for k, v in sheet.items() if k != "entry"} for sheet in sheets]  # the order of entry is the list's


#: The interruptions (R5), judged for every fighter not acting each phase.
INTERRUPTIONS = tuple(a for a, action in ACTIONS.items() if action.category is Category.INTERRUPTION)


def _allowed(enc: Encounter, c: Any, active: tuple[str, ...], among: tuple[str, ...], free: set[str]) -> list[str]:
    """The actions of ``among`` that need no option and the rules allow ``c`` now: the
    board's verdicts (``view._verdict``), judged by the same ``rules.plan``, for this
    fighter and these actions only (the lab's phases are many)."""
    turn = turn_of(enc, c, active)
    out = []
    for a in among:
        if a in free:
            try:
                plan(c, turn, ACTIONS[a], {}, probe=True)
            except Refusal:
                continue
            out.append(a)
    return out


def _play(cast: list[dict[str, Any]], regles: Regles, count: int, rng: random.Random) -> Generator[int, None, dict[str, Any]]:
    """``count`` random rounds of ``cast`` under ``regles``; yields after each round."""
    enc, _ = attempt(Encounter(), {"type": "set_rules", "regles": as_json(regles), "whole": True})
    for sheet in cast:
        enc, _ = attempt(enc, {"type": "add_combatant", "combatant": sheet})
    free = {a for a, entry in catalogue(regles).items() if not entry["required"]}
    others = tuple(a for a in ACTIONS if a not in INTERRUPTIONS)
    ids = [s["id"] for s in cast]
    actions = dict.fromkeys(ids, 0)
    interruptions = dict.fromkeys(ids, 0)
    first = dict.fromkeys(ids, 0)
    stats = {"rounds": 0, "phases": 0, "passes": 0, "possible": 0, "chances": 0, "espoir": 0, "cut": 0}

    def take(command: dict[str, Any]) -> bool:
        nonlocal enc
        enc, result = attempt(enc, command, rng)
        if not result["ok"]:
            return False
        for e in result["events"]:
            if e["type"] == "action_taken":
                stats["espoir"] += e["hope_before"] - e["hope_after"]
                (interruptions if e["category"] == "interruption" else actions)[e["actor"]] += 1
        return True

    for _ in range(count):
        if not take({"type": "start_round"}):
            break
        stats["rounds"] += 1
        opened = False
        for _phase in range(MAX_PHASES):
            active = tuple(ready(enc))
            if enc.round_over or not active:
                break
            actor = rng.choice(active)
            if not opened:
                first[actor] += 1
                opened = True
            stats["phases"] += 1
            for other in ids:
                c = next((x for x in enc.combatants if x.id == other), None)  # as the interruptions before left it
                if other == actor or c is None or not c.in_round or c.hors_combat:
                    continue
                stats["chances"] += 1
                possible = _allowed(enc, c, active, INTERRUPTIONS, free)
                if possible:
                    stats["possible"] += 1
                    if rng.random() < INTERRUPT:
                        take({"type": "interrupt", "actor": other, "action": rng.choice(possible)})
            active = tuple(ready(enc))  # an interruption may have closed the phase (R5)
            if enc.round_over or actor not in active:
                continue
            allowed = _allowed(enc, {c.id: c for c in enc.combatants}[actor], active, others, free)
            if (not allowed or rng.random() < PASS) and take({"type": "pass", "actor": actor}):
                stats["passes"] += 1
            elif not (allowed and take({"type": "act", "actor": actor, "action": rng.choice(allowed)})):
                break
        if not enc.round_over:
            stats["cut"] += 1
            take({"type": "end_round"})
        yield stats["rounds"]
    n = max(stats["rounds"], 1)
    per = max(len(ids), 1) * n
    return {"rounds": stats["rounds"], "fighters": len(ids),
            "actions": round(sum(actions.values()) / per, 3),
            "interruptions": round(sum(interruptions.values()) / per, 3),
            "interruption_possible": round(stats["possible"] / max(stats["chances"], 1), 3),
            "passes": round(stats["passes"] / per, 3),
            "espoir": round(stats["espoir"] / n, 3),
            "cut": stats["cut"],
            "by_fighter": {i: {"actions": round(actions[i] / n, 3), "interruptions": round(interruptions[i] / n, 3),
                               "first": round(first[i] / n, 3)} for i in ids}}


def rounds(log: list[Any], regles: object, count: object = 200, seed: object = 0,
           every: int = 50) -> Generator[tuple[int, int], None, dict[str, Any]]:
    """``count`` random rounds of the fight's fighters under the fight's rules (``a``) and
    under ``regles`` (``b``, each missing field as the fight has it), from ``seed``;
    yields ``(done, total)`` every ``every`` rounds (``total`` is ``2 × count``); returns
    ``{"a", "b", "differences", "lines"}``: per rule set, ``rounds`` played, per fighter and
    per round the ``actions``, ``interruptions`` and ``passes``, ``interruption_possible``
    (the share of phases where a fighter not acting could interrupt), ``espoir`` spent per
    round, ``cut`` (rounds ended after :data:`MAX_PHASES`), and ``by_fighter`` (its actions
    and interruptions per round, and how often it acted first); ``lines``: the comparison in
    French and English. Refused (``bad_value``) when ``regles`` or ``count`` is."""
    n = v.integer(count, "rounds", low=1, high=MAX_ROUNDS)
    seeded = v.integer(seed, "seed", low=0, high=2**31)
    base = _rules_of(log)
    other = read(regles, base)
    cast = _cast(log)
    out: dict[str, Any] = {}
    for side, rules in (("a", base), ("b", other)):
        play = _play(cast, rules, n, random.Random(seeded))
        offset = 0 if side == "a" else n
        try:
            while True:
                done = next(play)
                if done % every == 0 or done == n:
                    yield offset + done, 2 * n
        except StopIteration as stop:
            out[side] = stop.value
    changes = differences(base, other)
    out["differences"] = changes
    out["lines"] = {language: _lines(changes, out["a"], out["b"], language) for language in ("fr", "en")}
    return out


def compare(log: list[Any], regles: object, rounds: object = 200, seed: object = 0, every: int = 50,
            beat: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """:func:`rounds` run to its end, ``beat(done, total)`` told as it goes (it may raise
    to stop it)."""
    play = globals()["rounds"](log, regles, rounds, seed, every)
    try:
        while True:
            done, total = next(play)
            if beat is not None:
                beat(done, total)
    except StopIteration as stop:
        return dict(stop.value)


_WORDS = {
    "fr": {"actions": "{d} action{s} par combattant et par tour", "interruptions": "{d} interruption{s} par combattant et par tour",
           "espoir": "{d} point{s} d'Espoir par tour", "possible": "interruption possible {a} → {b} % des phases",
           "same": "mêmes règles", "more": "de plus", "less": "de moins", "none": "rien ne change"},
    "en": {"actions": "{d} action{s} per fighter per round", "interruptions": "{d} interruption{s} per fighter per round",
           "espoir": "{d} Hope point{s} per round", "possible": "interruption possible {a} → {b} % of phases",
           "same": "same rules", "more": "more", "less": "fewer", "none": "nothing changes"},
}


def _lines(changes: list[dict[str, Any]], a: dict[str, Any], b: dict[str, Any], language: str) -> list[str]:
    """The comparison in words: « coût d'une interruption (R3.2) 5 → 4 : 0,6 interruption de
    plus par combattant et par tour »."""
    w = _WORDS[language]
    out = ["; ".join(f"{WORDS[language][c['field']]} {_value(language, c['field'], c['before'])} → "
                     f"{_value(language, c['field'], c['after'])}" for c in changes) or w["same"]]

    def number(x: float) -> str:
        text = f"{abs(x):.1f}"
        return text.replace(".", ",") if language == "fr" else text

    for key in ("actions", "interruptions", "espoir"):
        d = b[key] - a[key]
        if round(d, 1) == 0:
            continue
        out.append(f"{w[key].format(d=number(d), s='s' if abs(d) >= 2 else '')} {w['more' if d > 0 else 'less']}")
    pa, pb = round(100 * a["interruption_possible"]), round(100 * b["interruption_possible"])
    if pa != pb:
        out.append(w["possible"].format(a=pa, b=pb))
    if len(out) == 1:
        out.append(w["none"])
    return out


