"""The engines' scenario (``scenario.json``, played in WebKit and Firefox) checked against
the engine itself, without a browser: its share link holds the start of the seeded fight
(tests/fuzz.py ``fight``), and the P.I. its steps expect are the engine's (R1.3, R3.2, R5.2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import engine
from tests.fuzz import fight

SCENARIO = json.loads((Path(__file__).parent / "scenario.json").read_text())


def expected(name: str) -> dict[str, str]:
    """The P.I. a test of the scenario waits for, by fighter (its last ``.pi`` steps)."""
    steps = next(t["steps"] for t in SCENARIO["tests"] if t["name"] == name)
    return {s["css"].split('"')[1]: s["is"] for s in steps if s["do"] == "text" and s["css"].endswith(".pi")}


def pis(state: Any) -> dict[str, str]:
    board = engine.view(state)
    return {k: f"{c['pi']} P.I." for k, c in board["combatants"].items()}


def test_the_link_holds_the_start_of_the_seeded_fight() -> None:
    assert SCENARIO["save"] == {"app": "riposte", "format": 2, "commands": fight()[:2], "board": None}


def test_the_pi_the_scenario_expects_are_the_engines() -> None:
    state = engine.replay(SCENARIO["save"]["commands"])["state"]
    steps = [("a round starts with typed dice", fight()[2]),
             ("an action, then an interruption", fight()[3]),
             ("an action, then an interruption", {"type": "interrupt", "actor": "aldric", "action": "esquiver", "against": "orque"})]
    seen = {}
    for name, command in steps:
        result = engine.apply(state, command)
        assert result["ok"], result
        state = result["state"]
        seen[name] = pis(state)
    for name, board in seen.items():
        assert expected(name).items() <= board.items(), (name, expected(name), board)


def test_docs_browsers_says_what_each_engine_is_checked_for() -> None:
    """docs/BROWSERS.md's table, row by row, is the scenario's ``features`` (each runner
    checks its engine against the latter)."""
    text = (Path(__file__).parents[2] / "docs" / "BROWSERS.md").read_text()
    table = text[text.index("| feature | Chromium | WebKit | Firefox |"):]
    rows = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = [c == "yes" for c in cells[1:4]]
    assert rows == {f["name"]: [f["chromium"], f["webkit"], f["firefox"]] for f in SCENARIO["features"]}
