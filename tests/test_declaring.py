"""The start of a round as the engine gives it to the form: who declares, in one order
every round (R1, D6: the board's ``declaring``), and every refused die at once (R1.2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.table import Table


def _fight() -> Table:
    """Two PNJ entered before two PJ, the orc out of the fight (D6)."""
    table = Table()
    for name, side in (("Orque", "pnj"), ("Aldric", "pj"), ("Gobelin", "pnj"), ("Lyra", "pj"), ("Troll", "pnj")):
        assert table.apply({"type": "add_combatant", "combatant": {"name": name, "side": side}})["ok"]
    return table


def _names(board: dict) -> list[str]:
    return [board["combatants"][i]["name"] for i in board["declaring"]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(1, 6), min_size=5, max_size=5), min_size=1, max_size=4))
def test_the_form_s_order_is_the_same_every_round_whatever_the_dice(rounds: list[list[int]]) -> None:
    table = _fight()
    first = _names(table.show()["board"])
    assert first == ["Aldric", "Lyra", "Orque", "Gobelin", "Troll"]  # the PJ first, then the cast's order
    for dice in rounds:
        ids = table.show()["board"]["declaring"]
        answer = table.apply({"type": "start_round", "rolls": dict(zip(ids, dice, strict=True))})
        assert answer["ok"], answer
        assert table.apply({"type": "end_round"})["ok"]
        assert _names(table.show()["board"]) == first


def test_a_fighter_out_of_the_fight_does_not_declare() -> None:
    table = _fight()
    board = table.apply({"type": "update_combatant", "id": "c1", "changes": {"hors_combat": True}})["board"]
    assert _names(board) == ["Aldric", "Lyra", "Gobelin", "Troll"]  # D6


def test_every_refused_die_is_named_at_once_and_nothing_starts() -> None:
    table = _fight()
    ids = table.show()["board"]["declaring"]
    answer = table.apply({"type": "start_round", "rolls": dict(zip(ids, [7, 2, 0, 4, 1.5], strict=True))})
    assert not answer["ok"] and answer["board"]["round"] == 0
    fields = answer["error"]["fields"]
    assert [f["field"] for f in fields] == [f"rolls.{ids[2]}", f"rolls.{ids[0]}", f"rolls.{ids[4]}"]  # in entry order
    assert [f["key"] for f in fields] == ["range", "range", "integer"]
    assert fields[0]["params"] == {"low": 1, "high": 6}
