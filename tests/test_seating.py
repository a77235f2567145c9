"""The live table's seating, through the real ``Table`` (engine/seating.py, engine/live.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.table import Table

PHONE = "e" * 64


def test_a_phone_plays_only_a_pj_of_the_players_board() -> None:
    """A phone whose PJ the game master made a PNJ (or whose PJ's id names a PNJ in the
    fight opened since) declares, asks and plays nothing for it, nor is told of its attacks."""
    table = Table()

    def call(**request: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(table.call(json.dumps(request)))
        return answer

    for sheet in ({"name": "Aldric", "side": "pj"}, {"name": "Orque"}):
        call(op="apply", command={"type": "add_combatant", "combatant": sheet})
    call(op="phone", fp=PHONE, state="open", at=1)
    call(op="hear", fp=PHONE, message={"t": "claim", "id": "c1"})
    call(op="apply", command={"type": "update_combatant", "id": "c1", "changes": {"side": "pnj"}})
    call(op="apply", command={"type": "start_round", "rolls": {"c1": 1, "c2": 6}})
    for message in ({"t": "declare", "die": 4}, {"t": "interrupt"}, {"t": "pass", "n": 1}):
        told = call(op="hear", fp=PHONE, message=message)["live"]["told"]
        assert told == [[PHONE, "refused", {"reason": "no_claim"}]], (message, told)
    assert call(op="host", do={"what": "mode", "mode": "auto"})["ok"]
    attack = call(op="apply", command={"type": "act", "actor": "c2", "action": "attaque_melee", "target": "c1"})
    assert attack["ok"] and [m for m in attack["live"]["told"] if m[1] == "attacked"] == []
    answer = call(op="hear", fp=PHONE, message={"t": "interrupt", "action": "parer", "n": 2})
    assert answer["live"]["told"] == [[PHONE, "refused", {"reason": "no_claim"}]]
    assert table.show()["undo"] == attack["undo"]
