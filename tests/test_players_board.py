"""The players' board (engine/players.py, ``Table.show(players=True)``): what every reader
but the game master sees, on the game master's device and on the players' phones alike
(D26: a hidden fighter is not there; D4: a tie is never told where it would tell a PNJ's
P.I.; the PNJ's values only when the game master shows them)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.players import DECLARATION, PNJ_DETAILS, SHOWN, players_attack, players_board
from engine.table import Table

DIE = st.integers(min_value=1, max_value=6)


def fight(pj: list[int], pnj: list[tuple[int, int, int]], hidden: list[bool]) -> Table:
    """A round started: PJ with their dice; PNJ with a die, wounds and Espoir each, some
    hidden from the players."""
    t = Table(rng=random.Random(1))
    rolls = {}
    for n, die in enumerate(pj):
        assert t.apply({"type": "add_combatant", "combatant": {"id": f"pj{n}", "name": f"Héros {n}", "side": "pj",
                                                                "characteristics": {"melee": 8}}})["ok"]
        rolls[f"pj{n}"] = die
    for n, (die, wounds, hope) in enumerate(pnj):
        sheet = {"id": f"pnj{n}", "name": f"Brute {n}", "side": "pnj", "wounds": wounds, "hope": hope,
                 "characteristics": {"melee": 8}, "hidden": hidden[n % len(hidden)]}
        assert t.apply({"type": "add_combatant", "combatant": sheet})["ok"]
        rolls[f"pnj{n}"] = die
    assert t.apply({"type": "start_round", "rolls": rolls})["ok"]
    return t


PNJ = st.tuples(DIE, st.integers(0, 4), st.integers(0, 3))


@settings(max_examples=150)
@given(pj=st.lists(DIE, min_size=1, max_size=3), first=st.lists(PNJ, min_size=1, max_size=3),
       second=st.lists(PNJ, min_size=1, max_size=3), hidden=st.lists(st.booleans(), min_size=1, max_size=3))
def test_with_the_pnj_details_hidden_the_players_board_tells_nothing_of_them(
        pj: list[int], first: list[tuple[int, int, int]], second: list[tuple[int, int, int]], hidden: list[bool]) -> None:
    """Two fights that differ only in their PNJ's dice, wounds and Espoir give the players
    the same board, but for which PNJ acts when one acts alone (the table sees it)."""
    second = (second * 3)[:len(first)]
    boards = [fight(pj, pnj, hidden).show(players=True)["board"] for pnj in (first, second)]
    for board in boards:
        sides = [board["combatants"][fid]["side"] for fid in board["active"]]
        assert not ("pj" in sides and "pnj" in sides), "a tie of a PJ and a PNJ is never told (D4)"
        assert sides.count("pnj") <= 1, "nor a tie of PNJ"
        for fid, f in board["combatants"].items():
            if f["side"] == "pnj":
                assert all(f[k] is None for k in PNJ_DETAILS), (fid, f)
                assert fid not in board["mine"]
        pnj_ids = [fid for fid in board["order"] if board["combatants"][fid]["side"] == "pnj"]
        assert sorted(board["order"][:len(board["order"]) - len(pnj_ids)]) == [f"pj{n}" for n in range(len(pj))]
        assert pnj_ids == sorted(pnj_ids, key=lambda fid: board["combatants"][fid]["entry"])
    if boards[0]["active"] == boards[1]["active"]:
        assert boards[0] == boards[1]


@settings(max_examples=100)
@given(pj=st.lists(DIE, min_size=1, max_size=3), pnj=st.lists(PNJ, min_size=1, max_size=3),
       hidden=st.lists(st.booleans(), min_size=1, max_size=3), details=st.booleans())
def test_a_hidden_fighter_is_nowhere_on_the_players_board(pj: list[int], pnj: list[tuple[int, int, int]],
                                                         hidden: list[bool], details: bool) -> None:
    """D26: neither its card, its name, its id nor its turn, whatever the PNJ setting."""
    t = fight(pj, pnj, hidden)
    answer = t.show(players=True, pnj_details=details)
    text = json.dumps(answer, ensure_ascii=False)
    full = t.show()["board"]
    for fid, f in full["combatants"].items():
        if f["hidden"]:
            assert f'"{fid}"' not in text and f["name"] not in text
        else:
            assert fid in answer["board"]["combatants"]
    assert set(answer) == {"ok", "board", "attack"}


def test_with_the_pnj_details_shown_the_board_is_the_game_masters_order_and_tie() -> None:
    t = fight([3], [(3, 0, 2)], [False])
    full = t.show()["board"]
    shown = t.show(players=True, pnj_details=True)["board"]
    assert full["active"] == ["pj0", "pnj0"] and shown["active"] == full["active"]
    assert shown["order"] == full["order"]
    assert {k: shown["combatants"]["pnj0"][k] for k in PNJ_DETAILS} == {k: full["combatants"]["pnj0"][k] for k in PNJ_DETAILS}
    hidden = t.show(players=True)["board"]
    assert hidden["active"] == ["pj0"]  # D4 masked: the PNJ's P.I. would be told by the tie


def test_an_attack_is_told_to_its_target_only_when_the_players_see_the_attacker() -> None:
    """R5.3: the target's player answers an attack by a fighter they see; an ambusher's
    attack names nobody on the wire (D26): its answers are the game master's."""
    t = fight([1], [(6, 0, 0), (6, 0, 0)], [True, False])
    attack = {"type": "act", "actor": "pnj0", "action": "attaque_melee", "target": "pj0"}
    assert t.apply(attack)["ok"]
    assert t.show(players=True)["attack"] is None
    assert t.apply({**attack, "actor": "pnj1"})["ok"]
    assert t.show(players=True)["attack"] == {"target": "pj0", "by": "pnj1", "action": "attaque_melee"}
    assert t.apply({"type": "pass", "actor": "pnj0"})["ok"]
    assert t.show(players=True)["attack"] is None  # the last command answers no attack


def test_an_attack_not_an_attack() -> None:
    shown: dict[str, Any] = {"catalogue": {"observer": {"attack": False}}, "combatants": {"a": {}, "b": {}}}
    assert players_attack(shown, {"type": "act", "actor": "a", "action": "observer", "target": "b"}) is None
    assert players_attack(shown, None) is None


def test_the_players_board_keeps_a_pj_declarations_and_drops_the_sheet() -> None:
    t = fight([4], [(2, 0, 0)], [False])
    shown = t.show(players=True)["board"]["combatants"]
    assert shown["pj0"]["declarations"] and "characteristics" not in shown["pj0"]
    assert "declarations" not in shown["pnj0"] and "actions" not in shown["pnj0"]
    assert players_board(t.show()["board"])["combatants"] == shown


def test_an_engagement_with_a_hidden_fighter_is_not_told() -> None:
    """D26: a PJ engaged with an ambusher and with a fighter the players see is shown
    engaged with the second alone."""
    t = fight([1], [(6, 0, 0), (6, 0, 0)], [True, False])
    attack = {"type": "act", "actor": "pnj0", "action": "attaque_melee", "target": "pj0"}
    assert t.apply(attack)["ok"] and t.apply({**attack, "actor": "pnj1"})["ok"]
    assert t.show()["board"]["combatants"]["pj0"]["engaged_with"] == ["pnj0", "pnj1"]
    shown = t.show(players=True)["board"]["combatants"]
    assert shown["pj0"]["engaged_with"] == ["pnj1"]
    assert shown["pnj1"]["engaged_with"] == ["pj0"]


def test_a_fighters_weapons_are_shown_by_id_name_and_skill_only() -> None:
    t = Table(rng=random.Random(1))
    sword = {"id": "epee", "name": "Épée longue", "kind": "melee", "skill": "epee"}
    bow = {"id": "arc", "name": "Arc court", "kind": "bow", "skill": "arc"}
    for sheet in ({"id": "pj0", "name": "Aldric", "side": "pj", "weapons": [sword]},
                  {"id": "pnj0", "name": "Orque", "side": "pnj", "weapons": [bow]}):
        assert t.apply({"type": "add_combatant", "combatant": sheet})["ok"], sheet
    shown = t.show(players=True)["board"]["combatants"]
    assert shown["pj0"]["weapons"] == [{"id": "epee", "name": "Épée longue", "skill": "epee"}]
    assert shown["pnj0"]["weapons"] == [{"id": "arc", "name": "Arc court", "skill": "arc"}]


def test_an_act_whose_action_the_catalogue_lacks_is_no_attack() -> None:
    shown: dict[str, Any] = {"catalogue": {}, "combatants": {"a": {}, "b": {}}}
    assert players_attack(shown, {"type": "act", "actor": "a", "action": "inconnue", "target": "b"}) is None


def armed(started: bool) -> Table:
    """A PJ with a sword in hand and a PNJ with a bow; the round ``started`` or not."""
    t = Table(rng=random.Random(1))
    for sheet in ({"id": "pj0", "name": "Aldric", "side": "pj", "characteristics": {"melee": 8}, "in_hand": ["epee"],
                   "weapons": [{"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee"}]},
                  {"id": "pnj0", "name": "Orque", "side": "pnj", "characteristics": {"tir": 6},
                   "weapons": [{"id": "arc", "name": "Arc", "kind": "bow", "skill": "arc"}]}):
        assert t.apply({"type": "add_combatant", "combatant": sheet})["ok"], sheet
    if started:
        assert t.apply({"type": "start_round", "rolls": {"pj0": 6, "pnj0": 1}})["ok"]
    return t


@pytest.mark.parametrize("started", [False, True])
def test_a_pj_on_the_players_board_is_the_game_masters_cut_never_changed(started: bool) -> None:
    """What the players' board keeps of a PJ is the game master's, value for value: the
    fields the cards show, its declarations' breakdown (R1.3) and the weapon its form
    suggests before a round, whether it may pass or interrupt, and its verdicts for its player's phone."""
    t = armed(started)
    full = t.show()["board"]["combatants"]["pj0"]
    board = t.show(players=True)["board"]
    shown, mine = board["combatants"]["pj0"], board["mine"]["pj0"]
    assert {k: shown[k] for k in SHOWN} == {k: full[k] for k in SHOWN}
    assert shown["declarations"] == [{k: d[k] for k in DECLARATION} for d in full["declarations"]]
    assert shown["declarations"][0]["initiative"] is not None
    assert shown["suggested_declaration"] == full["suggested_declaration"] == (None if started else "epee")
    assert shown["may"] == full["may"]
    assert mine == {"actions": full["actions"], "likely": full["likely"], "never": full["never"]}
    assert mine["actions"] and mine["never"] and (mine["likely"] or not started)


@pytest.mark.parametrize("hidden", [False, True])
def test_whose_phase_it_is_is_told_only_of_a_fighter_the_players_see(hidden: bool) -> None:
    """D22 and D26: the fighter finishing its phase is on the players' board, as the round
    and whether it is over are, unless the players do not see that fighter."""
    t = Table(rng=random.Random(1))
    for sheet in ({"id": "pj0", "name": "Aldric", "side": "pj", "characteristics": {"melee": 8}},
                  {"id": "pnj0", "name": "Orque", "side": "pnj", "characteristics": {"melee": 8}, "hidden": hidden}):
        assert t.apply({"type": "add_combatant", "combatant": sheet})["ok"]
    assert t.apply({"type": "start_round", "rolls": {"pj0": 1, "pnj0": 6}})["ok"]
    assert t.apply({"type": "act", "actor": "pnj0", "action": "dire_phrase"})["ok"]  # free: its phase begins
    full, shown = t.show()["board"], t.show(players=True)["board"]
    assert full["phase"] == "pnj0"
    assert shown["phase"] == (None if hidden else "pnj0")
    assert (shown["round"], shown["round_over"]) == (full["round"], full["round_over"]) == (1, False)


@settings(max_examples=100)
@given(pj=st.lists(DIE, min_size=1, max_size=3), pnj=st.lists(PNJ, min_size=1, max_size=3),
       hidden=st.lists(st.booleans(), min_size=1, max_size=3), details=st.booleans())
def test_when_a_pjs_turn_comes_is_counted_from_what_the_players_see(pj: list[int], pnj: list[tuple[int, int, int]],
                                                                    hidden: list[bool], details: bool) -> None:
    """R2.1: each PJ still to act has ``ahead`` the fighters the players see with more P.I.
    (all of them with the PNJ's values shown; only the PJ otherwise, and then ``unseen`` says
    that PNJ may come first too); a fighter hidden from the players is never counted (D26)."""
    t = fight(pj, pnj, hidden)
    full = t.show()["board"]["combatants"]
    board = t.show(players=True, pnj_details=details)["board"]
    seen = [f for f in full.values() if not f["hidden"] and (details or f["side"] == "pj")]
    assert board["ahead"]["pj"] == {fid: sum(1 for g in seen if g["pi"] > full[fid]["pi"])
                                    for fid, f in full.items() if f["side"] == "pj"}
    assert board["ahead"]["unseen"] == (not details and any(not f["hidden"] for f in full.values() if f["side"] == "pnj"))
    # Once the round is over, nobody's turn is to come.
    assert t.apply({"type": "end_round"})["ok"]
    assert t.show(players=True, pnj_details=details)["board"]["ahead"] == {"pj": {}, "unseen": False}
