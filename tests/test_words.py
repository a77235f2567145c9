"""One copy of each sentence: the engine refuses by a reason's key and its params
(engine/errors.py REASONS), each worded once, in French and in English, in the engine's
catalogues (engine/lang/*.json); the engine's plain message is the French sentence, and
the page's catalogues (web/lang/*.js, read here as JavaScript by Node) import those very
files, so neither repeats a sentence. Both languages word every key, the same params."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import MALFORMED

import engine
from engine.actions.base import Need, Uses
from engine.errors import CHECKS, CODES, LANGUAGES, REASONS, WORDS, Refusal, sentence
from tests.casts import CASTS

ROOT = Path(__file__).resolve().parents[1]
PARAM = re.compile(r"\{(\w+)\}")


@cache
def page_catalogues() -> dict[str, Any]:
    """web/lang/fr.js and en.js as Node runs them (the module each exports, as JSON: a
    function as the text ``"function"``)."""
    script = """
        const found = {};
        for (const path of process.argv.slice(1)) {
          const words = (await import(path)).default;
          found[words.code] = JSON.parse(JSON.stringify(words, (k, v) => (typeof v === "function" ? "function" : v)));
        }
        console.log(JSON.stringify(found));"""
    paths = [(ROOT / "web" / "lang" / f"{language}.js").as_uri() for language in LANGUAGES]
    run = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script, *paths],
                         capture_output=True, text=True, check=True, timeout=60, cwd=ROOT)
    found: dict[str, Any] = json.loads(run.stdout)
    return found


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")


# --- the engine's catalogues -------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_is_worded_once_in_each_language_with_the_same_params(language: str) -> None:
    assert set(WORDS[language]) == set(REASONS)
    for key, words in WORDS[language].items():
        assert set(PARAM.findall(words)) == set(PARAM.findall(WORDS["fr"][key])), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_s_sentences_are_its_file_s(language: str) -> None:
    """WORDS is read once, at import: read again, each catalogue is its own file, whole."""
    from engine.errors import _catalogue

    path = ROOT / "engine" / "lang" / f"{language}.json"
    assert _catalogue(language) == json.loads(path.read_text(encoding="utf-8")) == WORDS[language]


@pytest.mark.parametrize("text", ['["passed"]', '{"passed": 1}', '{"passed": null}', '"{name} a passé."'])
def test_a_catalogue_that_is_not_an_object_of_sentences_is_a_mistake_said_with_its_file(text: str) -> None:
    from engine.errors import _sentences

    with pytest.raises(TypeError, match=r"^engine/lang/xx\.json is not an object of sentences$"):
        _sentences(text, "engine/lang/xx.json")


def test_every_reason_gives_a_known_code_and_every_code_is_given() -> None:
    assert set(REASONS.values()) <= set(CODES)
    assert set(CODES) - set(REASONS.values()) == set()
    assert set(CHECKS) <= set(REASONS) and all(REASONS[k] == "bad_value" for k in CHECKS)


def test_every_reason_is_given_somewhere_in_the_engine() -> None:
    """No sentence left that nothing says: each key is named in the engine's code (the
    table's and the page's own, ``read_only``, in web/)."""
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine").rglob("*.py") if p.name != "errors.py")
    web = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "web").rglob("*.js"))
    unsaid = {key for key in REASONS if f'"{key}"' not in source and f'"{key}"' not in web}
    assert unsaid == set()


def test_each_refusal_the_page_makes_gives_its_reason_s_own_code() -> None:
    """The page's own refusals (web/infra/refusals.js ``refused``, the session's ``refuse``)
    name a reason of the catalogue with the code that reason gives (its storage statuses:
    tests/web/refusals.test.mjs)."""
    web = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "web").rglob("*.js"))
    made = re.findall(r'\brefuse[d]?\("(\w+)", "(\w+)"', web)
    assert {("read_only", "read_only"), ("busy", "switching"), ("discarded", "discarded")} <= set(made)
    assert {key: code for code, key in made if REASONS.get(key) != code} == {}


def test_the_sentence_rules_quote_names_nest_reasons_and_join_lists() -> None:
    assert sentence("fr", "option_not_taken", {"action": "charge", "option": "items"}) == \
        "« charge » ne prend pas l'option « items »."
    assert sentence("en", "weapon_unfit", {"weapon": "Arc", "why": "needs_melee"}) == \
        "Arc does not fit: needs a melee weapon in hand, or bare hands."
    assert sentence("fr", "unknown_type", {"got": "'voler'", "known": ["pass", "act"]}) == \
        "Type de commande inconnu : 'voler'. Types connus : pass, act."
    assert sentence("fr", "too_far", {"distance": 7.0, "base": 6, "result": 0, "reach": 6}) == \
        "Trop loin pour charger : 7 m > 6 + 0 = 6 m."


@given(MALFORMED | st.builds(dict))
def test_every_refusal_is_its_french_sentence_and_has_an_english_one(command: dict[str, Any]) -> None:
    """Any command, any refusal: the message is the French sentence of its key and params,
    and the English one fills in from the same params."""
    state = engine.new_encounter()
    for name in ("aldric", "orque"):
        state = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})["state"]
    state = engine.apply(state, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})["state"]
    error = engine.apply(state, command).get("error")
    if error is not None:
        assert error["message"] == sentence("fr", error["key"], error["params"])
        assert sentence("en", error["key"], error["params"])
        json.dumps(error)  # params are JSON


# --- the page's catalogues -----------------------------------------------------------------
@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_words_refusals_by_the_engine_s_own_catalogue(language: str) -> None:
    assert page_catalogues()[language]["refusals"] == WORDS[language]


@needs_node
def test_no_sentence_of_the_engine_is_written_again_in_the_page() -> None:
    """The page's own strings never repeat one of the engine's sentences (the words a
    refusal gives, with or without its params)."""
    fixed = {words.split("{")[0].strip() for language in LANGUAGES for words in WORDS[language].values()}
    fixed = {part for part in fixed if len(part) >= 20}
    for language in LANGUAGES:
        text = (ROOT / "web" / "lang" / f"{language}.js").read_text(encoding="utf-8")
        assert [part for part in fixed if part in text] == [], language


@needs_node
def test_every_string_has_both_languages() -> None:
    """One catalogue per language with the same keys and the same tables; English names
    every engine action."""
    fr, en = page_catalogues()["fr"], page_catalogues()["en"]

    def shape(words: dict[str, Any]) -> dict[str, Any]:
        return {k: sorted(x) if isinstance(x, dict) else type(x).__name__ for k, x in words.items()}

    assert shape(fr) == shape(en)
    assert sorted(en["actions"]) == sorted(engine.ACTIONS)
    assert len(en["keys"]) == len(fr["keys"])


# --- the engine gives a key the page words -------------------------------------------------
def test_every_precondition_and_weapon_names_a_known_reason() -> None:
    for action in engine.ACTIONS.values():
        for need in action.needs:
            assert isinstance(need, Need) and REASONS[need.key] == "not_allowed", (action.id, need)
        if action.uses is not None:
            assert isinstance(action.uses, Uses)
            assert REASONS[action.uses.key] == REASONS[action.uses.unfit_key] == "not_allowed", action.id


def test_every_refused_action_on_the_board_carries_its_key() -> None:
    """Fighters in many situations (before a round, acting, waiting, out of P.I., out of
    the fight): each action the board refuses says why by a key the page can word, and its
    French ``reason`` is that key's sentence."""
    state = engine.new_encounter()
    for name in ("aldric", "orque"):
        state = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})["state"]
    seen: set[str] = set()
    steps = [None, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}},
             {"type": "act", "actor": "aldric", "action": "charge", "distance": 3, "test_result": 1, "target": "orque"},
             {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}]
    for command in steps:
        if command is not None:
            result = engine.apply(state, command)
            assert result["ok"], result
            state = result["state"]
        for fighter in engine.view(state)["combatants"].values():
            for verdict in fighter["actions"].values():
                if not verdict["allowed"]:
                    assert verdict["reason"] == sentence("fr", verdict["key"], verdict["params"]), verdict
                    seen.add(verdict["key"])
    assert {"round_not_started", "not_highest", "no_dodge_after_charge", "hors_combat"} <= seen, seen


def test_a_refused_command_carries_its_key_and_params() -> None:
    state = engine.new_encounter()
    for name in ("aldric", "orque"):
        state = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})["state"]
    state = engine.apply(state, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})["state"]
    state = engine.apply(state, {"type": "pass", "actor": "aldric"})["state"]
    error = engine.apply(state, {"type": "act", "actor": "aldric", "action": "observer"})["error"]
    assert (error["code"], error["key"], error["params"]) == ("not_allowed", "passed", {"name": "Aldric"})


START = {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}
DODGE = {"type": "interrupt", "actor": "orque", "action": "esquiver"}


@pytest.mark.parametrize(("steps", "command", "expected"), [
    ([], {"type": "act", "actor": "aldric", "action": "observer"}, {"code": "round_over", "key": "round_not_started", "params": {}}),
    ([START], {"type": "act", "actor": "orque", "action": "observer"}, {"code": "not_your_turn", "key": "not_highest", "params": {}}),
    ([START, {"type": "act", "actor": "aldric", "action": "dire_phrase"}], {"type": "interrupt", "actor": "aldric", "action": "esquiver"},
     {"code": "not_allowed", "key": "interrupt_own_phase", "params": {}}),
    ([START, {"type": "act", "actor": "aldric", "action": "dire_phrase"}], {"type": "act", "actor": "orque", "action": "observer"},
     {"code": "not_your_turn", "key": "other_phase", "params": {}}),
    ([START, {"type": "update_combatant", "id": "orque", "changes": {"hors_combat": True}}], DODGE,
     {"code": "not_allowed", "key": "hors_combat", "params": {"name": "Orque"}}),
    ([START, {"type": "end_round"}], {"type": "act", "actor": "aldric", "action": "observer"},
     {"code": "round_over", "key": "round_finished", "params": {}}),
    ([START, {"type": "add_combatant", "combatant": CASTS["lyra"]}], {"type": "interrupt", "actor": "lyra", "action": "esquiver"},
     {"code": "not_allowed", "key": "not_in_round", "params": {"name": "Lyra"}}),
    ([START, DODGE], DODGE, {"code": "no_hope", "key": "no_hope", "params": {"name": "Orque"}}),
])
def test_who_may_act_is_refused_with_a_key_the_page_words(steps: list[dict[str, Any]], command: dict[str, Any],
                                                          expected: dict[str, Any]) -> None:
    """rules.eligibility (R1, R2.1, R2.4, R5.1, R5.2, D6, D7, D22): the code, and the key and
    params by which web/lang/*.js word the refusal in the page's language."""
    state = engine.new_encounter()
    for command_before in [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")] + steps:
        result = engine.apply(state, command_before)
        assert result["ok"], result
        state = result["state"]
    error = engine.apply(state, command)["error"]
    assert {k: error.get(k) for k in expected} == expected


def test_an_interruption_without_p_i_is_paid_with_a_point_d_espoir() -> None:
    """R5.2: out of P.I., an interruption costs a point d'Espoir, and the P.I. stay at 0."""
    state = engine.new_encounter()
    for command in [{"type": "add_combatant", "combatant": CASTS["aldric"]},
                    {"type": "add_combatant", "combatant": {**CASTS["orque"], "hope": 1}}, START, DODGE]:
        state = engine.apply(state, command)["state"]
    orque = engine.view(state)["combatants"]["orque"]
    assert (orque["pi"], orque["hope"]) == (0, 1)
    assert orque["actions"]["esquiver"]["allowed"] and orque["actions"]["esquiver"]["pays"] == "espoir"
    after = engine.view(engine.apply(state, DODGE)["state"])["combatants"]["orque"]
    assert (after["pi"], after["hope"]) == (0, 0)


@pytest.mark.parametrize(("command", "expected"), [
    ({"type": "act", "actor": "aldric", "action": "attaque_melee", "weapon": "arc", "target": "orque"},
     {"code": "not_allowed", "message": "Arc court ne convient pas : il faut une arme de mêlée en main, ou les mains nues.",
      "key": "weapon_unfit", "params": {"weapon": "Arc court", "why": "needs_melee"}}),
    ({"type": "act", "actor": "aldric", "action": "se_jeter_au_sol", "posture": "assis"},
     {"code": "bad_value", "message": "« posture » : l'une des valeurs a_genoux, a_terre.",
      "key": "choice", "params": {"field": "posture", "allowed": ["a_genoux", "a_terre"]}}),
    ({"type": "act", "actor": "aldric", "action": "lacher_objet", "items": []},
     {"code": "bad_value", "message": "« items » : au moins un.", "key": "empty", "params": {"field": "items"}}),
    ({"type": "act", "actor": "aldric", "action": "attaque_melee", "target": ""},
     {"code": "bad_value", "message": "« target » : un identifiant, de 1 à 60 caractères sans espace au début ni à la fin.",
      "key": "identifier", "params": {"field": "target", "max": 60}}),
    ({"type": "interrupt", "actor": "orque", "action": "esquive_acrobatique", "tests": {"esquive": 1}},
     {"code": "bad_value", "message": "« tests » : « esquive » et « acrobatie », chacun vrai ou faux.",
      "key": "acrobatic_tests", "params": {"field": "tests"}}),
])
def test_a_bad_option_or_an_unfit_weapon_is_refused_in_words_and_by_key(command: dict[str, Any], expected: dict[str, Any]) -> None:
    """commands.check_options and rules.weapon_for (R4): the whole refusal, its French
    words and its key and params, by which the page words it in its language."""
    state = engine.new_encounter()
    for before in [{"type": "add_combatant", "combatant": CASTS[n]} for n in ("aldric", "orque")] + [START]:
        state = engine.apply(state, before)["state"]
    assert engine.apply(state, command)["error"] == expected


def test_a_refusal_s_key_gives_its_code() -> None:
    assert (Refusal("passed", name="A").code, Refusal("fight_too_long", count=2, max=1).code) == ("not_allowed", "too_long")


def test_the_english_page_says_i_p_and_hope() -> None:
    """English names the game's terms I.P. and Hope everywhere (web/lang/en.js): never the
    French « P.I. » nor « Espoir », which the English interface's French check cannot see
    once en.js itself holds them."""
    text = (ROOT / "web" / "lang" / "en.js").read_text(encoding="utf-8")
    strings = re.findall(r'"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`', text)
    assert [s for s in strings if re.search(r"P\.I\.|Espoir", s)] == []
