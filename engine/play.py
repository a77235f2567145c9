"""Commands played on an encounter, in the internal form: :func:`attempt` plays one,
:func:`fold` a whole log. The public functions on JSON states (``engine.apply``,
``engine.replay``), the saves (engine/save.py) and the table session (engine/table.py)
are built on these two; nothing here encodes a state.

>>> enc, result = fold([{"type": "add_combatant", "combatant": {"name": "Aldric"}}, {"type": "pass", "actor": "c1"}])
>>> [c.name for c in enc.combatants], result["error"]["index"], result["error"]["key"]
(['Aldric'], 1, 'round_not_started')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .codec import event_json
from .commands import resolve
from .decide import step
from .errors import Refusal
from .model import Encounter

Result = dict[str, Any]


def d6(rng: random.Random | None) -> Callable[[int], int]:
    """R1.2: the die the engine rolls for the table, of the faces the rules give (a d6),
    from ``rng`` (the ``random`` module by default)."""
    source = rng if rng is not None else random
    return lambda faces: source.randint(1, faces)


def _step(enc: Encounter, command: object, roll: Callable[[int], int],
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
        after, resolved, events = _step(enc, command, d6(rng), with_events)
    except Refusal as r:
        return enc, r.answer()
    except Exception as exc:  # never raises (contract): a fault of a rule's code, the page's fault screen
        return enc, Refusal("internal", error=f"{type(exc).__name__}: {exc}"[:300]).answer()
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
        return enc, {"ok": False, "error": {**Refusal("not_a_log").as_json(), "index": None}, "commands": []}
    resolved: list[Any] = []
    events: list[Any] = []
    for index, command in enumerate(commands):
        enc, result = attempt(enc, command, rng, with_events)
        if not result["ok"]:
            return enc, {"ok": False, "error": {**result["error"], "index": index}, "commands": resolved}
        resolved.append(result["command"])
        events.extend(result["events"])
    return enc, {"ok": True, "events": events, "commands": resolved}
