"""A long fight for the scale tests and the benchmark: ``fighters`` orques,
then rounds where everyone passes in turn, until the log has ``commands`` commands (30
fighters and 10,000 commands: about 320 rounds)."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.table import Table
from tests.casts import CASTS


def long_fight(commands: int, fighters: int = 30, seed: int = 14) -> list[dict[str, Any]]:
    """The resolved log of a long legal fight, exactly ``commands`` commands long."""
    table = Table(rng=random.Random(seed))
    log: list[dict[str, Any]] = []

    def send(command: dict[str, Any]) -> dict[str, Any]:
        answer = table.apply(command)
        assert answer["ok"], answer
        log.append(answer["command"])
        return answer

    for i in range(min(fighters, commands)):
        send({"type": "add_combatant", "combatant": {**CASTS["orque"], "id": f"f{i}", "name": f"Orque {i}"}})
    board = table.show()["board"]
    while len(log) < commands:
        if board["round_over"]:
            board = send({"type": "start_round"})["board"]
        else:
            board = send({"type": "pass", "actor": board["active"][0]})["board"]
    return log


def long_save(commands: int, fighters: int = 30) -> str:
    """The save text of :func:`long_fight` (format 2, with its board: a reload paints it)."""
    table = Table()
    answer = table.load(json.dumps({"app": "riposte", "format": 2, "commands": long_fight(commands, fighters), "board": None}))
    assert answer["ok"], answer
    return str(answer["save"])


def largest_link(rounds: int = 2_300, fighters: int = 64, seed: int = 45) -> str:
    """The link text (engine/link.py) of the largest fight a link carries:
    ``fighters`` orques, then ``rounds`` rounds, each begun with the same dice and ended at
    once. The engine plays the first round; the link repeats its two tokens."""
    table = Table(rng=random.Random(seed))
    for i in range(fighters):
        sheet = {k: v for k, v in CASTS["orque"].items() if k != "id"}
        assert table.apply({"type": "add_combatant", "combatant": {**sheet, "name": f"Orque {i}"}})["ok"]
    assert table.apply({"type": "start_round"})["ok"]
    assert table.apply({"type": "end_round"})["ok"]
    *head, tokens = json.loads(table.link()["text"])  # the sheets, then the round's tokens
    *before, start, end = tokens.split("~")
    return json.dumps([*head, "~".join([*before, *[start, end] * rounds])], ensure_ascii=False, separators=(",", ":"))
