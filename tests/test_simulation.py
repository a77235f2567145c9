"""The lab's random rounds (engine/simulation.py) never disagree with the engine: the
commands they chose, played through the table session (``Table.apply``, the page's own
path), give the same costs, payments, P.I. and Espoir after each action, end each round
at the same command, and the board's verdicts allow exactly what the simulation found
allowed, for the fighter acting and for every interruption; the figures the lab returns
are those the table's events count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.engine_bench import fighter
from engine import labo
from engine.regles import as_json, read
from engine.table import Table
from tests.casts import CASTS

#: Rules that move every number the simulation keeps: costs, the Espoir threshold and cost,
#: free actions after the first at 0 (D8's open phase), passing off, a run that is complex.
#: Rounds per rule set: enough for a fighter that passed to interrupt down to 0 P.I. (R2.4, D21).
ROUNDS = 30
RULES = [
    {},
    {"cout_interruption": 2, "cout_simple": 3, "cout_complexe": 4, "espoir_seuil": 2, "espoir_cout": 0},
    {"cout_gratuite_suivante": 0, "passer": False, "courir_categorie": "complexe", "visee_perdue": ["complexe"],
     "charge_sans_esquive": False, "visee_au_plafond": False, "de_initiative": 12},
    {"cout_interruption": 0, "diviseur_caracteristique": 1, "espoir_cout": 2, "visee_pas": 2, "visee_plafond": 3},
]


def random_cast(seed: int, n: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"type": "add_combatant", "combatant": {**fighter(rng, i), "id": f"f{i}"}} for i in range(n)]


def played(log: list[dict[str, Any]], regles: dict[str, Any], rounds: int, seed: int) -> tuple[list[Any], dict[str, Any]]:
    """The simulation's commands and findings, and its figures (the lab's ``b`` side)."""
    told: list[Any] = []
    base = labo._rules_of(log)
    play = labo._play(labo._cast(log), read(regles, base), rounds, random.Random(seed),
                      lambda command, found: told.append((command, found)))
    try:
        while True:
            next(play)
    except StopIteration as stop:
        return told, stop.value


def check_through_the_table(log: list[dict[str, Any]], regles: dict[str, Any], told: list[Any]) -> dict[str, Any]:
    """Every command told played on a table session with the fight's fighters and these
    rules; returns what its events count."""
    table = Table()
    assert table.apply({"type": "set_rules", "regles": as_json(read(regles, labo._rules_of(log))), "whole": True})["ok"]
    for sheet in labo._cast(log):
        assert table.apply({"type": "add_combatant", "combatant": sheet})["ok"]
    counts: dict[str, Any] = {"actions": 0, "interruptions": 0, "passes": 0, "espoir": 0, "rounds": 0, "cut": 0, "first": {}}
    board = table.show()["board"]
    opened = True
    for command, found in told:
        if command is None:  # a phase begins: the board allows what the simulation found
            assert board is not None
            fighters = board["combatants"]
            actor = found["actor"]
            assert actor in board["active"]
            allowed = [a for a, verdict in fighters[actor]["actions"].items()
                       if verdict["allowed"] and verdict["category"] != "interruption"]
            assert allowed == found["allowed"], (actor, allowed, found["allowed"])
            for other, theirs in found["interruptions"].items():
                board_says = [a for a, verdict in fighters[other]["actions"].items()
                              if verdict["allowed"] and verdict["category"] == "interruption"]
                assert board_says == theirs, (other, board_says, theirs)
            if not opened:
                counts["first"][actor] = counts["first"].get(actor, 0) + 1
                opened = True
            continue
        answer = table.apply(command)
        assert answer["ok"], (command, answer.get("error"))
        board = answer["board"]
        assert board["round_over"] == found.get("over", False) or command["type"] == "start_round", command
        if command["type"] == "start_round":
            counts["rounds"] += 1
            opened = False
            started = next(e for e in answer["events"] if e["type"] == "round_started")
            assert {i["id"]: i["initiative"] for i in started["initiatives"]} == found["initiatives"]
            assert not board["round_over"]
        elif command["type"] == "end_round":
            counts["cut"] += 1
        elif command["type"] == "pass":
            counts["passes"] += 1
        else:
            taken = next(e for e in answer["events"] if e["type"] == "action_taken")
            assert {k: taken[k] for k in ("cost", "pays", "pi_after", "hope_after")} == \
                {k: found[k] for k in ("cost", "pays", "pi_after", "hope_after")}, command
            counts["interruptions" if command["type"] == "interrupt" else "actions"] += 1
            counts["espoir"] += taken["hope_before"] - taken["hope_after"]
    return counts


@pytest.mark.parametrize("regles", RULES, ids=["book", "cheap", "free-and-no-pass", "dear-hope"])
def test_the_lab_s_rounds_replay_through_the_table_with_the_same_figures(regles: dict[str, Any]) -> None:
    log = random_cast(11, 6)
    told, result = played(log, regles, rounds=ROUNDS, seed=5)
    counts = check_through_the_table(log, regles, told)
    n, per = result["rounds"], result["rounds"] * result["fighters"]
    assert counts["rounds"] == n == ROUNDS and counts["cut"] == result["cut"]
    assert round(counts["actions"] / per, 3) == result["actions"]
    assert round(counts["interruptions"] / per, 3) == result["interruptions"]
    assert round(counts["passes"] / per, 3) == result["passes"]
    assert round(counts["espoir"] / n, 3) == result["espoir"]
    assert {k: round(x / n, 3) for k, x in counts["first"].items()} == \
        {k: f["first"] for k, f in result["by_fighter"].items() if f["first"]}
    kinds = {c["action"] for c, _ in told if c is not None and c["type"] in ("act", "interrupt")}
    assert len(kinds) >= 8, kinds  # the policy reaches many actions, some with options


def test_the_lab_takes_actions_with_options() -> None:
    """Targets, weapons, items, postures, a charge's reach and the acrobatic dodge's tests."""
    told, _ = played(random_cast(3, 8), {}, rounds=30, seed=2)
    commands = [c for c, _ in told if c is not None and c["type"] in ("act", "interrupt")]
    assert any("target" in c for c in commands) and any("against" in c for c in commands)
    assert any("weapon" in c for c in commands)
    assert any(c["action"] == "charge" and "distance" in c for c in commands)


def test_a_known_fight_s_fighters_replay_too() -> None:
    log = [{"type": "add_combatant", "combatant": {**CASTS[n], "id": n}} for n in ("aldric", "orque", "lyra", "gobelin")]
    told, result = played(log, {"cout_interruption": 3}, rounds=10, seed=9)
    counts = check_through_the_table(log, {"cout_interruption": 3}, told)
    assert counts["rounds"] == result["rounds"] == 10
