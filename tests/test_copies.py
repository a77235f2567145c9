"""A model's copies as one command (``add_copies``, docs/ENGINE.md): N copies of one sheet
numbered as N ``add_combatant`` ``numbered`` would number them, one entry in the log (one
undo, one redo, one line of the journal), refused with a reason when the count is not an
integer of 1 or more or would pass the fighter limit; old logs of separate copies unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine import link, save
from engine.decide import MAX_FIGHTERS
from engine.errors import sentence
from engine.table import Table

ORQUE = {"name": "Orque", "side": "pnj", "characteristics": {"melee": 6}, "skills": {"hache": 2},
         "weapons": [{"id": "hache", "name": "Hache", "kind": "melee", "skill": "hache"}], "in_hand": ["hache"]}


def names(answer: dict[str, Any]) -> list[str]:
    return [f["name"] for f in sorted(answer["board"]["combatants"].values(), key=lambda f: f["entry"])]


def copies(count: object, sheet: dict[str, Any] = ORQUE) -> dict[str, Any]:
    return {"type": "add_copies", "combatant": sheet, "count": count}


def test_three_copies_are_one_command_one_undo_one_redo() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    answer = table.apply(copies(3))
    assert answer["ok"], answer
    assert names(answer) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"]
    assert answer["command"] == {**copies(3), "ids": ["c2", "c3", "c4"]}
    assert answer["undo"] == 2
    assert all(f["in_hand"] == ["hache"] and f["weapons"][0]["name"] == "Hache" for f in answer["board"]["combatants"].values())
    undone = table.undo()
    assert undone["undone"]["type"] == "add_copies" and names(undone) == ["Orque"] and undone["undo"] == 1
    redone = table.redo()
    assert redone["redone"]["ids"] == ["c2", "c3", "c4"] and names(redone) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"]


def _one_by_one(board: list[tuple[str, bool]], model: str, count: int) -> list[str]:
    table = Table()
    for name, numbered in board:
        table.apply({"type": "add_combatant", "combatant": {"name": name}, **({"numbered": True} if numbered else {})})
    answer = table.show()
    for _ in range(count):
        answer = table.apply({"type": "add_combatant", "combatant": {"name": model}, "numbered": True})
        assert answer["ok"], answer
    return names(answer)


@pytest.mark.parametrize(("board", "model", "count"), [
    ([], "Orque", 3),
    ([("Orque", False)], "Orque", 3),
    ([("Aldric", False), ("Orque", False), ("Orque", True)], "Orque", 2),
    ([("Orque 1", False), ("Orque 3", False)], "Orque", 3),
    ([("Orque", False)], "Orque 7", 2),
    ([("Gobelin", False)], "Orque", 1),
    ([("x" * 60, False)], "x" * 60, 2),
])
def test_copies_are_numbered_as_numbered_copies_one_by_one(board: list[tuple[str, bool]], model: str, count: int) -> None:
    """"Orque" on the board becomes "Orque 1", the copies "Orque 2", "Orque 3"…: the same
    names as the same copies added one at a time (``add_combatant`` ``numbered``)."""
    table = Table()
    for name, numbered in board:
        table.apply({"type": "add_combatant", "combatant": {"name": name}, **({"numbered": True} if numbered else {})})
    answer = table.apply(copies(count, {"name": model}))
    assert answer["ok"], answer
    assert names(answer) == _one_by_one(board, model, count)


@pytest.mark.parametrize("count", [0, -2, 1.5, 2.0, True, "3", None, [3]])
def test_a_count_that_is_not_an_integer_of_1_or_more_is_refused(count: object) -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    answer = table.apply(copies(count))
    assert answer["error"]["code"] == "bad_value" and answer["error"]["key"] == "copies_count", answer
    assert answer["error"]["message"] == "Nombre d'exemplaires : un entier, 1 ou plus."
    assert sentence("en", "copies_count", answer["error"]["params"]) == "Number of copies: a whole number, 1 or more."
    assert names(answer) == ["Orque"] and answer["undo"] == 1


def test_copies_past_the_fighter_limit_are_refused_saying_how_many_may_still_come() -> None:
    table = Table()
    table.apply(copies(MAX_FIGHTERS - 2))
    answer = table.apply(copies(3))
    assert answer["error"] == {
        "code": "too_many_fighters", "key": "too_many_copies", "params": {"max": 64, "room": 2},
        "message": "Au plus 64 combattants dans un combat : on peut encore en ajouter 2.",
    }
    assert sentence("en", "too_many_copies", answer["error"]["params"]) == "At most 64 fighters in a fight: 2 more can be added."
    assert len(answer["board"]["combatants"]) == 62 and answer["undo"] == 1
    assert table.apply(copies(2))["ok"]
    full = table.apply(copies(1))
    assert full["error"]["key"] == "too_many_fighters" and full["error"]["params"] == {"max": 64}
    assert table.apply(copies(MAX_FIGHTERS + 1))["error"]["key"] == "too_many_fighters"


def test_check_says_the_refusal_and_changes_nothing() -> None:
    table = Table()
    table.apply(copies(60))
    assert table.check(copies(5))["error"]["params"] == {"max": 64, "room": 4}
    assert table.check(copies(4))["ok"] and len(table.show()["board"]["combatants"]) == 60


@pytest.mark.parametrize(("fields", "key"), [
    ({"ids": ["a", "b"]}, "distinct_ids"),
    ({"ids": ["a", "a"], "count": 2}, "distinct_ids"),
    ({"ids": ["c1"]}, "id_taken"),
    ({"combatant": {"name": ""}}, "required"),
    ({"combatant": "Orque"}, "object"),
])
def test_a_bad_sheet_or_bad_ids_are_refused(fields: dict[str, Any], key: str) -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    answer = table.apply({**copies(1), **fields})
    assert answer["error"]["key"] == key, answer


def test_the_limits_give_the_count_s_bounds() -> None:
    limits = json.loads(Table().call(json.dumps({"op": "limits"})))["limits"]
    assert limits["copies"] == {"low": 1, "high": MAX_FIGHTERS}


def test_a_save_holding_copies_round_trips_and_replays() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply(copies(3))
    table.apply({"type": "start_round"})
    text = table.export()["text"]
    logged = save.parse(text)["commands"]
    assert [c["type"] for c in logged] == ["add_combatant", "add_copies", "start_round"]
    assert json.loads(json.dumps(logged)) == logged
    again = Table()
    opened = again.load(text)
    assert opened["ok"], opened
    assert names(opened) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"] and opened["undo"] == 3
    assert again.export()["text"] == text
    replayed = engine.replay(logged)
    assert replayed["ok"], replayed
    assert replayed["state"] == engine.replay(save.parse(again.export()["text"])["commands"])["state"]
    assert sorted(f["name"] for f in engine.view(replayed["state"])["combatants"].values()) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"]


def test_a_link_holding_copies_declares_their_weapons_compactly() -> None:
    """A share link (engine/link.py) writes a round's declarations by each weapon's place
    on the sheet: the copies' weapons are known from ``add_copies``."""
    table = Table()
    table.apply(copies(2))
    table.apply({"type": "start_round", "declarations": {"c1": "hache", "c2": "hache"}, "rolls": {"c1": 3, "c2": 5}})
    log = save.parse(table.export()["text"])["commands"]
    packed = json.loads(link.pack(log))
    assert packed[-1] == "sdf|00"  # the round: dice 3 and 5, each the first weapon of its sheet
    assert link.unpack(packed) == log
    opened = Table()
    assert names(opened.load(table.link()["text"])) == ["Orque 1", "Orque 2"]


def test_an_old_log_of_separate_numbered_copies_opens_unchanged() -> None:
    """Before ``add_copies``, the page sent one ``add_combatant`` ``numbered`` per copy."""
    old = Table()
    old.apply({"type": "add_combatant", "combatant": ORQUE})
    for _ in range(3):
        old.apply({"type": "add_combatant", "combatant": ORQUE, "numbered": True})
    text = old.export()["text"]
    opened = Table()
    answer = opened.load(text)
    assert names(answer) == ["Orque 1", "Orque 2", "Orque 3", "Orque 4"] and answer["undo"] == 4
    assert opened.export()["text"] == text
    assert names(opened.undo()) == ["Orque 1", "Orque 2", "Orque 3"]


def test_the_journal_says_the_copies_in_one_line() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": ORQUE})
    table.apply(copies(3))
    entries = table.journal()["entries"]
    assert entries[1:] == [{"round": 0, "kind": "copies", "name": "Orque", "side": "pnj", "count": 3,
                            "names": ["Orque 2", "Orque 3", "Orque 4"], "renamed": {"name": "Orque", "to": "Orque 1"}}]
    hidden = Table()
    hidden.apply({"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}})
    hidden.apply(copies(2, {"name": "Gobelin", "hidden": True}))
    assert [e["kind"] for e in hidden.journal()["entries"]] == ["joined", "copies"]
    assert [e["kind"] for e in hidden.journal(players=True)["entries"]] == ["joined"]  # an ambush (D26)


def test_new_fight_with_the_party_keeps_copies_sheets() -> None:
    """A new fight with the party reads each PJ's sheet from the log: copies of a PJ model too."""
    table = Table()
    table.apply(copies(2, {**ORQUE, "name": "Garde", "side": "pj", "hope": 2}))
    table.apply({"type": "update_combatant", "id": "c2", "changes": {"hope": 0, "wounds": 4}})
    answer = table.new(True, True)  # wounds and Espoir as each PJ joined this fight
    assert [(f["name"], f["hope"], f["wounds"]) for f in answer["board"]["combatants"].values()] == [
        ("Garde 1", 2, 0), ("Garde 2", 2, 0)]
