"""The summary of a fight (engine/summary.py): its numbers agree with the log it is rebuilt
from, for a scripted fight checked by hand and for random fights checked against the
journal (engine/journal.py), which tells the same events one by one."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import settings
from hypothesis.stateful import initialize, invariant
from strategies import Playing

from engine import save
from engine.table import Table
from tests.casts import CASTS


def test_a_scripted_fight_summed_up_by_hand() -> None:
    """Aldric (initiative 6) observes (simple, 5 P.I., R3.2), Lyra is wounded twice by the
    game master (R1.7), the orc passes (R2.3), the game master ends the round (D21);
    round 2: the orc acts first (R2.1), then is put out of the fight (D6)."""
    t = Table(rng=random.Random(1))
    for name in ("aldric", "lyra", "orque"):
        assert t.apply({"type": "add_combatant", "combatant": CASTS[name]})["ok"]
    ids = {f["name"]: f["id"] for f in t.show()["board"]["combatants"].values()}
    aldric, lyra, orque = ids["Aldric"], ids["Lyra"], ids["Orque"]
    steps: list[dict[str, Any]] = [
        {"type": "start_round", "rolls": {aldric: 6, lyra: 1, orque: 1}},
        {"type": "act", "actor": aldric, "action": "observer"},
        {"type": "update_combatant", "id": lyra, "changes": {"wounds": 1}},
        {"type": "update_combatant", "id": lyra, "changes": {"wounds": 3}},
        {"type": "update_combatant", "id": lyra, "changes": {"wounds": 2}},  # healed: not a wound taken
        {"type": "end_round"},
        {"type": "start_round", "rolls": {aldric: 1, lyra: 1, orque: 6}},
        {"type": "pass", "actor": orque},
        {"type": "update_combatant", "id": orque, "changes": {"hors_combat": True}},
    ]
    for command in steps:
        answer = t.apply(command)
        assert answer["ok"], (command, answer)
    s = t.summary()["summary"]
    by = {f["name"]: f for f in s["fighters"]}
    assert [f["name"] for f in s["fighters"]] == ["Aldric", "Lyra", "Orque"]  # the order they joined
    assert by["Aldric"]["actions"] == {"gratuite": 0, "simple": 1, "complexe": 0, "interruption": 0}
    assert (by["Aldric"]["pi_spent"], by["Aldric"]["first"], by["Aldric"]["passes"]) == (5, 1, 0)
    assert by["Lyra"]["wounds_taken"] == 3 and by["Lyra"]["pi_spent"] == 0
    assert (by["Orque"]["passes"], by["Orque"]["first"], by["Orque"]["out"]) == (1, 1, True)
    assert [(r["round"], r["first"], r["actions"], r["passes"], r["ended"]) for r in s["rounds"]] == [
        (1, aldric, 1, 0, "mj"), (2, orque, 0, 1, None)]
    assert set(s["rounds"][0]["holding"]) == {aldric, lyra, orque}  # each still had 1 P.I. (R2.4)
    assert s["totals"] == {"rounds": 2, "actions": 1, "interruptions": 0, "hope_spent": 0, "seconds": None}  # no times


def test_an_old_fights_save_has_a_summary_too() -> None:
    """Rebuilt from the log: a fight saved before the summary existed is summed up on opening."""
    t = Table()
    t.example("fr")
    t.apply({"type": "start_round", "rolls": {}})
    active = t.show()["board"]["active"][0]
    t.apply({"type": "pass", "actor": active})
    text = t.export()["text"]
    again = Table()
    assert again.load(text)["ok"]
    assert again.summary() == t.summary()
    assert again.summary()["summary"]["rounds"][0]["passes"] == 1


def test_a_removed_fighter_keeps_what_it_did() -> None:
    t = Table()
    t.apply({"type": "add_combatant", "combatant": {"name": "A"}})
    t.apply({"type": "start_round", "rolls": {"c1": 6}})
    t.apply({"type": "act", "actor": "c1", "action": "observer"})
    t.apply({"type": "remove_combatant", "id": "c1"})
    [a] = t.summary()["summary"]["fighters"]
    assert (a["name"], a["removed"], a["pi_spent"]) == ("A", True, 5)


class SummedUp(Playing):
    """Random fights: the summary says what the journal says, event by event."""

    @initialize()
    def start(self) -> None:
        self.table = Table(rng=random.Random(0))
        self.last = self.table.load(None)

    @invariant()
    def the_summary_agrees_with_the_journal(self) -> None:
        s = self.table.summary()["summary"]
        entries = self.table.journal()["entries"]
        actions = [e for e in entries if e["kind"] == "action"]
        assert s["totals"]["rounds"] == sum(e["kind"] == "round_started" for e in entries)
        assert s["totals"]["actions"] == len(actions)
        assert sum(r["passes"] for r in s["rounds"]) == sum(e["kind"] == "passed" for e in entries)
        assert s["totals"]["interruptions"] == sum(e["category"] == "interruption" for e in actions)
        spent = Counter[str]()
        for e in actions:
            spent[e["name"]] += max(0, e["pi_before"] - e["pi_after"])
        names = {f["name"] for f in s["fighters"]}
        if len(names) == len(s["fighters"]) and not any(e["kind"] == "renamed" for e in entries):
            assert {f["name"]: f["pi_spent"] for f in s["fighters"] if f["pi_spent"]} == {k: v for k, v in spent.items() if v}
        # Rebuilt from the save alone, the same summary.
        again = Table()
        assert again.load(self.table.export()["text"])["ok"]
        assert again.summary() == self.table.summary()
        assert json.loads(json.dumps(s)) == s
        assert save.parse(self.table.export()["text"])  # the log it was read from


SummedUp.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None)
test_random_fights_are_summed_up_as_the_journal_tells_them = SummedUp.TestCase
