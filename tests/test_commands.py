"""Commands at their edges (engine/decide.py, engine/actions/): each refusal with its code,
the field it names and the rule it cites, and nothing changed; the defaults an omitted
option takes. The scenarios (tests/scenarios/) tell the rules; these pin the limits."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import engine
from engine.decide import decide
from engine.errors import Refusal
from engine.play import fold
from tests.casts import CASTS

DUO = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]}]
ROUND = [*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"initiative_bonus": 10}},
         {"type": "start_round", "declarations": {"aldric": "epee"}, "rolls": {"aldric": 6, "orque": 1}}]


def state_after(log: list[dict[str, Any]]) -> dict[str, Any]:
    result = engine.replay(log)
    assert result["ok"], result
    state: dict[str, Any] = result["state"]
    return state


#: A rule's code (RULES.md): R4.2, D23.
RULE_CODE = re.compile(r"\b[RD][0-9]+(\.[0-9]+)?\b")


def refusal(log: list[dict[str, Any]], command: dict[str, Any], code: str, *words: str) -> str:
    """``command`` after ``log`` is refused with ``code``, a message that holds ``words``
    (the field; a rule's code, R… or D…, is in the refusal's ``rule``: the message says it
    in words), and the state as it was."""
    state = state_after(log)
    result = engine.apply(state, command)
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    message = result["error"]["message"]
    assert isinstance(message, str), result["error"]
    assert not RULE_CODE.search(message), message
    for word in words:
        if RULE_CODE.fullmatch(word.strip("()")):
            assert word.strip("()") in result["error"].get("rule", "").split(", "), result["error"]
        else:
            assert word in message, message
    assert json.dumps(result["state"], sort_keys=True) == json.dumps(state, sort_keys=True)
    return message


def refused(log: list[dict[str, Any]], command: dict[str, Any]) -> dict[str, Any]:
    """The error of ``command`` after ``log`` (refused, the state as it was)."""
    state = state_after(log)
    result = engine.apply(state, command)
    assert result["ok"] is False, result
    assert json.dumps(result["state"], sort_keys=True) == json.dumps(state, sort_keys=True)
    error: dict[str, Any] = result["error"]
    return error


def events_of(log: list[dict[str, Any]], command: dict[str, Any]) -> list[dict[str, Any]]:
    result = engine.apply(state_after(log), command)
    assert result["ok"], result
    return [e for e in result["events"] if e["type"] != "action_taken"]


# --- the command's shape: what the page words (web/infra/i18n.js) comes from the params ------
def test_an_unknown_command_type_names_it_and_every_known_one() -> None:
    error = refused(DUO, {"type": "voler", "actor": "aldric"})
    assert (error["code"], error["key"]) == ("bad_command", "unknown_type")
    assert error["params"]["got"] == "'voler'"
    assert {"pass", "act", "interrupt", "start_round", "end_round"} <= set(error["params"]["known"])
    assert error["message"] == engine.errors.sentence("fr", "unknown_type", error["params"])
    assert "'voler'" in error["message"] and "act" in error["message"]


def test_an_unknown_key_names_the_command_and_the_key_cut_to_40_characters() -> None:
    error = refused(ROUND, {"type": "pass", "actor": "aldric", "x" * 50: 1})
    assert (error["code"], error["key"]) == ("bad_command", "unknown_key")
    assert error["params"] == {"kind": "pass", "field": "x" * 40}
    assert "pass" in error["message"] and "x" * 40 in error["message"] and "x" * 41 not in error["message"]


# --- update_settings: the group's run table (R4.3) -----------------------------------------
def settings(value: Any) -> dict[str, Any]:
    return {"type": "update_settings", "settings": value}


def test_the_run_table_is_kept_sorted_and_may_be_empty() -> None:
    assert events_of([], settings({"run_table": [[10, 18], [-3, 0], [5, 12]]})) == [
        {"type": "settings_updated", "settings": {"run_table": [[-3, 0], [5, 12], [10, 18]]}}]
    assert events_of([], settings({})) == [{"type": "settings_updated", "settings": {"run_table": []}}]


@pytest.mark.parametrize(("value", "field"), [
    ("rapide", "« settings »"), ({"couleur": "rouge"}, "« settings.couleur »"), ({"run_table": 5}, "« run_table »"),
    ({"run_table": [[0, 6], [1, 2, 3]]}, "« run_table[1] »"), ({"run_table": [[0, 6], [4]]}, "« run_table[1] »"),
    ({"run_table": [["a", 6]]}, "« run_table[0][0] »"), ({"run_table": [[0, -1]]}, "« run_table[0][1] »"),
    ({"run_table": [[0, 6], [0, 7]]}, "« run_table »"),
])
def test_a_bad_run_table_is_refused_naming_the_field(value: Any, field: str) -> None:
    refusal([], settings(value), "bad_value", field)


def test_an_unknown_setting_is_named_with_the_known_ones() -> None:
    refusal([], settings({"couleur": "rouge"}), "bad_value", "« settings.couleur »", "run_table")


def test_the_run_table_row_at_its_minimum_counts() -> None:
    """R4.3: the row with the highest minimum not above the result."""
    log = [*ROUND, settings({"run_table": [[0, 6], [5, 12]]})]
    assert events_of(log, {"type": "act", "actor": "aldric", "action": "courir", "test_result": 5}) == [
        {"type": "moved", "actor": "aldric", "how": "course", "distance": 12}]


# --- start_round (R1, R2.4, D6) ------------------------------------------------------------------
def test_a_round_is_refused_while_one_runs_naming_it() -> None:
    error = refused(ROUND, {"type": "start_round", "rolls": {"aldric": 3, "orque": 2}})
    assert (error["key"], error["params"]) == ("round_in_progress", {"round": 1})
    assert error["message"].startswith("Le tour 1 est en cours")


def test_a_die_for_a_fighter_out_of_the_fight_is_refused_naming_him() -> None:
    log = [*DUO, {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}]
    error = refused(log, {"type": "start_round", "rolls": {"aldric": 3, "orque": 2}})
    assert (error["code"], error["key"], error["params"]) == ("not_allowed", "rolls_hors_combat", {"name": "Orque"})
    assert error["message"].startswith("Orque est hors combat")


@pytest.mark.parametrize(("command", "key", "params"), [
    # the rules alone (decide), without the engine's dice (commands.resolve rolls a missing die)
    ({"type": "start_round", "rolls": {"aldric": 3}}, "die_missing", {"field": "rolls.orque", "name": "Orque"}),
    # app_rolled is the page's word, turned into engine_rolled before the rules see it
    ({"type": "start_round", "rolls": {"aldric": 3, "orque": 1}, "app_rolled": ["orque"]}, "app_rolled", {"field": "app_rolled"}),
])
def test_the_rules_alone_refuse_a_round_they_cannot_start(command: dict[str, Any], key: str, params: dict[str, Any]) -> None:
    enc, _ = fold(DUO)
    with pytest.raises(Refusal) as caught:
        decide(enc, command)
    error = caught.value.as_json()
    assert (error["code"], error["key"], error["params"]) == ("bad_value", key, params)
    assert f"« {params['field']} »" in error["message"]


# --- pass (D5) -------------------------------------------------------------------------------
def test_passing_needs_a_round_in_progress() -> None:
    """D5: a pass is refused by the same reasons as an action: before any round, after one."""
    assert refused(DUO, {"type": "pass", "actor": "aldric"})["key"] == "round_not_started"
    error = refused([*ROUND, {"type": "end_round"}], {"type": "pass", "actor": "aldric"})
    assert (error["code"], error["key"]) == ("round_over", "round_finished")


def test_a_fighter_out_of_the_fight_cannot_pass() -> None:
    log = [*ROUND, {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}]
    refusal(log, {"type": "pass", "actor": "orque"}, "not_allowed", "Orque", "D6")


def test_a_fighter_added_during_the_round_passes_from_the_next_one() -> None:
    log = [*ROUND, {"type": "add_combatant", "combatant": CASTS["lyra"]}]
    refusal(log, {"type": "pass", "actor": "lyra"}, "not_allowed", "Lyra", "D7")


def test_passing_twice_is_refused() -> None:
    refusal([*ROUND, {"type": "pass", "actor": "orque"}], {"type": "pass", "actor": "orque"}, "not_allowed", "Orque", "D5")


def test_an_unknown_fighter_is_named_with_its_field() -> None:
    refusal(ROUND, {"type": "pass", "actor": "zorg"}, "unknown_combatant", "'zorg'", "« actor »")
    refusal(ROUND, {"type": "remove_combatant", "id": "zorg"}, "unknown_combatant", "'zorg'", "« id »")


# --- postures, hands, moves (R4, D10, D11, D18) ---------------------------------------------
def act(action: str, **options: Any) -> dict[str, Any]:
    return {"type": "act", "actor": "aldric", "action": action, **options}


def test_throwing_oneself_down_is_prone_unless_kneeling_is_asked() -> None:
    assert events_of(ROUND, act("se_jeter_au_sol")) == [{"type": "posture_changed", "actor": "aldric", "posture": "a_terre"}]
    assert events_of(ROUND, act("se_jeter_au_sol", posture="a_genoux")) == [
        {"type": "posture_changed", "actor": "aldric", "posture": "a_genoux"}]


def test_throwing_oneself_down_again_is_refused() -> None:
    refusal([*ROUND, act("se_jeter_au_sol")], act("se_jeter_au_sol"), "not_allowed", "à terre", "R4")
    kneeling = [*ROUND, act("se_jeter_au_sol", posture="a_genoux")]
    refusal(kneeling, act("se_jeter_au_sol", posture="a_genoux"), "not_allowed", "cette posture", "R4")
    assert events_of([*ROUND, act("se_jeter_au_sol", posture="a_genoux")], act("se_jeter_au_sol")) == [
        {"type": "posture_changed", "actor": "aldric", "posture": "a_terre"}]


def test_one_item_or_one_in_each_hand_is_dropped() -> None:
    held = [*ROUND, {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["epee", "bouclier", "dague"]}}]
    assert events_of(held, act("lacher_objet", items=["epee", "bouclier"])) == [
        {"type": "hands_changed", "actor": "aldric", "in_hand": ["dague"], "arrow_lost": False}]
    refusal(held, act("lacher_objet", items=["epee", "bouclier", "dague"]), "not_allowed", "2 au plus", "R4")
    refusal(held, act("lacher_objet", items=["arc"]), "not_allowed", "« arc »", "R4")


def test_nocking_an_arrow_names_the_bow() -> None:
    log = [*ROUND, {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["arc"]}}]
    assert events_of(log, act("encocher_fleche", weapon="arc")) == [{"type": "arrow_nocked", "actor": "aldric", "weapon": "arc"}]


def test_walking_and_running_leave_melee_only_when_engaged() -> None:
    """D11: moving ends the mover's engagements; not engaged, there is nothing to end."""
    assert events_of(ROUND, act("se_deplacer")) == [{"type": "moved", "actor": "aldric", "how": "marche", "distance": 6}]
    assert events_of(ROUND, act("courir", distance=9)) == [{"type": "moved", "actor": "aldric", "how": "course", "distance": 9}]
    engaged = [*ROUND, act("attaque_melee", target="orque")]
    assert events_of(engaged, act("se_deplacer")) == [{"type": "disengaged", "actor": "aldric"},
                                                     {"type": "moved", "actor": "aldric", "how": "marche", "distance": 6}]


def test_a_fault_inside_the_engine_is_an_internal_fault_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """engine.apply never raises (RULES.md contract): an exception that is not a refusal
    becomes ``internal`` (one code, one meaning: the page's fault screen) naming the fault,
    and the state stays as it was."""
    state = state_after(ROUND)

    def broken(*args: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(engine.play, "step", broken)
    result = engine.apply(state, act("observer"))
    assert result == {"ok": False, "state": state,
                      "error": {"code": "internal", "message": "Erreur interne du moteur : KeyError: 'boom'.",
                                "key": "internal", "params": {"error": "KeyError: 'boom'"}}}


def test_moving_ends_an_engagement_off_the_tracker_too() -> None:
    """D11: the GM marks Aldric engaged with someone off the tracker; walking away ends it."""
    log = [*ROUND, {"type": "update_combatant", "id": "aldric", "changes": {"engaged": True}}]
    assert engine.view(state_after(log))["combatants"]["aldric"]["engaged"] is True
    after = engine.view(state_after([*log, act("se_deplacer")]))["combatants"]["aldric"]
    assert after["engaged"] is False


def test_a_charge_at_its_reach_is_allowed_and_told_with_both_numbers() -> None:
    """R4.2: the target may be as far as 6 + the test result, not farther."""
    charge = act("charge", target="orque", distance=7, test_result=1)
    assert events_of(ROUND, charge) == [{"type": "charged", "actor": "aldric", "distance": 7, "reach": 7},
                                        {"type": "engaged", "actor": "aldric", "target": "orque"}]
    refusal(ROUND, {**charge, "distance": 7.5}, "too_far", "7.5 m > 6 + 1 = 7 m", "R4.2")


def test_an_attack_engages_the_two_fighters_only() -> None:
    """D11: attacker and target engage each other; a third fighter stays free."""
    log = [*ROUND, {"type": "add_combatant", "combatant": CASTS["lyra"]}, act("attaque_melee", target="orque")]
    board = engine.view(state_after(log))["combatants"]
    assert (board["aldric"]["engaged_with"], board["orque"]["engaged_with"], board["lyra"]["engaged_with"]) == (
        ["orque"], ["aldric"], [])


@pytest.mark.parametrize(("value", "key", "params"), [
    ({"couleur": "rouge"}, "unknown_field", {"field": "settings.couleur", "known": ["run_table"]}),
    ({"run_table": [[0, 6], [4]]}, "pair", {"field": "run_table[1]"}),
    ({"run_table": [[0, 6], [1, 2, 3]]}, "too_many", {"field": "run_table[1]", "max": 2}),
    ({"run_table": [[0, 6], "vite"]}, "list", {"field": "run_table[1]"}),
    ({"run_table": [[0, 6], [0, 7]]}, "duplicate", {"field": "run_table"}),
])
def test_a_bad_run_table_is_refused_naming_what_it_must_hold(value: Any, key: str, params: dict[str, Any]) -> None:
    """R4.3: the field and the reason, by which the page words it (web/infra/i18n.js)."""
    error = refused([], settings(value))
    assert (error["code"], error["key"], error["params"]) == ("bad_value", key, params)


def test_the_gm_ending_a_round_names_it_and_who_could_still_act() -> None:
    """R2.4: the GM ends the round while fighters still in it have P.I. > 0: the event names
    them; one who passed (D5) keeps its P.I. but is no longer in the round (D21)."""
    assert events_of(ROUND, {"type": "end_round"}) == [
        {"type": "round_ended", "round": 1, "reason": "mj", "holding": ["aldric", "orque"], "unspent": ["aldric", "orque"]}]
    assert events_of([*ROUND, {"type": "pass", "actor": "orque"}], {"type": "end_round"}) == [
        {"type": "round_ended", "round": 1, "reason": "mj", "holding": ["aldric"], "unspent": ["aldric", "orque"]}]
    assert events_of([*ROUND, {"type": "end_round"}], {"type": "end_round"}) == []  # R5.4: over stays over


def test_a_round_that_ends_by_itself_names_who_kept_p_i() -> None:
    """R2.4, D5: the last one still in the round passes; those who passed before it with
    P.I. left keep them for interruptions (R5.4) until the next round discards them (D3):
    the event names them, for the page to say; out of the fight (D6), nobody is named."""
    ended = events_of([*ROUND, {"type": "pass", "actor": "orque"}], {"type": "pass", "actor": "aldric"})[-1]
    assert (ended["type"], ended["reason"], ended["holding"], ended["unspent"]) == ("round_ended", "pi", [], ["aldric", "orque"])
    out = {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}
    ended = events_of([*ROUND, out], {"type": "pass", "actor": "aldric"})[-1]
    assert (ended["type"], ended["unspent"]) == ("round_ended", ["aldric"])


def test_an_unreadable_state_is_refused_and_given_back() -> None:
    result = engine.apply("pas un état", {"type": "end_round"})
    assert result == {"ok": False, "state": "pas un état",
                      "error": {"code": "bad_value", "message": "« state » n'est pas un état de rencontre Riposte lisible.",
                                "key": "bad_state", "params": {}}}


def test_apply_rolls_the_dice_from_the_source_it_is_given() -> None:
    """R1.2: dice nobody typed come from ``rng``: the same seed, the same dice."""
    import random

    state = state_after([{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)])
    rolls = [engine.apply(state, {"type": "start_round"}, random.Random(5))["command"]["rolls"] for _ in range(2)]
    expected = random.Random(5)
    assert rolls[0] == rolls[1] == {f"c{i + 1}": expected.randint(1, 6) for i in range(8)}


def test_a_log_that_is_not_a_list_is_refused_whole() -> None:
    assert engine.replay({"type": "end_round"}) == {
        "ok": False, "commands": [], "state": engine.new_encounter(),
        "error": {"code": "bad_command", "message": "Un journal de commandes est une liste.", "key": "not_a_log", "params": {},
                  "index": None}}


def test_replay_rolls_the_dice_from_the_source_it_is_given() -> None:
    import random

    log = [*[{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)], {"type": "start_round"}]
    expected = random.Random(9)
    rolls = engine.replay(log, random.Random(9))["commands"][-1]["rolls"]
    assert rolls == {f"c{i + 1}": expected.randint(1, 6) for i in range(8)}


@pytest.mark.parametrize(("options", "field"), [
    ({"action": "attaque_melee", "target": 3}, "« target »"), ({"action": "charge", "distance": "loin"}, "« distance »"),
    ({"action": "courir", "test_result": 2.5}, "« test_result »"), ({"action": "observer", "success": "oui"}, "« success »"),
    ({"action": "tir_arc", "weapon": ""}, "« weapon »"), ({"action": "se_jeter_au_sol", "posture": "assis"}, "« posture »"),
    ({"action": "lacher_objet", "items": []}, "« items »"), ({"action": "lacher_objet", "items": ["epee", "epee"]}, "« items »"),
    ({"action": "lacher_objet", "items": [3]}, "« items[] »"), ({"action": "lacher_objet", "items": "epee"}, "« items »"),
    ({"action": "lacher_objet", "items": [f"w{i}" for i in range(17)]}, "« items »"),
])
def test_a_bad_option_is_refused_naming_it(options: dict[str, Any], field: str) -> None:
    refusal(ROUND, {"type": "act", "actor": "aldric", **options}, "bad_value", field)


def test_the_acrobatic_dodge_takes_both_test_results() -> None:
    """R4.4: the outcome of the two tests is written in the event; each must be true or false."""
    log = ROUND
    dodge = {"type": "interrupt", "actor": "orque", "action": "esquive_acrobatique", "against": "aldric",
             "tests": {"esquive": True, "acrobatie": False}}
    taken = engine.apply(state_after(log), dodge)
    assert taken["ok"], taken
    assert taken["events"][0]["outcome"] == {"tests": {"esquive": True, "acrobatie": False}}
    assert refused(log, {**dodge, "tests": {"esquive": True}})["key"] == "acrobatic_tests"
    refusal(log, {**dodge, "tests": {"esquive": "oui", "acrobatie": True}}, "bad_value", "« tests.esquive »")
    refusal(log, {**dodge, "tests": "réussi"}, "bad_value", "« tests »")


def test_target_and_against_name_another_fighter_on_the_tracker() -> None:
    refusal(ROUND, act("attaque_melee", target="zorg"), "unknown_combatant", "« target »")
    refusal(ROUND, {"type": "interrupt", "actor": "orque", "action": "bloquer", "against": "zorg"}, "unknown_combatant", "« against »")
    assert refused(ROUND, act("attaque_melee", target="aldric"))["key"] == "not_self"
    refusal(ROUND, {"type": "act", "actor": "zorg", "action": "observer"}, "unknown_combatant", "« actor »")


def test_act_and_interrupt_are_not_interchangeable() -> None:
    """R5.3: interruptions go through ``interrupt``, every other action through ``act``."""
    refusal(ROUND, act("bloquer"), "bad_command", "« bloquer » est une interruption : utilisez « interrupt ».")
    refusal(ROUND, {"type": "interrupt", "actor": "aldric", "action": "observer"}, "bad_command",
            "« observer » n'est pas une interruption : utilisez « act ».")


def test_the_engine_gives_the_next_free_id() -> None:
    log = [{"type": "add_combatant", "combatant": {"id": i, "name": i, "side": "pnj"}} for i in ("c2", "c3", "c5")]
    first = engine.apply(state_after(log), {"type": "add_combatant", "combatant": {"name": "Un", "side": "pj"}})
    second = engine.apply(first["state"], {"type": "add_combatant", "combatant": {"name": "Deux", "side": "pj"}})
    third = engine.apply(second["state"], {"type": "add_combatant", "combatant": {"name": "Trois", "side": "pj"}})
    assert [r["command"]["combatant"]["id"] for r in (first, second, third)] == ["c4", "c6", "c7"]  # c5 is taken


def test_the_board_lists_fighters_in_the_round_first_by_pi() -> None:
    """R2.1, D4, D21: those still in the round by P.I. (ties: higher die first), then those
    who passed, then those who join next round (D7)."""
    log = [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque", "gobelin")]
    log += [{"type": "start_round", "rolls": {"aldric": 1, "orque": 6, "gobelin": 2}}, {"type": "pass", "actor": "orque"},
            {"type": "add_combatant", "combatant": CASTS["lyra"]}]
    board = engine.view(state_after(log))
    assert [(cid, board["combatants"][cid]["pi"]) for cid in board["order"]] == [("gobelin", 5), ("aldric", 5), ("orque", 10),
                                                                               ("lyra", 0)]


# --- start_round and add_combatant (R1, D2, D6, D7) ------------------------------------------
@pytest.mark.parametrize(("command", "code", "words"), [
    ({"declarations": [], "rolls": {"aldric": 1, "orque": 1}}, "bad_value", ["« declarations »"]),
    ({"rolls": 4}, "bad_value", ["« rolls »"]),
    ({"rolls": {"aldric": 1, "orque": 1}, "engine_rolled": "orque"}, "bad_value", ["« engine_rolled »"]),
    ({"rolls": {"aldric": 1, "orque": 1}, "engine_rolled": [3]}, "bad_value", ["« engine_rolled[] »"]),
    ({"rolls": {"aldric": 1, "zorg": 1}}, "unknown_combatant", ["« declarations/rolls »", "'zorg'"]),
    ({"rolls": {"aldric": 7, "orque": 1}}, "bad_value", ["« rolls.aldric »"]),
    ({"declarations": {"aldric": 3}, "rolls": {"aldric": 1, "orque": 1}}, "bad_value", ["« declarations.aldric »"]),
    ({"declarations": {"aldric": "hache"}, "rolls": {"aldric": 1, "orque": 1}}, "bad_value",
     ["« declarations.aldric » : Aldric n'a pas d'arme « hache »."]),
    ({"declarations": {"aldric": "arc"}, "rolls": {"aldric": 1, "orque": 1}}, "not_allowed", ["Arc court", "D2"]),
])
def test_a_bad_start_of_round_is_refused_naming_what_is_wrong(command: dict[str, Any], code: str, words: list[str]) -> None:
    refusal(DUO, {"type": "start_round", **command}, code, *words)


def test_a_round_needs_someone_able_to_fight() -> None:
    """R1, D6: nobody on the tracker, or everyone out of the fight: no round."""
    refusal([], {"type": "start_round"}, "not_allowed", "Aucun combattant en état de combattre : ajoutez-en.")
    out = [*DUO, *({"type": "update_combatant", "id": i, "changes": {"hors_combat": True}} for i in ("aldric", "orque"))]
    refusal(out, {"type": "start_round", "rolls": {}}, "not_allowed", "(R1)")


def test_a_new_round_clears_the_last_one_for_those_out_of_it() -> None:
    """D6: out of the fight at the start of a round, no P.I., no die, no charge left over;
    D22: no phase stays open from the last round."""
    log = [*ROUND, act("charge", target="orque", distance=2, test_result=0), {"type": "pass", "actor": "orque"},
           {"type": "end_round"}, {"type": "update_combatant", "id": "aldric", "changes": {"hors_combat": True}},
           {"type": "start_round", "rolls": {"orque": 3}}]
    board = engine.view(state_after(log))
    fighter = board["combatants"]["aldric"]
    assert {k: fighter[k] for k in ("in_round", "pi", "initiative", "d6", "declared", "charged", "passed")} == {
        "in_round": False, "pi": 0, "initiative": None, "d6": None, "declared": None, "charged": False, "passed": False}
    orque = board["combatants"]["orque"]
    assert (orque["in_round"], orque["passed"], orque["charged"]) == (True, False, False)
    free = [*ROUND, act("dire_phrase"), {"type": "end_round"}, {"type": "start_round", "rolls": {"aldric": 1, "orque": 1}}]
    assert engine.view(state_after([*ROUND, act("dire_phrase")]))["phase"] == "aldric"
    assert engine.view(state_after(free))["phase"] is None


@pytest.mark.parametrize(("command", "code", "words"), [
    ({"combatant": "Aldric"}, "bad_value", ["« combatant »"]),
    ({"combatant": {"id": "", "name": "X"}}, "bad_value", ["« combatant.id »"]),
    ({"combatant": {"id": "aldric", "name": "X"}}, "bad_value", ["« combatant.id » : l'id « aldric » est déjà pris."]),
    ({"combatant": {"name": "X"}, "roll": 3}, "round_over",
     ["Aucun tour en cours : le combattant rejoindra le prochain tour."]),
    ({"combatant": {"name": "X", "weapons": ["epee"]}}, "bad_value", ["« weapons[0] »"]),
    ({"combatant": {"name": "X", "weapons": [{"id": "", "name": "A", "kind": "melee", "skill": "a"}]}}, "bad_value", ["« weapons[0].id »"]),
    ({"combatant": {"name": "X", "weapons": [{"id": "a", "name": "", "kind": "melee", "skill": "a"}]}}, "bad_value",
     ["« weapons[0].name »"]),
    ({"combatant": {"name": "X", "weapons": [{"id": "a", "name": "A", "kind": "melee", "skill": ""}]}}, "bad_value",
     ["« weapons[0].skill »"]),
    ({"combatant": {"name": "X", "weapons": [{"id": "a", "name": "A", "kind": "melee", "skill": "a", "stowed": "oui"}]}},
     "bad_value", ["« weapons[0].stowed » : vrai ou faux."]),
    ({"combatant": {"name": "X", "weapons": [{"id": "a", "name": "A", "kind": "melee", "skill": "a", "poids": 2}]}},
     "bad_value", ["« weapons[0].poids » : champ inconnu (ceux connus : id, name, kind, skill, stowed)."]),
])
def test_a_bad_new_fighter_is_refused_naming_what_is_wrong(command: dict[str, Any], code: str, words: list[str]) -> None:
    refusal(DUO, {"type": "add_combatant", **command}, code, *words)


def test_a_fighter_joining_during_a_round_may_say_the_engine_rolled() -> None:
    refusal(ROUND, {"type": "add_combatant", "combatant": {"name": "X"}, "roll": 3, "engine_rolled": "oui"}, "bad_value",
            "« engine_rolled »")
    joined = engine.apply(state_after(ROUND), {"type": "add_combatant", "combatant": {"name": "X"}, "roll": 3, "engine_rolled": True})
    assert joined["events"][0]["joins"]["rolled_by"] == "engine"


def test_fighters_enter_in_order() -> None:
    """D4: the order of entry breaks the last ties; a fighter added after a removal comes last."""
    log = [*DUO, {"type": "remove_combatant", "id": "aldric"}, {"type": "add_combatant", "combatant": CASTS["lyra"]}]
    board = engine.view(state_after(log))["combatants"]
    assert (board["orque"]["entry"], board["lyra"]["entry"]) == (1, 2)
    assert engine.view(state_after(DUO))["combatants"]["aldric"]["entry"] == 0


def test_at_zero_pi_no_phase_starts() -> None:
    """R2.3: a phase action needs P.I. > 0; 0 is not positive."""
    log = [*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"initiative_bonus": -4}},
           {"type": "start_round", "rolls": {"aldric": 1, "orque": 1}}]
    assert engine.view(state_after(log))["combatants"]["aldric"]["pi"] == 0
    refusal(log, act("observer"), "no_pi", "R2.3")


def test_a_weapon_that_does_not_fit_is_named() -> None:
    refusal(ROUND, act("encocher_fleche", weapon="epee"), "not_allowed", "Épée ne convient pas : il faut un arc en main.")
    refusal(ROUND, act("encocher_fleche"), "not_allowed", "Il faut un arc en main.")


def test_a_skill_test_names_the_skill_and_no_characteristic() -> None:
    """utiliser_competence: the GM picks the characteristic; the board shows the test with
    no skill until one is named."""
    assert engine.apply(state_after(ROUND), act("utiliser_competence", skill="epee"))["events"][0]["tests"] == [
        {"id": None, "characteristic": None, "characteristic_value": None, "skill": "epee", "skill_level": 3,
         "difficulty": None, "modifiers": []}]
    shown = engine.view(state_after(ROUND))["combatants"]["aldric"]["actions"]["utiliser_competence"]["tests"]
    assert shown == [{"id": None, "characteristic": None, "characteristic_value": None, "skill": "", "skill_level": None,
                      "difficulty": None, "modifiers": []}]


def test_a_state_of_another_format_is_refused() -> None:
    state = state_after(DUO)
    result = engine.apply({**state, "format": 99}, {"type": "end_round"})
    assert (result["ok"], result["error"]["code"]) == (False, "bad_value")


# --- add_condition, remove_condition: their limits (D25) ---------------------------------
EIGHT = [*DUO, *({"type": "add_condition", "id": "orque", "condition": f"état {n}"} for n in range(8))]


def test_a_fighter_holds_eight_conditions_and_the_same_words_again_only_change_an_end() -> None:
    error = refused(EIGHT, {"type": "add_condition", "id": "orque", "condition": "aveuglé"})
    assert (error["key"], error["params"]) == ("too_many", {"field": "condition", "max": 8})
    assert error["message"] == "« condition » : 8 au plus."
    assert events_of(EIGHT, {"type": "add_condition", "id": "orque", "condition": "état 3", "until": 1}) == [
        {"type": "condition_added", "id": "orque", "text": "état 3", "until": 1}]
    assert events_of(EIGHT[:-1], {"type": "add_condition", "id": "orque", "condition": "aveuglé"})  # the 8th


@pytest.mark.parametrize("kind", ["add_condition", "remove_condition"])
@pytest.mark.parametrize("words, key", [("x" * 41, "text_length"), (" ", "required"), (3, "text")])
def test_a_condition_s_words_are_a_text_of_1_to_40_characters(kind: str, words: Any, key: str) -> None:
    error = refused(EIGHT, {"type": kind, "id": "orque", "condition": words})
    assert (error["key"], error["params"]["field"], error["params"].get("max", 40)) == (key, "condition", 40)
    assert error["message"].startswith("« condition » : ")
    assert refused(EIGHT, {"type": kind, "id": "orque", "condition": "é" * 40})["key"] != key  # 40 are words enough


def test_between_rounds_a_condition_ends_with_a_round_to_come() -> None:
    """Round 1 over: the next round is 2, so « until » is 2 at the least."""
    over = [*DUO, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}, {"type": "end_round"}]
    error = refused(over, {"type": "add_condition", "id": "aldric", "condition": "saigne", "until": 1})
    assert (error["key"], error["params"]["low"]) == ("range", 2)
    assert events_of(over, {"type": "add_condition", "id": "aldric", "condition": "saigne", "until": 2})


@hypothesis_settings(max_examples=200)
@given(wounds=st.integers(0, 999), by=st.integers(-1200, 1200))
@example(wounds=0, by=999)  # the largest step, either way
@example(wounds=999, by=-999)
@example(wounds=0, by=1000)
def test_wounds_given_as_a_step_are_written_as_the_total_never_below_zero(wounds: int, by: int) -> None:
    """A row's −1 or « −5 » typed: the engine writes the total it makes in the log (never
    below 0; above the limit of a value, refused like a typed total)."""
    log = [{"type": "add_combatant", "combatant": {**CASTS["aldric"], "wounds": wounds}}]
    result = engine.apply(state_after(log), {"type": "update_combatant", "id": "aldric", "changes": {"wounds": {"by": by}}})
    total = max(0, wounds + by)
    if total > 999 or abs(by) > 999:
        assert not result["ok"] and result["error"]["code"] == "bad_value"
    else:
        assert result["ok"] and result["command"]["changes"] == {"wounds": total}
        assert engine.view(result["state"])["combatants"]["aldric"]["wounds"] == total
