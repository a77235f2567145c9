"""Malformed commands for fuzzing the boundary: wrong types, huge numbers, deep nesting,
unknown keys, values that are not objects, long strings, unicode. Seeded, so a failure
is reproducible; the same corpus goes through ``engine.apply`` (tests/test_fuzz.py) and
through the page's JS → worker bridge (tests/browser/test_faults.py).

Each command is JSON text, because some are not expressible as Python values that
``json.dumps`` accepts (nesting deeper than the recursion limit).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import engine

TYPES = ["add_combatant", "update_combatant", "remove_combatant", "start_round", "act", "interrupt", "pass",
         "end_round", "update_settings"]
KEYS = ["type", "actor", "action", "id", "changes", "combatant", "declarations", "rolls", "settings", "target",
        "against", "weapon", "distance", "test_result", "difficulty", "success", "familier", "skill", "posture",
        "items", "tests", "engine_rolled", "__proto__", "constructor", "", "type ", "TYPE"]
IDS = ["aldric", "orque", "c1", "", " ", "aldric\u0000", "ALDRIC", "0", "-1"]
UNICODE = ["É", "ß", "\u202e", "\u200b", "🗡️", "𝔄", "\ufeff", "\\", "\"", "\n", "日本語", "\ud800", "\udfff", "\u0000"]
HUGE = [10**18, -(10**18), 2**53 + 1, 10**400, 1e308, -1e308, 1.5, -0.0, 2**31, -(2**31) - 1]

#: What kinds of malformed command the corpus holds, in turn (each one tenth of it).
KINDS = ("wrong_type", "huge_number", "deep_nesting", "unknown_keys", "not_an_object", "long_string", "unicode",
         "near_miss", "bad_options", "garbage_text")


def _scalar(rng: random.Random) -> object:
    return rng.choice([None, True, False, 0, -1, 7, 3.25, "", "x", [], {}, rng.choice(HUGE), rng.choice(UNICODE)])


def _text(rng: random.Random, kind: str) -> str:
    t = rng.choice(TYPES)
    actor = rng.choice(IDS)
    action = rng.choice(list(engine.ACTIONS))
    if kind == "wrong_type":
        key = rng.choice(["type", "actor", "action", "id", "changes", "combatant", "rolls", "declarations"])
        return json.dumps({"type": t, "actor": actor, "action": action, key: _scalar(rng)})
    if kind == "huge_number":
        field = rng.choice(["distance", "test_result", "difficulty"])
        number = rng.choice(HUGE)
        rolls = {"aldric": rng.choice(HUGE), "orque": rng.choice(HUGE)}
        return json.dumps(rng.choice([
            {"type": "act", "actor": actor, "action": "charge", field: number},
            {"type": "start_round", "rolls": rolls},
            {"type": "update_combatant", "id": actor, "changes": {"wounds": number, "hope": number}},
            {"type": "add_combatant", "combatant": {"name": "X", "initiative_bonus": number}},
        ]))
    if kind == "deep_nesting":
        depth = rng.choice([50, 500, 5_000, 50_000])
        where = rng.choice(["changes", "combatant", "rolls", "items", "command"])
        nest = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
        return nest if where == "command" else f'{{"type": "{t}", "actor": "{actor}", "{where}": {nest}}}'
    if kind == "unknown_keys":
        command: dict[str, object] = {"type": t, "actor": actor, "action": action}
        for _ in range(rng.randint(1, 20)):
            command[rng.choice(KEYS) + rng.choice(["", "_x", "2"])] = _scalar(rng)
        return json.dumps(command)
    if kind == "not_an_object":
        return json.dumps(rng.choice([None, True, 0, -7, 1e300, "act", "", [], [t], [{"type": t}], "{}"]))
    if kind == "long_string":
        size = rng.choice([1_000, 10_000, 100_000])
        field = rng.choice(["type", "actor", "action", "name"])
        long = rng.choice(UNICODE[:8]) * size
        if field == "name":
            return json.dumps({"type": "add_combatant", "combatant": {"name": long}})
        return json.dumps({"type": t, "actor": actor, "action": action, field: long})
    if kind == "unicode":
        name = "".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 30)))
        return json.dumps(rng.choice([
            {"type": "add_combatant", "combatant": {"name": name, "side": name}},
            {"type": t, "actor": name, "action": name},
            {"type": "update_combatant", "id": "aldric", "changes": {"skills": {name: -1}}},
        ]))
    if kind == "near_miss":
        return json.dumps(rng.choice([
            {"type": "act", "actor": "orque", "action": action, "target": "orque"},
            {"type": "interrupt", "actor": "aldric", "action": "charge"},
            {"type": "act", "actor": "aldric", "action": "bloquer"},
            {"type": "start_round", "rolls": {"aldric": 7}},
            {"type": "start_round", "rolls": {"aldric": 0, "orque": 3}},
            {"type": "remove_combatant", "id": "personne"},
            {"type": "update_settings", "settings": {"run_table": [[1, -5], ["a", 2]]}},
            {"type": "act", "actor": "orque", "action": "attaque_melee", "weapon": "epee"},
            {"type": "add_combatant", "combatant": {"name": "   "}},
            {"type": "add_combatant", "combatant": {"name": "X", "weapons": [{"id": "a"}]}},
            {"type": t.upper(), "actor": actor},
        ]))
    if kind == "bad_options":
        options = {rng.choice(KEYS[9:21]): _scalar(rng) for _ in range(rng.randint(1, 4))}
        return json.dumps({"type": rng.choice(["act", "interrupt"]), "actor": "orque", "action": action, **options})
    return rng.choice(['{"type": "act"', "{", "", "null", "NaN", "[1,]", '{"type": "act",,}', "\u0000", "'act'",
                       '{"type": 1e999}', "[" * 10, '{"a": "\\ud800"}'])


def corpus(count: int, seed: int = 20261129) -> Iterator[tuple[str, str]]:
    """``count`` malformed commands as ``(kind, json_text)``, the kinds in turn."""
    rng = random.Random(seed)
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        yield kind, _text(rng, kind)


def fight() -> list[dict[str, object]]:
    """Aldric (PJ) and Orque (PNJ), round 1 under way: Aldric 10 → 5 P.I. after
    « Observer en détail » (R3.2), Orque 6 P.I. to act. Where the fuzz starts, and the fight
    the end-to-end tests seed."""
    from tests.casts import CASTS

    return [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
            {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 5, "orque": 1}},
            {"type": "act", "actor": "aldric", "action": "observer"}]
