"""Keys that name a JavaScript prototype ("__proto__", "constructor", "toString") as
fighter ids, weapon ids and skills, through the table's one entry point (the page's
bridge), a save and its replay (issue "Nothing lost, even when pushed", items 8 and 10):
in Python they are keys like any other, and nothing typed for them is dropped."""

from __future__ import annotations

import json
import random

from engine import save
from engine.table import Table
from engine.wire import unpack

KEYS = ["__proto__", "constructor", "toString"]


def _sheet(cid: str, n: int) -> dict[str, object]:
    return {"id": cid, "name": f"Clef {n}", "side": "pnj", "characteristics": {"melee": 6},
            "skills": {"constructor": n + 1, "__proto__": 2},
            "weapons": [{"id": "__proto__", "name": "Lame", "kind": "melee", "skill": "constructor"}],
            "in_hand": ["__proto__"]}


def _call(table: Table, request: dict[str, object]) -> dict[str, object]:
    answer = json.loads(table.call(json.dumps(request)))
    assert isinstance(answer, dict)
    return answer


def test_prototype_keys_keep_their_dice_through_the_bridge_and_a_save() -> None:
    table = Table(rng=random.Random(3))
    for n, cid in enumerate(KEYS):
        assert _call(table, {"op": "apply", "command": {"type": "add_combatant", "combatant": _sheet(cid, n)}})["ok"]
    dice = {"__proto__": 6, "constructor": 2, "toString": 1}
    answer = _call(table, {"op": "apply", "command": {
        "type": "start_round", "declarations": dict.fromkeys(KEYS, "__proto__"), "rolls": dice}})
    assert answer["ok"], answer
    assert answer["command"].get("engine_rolled", []) == []  # type: ignore[union-attr]
    board = answer["board"]
    assert isinstance(board, dict)
    assert {cid: board["combatants"][cid]["d6"] for cid in KEYS} == dice
    assert board["combatants"]["__proto__"]["initiative"] == 3 + 1 + 6  # ⌊6/2⌋ + constructor 1 + d6

    # The save, read back, replays to the same board: the keys survive JSON both ways.
    text = _call(table, {"op": "export", "board": True})["text"]
    assert isinstance(text, str)
    read = save.read(text)
    assert read["ok"], read
    assert [c["rolls"] for c in read["commands"] if c["type"] == "start_round"] == [dice]
    reloaded = Table(rng=random.Random(4))
    # Each session packs its verdicts in its own table (engine/wire.py): compared unpacked.
    assert unpack(_call(reloaded, {"op": "load", "text": text})["board"]) == unpack(board)
