"""The fighters each fighter may target (``target``, ``against``: "another fighter on the
tracker"), as the boards give them (engine/view.py ``targets``): the card's chips and the
action sheet offer this list and no other. Engaged with it first (D11), then the other
side, then its own, each in the board's order; never itself; none out of the fight (D6).
The players' board (engine/players.py) ranks them among the fighters the players see, in
their order (D26: a hidden fighter is in no list; D4: the game master's order would tell
the PNJ's P.I.)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.players import players_board
from engine.table import Table


def table(sheets: list[dict[str, Any]], *commands: dict[str, Any]) -> Table:
    t = Table(rng=random.Random(1))
    for sheet in sheets:
        assert t.apply({"type": "add_combatant", "combatant": {"characteristics": {"melee": 6}, **sheet}})["ok"], sheet
    for command in commands:
        assert t.apply(command)["ok"], command
    return t


def out(fid: str, value: bool = True) -> dict[str, Any]:
    return {"type": "update_combatant", "id": fid, "changes": {"hors_combat": value}}


#: Two PJ and three PNJ, a round started: P.I. make the board's order (R2.1), not the entry.
FIVE = [{"id": "aldric", "name": "Aldric", "side": "pj"}, {"id": "brune", "name": "Brune", "side": "pj"},
        {"id": "orque", "name": "Orque", "side": "pnj"}, {"id": "gobelin", "name": "Gobelin", "side": "pnj"},
        {"id": "loup", "name": "Loup", "side": "pnj"}]
ROLLS = {"type": "start_round", "rolls": {"aldric": 2, "brune": 6, "orque": 1, "gobelin": 5, "loup": 4}}


def test_engaged_first_then_the_other_side_then_its_own_in_the_boards_order() -> None:
    board = table(FIVE, ROLLS, {"type": "update_combatant", "id": "aldric", "changes": {"engaged_with": ["orque"]}}).show()["board"]
    assert board["order"] == ["brune", "gobelin", "loup", "aldric", "orque"]
    assert board["targets"]["aldric"] == ["orque", "gobelin", "loup", "brune"]
    assert board["targets"]["orque"] == ["aldric", "brune", "gobelin", "loup"]
    assert board["targets"]["gobelin"] == ["brune", "aldric", "loup", "orque"]
    assert board["targets"]["brune"] == ["gobelin", "loup", "orque", "aldric"]


def test_a_fighter_out_of_the_fight_is_nobodys_target_and_has_its_own_list() -> None:
    """D6: it takes no part; brought back, it is a target again. Out, its engagements end
    (D11), and it is offered the others as any fighter is (its verdicts say what it may do)."""
    t = table(FIVE, ROLLS, {"type": "update_combatant", "id": "aldric", "changes": {"engaged_with": ["orque"]}}, out("orque"))
    board = t.show()["board"]
    assert all("orque" not in ids for ids in board["targets"].values())
    assert board["targets"]["aldric"] == ["gobelin", "loup", "brune"]
    assert board["targets"]["orque"] == ["brune", "aldric", "gobelin", "loup"]
    assert t.apply(out("orque", False))["ok"]
    assert "orque" in t.show()["board"]["targets"]["aldric"]


def test_the_players_targets_are_among_the_fighters_they_see_in_their_order() -> None:
    """D26: a hidden fighter is in no list; with the PNJ's details kept, the PJ come in
    the game master's order and the PNJ in their order of entry (the game master's order
    would tell their P.I.: Loup's 4 beats Orque's 1); the players' ``order``, the cards
    they see, leaves out the fighters out of the fight (D6)."""
    hidden = [*FIVE[:3], {**FIVE[3], "hidden": True}, FIVE[4]]
    t = table(hidden, ROLLS, {"type": "update_combatant", "id": "aldric", "changes": {"engaged_with": ["orque", "gobelin"]}})
    shown = t.show(players=True)["board"]
    assert shown["order"] == ["brune", "aldric", "orque", "loup"]
    assert shown["targets"] == {"aldric": ["orque", "loup", "brune"], "brune": ["orque", "loup", "aldric"],
                                "orque": ["aldric", "brune", "loup"], "loup": ["brune", "aldric", "orque"]}
    assert t.apply(out("loup"))["ok"]
    shown = t.show(players=True)["board"]
    assert shown["order"] == ["brune", "aldric", "orque"]
    assert "loup" in shown["combatants"] and all("loup" not in ids for ids in shown["targets"].values())
    assert "gobelin" not in json.dumps(shown)
    detailed = t.show(players=True, pnj_details=True)["board"]
    assert detailed["targets"]["brune"] == ["orque", "aldric"]


def expected(order: list[str], fighters: dict[str, dict[str, Any]], fid: str) -> list[str]:
    """The rule as the page's chips followed it, written plainly: each other fighter in
    the fight ranked engaged (0), other side (1), own side (2), then by its place."""
    f = fighters[fid]
    others = [x for x in order if x != fid and not fighters[x]["hors_combat"]]
    rank = {x: 0 if x in f["engaged_with"] else 1 if fighters[x]["side"] != f["side"] else 2 for x in others}
    return sorted(others, key=lambda x: (rank[x], order.index(x)))


FIGHTER = st.tuples(st.sampled_from(["pj", "pnj"]), st.booleans(), st.booleans(), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(fighters=st.lists(FIGHTER, min_size=1, max_size=8), pairs=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=6),
       started=st.booleans(), details=st.booleans())
def test_both_boards_follow_the_rule_for_any_fight(fighters: list[tuple[str, bool, bool, int]], pairs: list[tuple[int, int]],
                                                   started: bool, details: bool) -> None:
    """Any sides, dice, engagements (some with fighters then put out), fighters hidden or
    out: each list is the rule's on the game master's board; on the players' board, the
    rule's among the fighters they see, in their order."""
    ids = [f"f{n}" for n in range(len(fighters))]
    sheets = [{"id": fid, "name": fid, "side": side, "hidden": hidden} for fid, (side, hidden, _, _) in zip(ids, fighters, strict=True)]
    commands: list[dict[str, Any]] = []
    if started:
        commands.append({"type": "start_round", "rolls": {fid: die for fid, (*_, die) in zip(ids, fighters, strict=True)}})
    for a, b in pairs:
        if a < len(ids) and b < len(ids) and a != b:
            commands.append({"type": "update_combatant", "id": ids[a], "changes": {"engaged_with": [ids[b]]}})
    commands += [out(fid) for fid, (_, _, gone, _) in zip(ids, fighters, strict=True) if gone]
    t = table(sheets, *commands)
    full = t.show()["board"]
    for board in (full, players_board(full, details)):
        assert set(board["targets"]) == set(board["combatants"])
        for fid, mine in board["targets"].items():
            assert mine == expected(board["order"] if board is full else _seen_order(full, board, details),
                                    board["combatants"], fid), (fid, board["order"])
    shown = players_board(full, details)
    assert all(not full["combatants"][x]["hidden"] for ids_ in shown["targets"].values() for x in ids_)
    assert shown["order"] == [x for x in _seen_order(full, shown, details) if not full["combatants"][x]["hors_combat"]]


def _seen_order(full: dict[str, Any], shown: dict[str, Any], details: bool) -> list[str]:
    """The order the players' board ranks in: the fighters they see, the game master's
    order with the details shown, else the PJ first, then the PNJ by entry."""
    seen = [x for x in full["order"] if x in shown["combatants"]]
    if details:
        return seen
    return [x for x in seen if full["combatants"][x]["side"] == "pj"] + sorted(
        (x for x in seen if full["combatants"][x]["side"] != "pj"), key=lambda x: full["combatants"][x]["entry"])
