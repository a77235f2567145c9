"""Value checks (engine/values.py): what a refusal quotes of a bad value, and the bounds.

A refusal names the field and quotes what it got, short enough for a toast, and quoting
never fails itself (a huge int, a deeply nested list, a 2 MB string)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import values as v
from engine.errors import Refusal
from engine.values import MAX_LIST, _shown, bad, boolean, choice, identifier, integer, mapping, number, sequence, text


def test_a_long_value_is_quoted_cut_to_forty_characters() -> None:
    assert _shown("x" * 100) == "'" + "x" * 36 + "..."
    assert len(_shown("é" * 10_000)) == 40
    assert _shown("x" * 38) == "'" + "x" * 38 + "'"  # 40 with its quotes: whole
    assert _shown("x" * 39) == "'" + "x" * 36 + "..."  # 41: cut


def test_containers_and_huge_ints_are_named_not_quoted() -> None:
    assert (_shown([1]), _shown((1,)), _shown({"a": 1})) == ("une liste", "une liste", "un objet")
    assert _shown(10**40) == _shown(-(10**40)) == "un très grand entier"
    assert _shown(10**40 - 1) == "9" * 40  # 40 digits: still quoted whole
    assert _shown(True) == "True"


def test_a_refusal_names_the_field_and_quotes_the_value() -> None:
    refusal = bad("wounds", "un entier", "trois")
    assert (refusal.code, refusal.message) == ("bad_value", "« wounds » doit être un entier (reçu : 'trois').")


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
    assert _shown("x" * 40 + "'") == "'" + "x" * 36 + "..."


def test_a_number_refused_says_what_was_expected_and_what_came() -> None:
    """Distances (R4.2, R4.3) are numbers: a refusal names the field, the bounds, the value."""
    for value, expected in ((float("nan"), "un nombre (reçu : nan)"), (float("inf"), "un nombre (reçu : inf)"),
                            ("2", "un nombre (reçu : '2')"), (None, "un nombre (reçu : None)"),
                            (10_001, "un nombre entre 0 et 10000 (reçu : 10001)")):
        with pytest.raises(Refusal) as caught:
            number(value, "distance")
        assert caught.value.message == f"« distance » doit être {expected}."


def test_a_flag_refused_says_it_wants_true_or_false() -> None:
    with pytest.raises(Refusal) as caught:
        boolean("oui", "cover")
    assert caught.value.message == "« cover » doit être vrai ou faux (reçu : 'oui')."


@pytest.mark.parametrize(("check", "value", "message"), [
    (lambda x: boolean(x, "engaged"), "oui", "« engaged » doit être vrai ou faux (reçu : 'oui')."),
    (lambda x: choice(x, "side", ("pj", "pnj")), "mj", "« side » doit être l'une des valeurs pj, pnj (reçu : 'mj')."),
    (lambda x: identifier(x, "actor"), " aldric", "« actor » doit être un identifiant (texte de 1 à 60 caractères) (reçu : ' aldric')."),
    (lambda x: identifier(x, "actor"), "a" * 61,
     "« actor » doit être un identifiant (texte de 1 à 60 caractères) (reçu : '" + "a" * 36 + "...)."),
    (lambda x: integer(x, "hope", low=0), 2.0, "« hope » doit être un entier (reçu : 2.0)."),
    (lambda x: integer(x, "hope", low=0, high=9), 10, "« hope » doit être un entier entre 0 et 9 (reçu : 10)."),
    (lambda x: mapping(x, "skills"), [], "« skills » doit être un objet (reçu : une liste)."),
    (lambda x: mapping(x, "skills"), {str(i): i for i in range(MAX_LIST + 1)},
     f"« skills » doit être un objet d'au plus {MAX_LIST} entrées (reçu : '{MAX_LIST + 1} entrées')."),
    (lambda x: sequence(x, "items", 2), "épée", "« items » doit être une liste (reçu : 'épée')."),
    (lambda x: sequence(x, "items", 2), [1, 2, 3], "« items » doit être une liste d'au plus 2 éléments (reçu : '3 éléments')."),
    (lambda x: text(x, "name"), 3, "« name » doit être un texte (reçu : 3)."),
    (lambda x: text(x, "name", max_len=3), " abcd ", "« name » doit être un texte de 1 à 3 caractères (reçu : ' abcd ')."),
])
def test_each_check_says_in_words_what_the_field_must_be(check: object, value: object, message: str) -> None:
    """What the French page shows as is: the field, what it must hold, what came."""
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
    (lambda: v.text("", "name", max_len=20), {"field": "name", "key": "text_length", "params": {"min": 1, "max": 20}}),
    (lambda: v.identifier("", "id"), {"field": "id", "key": "identifier", "params": {"max": 60}}),
    (lambda: v.mapping([], "skills"), {"field": "skills", "key": "object", "params": {}}),
    (lambda: v.mapping({str(i): 0 for i in range(65)}, "skills"), {"field": "skills", "key": "too_many", "params": {"max": 64}}),
    (lambda: v.sequence({}, "weapons"), {"field": "weapons", "key": "list", "params": {}}),
    (lambda: v.sequence([0] * 17, "weapons", 16), {"field": "weapons", "key": "too_many", "params": {"max": 16}}),
    (lambda: v.choice("x", "side", ("pj", "pnj")), {"field": "side", "key": "choice", "params": {"allowed": ["pj", "pnj"]}}),
    (lambda: (_ for _ in ()).throw(v.missing("name", "Il faut un nom.")), {"field": "name", "key": "required", "params": {}}),
])
def test_each_check_names_its_field_its_key_and_its_limits(call: Any, expected: dict[str, Any]) -> None:
    """What the form and the board word a refused value by (web/infra/i18n.js ``fieldError``):
    the field, the check it failed and that check's limits, exactly."""
    with pytest.raises(Refusal) as refused:
        call()
    assert refused.value.code == "bad_value"
    assert refused.value.field_json() == expected
