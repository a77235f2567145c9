"""The group's rules as a value: every number and choice of RULES.md a group may change,
with the source's as the default (:data:`DEFAUT`), and their check.

A fight carries its rules (``Encounter.regles``, engine/model.py): the rules read them,
never a constant. :func:`read` checks a rules value (a JSON object) field by field and
refuses it with a reason per field, every field refused at once (``fields``), as a
sheet is refused; an unknown field is refused, a missing one keeps its ``base`` value.

>>> DEFAUT.cout_complexe, DEFAUT.de_initiative, DEFAUT.visee_perdue
(10, 6, ('gratuite', 'simple', 'complexe', 'interruption'))
>>> read({"cout_interruption": 4}).cout_interruption
4
>>> try:
...     read({"de_initiative": 1, "cout_simple": "5", "passer": "non"})
... except Refusal as r:
...     [(f["field"], f["key"]) for f in r.fields]
[('regles.de_initiative', 'range'), ('regles.cout_simple', 'integer'), ('regles.passer', 'boolean')]
>>> read({"cout_simple": 12})
Traceback (most recent call last):
...
engine.errors.Refusal: « regles.cout_simple » : au plus 10, la valeur de cout_complexe (les règles du groupe).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import values as v
from .errors import Refusal

#: R3: the categories of action, as the rules name them (engine/model.py ``Category``).
CATEGORIES = ("gratuite", "simple", "complexe", "interruption")


@dataclass(frozen=True, slots=True)
class Regles:
    """The rules a fight is played by (RULES.md; each field names its rule)."""

    #: R1.2: the faces of the initiative die (1d6).
    de_initiative: int = 6
    #: R1.3, R1.6: the characteristic is divided by this, rounded down.
    diviseur_caracteristique: int = 2
    #: R3.1: each free action after the first of a phase.
    cout_gratuite_suivante: int = 5
    #: R3.2: a simple action.
    cout_simple: int = 5
    #: R3.2: a complex action (at least a simple one: ``preparer_arme`` costs one or the other).
    cout_complexe: int = 10
    #: R3.2, R5.1: an interruption, in P.I.
    cout_interruption: int = 5
    #: R5.2: the points d'Espoir an interruption costs at P.I. ≤ ``espoir_seuil``.
    espoir_cout: int = 1
    #: R5.2: at P.I. at or below this, an interruption is paid in Espoir.
    espoir_seuil: int = 0
    #: R4.1: each ``ajuster_tir`` adds this much (and the cap is at least this).
    visee_pas: int = 1
    #: R4.1: the aim's cap; ``None``: the weapon's skill level, at least one step.
    visee_plafond: int | None = None
    #: D17: ``ajuster_tir`` at the cap allowed (it costs and adds nothing); else refused.
    visee_au_plafond: bool = True
    #: D13: the categories of action (other than the aim and the attack that uses it) that lose the aim.
    visee_perdue: tuple[str, ...] = CATEGORIES
    #: R4.2: the charge's attack bonus.
    charge_attaque: int = 4
    #: R4.2: the charge's damage bonus on a hit.
    charge_degats: int = 2
    #: R4.2: ``parer`` after charging, until the end of the round.
    charge_parade: int = -4
    #: R4.2: no dodge (``esquiver``, ``esquive_acrobatique``) after charging this round.
    charge_sans_esquive: bool = True
    #: R4.2: a charge reaches this many metres plus the Mêlée / Course test result.
    charge_portee: int = 6
    #: R4 ``se_deplacer``: the metres of a walk.
    marche_metres: int = 6
    #: D9: ``courir`` is a ``simple`` or a ``complexe`` action.
    courir_categorie: str = "simple"
    #: R4.3: the group's run table, ``(min test result, metres)`` rows sorted by minimum.
    courir_table: tuple[tuple[int, int], ...] = ()
    #: D5: ``pass`` allowed.
    passer: bool = True


#: The rules of the source, RULES.md as written.
DEFAUT = Regles()
#: The fields in their order.
FIELDS = tuple(f.name for f in dataclasses.fields(Regles))

#: The most a cost, a bonus or a distance may be: a table's numbers, not a fight's.
MAX_COST = 99
MAX_METRES = 999


def _integer(low: int, high: int) -> Callable[[object, str], int]:
    return lambda value, field: v.integer(value, field, low=low, high=high)


def _cap(value: object, field: str) -> int | None:
    return None if value is None else v.integer(value, field, *RANGES["visee_plafond"])


def _categories(value: object, field: str) -> tuple[str, ...]:
    """D13: categories, each once, kept in the R3 order."""
    given = [v.choice(x, f"{field}[{i}]", CATEGORIES) for i, x in enumerate(v.sequence(value, field, len(CATEGORIES)))]
    if len(set(given)) != len(given):
        raise v.bad(field, "duplicate")
    return tuple(c for c in CATEGORIES if c in given)


def run_table(value: object, field: str) -> tuple[tuple[int, int], ...]:
    """R4.3: ``[[min_test_result, metres], ...]``, sorted, each minimum once."""
    rows = []
    for i, row in enumerate(v.sequence(value, field)):
        pair = v.sequence(row, f"{field}[{i}]", 2)
        if len(pair) != 2:
            raise v.bad(f"{field}[{i}]", "pair")
        rows.append((v.integer(pair[0], f"{field}[{i}][0]"), v.integer(pair[1], f"{field}[{i}][1]", low=0)))
    rows.sort()
    if len({r[0] for r in rows}) != len(rows):
        raise v.bad(field, "duplicate")
    return tuple(rows)


#: The range of each integer field (a table's numbers, not a fight's).
RANGES: dict[str, tuple[int, int]] = {
    "de_initiative": (2, 100),
    "diviseur_caracteristique": (1, 10),
    "cout_gratuite_suivante": (0, MAX_COST),
    "cout_simple": (0, MAX_COST),
    "cout_complexe": (0, MAX_COST),
    "cout_interruption": (0, MAX_COST),
    "espoir_cout": (0, 9),
    "espoir_seuil": (-MAX_COST, MAX_COST),
    "visee_pas": (1, MAX_COST),
    "visee_plafond": (1, MAX_COST),
    "charge_attaque": (-MAX_COST, MAX_COST),
    "charge_degats": (-MAX_COST, MAX_COST),
    "charge_parade": (-MAX_COST, MAX_COST),
    "charge_portee": (0, MAX_METRES),
    "marche_metres": (0, MAX_METRES),
}
#: The values of each field that is a choice.
CHOICES: dict[str, tuple[str, ...]] = {"courir_categorie": ("simple", "complexe"), "visee_perdue": CATEGORIES}

#: Each field's check: its type and range (the consistency of two fields is :func:`_consistent`).
CHECKS: dict[str, Callable[[object, str], Any]] = {
    **{name: _integer(*bounds) for name, bounds in RANGES.items()},
    "visee_plafond": _cap,
    "visee_au_plafond": v.boolean,
    "visee_perdue": _categories,
    "charge_sans_esquive": v.boolean,
    "courir_categorie": lambda value, field: v.choice(value, field, CHOICES["courir_categorie"]),
    "courir_table": run_table,
    "passer": v.boolean,
}
assert set(CHECKS) == set(FIELDS)


def limits() -> dict[str, Any]:
    """What a screen of the rules puts on its fields: each integer's ``low`` and ``high``
    (``visee_plafond`` may also be ``null``), each choice's ``choice``.

    >>> limits()["de_initiative"], limits()["courir_categorie"]
    ({'low': 2, 'high': 100}, {'choice': ['simple', 'complexe']})
    """
    return {**{name: {"low": low, "high": high} for name, (low, high) in RANGES.items()},
            **{name: {"choice": list(values)} for name, values in CHOICES.items()}}


#: Each field's kind on a screen of the rules (every field not named is an integer).
KINDS: dict[str, str] = {"visee_plafond": "cap", "visee_au_plafond": "boolean", "visee_perdue": "categories",
                         "charge_sans_esquive": "boolean", "courir_categorie": "choice", "courir_table": "table",
                         "passer": "boolean"}


def screen() -> list[dict[str, Any]]:
    """The fields of the rules as a screen shows them, in their order: ``name``, ``kind``
    (``integer``, ``cap``: an integer or ``null``, ``boolean``, ``choice``, ``categories``:
    a set of R3 categories, ``table``: the run table, set with the settings), its
    :func:`limits`, its ``default`` (RULES.md's, as JSON), its ``label`` in each
    language, with its rule's number, and for a choice, a set of categories or the aim's
    cap, the ``words`` of its values in each language (``null``: the cap of the weapon's
    skill level) (``lang/regles.json``).

    >>> first = screen()[0]
    >>> first["name"], first["kind"], first["low"], first["high"], first["default"], first["label"]["fr"]
    ('de_initiative', 'integer', 2, 100, 6, "faces du dé d'initiative (R1.2)")
    >>> [(f["kind"], f["words"]["fr"]) for f in screen() if f["name"] in ("visee_plafond", "courir_categorie")]
    [('cap', {'null': "niveau de compétence de l'arme"}), ('choice', {'simple': 'simple', 'complexe': 'complexe'})]
    """
    bounds, default = limits(), as_json(DEFAUT)

    def values(name: str) -> dict[str, Any]:
        said = ("null",) if name == "visee_plafond" else CHOICES.get(name, ())
        if not said:
            return {}
        return {"words": {language: {x: words["@skill" if x == "null" else f"@{x}"] for x in said}
                          for language, words in WORDS.items()}}

    return [{"name": name, "kind": KINDS.get(name, "integer"), **bounds.get(name, {}), "default": default[name],
             "label": {language: words[name] for language, words in WORDS.items()}, **values(name)} for name in FIELDS]


def _consistent(r: Regles, given: set[str]) -> list[Refusal]:
    """The fields that must agree: a complex action costs at least a simple one (R3.2,
    ``preparer_arme``), the aim's cap is at least its step (R4.1). The one named is the
    one given (the first of the pair when both or neither were)."""
    out = []
    for low_field, high_field in (("cout_simple", "cout_complexe"), ("visee_pas", "visee_plafond")):
        low, high = getattr(r, low_field), getattr(r, high_field)
        if high is not None and high < low:
            if low_field in given and high_field not in given:
                out.append(v.bad(f"regles.{low_field}", "at_most", high=high, other=high_field))
            else:
                out.append(v.bad(f"regles.{high_field}", "at_least", low=low, other=low_field))
    return out


def read(value: object, base: Regles = DEFAUT) -> Regles:
    """The rules ``value`` gives (a JSON object of fields), each missing field as in
    ``base``; refused (``bad_value``) with every field it refuses in ``fields``, each
    ``{"field": "regles.<name>", "key", "params"}``.

    >>> read({"visee_plafond": 2, "visee_perdue": ["complexe", "simple"]}).visee_perdue
    ('simple', 'complexe')
    >>> read({"cout": 3})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.Refusal: « regles.cout » : champ inconnu (ceux connus : de_initiative, ...
    """
    fields = v.mapping(value, "regles")
    refused: list[Refusal] = []
    changes: dict[str, Any] = {}
    for name, given in fields.items():
        check = CHECKS.get(name)
        if check is None:
            refused.append(v.bad(f"regles.{str(name)[:40]}", "unknown_field", known=list(FIELDS)))
            continue
        try:
            changes[name] = check(given, f"regles.{name}")
        except Refusal as r:
            refused.append(r)
    if not refused:
        refused = _consistent(replace(base, **changes), set(changes))
    if refused:
        first = refused[0]
        first.fields = [r.field_json() for r in refused]
        raise first
    return replace(base, **changes)


def field_errors(value: object, base: Regles = DEFAUT) -> list[dict[str, Any]]:
    """Every field :func:`read` refuses, ``[]`` when it accepts the value (the screen's
    check, field by field)."""
    try:
        read(value, base)
    except Refusal as r:
        return r.fields or [r.field_json()]
    return []


#: The most rule sets one file carries.
MAX_SETS = v.MAX_LIST


def read_sets(value: object) -> list[tuple[str, Regles]]:
    """The named rule sets a file or a link carries: ``{"app": "riposte", "regles": [{"name",
    "regles"}, ...]}`` (« Exporter les jeux de règles »), or one set, ``{"app": "riposte",
    "name", "regles": {...}}`` (a rule set's link); each set's rules read by :func:`read`
    (each missing field the book's). Anything else is refused (``not_rule_sets``); a set
    whose name or rules are refused is refused with every field of every set in ``fields``,
    each ``{"field": "regles[<i>].<field>", "key", "params", "set": i, "name"}`` (``name``:
    the set's, when it has one).

    >>> [(name, r.cout_interruption) for name, r in read_sets({"app": "riposte", "name": "Maison", "regles": {"cout_interruption": 4}})]
    [('Maison', 4)]
    >>> try:
    ...     read_sets({"app": "riposte", "regles": [{"name": "Dure", "regles": {"cout_simple": 100, "passer": "non"}}]})
    ... except Refusal as r:
    ...     [(f["field"], f["key"], f["name"]) for f in r.fields]
    [('regles[0].regles.cout_simple', 'range', 'Dure'), ('regles[0].regles.passer', 'boolean', 'Dure')]
    """
    if not isinstance(value, dict) or value.get("app") != "riposte" or "regles" not in value:
        raise Refusal("not_rule_sets")
    given = value["regles"]
    if isinstance(given, dict) and "name" in value:
        sets: list[Any] = [{"name": value["name"], "regles": given}]
    elif isinstance(given, list) and given and len(given) <= MAX_SETS:
        sets = given
    else:
        raise Refusal("not_rule_sets")
    out: list[tuple[str, Regles]] = []
    refused: list[dict[str, Any]] = []
    for i, entry in enumerate(sets):
        if not isinstance(entry, dict) or "regles" not in entry or "name" not in entry:
            raise Refusal("not_rule_sets")
        shown = entry["name"].strip()[:v.MAX_NAME] if isinstance(entry["name"], str) else None
        found: list[dict[str, Any]] = []
        try:
            name = v.name(entry["name"], "name")
        except Refusal as r:
            found.append(r.field_json())
        try:
            rules = read(entry["regles"])
        except Refusal as r:
            found += r.fields or [r.field_json()]
        refused += [{**f, "field": f"regles[{i}].{f['field']}", "set": i, "name": shown} for f in found]
        if not found:
            out.append((name, rules))
    if refused:
        first = Refusal(refused[0]["key"], **{**refused[0]["params"], "field": refused[0]["field"]})
        first.fields = refused
        raise first
    return out


def as_json(r: Regles) -> dict[str, Any]:
    """The rules as a JSON object (what :func:`read` takes back).

    >>> read(as_json(DEFAUT)) == DEFAUT
    True
    """
    out: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(r, name)
        out[name] = [list(row) for row in value] if name == "courir_table" else list(value) if isinstance(value, tuple) else value
    return out


def differences(before: Regles, after: Regles) -> list[dict[str, Any]]:
    """The fields that differ, each ``{"field", "before", "after"}`` as JSON values.

    >>> differences(DEFAUT, replace(DEFAUT, cout_simple=4))
    [{'field': 'cout_simple', 'before': 5, 'after': 4}]
    """
    a, b = as_json(before), as_json(after)
    return [{"field": name, "before": a[name], "after": b[name]} for name in FIELDS if a[name] != b[name]]



#: The words of the rules, in each language (engine/lang/regles.json): each field's label,
#: the words of its values (``@yes``…) and the journal's lines (``@now``…).
WORDS: dict[str, dict[str, str]] = json.loads((Path(__file__).parent / "lang" / "regles.json").read_text(encoding="utf-8"))


def _value(language: str, name: str, value: Any) -> str:
    words = WORDS[language]
    if isinstance(value, bool):
        return words["@yes" if value else "@no"]
    if value is None:
        return words["@skill"]
    if name == "courir_table":
        return ", ".join(f"{low} → {metres} m" for low, metres in value) or words["@none"]
    if isinstance(value, list):
        return ", ".join(words[f"@{x}"] for x in value) or words["@none"]
    if name == "courir_categorie":
        return words[f"@{value}"]
    return str(value)


def said(changes: list[dict[str, Any]], when: str, language: str) -> str:
    """The journal's line of ``changes`` (:func:`differences`) in ``language``; ``when``:
    ``now``, ``next_round`` or ``round_start``.

    >>> said(differences(DEFAUT, replace(DEFAUT, cout_simple=4, passer=False)), "next_round", "en")
    'House rules changed, from the next round: cost of a simple action (R3.2) 5 → 4; passing allowed (D5) yes → no.'
    >>> said(differences(DEFAUT, replace(DEFAUT, visee_perdue=("simple",))), "now", "fr")[-60:]
    'sée (D13) gratuite, simple, complexe, interruption → simple.'

    """
    words = WORDS[language]
    parts = [f"{words[d['field']]} {_value(language, d['field'], d['before'])} → {_value(language, d['field'], d['after'])}"
             for d in changes]
    return words[f"@{when}"].replace("{changes}", words["@and"].join(parts))
