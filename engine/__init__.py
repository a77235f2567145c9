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
commands, events, error codes and view fields; the commands are played on the internal
form by engine/play.py, which the table session and the saves use too.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import ACTIONS
from .codec import decode, encode
from .errors import CODES, Refusal
from .model import Encounter
from .play import attempt, fold
from .view import board

__all__ = ["ACTIONS", "CODES", "apply", "new_encounter", "replay", "view"]

State = dict[str, Any]
Result = dict[str, Any]


def new_encounter() -> State:
    """An empty encounter: no fighter, no round yet (``round_over`` is true, R2.4)."""
    return encode(Encounter())


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
    """A new encounter with ``commands`` applied in order: a fold over the log
    (engine/play.py).

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
