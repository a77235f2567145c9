"""Commands: their shapes (RULES.md, engine contract), option values, and the dice that
the engine rolls for the table before the rules see them.

A command is a plain dict with a ``type``. :func:`check_shape` refuses a command that
is not one (``bad_command``: not a dict, a missing field, an unknown key);
:func:`check_options` types the ``act``/``interrupt`` options (``bad_value``);
:func:`resolve` writes the dice the engine rolls into the command, so that the resolved
command replays exactly (the only randomness, kept at the boundary).

>>> check_shape({"type": "pass", "actor": "c1"})["type"]
'pass'
>>> check_shape({"type": "pass"})
Traceback (most recent call last):
...
engine.errors.Refusal: Commande « pass » incomplète : il manque « actor ».
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import values as v
from .errors import Refusal
from .model import Encounter

Command = Mapping[str, Any]

OPTIONS = (
    "target",
    "against",
    "weapon",
    "distance",
    "test_result",
    "difficulty",
    "success",
    "familier",
    "skill",
    "posture",
    "items",
    "tests",
)

#: A command a player sent from their phone (the live table): the same command
#: as the game master's, marked so that the journal says where it came from (D26).
BY_PLAYER = ("by_player",)

#: type -> (required keys, optional keys), besides ``type``.
SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "add_combatant": (("combatant",), ("declaration", "roll", "engine_rolled", "numbered")),
    "update_combatant": (("id", "changes"), ()),
    "remove_combatant": (("id",), ()),
    "duplicate_combatant": (("id",), ("count", "ids")),
    "add_copies": (("combatant", "count"), ("ids",)),
    "add_combatants": (("combatants",), ()),
    "start_round": ((), ("declarations", "rolls", "engine_rolled", "app_rolled")),
    "act": (("actor", "action"), OPTIONS + BY_PLAYER),
    "interrupt": (("actor", "action"), OPTIONS + BY_PLAYER),
    "pass": (("actor",), BY_PLAYER),
    "end_round": ((), ()),
    "update_settings": (("settings",), ()),
    "set_rules": (("regles",), ("from_next_round", "whole")),
    "add_condition": (("id", "condition"), ("until",)),
    "remove_condition": (("id", "condition"), ()),
}


def check_shape(command: object) -> Command:
    """A dict with a known ``type``, every required key and no unknown key."""
    if not isinstance(command, dict):
        raise Refusal("not_a_command")
    kind = command.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise Refusal("unknown_type", got=v.shown(kind), known=list(SHAPES))
    required, optional = SHAPES[kind]
    for key in required:
        if key not in command:
            raise Refusal("missing_key", kind=kind, field=key)
    for key in command:
        if key != "type" and key not in required and key not in optional:
            raise Refusal("unknown_key", kind=kind, field=str(key)[:40])
    if "by_player" in command and command["by_player"] is not True:
        raise v.bad("by_player", "true_only")
    return command


def check_options(command: Command) -> dict[str, Any]:
    """The options of ``act``/``interrupt``, each of the right type (``bad_value``)."""
    out: dict[str, Any] = {}
    for name in OPTIONS:
        if name not in command:
            continue
        value = command[name]
        if name in ("target", "against", "weapon"):
            out[name] = v.identifier(value, name)
        elif name == "distance":
            out[name] = v.number(value, name)
        elif name in ("test_result", "difficulty"):
            out[name] = v.integer(value, name)
        elif name in ("success", "familier"):
            out[name] = v.boolean(value, name)
        elif name == "skill":
            out[name] = v.identifier(value, name)
        elif name == "posture":
            out[name] = v.choice(value, name, ("a_genoux", "a_terre"))
        elif name == "items":
            items = [v.identifier(i, "items[]") for i in v.sequence(value, name, v.MAX_WEAPONS)]
            if not items:
                raise v.bad(name, "empty")
            if len(set(items)) != len(items):
                raise v.bad(name, "duplicate")
            out[name] = items
        elif name == "tests":
            tests = v.mapping(value, name)
            if set(tests) != {"esquive", "acrobatie"}:
                raise v.bad(name, "acrobatic_tests")
            out[name] = {k: v.boolean(tests[k], f"tests.{k}") for k in ("esquive", "acrobatie")}
    return out


def resolve(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """The command with the dice the engine rolls written in (R1.2, D7: ``roll(faces)``,
    the faces of the rules' die) and, for
    ``add_combatant``, ``add_combatants``, ``duplicate_combatant`` and ``add_copies``, the
    ids the engine assigns. A malformed command is returned as it is: the rules refuse it.
    """
    kind = command.get("type")
    resolver = _RESOLVERS.get(kind) if isinstance(kind, str) else None
    return command if resolver is None else resolver(enc, command, roll)


def _round(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """R1.2: a die for each fighter that has none (out of the fight: none, D6), of the
    faces of the rules the round starts with."""
    rolls = command.get("rolls", {})
    if not isinstance(rolls, dict) or "engine_rolled" in command:
        return command
    # The dice the page rolled (its « Lancer » button) are rolled by the app, not typed:
    # written as the engine's own, and ``app_rolled`` itself is not kept (old logs never
    # had it, so they replay unchanged).
    by_app = command.get("app_rolled", [])
    if not isinstance(by_app, list) or not all(isinstance(i, str) for i in by_app):
        return command  # the rules refuse it
    missing = [c.id for c in enc.combatants if not c.hors_combat and c.id not in rolls]
    plain = {k: x for k, x in command.items() if k != "app_rolled"}
    if not missing and not by_app:
        return plain
    filled = dict(rolls)
    faces = enc.regles_du_tour_suivant.de_initiative
    for cid in missing:
        filled[cid] = roll(faces)
    rolled = [cid for cid in filled if cid in missing or cid in by_app]
    return {**plain, "rolls": filled, "engine_rolled": rolled} if rolled else plain


def _copies(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """The ids of the copies, unless they are given."""
    count = command.get("count", 1)
    if "ids" in command or type(count) is not int or not 1 <= count <= v.MAX_LIST:
        return command  # the rules refuse a bad count
    ids: list[str] = []
    for _ in range(count):
        ids.append(free_id(enc, taken=ids))
    return {**command, "ids": ids}


def _fighters(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """Each new fighter's id, unless given, none taken twice.

    >>> _fighters(Encounter(), {"type": "add_combatants", "combatants": [{"name": "A"}, {"name": "B", "id": "b"}]},
    ...           lambda n: 1)["combatants"]
    [{'name': 'A', 'id': 'c1'}, {'name': 'B', 'id': 'b'}]
    """
    sheets = command.get("combatants")
    if not isinstance(sheets, list) or not all(isinstance(sheet, dict) for sheet in sheets):
        return command  # the rules refuse it
    used = {c.id for c in enc.combatants} | {sheet["id"] for sheet in sheets if isinstance(sheet.get("id"), str)}
    n, filled = enc.next_id, []
    for sheet in sheets:
        if "id" not in sheet:
            while f"c{n}" in used:
                n += 1
            sheet = {**sheet, "id": f"c{n}"}
            used.add(sheet["id"])
        filled.append(sheet)
    return {**command, "combatants": filled}


def _fighter(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """The new fighter's id, unless given; D7: its die, when it joins the round without one."""
    sheet = command.get("combatant")
    if not isinstance(sheet, dict):
        return command
    resolved = dict(command)
    if "id" not in sheet:
        resolved["combatant"] = {**sheet, "id": free_id(enc)}
    joins_now = "declaration" in command or "roll" in command
    if joins_now and "roll" not in command and not enc.round_over:
        resolved["roll"] = roll(enc.regles.de_initiative)
        resolved["engine_rolled"] = True
    return resolved


#: The values a change may give as a step from what the fighter has (``{"by": -3}``).
STEPPED = ("wounds", "hope")


def _stepped(enc: Encounter, command: Command, roll: Callable[[int], int]) -> Command:
    """Wounds and Espoir given as a step from what the fighter has (``{"by": -5}``: a row's
    −1 and +3, or « −5 » typed) written as the total it makes; taking off more than the
    fighter has leaves it at 0 (neither counts below 0). The log keeps the total: a saved
    fight replays as it was played.

    >>> from engine.sheet import parse_combatant
    >>> enc = Encounter(combatants=(parse_combatant({"name": "Brune", "wounds": 3}, "c1", 0),))
    >>> _stepped(enc, {"type": "update_combatant", "id": "c1", "changes": {"wounds": {"by": -5}}}, lambda n: 1)["changes"]
    {'wounds': 0}
    >>> _stepped(enc, {"type": "update_combatant", "id": "c1", "changes": {"wounds": {"by": 2}, "hope": {"by": 1}}}, lambda n: 1)["changes"]
    {'wounds': 5, 'hope': 1}
    """
    changes = command.get("changes")
    c = enc.combatant(command.get("id"))
    if not isinstance(changes, dict) or c is None:
        return command  # the rules refuse it
    filled = dict(changes)
    for key in STEPPED:
        step = changes.get(key)
        if isinstance(step, dict) and set(step) == {"by"} and type(step["by"]) is int and abs(step["by"]) <= v.MAX_VALUE:
            filled[key] = max(0, getattr(c, key) + step["by"])
    return {**command, "changes": filled}


_RESOLVERS = {"start_round": _round, "duplicate_combatant": _copies, "add_copies": _copies, "add_combatant": _fighter,
              "add_combatants": _fighters,
              "update_combatant": _stepped}


def free_id(enc: Encounter, taken: list[str] | None = None) -> str:
    """The next engine-assigned id: ``c1``, ``c2``… never one in use (nor in ``taken``,
    ids already given out by the same command)."""
    n = enc.next_id + len(taken or [])
    used = {c.id for c in enc.combatants} | set(taken or [])
    while f"c{n}" in used:
        n += 1
    return f"c{n}"
