"""Value checks (engine/values.py): what a refusal says of a bad value, and the bounds.

A refusal names the field and what it must hold (its key and params, worded by the
catalogues); where a refusal quotes a value it did not expect (an unknown action, an
unknown id), the quote is short enough for a toast, in no language, and quoting never
fails itself (a huge int, a deeply nested list, a 2 MB string)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import values as v
from engine.errors import Refusal
from engine.values import MAX_LIST, bad, boolean, choice, identifier, integer, mapping, number, sequence, shown, text


def test_a_long_value_is_quoted_cut_to_forty_characters() -> None:
    assert shown("x" * 100) == "'" + "x" * 36 + "..."
    assert len(shown("é" * 10_000)) == 40
    assert shown("x" * 38) == "'" + "x" * 38 + "'"  # 40 with its quotes: whole
    assert shown("x" * 39) == "'" + "x" * 36 + "..."  # 41: cut


def test_containers_and_huge_ints_are_marked_not_quoted() -> None:
    assert (shown([1]), shown((1,)), shown({"a": 1})) == ("[…]", "[…]", "{…}")
    assert (shown(10**40), shown(-(10**40)), shown(2**4000)) == ("1e40", "-1e40", "1e1204")
    assert shown(10**40 - 1) == "9" * 40  # 40 digits: still quoted whole
    assert shown(True) == "True"


def test_a_refusal_names_the_field_and_what_it_must_hold() -> None:
    refusal = bad("wounds", "integer", low=0, high=999)
    assert (refusal.code, refusal.key, refusal.message) == ("bad_value", "integer", "« wounds » : un nombre entier, de 0 à 999.")


@pytest.mark.parametrize(("check", "value"), [
    (lambda v: integer(v, "n", low=0, high=3), 4), (lambda v: integer(v, "n", low=0, high=3), -1),
    (lambda v: integer(v, "n"), 2.0), (lambda v: number(v, "d"), float("nan")), (lambda v: number(v, "d"), "2"),
    (lambda v: number(v, "d", high=6), 6.5), (lambda v: text(v, "name"), "   "), (lambda v: text(v, "name"), "x" * 61),
    (lambda v: mapping(v, "m"), {str(i): i for i in range(MAX_LIST + 1)}), (lambda v: sequence(v, "s", max_len=2), [1, 2, 3]),
])
def test_values_out_of_bounds_are_refused_as_bad_value(check: object, value: object) -> None:
    with pytest.raises(Refusal) as caught:
        check(value)  # type: ignore[operator]
    assert caught.value.code == "bad_value"


def test_values_at_the_bounds_are_kept() -> None:
    assert integer(3, "n", low=0, high=3) == 3 and integer(0, "n", low=0, high=3) == 0
    assert number(6, "d", high=6) == 6 and number(0.0, "d") == 0.0
    assert text("  Aldric  ", "name") == "Aldric" and text("x" * 60, "name") == "x" * 60
    assert sequence((1, 2), "s", max_len=2) == [1, 2]
    assert mapping({str(i): i for i in range(MAX_LIST)}, "m")["0"] == 0


def test_a_string_is_cut_to_forty_characters_before_it_is_quoted() -> None:
    """The quote is chosen for what is shown: a quote past the 40th character is not."""
    assert shown("x" * 40 + "'") == "'" + "x" * 36 + "..."


def test_a_number_refused_says_what_was_expected() -> None:
    """Distances (R4.2, R4.3) are numbers: a refusal names the field and the bounds."""
    for value in (float("nan"), float("inf"), float("-inf"), "2", None, True, 10_001, -0.5, [3]):
        with pytest.raises(Refusal) as caught:
            number(value, "distance")
        assert caught.value.message == "« distance » : un nombre, de 0 à 10000.", value


def test_a_flag_refused_says_it_wants_true_or_false() -> None:
    with pytest.raises(Refusal) as caught:
        boolean("oui", "cover")
    assert caught.value.message == "« cover » : vrai ou faux."


@pytest.mark.parametrize(("check", "value", "message"), [
    (lambda x: boolean(x, "engaged"), "oui", "« engaged » : vrai ou faux."),
    (lambda x: choice(x, "side", ("pj", "pnj")), "mj", "« side » : l'une des valeurs pj, pnj."),
    (lambda x: identifier(x, "actor"), " aldric", "« actor » : un identifiant, de 1 à 60 caractères sans espace au début ni à la fin."),
    (lambda x: integer(x, "hope", low=0), 2.0, "« hope » : un nombre entier, de 0 à 999."),
    (lambda x: integer(x, "hope", low=0, high=9), 10, "« hope » : de 0 à 9."),
    (lambda x: mapping(x, "skills"), [], "« skills » : un objet."),
    (lambda x: mapping(x, "skills"), {str(i): i for i in range(MAX_LIST + 1)}, f"« skills » : {MAX_LIST} au plus."),
    (lambda x: sequence(x, "items", 2), "épée", "« items » : une liste."),
    (lambda x: sequence(x, "items", 2), [1, 2, 3], "« items » : 2 au plus."),
    (lambda x: text(x, "name"), 3, "« name » : un texte."),
    (lambda x: text(x, "name", max_len=3), " abcd ", "« name » : de 1 à 3 caractères."),
    (lambda x: text(x, "notes", max_len=3, min_len=0), "abcd", "« notes » : de 0 à 3 caractères."),
])
def test_each_check_says_in_words_what_the_field_must_be(check: object, value: object, message: str) -> None:
    """The French sentence of each check (engine/lang/fr.json), its params filled in: the
    field and what it must hold."""
    with pytest.raises(Refusal) as refused:
        check(value)  # type: ignore[operator]
    assert (refused.value.code, refused.value.message) == ("bad_value", message)


def test_the_bounds_of_ids_lists_and_objects_are_inclusive() -> None:
    assert identifier("a" * 60, "actor") == "a" * 60
    assert sequence([1, 2], "items", 2) == [1, 2]
    assert len(mapping({str(i): i for i in range(MAX_LIST)}, "skills")) == MAX_LIST
    assert choice("pj", "side", ("pj", "pnj")) == "pj"


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: v.integer("x", "wounds", low=0, high=9), {"field": "wounds", "key": "integer", "params": {"low": 0, "high": 9}}),
    (lambda: v.integer(12, "wounds", low=0, high=9), {"field": "wounds", "key": "range", "params": {"low": 0, "high": 9}}),
    (lambda: v.integer(-1000, "hope"), {"field": "hope", "key": "range", "params": {"low": -999, "high": 999}}),
    (lambda: v.number("5 m", "distance"), {"field": "distance", "key": "number", "params": {"low": 0, "high": 10_000}}),
    (lambda: v.number(float("nan"), "distance", low=1, high=50),
     {"field": "distance", "key": "number", "params": {"low": 1, "high": 50}}),
    (lambda: v.number(60, "distance", low=1, high=50), {"field": "distance", "key": "number", "params": {"low": 1, "high": 50}}),
    (lambda: v.boolean(1, "cover"), {"field": "cover", "key": "boolean", "params": {}}),
    (lambda: v.text(3, "name"), {"field": "name", "key": "text", "params": {"max": 60}}),
    (lambda: v.text("", "name", max_len=20), {"field": "name", "key": "required", "params": {}}),
    (lambda: v.text("x" * 21, "name", max_len=20), {"field": "name", "key": "text_length", "params": {"min": 1, "max": 20}}),
    (lambda: v.identifier("", "id"), {"field": "id", "key": "identifier", "params": {"max": 60}}),
    (lambda: v.mapping([], "skills"), {"field": "skills", "key": "object", "params": {}}),
    (lambda: v.mapping({str(i): 0 for i in range(65)}, "skills"), {"field": "skills", "key": "too_many", "params": {"max": 64}}),
    (lambda: v.sequence({}, "weapons"), {"field": "weapons", "key": "list", "params": {}}),
    (lambda: v.sequence([0] * 17, "weapons", 16), {"field": "weapons", "key": "too_many", "params": {"max": 16}}),
    (lambda: v.choice("x", "side", ("pj", "pnj")), {"field": "side", "key": "choice", "params": {"allowed": ["pj", "pnj"]}}),
    (lambda: (_ for _ in ()).throw(v.bad("name", "required")), {"field": "name", "key": "required", "params": {}}),
])
def test_each_check_names_its_field_its_key_and_its_limits(call: Any, expected: dict[str, Any]) -> None:
    """What the form and the board word a refused value by (web/infra/i18n.js):
    the field, the check it failed and that check's limits, exactly."""
    with pytest.raises(Refusal) as refused:
        call()
    assert refused.value.code == "bad_value"
    assert refused.value.field_json() == expected
