"""Riposte's rules engine: the group's initiative system as pure functions on JSON data.

>>> import engine
>>> s = engine.new_encounter()
>>> r = engine.apply(s, {"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}})
>>> r["ok"], r["command"]["combatant"]["id"]
(True, 'c1')
>>> r = engine.apply(r["state"], {"type": "start_round", "rolls": {"c1": 4}})
>>> engine.view(r["state"])["combatants"]["c1"]["pi"]
4
>>> engine.apply(r["state"], {"type": "act", "actor": "c1", "action": "voler"})["error"]["code"]
'unknown_action'

The state never changes in place: ``apply`` returns a new one. See RULES.md for the
commands, events, error codes and view fields.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .actions import ACTIONS
from .codec import decode, encode, event_json
from .commands import resolve
from .decide import step
from .errors import CODES, Refusal
from .model import Encounter
from .view import board

__all__ = ["ACTIONS", "CODES", "apply", "new_encounter", "replay", "view"]

State = dict[str, Any]
Result = dict[str, Any]


def new_encounter() -> State:
    """An empty encounter: no fighter, no round yet (``round_over`` is true, R2.4)."""
    return encode(Encounter())


def _d6(rng: random.Random | None) -> Callable[[], int]:
    source = rng if rng is not None else random
    return lambda: source.randint(1, 6)


def _internal_error(exc: BaseException) -> dict[str, str]:
    return {"code": "bad_command", "message": f"Commande illisible (erreur interne : {type(exc).__name__})."}


def _step(enc: Encounter, command: object, roll: Callable[[], int],
          with_events: bool = True) -> tuple[Encounter, Any, list[dict[str, Any]]]:
    resolved = resolve(enc, command, roll) if isinstance(command, dict) else command
    enc, events = step(enc, resolved)
    return enc, resolved, [event_json(e) for e in events] if with_events else []


def attempt(enc: Encounter, command: object, rng: random.Random | None = None,
            with_events: bool = True) -> tuple[Encounter, Result]:
    """One command on an encounter: the encounter after it (the same one if refused)
    and the result as ``apply`` gives it, without ``state``. Never raises.
    ``with_events=False`` leaves ``events`` empty: a replay that only needs the
    encounter does not encode them."""
    try:
        after, resolved, events = _step(enc, command, _d6(rng), with_events)
    except Refusal as r:
        return enc, {"ok": False, "error": r.as_json()}
    except Exception as exc:  # never raises (contract); tests assert none happen
        return enc, {"ok": False, "error": _internal_error(exc)}
    return after, {"ok": True, "events": events, "command": resolved}


def fold(commands: object, rng: random.Random | None = None, start: Encounter | None = None,
         with_events: bool = True) -> tuple[Encounter, Result]:
    """A new encounter with ``commands`` applied in order, and the result as ``replay``
    gives it, without ``state``. A refusal names the command's ``index``; the encounter
    is then the one before that command.

    ``start`` folds from that encounter instead of an empty one (the table's checkpoints,
    engine/table.py); ``with_events=False`` skips encoding the events (``events`` is
    then empty), which undo and loading never show."""
    enc = Encounter() if start is None else start
    if not isinstance(commands, list):
        error = {"code": "bad_command", "message": "Un journal de commandes est une liste.", "index": None}
        return enc, {"ok": False, "error": error, "commands": []}
    resolved: list[Any] = []
    events: list[Any] = []
    for index, command in enumerate(commands):
        enc, result = attempt(enc, command, rng, with_events)
        if not result["ok"]:
            return enc, {"ok": False, "error": {**result["error"], "index": index}, "commands": resolved}
        resolved.append(result["command"])
        events.extend(result["events"])
    return enc, {"ok": True, "events": events, "commands": resolved}


def apply(state: object, command: object, rng: random.Random | None = None) -> Result:
    """Apply one command. Never raises, never changes ``state``.

    The dice the engine rolls (R1.2, D7) come from ``rng`` (the ``random`` module by
    default) and are written into the resolved ``command``, so a log of resolved
    commands replays exactly.
    """
    try:
        enc = decode(state)
    except Refusal as r:
        return {"ok": False, "state": state, "error": r.as_json()}
    after, result = attempt(enc, command, rng)
    return {**result, "state": encode(after) if result["ok"] else state}


def replay(commands: object, rng: random.Random | None = None) -> Result:
    """A new encounter with ``commands`` applied in order: a fold over the log.

    Undo, loading a saved encounter and opening a shared link all use it. A refusal
    names the command's ``index``; ``state`` is then the encounter before that command.
    """
    enc, result = fold(commands, rng)
    return {**result, "state": encode(enc)}


def view(state: object) -> dict[str, Any]:
    """The board derived from ``state`` (never raises; an unreadable state gives an
    empty board with an ``error``)."""
    try:
        return board(decode(state))
    except Refusal as r:
        return {**board(Encounter()), "error": r.as_json()}
