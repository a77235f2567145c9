"""The lab: the open fight tried under other rules (engine/regles.py), before the group
plays by them. Pure: a log and rules in, numbers out.

- :func:`replay`: the fight's log played again from its start under other rules, each
  recorded command compared: the actions whose cost, payment or P.I. after would change,
  the rounds whose initiatives would, and the first command that would be refused and why.
- :func:`rounds`: random rounds of the fight's fighters under two rule sets, side by side,
  from one seed (``random.Random``), played by engine/simulation.py (the engine's own
  judgement, worked out once per set of marks): each phase a fighter the rules let act
  takes an action they allow, in one of its ways (a weapon, a target, an item…), or
  passes; every other fighter whose interruption is allowed interrupts at random. A
  generator: it yields ``(done, total)`` every ``every`` rounds, so that a worker can tell
  its progress and stop; its return value is the comparison (:func:`compare` runs it to
  the end).

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
from .codec import combatant_sheet
from .model import Encounter
from .play import attempt, fold
from .regles import WORDS, Regles, _value, as_json, differences, read
from .simulation import Simulation

#: The most random rounds asked at once.
MAX_ROUNDS = 10_000
#: The page's lab plays this many rounds per call (Table.labo): its progress and its stop.
LABO_EVERY = 100
#: The random rounds the page's lab plays under each rule set (Table.labo).
LABO_ROUNDS = 2000


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


def _play(cast: list[dict[str, Any]], regles: Regles, count: int, rng: random.Random,
          record: Callable[[dict[str, Any] | None, dict[str, Any]], None] | None = None) -> Generator[int, None, dict[str, Any]]:
    """``count`` random rounds of ``cast`` under ``regles`` (engine/simulation.py); yields
    after each round."""
    enc = Encounter()
    for sheet in cast:
        enc, _ = attempt(enc, {"type": "add_combatant", "combatant": sheet}, with_events=False)
    play = Simulation(list(enc.combatants), regles, rng, record)
    for _ in range(count):
        if not play.n:
            break
        play.round()
        yield play.rounds
    ids = play.ids
    n = max(play.rounds, 1)
    per = max(len(ids), 1) * n
    return {"rounds": play.rounds, "fighters": len(ids),
            "actions": round(sum(play.actions) / per, 3),
            "interruptions": round(sum(play.interruptions) / per, 3),
            "interruption_possible": round(play.possible / max(play.chances, 1), 3),
            "passes": round(play.passes / per, 3),
            "espoir": round(play.espoir / n, 3),
            "cut": play.cut,
            "by_fighter": {cid: {"actions": round(play.actions[i] / n, 3), "interruptions": round(play.interruptions[i] / n, 3),
                                 "first": round(play.first[i] / n, 3)} for i, cid in enumerate(ids)}}


def rounds(log: list[Any], regles: object, count: object = 200, seed: object = 0,
           every: int = 50) -> Generator[tuple[int, int], None, dict[str, Any]]:
    """``count`` random rounds of the fight's fighters under the fight's rules (``a``) and
    under ``regles`` (``b``, each missing field as the fight has it), from ``seed``;
    yields ``(done, total)`` every ``every`` rounds (``total`` is ``2 × count``); returns
    ``{"a", "b", "differences", "lines"}``: per rule set, ``rounds`` played, per fighter and
    per round the ``actions``, ``interruptions`` and ``passes``, ``interruption_possible``
    (the share of phases where a fighter not acting could interrupt), ``espoir`` spent per
    round, ``cut`` (rounds ended after :data:`~engine.simulation.MAX_PHASES`), and ``by_fighter`` (its actions
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


