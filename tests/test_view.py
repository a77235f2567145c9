"""The board (engine/view.py) in detail: what a fighter may declare (R1) and the verdict on
each action, refused ones included, as the page shows them (cost, who pays, why not)."""

from __future__ import annotations

from typing import Any

import engine
from engine.journal import journal
from tests.casts import CASTS
from tests.test_actions import START, act
from tests.test_commands import state_after

DUO = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]}]
NO_ROUND = "Aucun tour n'a commencé : lancez l'initiative."


def aldric(log: list[dict[str, Any]]) -> dict[str, Any]:
    fighter: dict[str, Any] = engine.view(state_after(log))["combatants"]["aldric"]
    return fighter


def test_each_declaration_comes_with_its_initiative_before_the_die() -> None:
    """R1.3 without the d6: bare hands Mêlée 7 // 2 + 1 + Corps-à-corps 2 - 2 wounds = 4;
    the sword in hand (D2) with Épée 3: 5. Weapons not in hand are not offered. ``by_die``:
    the total with each face of the d6, which the forms show (the page adds nothing up)."""
    base = {"characteristic": "melee", "characteristic_value": 7, "half": 3, "initiative_bonus": 1, "d6": 0, "wounds": 2}
    assert aldric(DUO)["declarations"] == [
        {"weapon": None, "name": None, **base, "skill": "corps_a_corps", "skill_level": 2, "initiative": 4,
         "by_die": [5, 6, 7, 8, 9, 10]},
        {"weapon": "epee", "name": "Épée", **base, "skill": "epee", "skill_level": 3, "initiative": 5,
         "by_die": [6, 7, 8, 9, 10, 11]},
    ]


def suggested(log: list[dict[str, Any]]) -> Any:
    return aldric(log)["suggested_declaration"]


def test_the_declaration_offered_first_is_last_rounds_while_in_hand_else_the_first_weapon_in_hand() -> None:
    """R1.1, D2 (initiative.suggested_declaration): one rule for the game master's form and
    a player's. Never rolled: the first weapon in hand; after a round, what was declared,
    bare hands included; a weapon no longer in hand gives way to the first one that is."""
    assert suggested(DUO) == "epee"
    both = [*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["bouclier", "epee"]}}]
    assert suggested(both) == "epee"  # sheet order, not the order of in_hand
    declared = [{"type": "start_round", "declarations": {"aldric": "bouclier"}, "rolls": {"aldric": 6, "orque": 1}},
                {"type": "end_round"}]
    assert suggested([*both, *declared]) == "bouclier"
    bare = [{"type": "start_round", "declarations": {"aldric": None}, "rolls": {"aldric": 6, "orque": 1}}, {"type": "end_round"}]
    assert suggested([*both, *bare]) is None
    dropped = {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["epee"]}}
    assert suggested([*both, *declared, dropped]) == "epee"
    assert suggested([*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": []}}]) is None


def test_before_any_round_every_action_is_refused_with_its_cost() -> None:
    """An interruption at P.I. 0 would cost a point d'Espoir (R5.2): the verdict says so."""
    actions = aldric(DUO)["actions"]
    assert actions["observer"] == {"category": "simple", "cost": 5, "allowed": False, "reason": NO_ROUND, "code": "round_over",
                                    "key": "round_not_started", "params": {}}
    assert actions["bloquer"] == {"category": "interruption", "cost": 1, "allowed": False, "reason": NO_ROUND,
                                  "code": "round_over", "pays": "espoir", "key": "round_not_started", "params": {}}


def test_a_refused_interruption_with_pi_left_would_cost_pi() -> None:
    """R4.2: no dodge after one's own charge; with P.I. > 0 the price shown is 5 P.I."""
    log = [*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"initiative_bonus": 20}},
           {"type": "start_round", "declarations": {"aldric": "epee"}, "rolls": {"aldric": 6, "orque": 1}},
           {"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 2, "test_result": 0}]
    assert aldric(log)["actions"]["esquiver"] == {
        "category": "interruption", "cost": 5, "allowed": False, "pays": "pi", "code": "not_allowed",
        "reason": "Impossible d'esquiver après avoir chargé durant ce tour.", "key": "no_dodge_after_charge", "params": {}}
    assert aldric(log)["actions"]["charge"] == {
        "category": "complexe", "cost": 10, "allowed": False, "code": "not_allowed",
        "reason": "Impossible de charger en étant engagé au corps à corps.", "key": "engaged_no_charge", "params": {}}


def test_an_unreadable_state_shows_the_empty_board_and_why() -> None:
    assert engine.view("x") == {**engine.view(engine.new_encounter()), "error": {
        "code": "bad_value", "message": "« state » n'est pas un état de rencontre Riposte lisible.", "key": "bad_state",
        "params": {}}}


def test_the_aim_helps_only_the_weapon_aimed() -> None:
    """R4.1, D13: aimed with the bow, Lyra throws her dagger: no aim bonus on that test."""
    log = [*START, act("encocher_fleche", weapon="arc"), act("ajuster_tir", weapon="arc"),
           act("lancer_arme", weapon="dague", target="gobelin")]
    result = engine.replay(log)
    assert result["ok"], result
    thrown = [e for e in result["events"] if e["type"] == "action_taken"][-1]
    assert thrown["tests"][0]["modifiers"] == []
    assert thrown["tests"][0]["characteristic_value"] == 0  # no Lancer on her sheet: 0 (R1.5 for skills, likewise)


def test_an_action_that_would_lose_the_aim_says_so_before_it_is_taken() -> None:
    """R4.1, D13: aimed with the bow, Lyra's shot keeps (and uses) the aim, aiming again
    keeps it; any other action, an interruption paid with Espoir too, would lose it: its
    verdict says how much (``loses_aim``), and taking it loses exactly that."""
    log = [*START, act("encocher_fleche", weapon="arc"), act("ajuster_tir", weapon="arc")]
    lyra = engine.view(state_after(log))["combatants"]["lyra"]
    assert lyra["aim_bonus"] > 0
    kept = {a for a, v in lyra["actions"].items() if v["allowed"] and "loses_aim" not in v}
    assert {"tir_arc", "ajuster_tir"} <= kept
    assert lyra["actions"]["se_deplacer"]["loses_aim"] == lyra["aim_bonus"]
    assert lyra["actions"]["esquiver"]["loses_aim"] == lyra["aim_bonus"]
    result = engine.replay([*log, {"type": "interrupt", "actor": "lyra", "action": "esquiver"}])
    assert result["ok"], result
    assert {"type": "aim_lost", "actor": "lyra", "bonus": lyra["aim_bonus"]} in result["events"]
    told = [e for e in journal(result["commands"]) if e["kind"] == "action"]
    assert told[-1]["action"] == "esquiver" and told[-1]["aim_lost"] == lyra["aim_bonus"]  # the journal says it too
    assert all("aim_lost" not in e for e in told[:-1])
    nothing = engine.view(state_after([*START, act("encocher_fleche", weapon="arc")]))["combatants"]["lyra"]
    assert not any("loses_aim" in v for v in nothing["actions"].values())  # no aim: nothing to lose


def test_a_parry_is_at_minus_four_only_after_a_charge() -> None:
    """R4.2: −4 to parry until the end of a round in which the fighter charged."""
    log = [*DUO, {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 6, "orque": 1}},
           {"type": "interrupt", "actor": "orque", "action": "parer", "against": "aldric"}]
    result = engine.replay(log)
    assert result["ok"], result
    assert result["events"][-1]["type"] == "action_taken" and result["events"][-1]["tests"][0]["modifiers"] == []


def test_an_allowed_action_shows_what_it_will_cost() -> None:
    """R2: free 0, simple 5, complex 10, an interruption 5 P.I. while P.I. remain; readying
    a weapon not stowed properly (the shield) is complex, priced per weapon."""
    log = [*DUO, {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 6, "orque": 1}}]
    actions = aldric(log)["actions"]
    allowed = {a: (v["category"], v["cost"], v.get("pays")) for a, v in actions.items() if v["allowed"]}
    assert {allowed[a] for a in ("dire_phrase", "observer", "attaque_melee", "parer")} == {
        ("gratuite", 0, None), ("simple", 5, None), ("complexe", 10, None), ("interruption", 5, "pi")}
    assert actions["preparer_arme"]["by_weapon"] == {"dague": 5, "arc": 5, "bouclier": 10}
    assert (actions["attaque_melee"]["weapon"], actions["parer"]["weapon"]) == ("epee", "epee")


# --- the card's likely actions and the actions that never apply (docs/TABLE.md)
def fighter_in(log: list[dict[str, Any]], cid: str) -> dict[str, Any]:
    shown: dict[str, Any] = engine.view(state_after(log))["combatants"][cid]
    return shown


def test_the_swordsman_to_act_is_offered_his_attack_his_charge_and_a_walk() -> None:
    """The sword in hand (R4): attack, charge, walk; no bow nor thrown weapon in hand, so
    nothing of R4.1 or D18. The Orque, not the highest (R2.1), is offered nothing."""
    log = [*DUO, {"type": "start_round", "declarations": {"aldric": "epee"}, "rolls": {"aldric": 6, "orque": 1}}]
    assert fighter_in(log, "aldric")["likely"] == ["attaque_melee", "charge", "se_deplacer"]
    assert fighter_in(log, "orque")["likely"] == []


def test_the_archer_is_offered_to_nock_then_to_shoot_and_aim_not_to_brawl() -> None:
    """D18, R4.1: nock first; with the arrow nocked, shoot and aim; holding a bow and a
    dagger, a melee attack bare-handed is allowed but not offered."""
    assert fighter_in(START, "lyra")["likely"] == ["lancer_arme", "encocher_fleche", "ajuster_tir", "se_deplacer"]
    nocked = [*START, act("encocher_fleche", weapon="arc")]
    assert fighter_in(nocked, "lyra")["likely"] == ["tir_arc", "lancer_arme", "ajuster_tir", "se_deplacer"]
    assert fighter_in(nocked, "lyra")["actions"]["attaque_melee"]["allowed"]


def test_every_likely_action_is_one_the_engine_accepts() -> None:
    """The card's buttons are commands the engine takes: each likely action of the
    fighter to act, sent as it is (a target when it takes one), is accepted."""
    for log, cid in ((START, "lyra"), ([*START, act("encocher_fleche", weapon="arc")], "lyra")):
        state = state_after(log)
        for action in engine.view(state)["combatants"][cid]["likely"]:
            extra = {"target": "gobelin"} if action in ("attaque_melee", "tir_arc", "lancer_arme") else {}
            result = engine.apply(state, {"type": "act", "actor": cid, "action": action, **extra})
            assert result["ok"], (action, result)


def test_actions_no_weapon_of_the_sheet_allows_are_never_offered() -> None:
    """The Gobelin has no weapon: no bow (D18), nothing to throw or aim (R4.1), nothing
    to parry with (R4) nor to ready. Aldric carries one of each: nothing is out of reach,
    whatever is in his hands now."""
    assert fighter_in(DUO, "aldric")["never"] == []
    gobelin = fighter_in(START, "gobelin")
    assert gobelin["never"] == ["ajuster_tir", "encocher_fleche", "lancer_arme", "preparer_arme", "tir_arc", "parer"]
    assert fighter_in(START, "lyra")["never"] == ["parer"]


def _board_after(*commands: dict[str, Any]) -> dict[str, Any]:
    state = engine.new_encounter()
    for command in [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")] + list(commands):
        result = engine.apply(state, command)
        assert result["ok"], result
        state = result["state"]
    return engine.view(state)


def test_only_readying_a_weapon_is_priced_weapon_by_weapon() -> None:
    """R4: readying a weapon is simple (5 P.I.), complex (10) when it is not stowed properly
    (Aldric's shield); the board prices each weapon not in hand, so the sheet can say it."""
    aldric = _board_after({"type": "start_round", "rolls": {"aldric": 6, "orque": 2}})["combatants"]["aldric"]
    assert {a for a, verdict in aldric["actions"].items() if "by_weapon" in verdict} == {"preparer_arme"}
    assert aldric["actions"]["preparer_arme"]["by_weapon"] == {"dague": 5, "arc": 5, "bouclier": 10}


def test_an_interruption_is_paid_in_p_i_while_any_are_left() -> None:
    """R5.2: with 1 P.I. left, an interruption still costs P.I. (and takes them below 0);
    at 0, a point d'Espoir."""
    start = {"type": "start_round", "rolls": {"aldric": 6, "orque": 2}}
    dodge = {"type": "interrupt", "actor": "orque", "action": "esquiver"}
    orque = _board_after(start, dodge)["combatants"]["orque"]
    assert orque["pi"] == 1
    assert (orque["actions"]["esquiver"]["pays"], orque["actions"]["esquiver"]["cost"]) == ("pi", 5)


def test_a_refused_action_is_priced_by_the_rules_as_an_allowed_one() -> None:
    """R3.1, R5.2 (rules.price): refused, an action still shows what it would cost. In his
    own open phase (D8), Aldric's second free action would cost 5, dropping nothing or
    not; out of P.I. and Espoir, Orque's dodge would cost a point d'Espoir."""
    log = [{"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}, {"type": "act", "actor": "aldric", "action": "dire_phrase"}]
    actions = _board_after(*log)["combatants"]["aldric"]["actions"]
    assert (actions["faire_geste"]["allowed"], actions["faire_geste"]["cost"]) == (True, 5)
    empty = _board_after({"type": "update_combatant", "id": "aldric", "changes": {"in_hand": []}}, *log)
    drop = empty["combatants"]["aldric"]["actions"]["lacher_objet"]
    assert (drop["allowed"], drop["key"], drop["cost"]) == (False, "nothing_in_hand", 5)
    dodged = _board_after(log[0], {"type": "interrupt", "actor": "orque", "action": "esquiver"})
    dodge = dodged["combatants"]["orque"]["actions"]["esquiver"]
    assert (dodge["allowed"], dodge["key"], dodge["cost"], dodge["pays"]) == (False, "no_hope", 1, "espoir")


def test_the_acrobatic_dodge_says_what_it_costs_with_both_tests_passed() -> None:
    """R4.4: with both its tests passed the dodge costs nothing (``if_passed``), else 5 P.I.
    (or a point d'Espoir, R5.2): what the sheet's « Valider » says as the boxes are ticked."""
    board = _board_after({"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})
    dodge = board["combatants"]["orque"]["actions"]["esquive_acrobatique"]
    assert (dodge["cost"], dodge["pays"], dodge["if_passed"]) == (5, "pi", {"cost": 0, "pays": "rien"})
    assert "if_passed" not in board["combatants"]["orque"]["actions"]["esquiver"]


DUO_START = {"type": "start_round", "rolls": {"aldric": 4, "orque": 3}}


def test_a_card_may_pass_and_interrupt_as_the_commands_allow() -> None:
    """D5, D6: the board says whether a fighter may pass or interrupt with the same checks
    as the ``pass`` command and the interruptions: before the round neither; in it, both;
    passed, it may still interrupt (R5) but not pass again; out of the fight, neither."""
    may = aldric(DUO)["may"]
    assert (may["pass"]["key"], may["interrupt"]["key"]) == ("round_not_started", "round_not_started")
    assert aldric([*DUO, DUO_START])["may"] == {"pass": {"allowed": True}, "interrupt": {"allowed": True}}
    passed = aldric([*DUO, DUO_START, {"type": "pass", "actor": "aldric"}])["may"]
    assert passed["pass"]["key"] == "passed" and passed["interrupt"] == {"allowed": True}
    out = aldric([*DUO, DUO_START, {"type": "update_combatant", "id": "aldric", "changes": {"hors_combat": True}}])["may"]
    assert out["pass"]["key"] == out["interrupt"]["key"] == "hors_combat"
    refused = [may["pass"], may["interrupt"], passed["pass"], out["pass"], out["interrupt"]]
    assert [verdict["allowed"] for verdict in refused] == [False] * len(refused)
    for verdict in (may["pass"], passed["pass"]):  # what the engine answers to the command itself
        command = {"type": "pass", "actor": "aldric"}
        log = [*DUO] if verdict is may["pass"] else [*DUO, DUO_START, command]
        error = engine.apply(state_after(log), command)["error"]
        assert verdict == {"allowed": False, "reason": error["message"], "code": error["code"], "key": error["key"],
                           "params": error["params"]}


def test_the_board_says_from_which_round_a_condition_may_end() -> None:
    """D25: this round while it runs, the next one once it is over (the page's choice of ends)."""
    assert engine.view(state_after(DUO))["conditions_from"] == 0 + 1
    assert engine.view(state_after([*DUO, DUO_START]))["conditions_from"] == 1
    assert engine.view(state_after([*DUO, DUO_START, {"type": "end_round"}]))["conditions_from"] == 2
