"""Value checks shared by the sheet and the commands: each refuses with ``bad_value``
and a French message that names the field.

>>> integer(3, "wounds", low=0)
3
>>> integer(True, "wounds", low=0)
Traceback (most recent call last):
...
engine.errors.Refusal: « wounds » doit être un entier (reçu : True).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .errors import Refusal

#: Bounds that keep every number a table can mean, and nothing absurd.
MAX_VALUE = 999
MAX_NAME = 60
MAX_LIST = 64
#: The most weapons on one sheet, and so of weapon ids in a list (``in_hand``, ``items``).
MAX_WEAPONS = 16


def _shown(value: object) -> str:
    """The value as a refusal quotes it: short, and never itself a failure (a huge int,
    a deeply nested list).

    >>> _shown("x" * 100), _shown(10**5000), _shown([[1]] * 50)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", 'un très grand entier', 'une liste')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return "un très grand entier"
    if isinstance(value, list | tuple):
        return "une liste"
    if isinstance(value, dict):
        return "un objet"
    text = repr(value[:40] if isinstance(value, str) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def bad(field: str, expected: str, value: object, check: str = "invalid", **params: Any) -> Refusal:
    """The refusal of a bad value: a French message, and in its params the ``field``, the
    ``check`` it failed (errors.py CHECKS) and that check's params (``low``, ``high``,
    ``max``…), so that the form and the board name the field in their own words
    (web/infra/i18n.js).

    >>> bad("wounds", "un entier", "x", "integer", low=0, high=9).as_json()["params"]
    {'field': 'wounds', 'check': 'integer', 'low': 0, 'high': 9}
    """
    return Refusal("bad_value", f"« {field} » doit être {expected} (reçu : {_shown(value)}).", None,
                   field=field, check=check, **params)


def missing(field: str, message: str) -> Refusal:
    """The refusal of a required field left out."""
    return Refusal("bad_value", message, None, field=field, check="required")


def integer(value: object, field: str, low: int = -MAX_VALUE, high: int = MAX_VALUE) -> int:
    """An int, not a bool nor a float such as 2.0, within bounds."""
    if type(value) is not int:
        raise bad(field, "un entier", value, "integer", low=low, high=high)
    if not low <= value <= high:
        raise bad(field, f"un entier entre {low} et {high}", value, "range", low=low, high=high)
    return value


def number(value: object, field: str, low: float = 0, high: float = 10_000) -> float | int:
    """An int or a finite float within bounds (distances in metres).

    >>> number(10**400, "distance")  # an int too large for a float is out of bounds, not a crash
    Traceback (most recent call last):
    engine.errors.Refusal: « distance » doit être un nombre entre 0 et 10000 (reçu : un très grand entier).
    """
    if type(value) is float and not math.isfinite(value):
        raise bad(field, "un nombre", value, "number", low=low, high=high)
    if type(value) not in (int, float):
        raise bad(field, "un nombre", value, "number", low=low, high=high)
    assert isinstance(value, int | float)
    if not low <= value <= high:
        raise bad(field, f"un nombre entre {low:g} et {high:g}", value, "number", low=low, high=high)
    return value


def boolean(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise bad(field, "vrai ou faux", value, "boolean")
    return value


def text(value: object, field: str, max_len: int = MAX_NAME) -> str:
    """A string of 1 to ``max_len`` characters once trimmed; returned trimmed."""
    if not isinstance(value, str):
        raise bad(field, "un texte", value, "text", max=max_len)
    trimmed = value.strip()
    if not 1 <= len(trimmed) <= max_len:
        raise bad(field, f"un texte de 1 à {max_len} caractères", value, "text_length", min=1, max=max_len)
    return trimmed


def identifier(value: object, field: str) -> str:
    """An id: a non-empty string, kept as given."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME or value != value.strip():
        raise bad(field, "un identifiant (texte de 1 à 60 caractères)", value, "identifier", max=MAX_NAME)
    return value


def mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise bad(field, "un objet", value, "object")
    if len(value) > MAX_LIST:
        raise bad(field, f"un objet d'au plus {MAX_LIST} entrées", f"{len(value)} entrées", "too_many", max=MAX_LIST)
    return value


def sequence(value: object, field: str, max_len: int = MAX_LIST) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise bad(field, "une liste", value, "list")
    if len(value) > max_len:
        raise bad(field, f"une liste d'au plus {max_len} éléments", f"{len(value)} éléments", "too_many", max=max_len)
    return list(value)


def choice(value: object, field: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise bad(field, "l'une des valeurs " + ", ".join(allowed), value, "choice", allowed=list(allowed))
    return value
