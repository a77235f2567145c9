"""The lab (engine/labo.py): the open fight's log replayed under other rules, and random
rounds of its fighters under two rule sets, side by side, from one seed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import labo
from engine.errors import Refusal
from engine.table import Table
from tests.casts import CASTS


def cast(*names: str) -> list[dict[str, Any]]:
    return [{"type": "add_combatant", "combatant": {**CASTS[n], "id": n}} for n in names]


#: Aldric and the Orque, round 1: the Orque attacks, Aldric dodges (an interruption, 5 P.I.).
FIGHT = [*cast("aldric", "orque"), {"type": "start_round", "rolls": {"aldric": 1, "orque": 6}},
         {"type": "act", "actor": "orque", "action": "attaque_melee", "target": "aldric"},
         {"type": "interrupt", "actor": "aldric", "action": "esquiver"}]


def test_the_replay_names_each_command_whose_cost_and_pi_after_change() -> None:
    r = labo.replay(FIGHT, {"cout_interruption": 4, "cout_complexe": 12})
    assert r["refused"] is None
    assert r["differences"] == [{"field": "cout_complexe", "before": 10, "after": 12},
                                {"field": "cout_interruption", "before": 5, "after": 4}]
    changed = {c["index"]: c for c in r["changed"]}
    assert set(changed) == {3, 4}
    attack, dodge = changed[3], changed[4]
    assert (attack["before"]["action"]["cost"], attack["after"]["action"]["cost"]) == (10, 12)
    assert attack["after"]["action"]["pi_after"] == attack["before"]["action"]["pi_after"] - 2
    assert (dodge["before"]["action"]["cost"], dodge["after"]["action"]["cost"]) == (5, 4)
    assert dodge["after"]["action"]["pi_after"] == dodge["before"]["action"]["pi_after"] + 1


def test_the_same_rules_change_nothing() -> None:
    r = labo.replay(FIGHT, {})
    assert (r["changed"], r["refused"], r["differences"], r["commands"]) == ([], None, [], len(FIGHT))


def test_the_first_command_the_other_rules_refuse_and_its_reason() -> None:
    r = labo.replay(FIGHT, {"de_initiative": 4, "diviseur_caracteristique": 1})
    assert r["refused"]["index"] == 2 and r["refused"]["type"] == "start_round"
    assert r["refused"]["key"] == "range" and "de 1 à 4" in r["refused"]["message"]
    assert labo.replay(FIGHT, {"passer": False, "cout_interruption": 4})["refused"] is None


def test_a_divisor_changes_the_round_s_initiatives() -> None:
    r = labo.replay(FIGHT, {"diviseur_caracteristique": 1})
    start = next(c for c in r["changed"] if c["type"] == "start_round")
    assert start["after"]["initiatives"]["aldric"] > start["before"]["initiatives"]["aldric"]


def test_the_fight_s_own_set_rules_are_the_base() -> None:
    log = [{"type": "set_rules", "regles": {"cout_interruption": 3}}, *FIGHT]
    r = labo.replay(log, {"cout_interruption": 3})
    assert r["changed"] == [] and r["differences"] == []


def test_bad_rules_are_refused_field_by_field() -> None:
    with pytest.raises(Refusal) as refused:
        labo.replay(FIGHT, {"cout_interruption": -1, "passer": "non"})
    assert [f["field"] for f in refused.value.fields] == ["regles.cout_interruption", "regles.passer"]


def test_random_rounds_are_the_seed_s_and_say_their_progress() -> None:
    log = cast("aldric", "orque", "lyra", "gobelin")
    play = labo.rounds(log, {"cout_interruption": 1}, count=40, seed=7, every=10)
    told = []
    try:
        while True:
            told.append(next(play))
    except StopIteration as stop:
        result = stop.value
    assert told == [(10, 80), (20, 80), (30, 80), (40, 80), (50, 80), (60, 80), (70, 80), (80, 80)]
    assert result == labo.compare(log, {"cout_interruption": 1}, rounds=40, seed=7, every=10)
    a, b = result["a"], result["b"]
    assert a["rounds"] == b["rounds"] == 40 and a["fighters"] == 4 and a["cut"] == 0
    assert set(a["by_fighter"]) == {"aldric", "orque", "lyra", "gobelin"}
    assert abs(sum(f["first"] for f in a["by_fighter"].values()) - 1) < 0.01  # one fighter opens each round
    assert result["lines"]["fr"][0] == "coût d'une interruption (R3.2) 5 → 1"


def test_cheaper_interruptions_mean_more_of_them() -> None:
    log = cast("aldric", "orque", "lyra", "gobelin")
    result = labo.compare(log, {"cout_interruption": 0, "cout_simple": 1, "cout_complexe": 2}, rounds=60, seed=3)
    assert result["b"]["interruptions"] > result["a"]["interruptions"]
    assert result["b"]["actions"] > result["a"]["actions"]
    assert any("interruption" in line and "de plus" in line for line in result["lines"]["fr"])


def test_a_beat_that_raises_stops_the_rounds() -> None:
    seen = []

    def beat(done: int, total: int) -> None:
        seen.append(done)
        if done >= 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        labo.compare(cast("aldric", "orque"), {}, rounds=100, seed=1, every=10, beat=beat)
    assert seen == [10, 20]


def test_the_count_of_rounds_is_checked() -> None:
    for bad in (0, labo.MAX_ROUNDS + 1, True, "10"):
        with pytest.raises(Refusal):
            labo.compare(cast("aldric"), {}, rounds=bad)  # type: ignore[arg-type]


def test_the_table_s_lab_answers_as_json_and_leaves_the_fight_as_it_is() -> None:
    table = Table()
    for command in FIGHT:
        assert table.apply(command)["ok"]
    before = table.export(False)["text"]
    bad = json.loads(table.call(json.dumps({"op": "labo", "regles": {"cout_interruption": -1, "passer": "non"}})))
    assert bad["ok"] is False and bad["error"]["code"] == "bad_value"
    assert [f["field"] for f in bad["fields"]] == ["regles.cout_interruption", "regles.passer"]
    first = json.loads(table.call(json.dumps({"op": "labo", "regles": {"cout_interruption": 4}, "rounds": 250, "seed": 2})))
    assert first["progress"] == {"done": 100, "total": 500} and first["result"] is None
    assert [c["index"] for c in first["replay"]["changed"]] == [4]
    parts = 1
    answer = first
    while answer["result"] is None:
        answer = json.loads(table.call('{"op": "labo", "more": true}'))
        parts += 1
    assert parts == 6 and answer["result"]["a"]["rounds"] == 250  # 100, 200, 250 (the first side), 350, 450, 500
    assert table.export(False)["text"] == before  # the fight untouched
    json.loads(table.call(json.dumps({"op": "labo", "regles": {}, "rounds": 50})))
    assert json.loads(table.call('{"op": "labo"}')) == {"ok": True}  # dropped
    assert json.loads(table.call('{"op": "labo", "more": true}'))["error"]["key"] == "labo_none"
