"""Commands at their edges (engine/decide.py, engine/actions/): each refusal with its code,
the field it names and the rule it cites, and nothing changed; the defaults an omitted
option takes. The scenarios (tests/scenarios/) tell the rules; these pin the limits."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from tests.test_save import CASTS

DUO = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]}]
ROUND = [*DUO, {"type": "update_combatant", "id": "aldric", "changes": {"initiative_bonus": 10}},
         {"type": "start_round", "declarations": {"aldric": "epee"}, "rolls": {"aldric": 6, "orque": 1}}]


def state_after(log: list[dict[str, Any]]) -> dict[str, Any]:
    result = engine.replay(log)
    assert result["ok"], result
    state: dict[str, Any] = result["state"]
    return state


def refusal(log: list[dict[str, Any]], command: dict[str, Any], code: str, *words: str) -> str:
    """``command`` after ``log`` is refused with ``code``, a message that holds ``words``
    (the field, the rule), and the state as it was."""
    state = state_after(log)
    result = engine.apply(state, command)
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    message = result["error"]["message"]
    assert isinstance(message, str), result["error"]
    for word in words:
        assert word in message, message
    assert json.dumps(result["state"], sort_keys=True) == json.dumps(state, sort_keys=True)
    return message


def events_of(log: list[dict[str, Any]], command: dict[str, Any]) -> list[dict[str, Any]]:
    result = engine.apply(state_after(log), command)
    assert result["ok"], result
    return [e for e in result["events"] if e["type"] != "action_taken"]


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


def test_an_unknown_setting_is_quoted() -> None:
    refusal([], settings({"couleur": "rouge"}), "bad_value", "run_table", "'couleur'")


def test_the_run_table_row_at_its_minimum_counts() -> None:
    """R4.3: the row with the highest minimum not above the result."""
    log = [*ROUND, settings({"run_table": [[0, 6], [5, 12]]})]
    assert events_of(log, {"type": "act", "actor": "aldric", "action": "courir", "test_result": 5}) == [
        {"type": "moved", "actor": "aldric", "how": "course", "distance": 12}]


# --- pass (D5) -------------------------------------------------------------------------------
def test_passing_needs_a_round_in_progress() -> None:
    refusal(DUO, {"type": "pass", "actor": "aldric"}, "round_over", "R2.4")


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
    refusal(held, act("lacher_objet", items=["epee", "bouclier", "dague"]), "not_allowed", "deux au plus", "R4")
    refusal(held, act("lacher_objet", items=["arc"]), "not_allowed", "'arc'", "R4")


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


def test_a_fault_inside_the_engine_is_refused_as_unreadable_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """engine.apply never raises (RULES.md contract): an exception that is not a refusal
    becomes ``bad_command`` naming the fault's type, and the state stays as it was."""
    state = state_after(ROUND)

    def broken(*args: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(engine, "step", broken)
    result = engine.apply(state, act("observer"))
    assert result == {"ok": False, "state": state,
                      "error": {"code": "bad_command", "message": "Commande illisible (erreur interne : KeyError)."}}


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


@pytest.mark.parametrize(("value", "message"), [
    ({"couleur": "rouge"}, "« settings.couleur » doit être un réglage connu (run_table) (reçu : 'couleur')."),
    ({"run_table": [[0, 6], [4]]}, "« run_table[1] » doit être une paire [résultat minimum, mètres] (reçu : une liste)."),
    ({"run_table": [[0, 6], [1, 2, 3]]}, "« run_table[1] » doit être une liste d'au plus 2 éléments (reçu : '3 éléments')."),
    ({"run_table": [[0, 6], "vite"]}, "« run_table[1] » doit être une liste (reçu : 'vite')."),
    ({"run_table": [[0, 6], [0, 7]]}, "« run_table » doit être des résultats minimums distincts (reçu : une liste)."),
])
def test_a_bad_run_table_is_refused_in_so_many_words(value: Any, message: str) -> None:
    """The French page shows the engine's refusal as written (web/i18n.js)."""
    assert refusal([], settings(value), "bad_value") == message


def test_the_gm_ending_a_round_names_it() -> None:
    assert events_of(ROUND, {"type": "end_round"}) == [{"type": "round_ended", "round": 1, "reason": "mj"}]
    assert events_of([*ROUND, {"type": "end_round"}], {"type": "end_round"}) == []  # R5.4: over stays over


def test_an_unreadable_state_is_refused_and_given_back() -> None:
    result = engine.apply("pas un état", {"type": "end_round"})
    assert result == {"ok": False, "state": "pas un état",
                      "error": {"code": "bad_value", "message": "« state » n'est pas un état de rencontre Riposte lisible."}}


def test_apply_rolls_the_dice_from_the_source_it_is_given() -> None:
    """R1.2: dice nobody typed come from ``rng``: the same seed, the same dice."""
    import random

    state = state_after([{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)])
    rolls = [engine.apply(state, {"type": "start_round"}, random.Random(5))["command"]["rolls"] for _ in range(2)]
    expected = random.Random(5)
    assert rolls[0] == rolls[1] == {f"c{i + 1}": expected.randint(1, 6) for i in range(8)}
