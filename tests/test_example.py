"""The example fight a first visit offers (engine/example.py, ``Table.example``): a fight
the rules take as they are, ready to play round 1 with its charge and its arrow."""

from __future__ import annotations

import json

import pytest

from engine.example import WORDS, example_log
from engine.table import Table


def _by_name(board: dict) -> dict[str, dict]:
    return {f["name"]: f for f in board["combatants"].values()}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_example_is_two_pj_and_three_pnj_waiting_for_round_one(lang: str) -> None:
    answer = Table().example(lang)
    assert answer["ok"] and answer["save"]
    board = answer["board"]
    sides = [f["side"] for f in board["combatants"].values()]
    assert sides.count("pj") == 2 and sides.count("pnj") == 3
    assert board["round"] == 0 and board["round_over"]  # R1 next: everyone declares and rolls
    fighters = _by_name(board)
    # The archer: a bow in hand with an arrow nocked (R4 tir_arc needs one; D18 arrows not counted).
    lyra = fighters["Lyra"]
    assert lyra["in_hand"] == ["arc"] and lyra["arrow_nocked"]
    assert lyra["weapons"][0]["kind"] == "bow"
    # The swordsman: a melee weapon in hand, declared by default (R1.1, D2).
    assert fighters["Bastien"]["suggested_declaration"] == "epee"
    chief = fighters[WORDS[lang]["chief"]]
    assert chief["side"] == "pnj" and "Bastien" in chief["notes"] and not chief["engaged"]


def test_the_example_speaks_the_pages_language_and_french_otherwise() -> None:
    english = _by_name(Table().example("en")["board"])
    french = _by_name(Table().example("xx")["board"])
    assert english["Lyra"]["weapons"][0]["name"] == "Longbow"
    assert french["Lyra"]["weapons"][0]["name"] == "Arc long"
    assert "Brigand chief" in english and "Chef brigand" in french


def test_round_one_of_the_example_plays_its_charge_and_its_arrow() -> None:
    """R4.2: the leader, not engaged, charges Bastien at 5 m (≤ 6 + his test); R2.1 and R4:
    Lyra shoots the arrow she has nocked."""
    table = Table()
    board = table.example("fr")["board"]
    ids = {f["name"]: f["id"] for f in board["combatants"].values()}
    chief, lyra, bastien = ids["Chef brigand"], ids["Lyra"], ids["Bastien"]
    dice = {cid: 1 for cid in ids.values()} | {chief: 6, lyra: 5}
    declared = {f["id"]: f["suggested_declaration"] for f in board["combatants"].values()}  # as the form offers (D2)
    started = table.apply({"type": "start_round", "rolls": dice, "declarations": declared})
    assert started["ok"], started
    fighters = started["board"]["combatants"]
    assert started["board"]["active"] == [lyra]  # Tir 8 → 4 + Arc 3 + 5 = 12, the chief 3 + 2 + 6 = 11
    assert fighters[lyra]["pi"] == 12 and fighters[chief]["pi"] == 11
    shot = table.apply({"type": "act", "actor": lyra, "action": "tir_arc", "target": ids["Brigand 1"]})
    assert shot["ok"], shot
    assert not shot["board"]["combatants"][lyra]["arrow_nocked"]  # the arrow is gone
    assert shot["board"]["active"] == [chief]
    assert shot["board"]["combatants"][chief]["actions"]["charge"]["allowed"]
    charged = table.apply({"type": "act", "actor": chief, "action": "charge", "target": bastien,
                           "distance": 5, "test_result": 0})
    assert charged["ok"], charged
    assert charged["board"]["combatants"][bastien]["engaged"]  # D11: a charge with a target engages


def test_the_example_is_an_operation_the_page_calls_and_can_revert() -> None:
    table = Table()
    table.apply({"type": "add_combatant", "combatant": {"name": "Aldric"}})
    answer = json.loads(table.call(json.dumps({"op": "example", "lang": "en"})))
    assert answer["ok"] and len(answer["board"]["combatants"]) == 5
    assert list(json.loads(table.call('{"op": "revert"}'))["board"]["combatants"]) == ["c1"]


def test_the_example_log_is_what_a_save_of_it_replays() -> None:
    table = Table()
    text = table.example("fr")["save"]
    again = Table().load(text)
    assert again["ok"] and again["board"] == table.show()["board"]
    assert len(example_log("fr")) == again["undo"]


def test_the_example_is_one_command_and_one_undo_takes_it_back() -> None:
    """The example opens as one command (``add_combatants``): one undo empties the board,
    one redo brings the five fighters back, Lyra's arrow and the chief's note with them."""
    table = Table()
    opened = table.example("fr")
    assert opened["undo"] == 1 and opened["last"]["type"] == "add_combatants"
    undone = table.undo()
    assert undone["ok"] and undone["board"]["combatants"] == {} and undone["undo"] == 0
    redone = _by_name(table.redo()["board"])
    assert list(redone) == ["Lyra", "Bastien", "Chef brigand", "Brigand 1", "Brigand 2"]
    assert redone["Lyra"]["arrow_nocked"] and "Bastien" in redone["Chef brigand"]["notes"]


def test_the_example_saved_by_an_earlier_release_still_opens() -> None:
    """An earlier release saved the example as seven commands (each fighter added, then
    Lyra's arrow and the chief's note set): it opens as it was, seven undo steps."""
    log: list[dict] = []
    for sheet in example_log("fr")[0]["combatants"]:
        table_fields = {k: sheet[k] for k in ("arrow_nocked", "notes") if k in sheet}
        log.append({"type": "add_combatant", "combatant": {k: x for k, x in sheet.items() if k not in table_fields}})
        if table_fields:
            log.append({"type": "update_combatant", "id": f"c{len([c for c in log if c['type'] == 'add_combatant'])}",
                        "changes": table_fields})
    old = json.dumps({"app": "riposte", "format": 2, "commands": log, "board": None})
    table = Table()
    loaded = table.load(old)
    assert loaded["ok"], loaded
    assert loaded["undo"] == 7
    assert _by_name(loaded["board"]) == _by_name(Table().example("fr")["board"])


def test_several_fighters_in_one_command_are_refused_whole() -> None:
    """``add_combatants``: a bad sheet among them refuses the command, nothing added;
    more than the 64 fighters a fight holds, refused too."""
    table = Table()
    bad = table.apply({"type": "add_combatants", "combatants": [{"name": "A"}, {"name": "B", "side": "dragon"}]})
    assert not bad["ok"] and bad["board"]["combatants"] == {}
    crowd = table.apply({"type": "add_combatants", "combatants": [{"name": f"F{n}"} for n in range(65)]})
    assert not crowd["ok"] and crowd["error"]["code"] in ("bad_value", "too_many_fighters")
    empty = table.apply({"type": "add_combatants", "combatants": []})
    assert not empty["ok"] and empty["error"]["code"] == "bad_value"


def test_the_example_goes_through_a_share_link_whole() -> None:
    """A share link of the example (engine/link.py: ``add_combatants`` kept as it is, its
    fighters' weapons known to the rounds after it) opens as the example."""
    table = Table()
    table.example("fr")
    table.apply({"type": "start_round", "rolls": {f"c{n}": n for n in range(1, 6)}})
    link = table.link()["text"]
    other = Table()
    opened = other.load(link)
    assert opened["ok"], opened
    assert opened["board"] == table.show()["board"]
