"""Value checks shared by the sheet and the commands: each refuses with ``bad_value``,
the check it failed as its key and the field it names in its params.

>>> integer(3, "wounds", low=0)
3
>>> integer(True, "wounds", low=0)
Traceback (most recent call last):
...
engine.errors.Refusal: « wounds » : un nombre entier, de 0 à 999.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from typing import Any

from .errors import Refusal

#: Bounds that keep every number a table can mean, and nothing absurd.
MAX_VALUE = 999
MAX_NAME = 60
MAX_LIST = 64
#: The most weapons on one sheet, and so of weapon ids in a list (``in_hand``, ``items``).
MAX_WEAPONS = 16


def shown(value: object) -> str:
    """A value that is not what was asked for, as a refusal's params quote it (``got``):
    short, in no language, and never itself a failure (a huge int, a deeply nested list).

    >>> shown("x" * 100), shown(10**5000), shown([[1]] * 50), shown({"a": 1})
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", '1e5000', '[…]', '{…}')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return f"{'-' if value < 0 else ''}1e{int(math.log10(abs(value)))}"  # its order of magnitude
    if isinstance(value, list | tuple):
        return "[…]"
    if isinstance(value, dict):
        return "{…}"
    text = repr(value[:40] if isinstance(value, str) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def bad(field: str, check: str, **params: Any) -> Refusal:
    """The refusal of a bad value: the ``check`` it failed (a key of errors.py REASONS,
    most of them CHECKS), naming its ``field``, with that check's params (``low``,
    ``high``, ``max``…), so that the form and the board name the field in their own words.

    >>> bad("wounds", "integer", low=0, high=9).as_json()["params"]
    {'field': 'wounds', 'low': 0, 'high': 9}
    """
    return Refusal(check, field=field, **params)


def integer(value: object, field: str, low: int = -MAX_VALUE, high: int = MAX_VALUE) -> int:
    """An int, not a bool nor a float such as 2.0, within bounds."""
    if type(value) is not int:
        raise bad(field, "integer", low=low, high=high)
    if not low <= value <= high:
        raise bad(field, "range", low=low, high=high)
    return value


def number(value: object, field: str, low: float = 0, high: float = 10_000) -> float | int:
    """An int or a finite float within bounds (distances in metres).

    >>> number(10**400, "distance")  # an int too large for a float is out of bounds, not a crash
    Traceback (most recent call last):
    engine.errors.Refusal: « distance » : un nombre, de 0 à 10000.
    """
    # NaN is never within bounds, nor an infinity within finite ones
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise bad(field, "number", low=low, high=high)
    return value


def boolean(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise bad(field, "boolean")
    return value


def text(value: object, field: str, max_len: int = MAX_NAME, min_len: int = 1) -> str:
    """A string of ``min_len`` to ``max_len`` characters once trimmed; returned trimmed.
    Nothing but spaces where something is needed is a field left empty (``required``)."""
    if not isinstance(value, str):
        raise bad(field, "text", max=max_len)
    trimmed = value.strip()
    if not trimmed and min_len > 0:
        raise bad(field, "required")
    if not min_len <= len(trimmed) <= max_len:
        raise bad(field, "text_length", min=min_len, max=max_len)
    return trimmed


#: The categories of characters that show nothing (controls such as NUL, format
#: characters such as the zero-width space and joiners, halves of characters, spaces).
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})
#: Characters of other categories that show nothing all the same (Unicode's default
#: ignorable code points: the Hangul fillers, the combining grapheme joiner, the
#: variation selectors).
IGNORABLE = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0,
                       *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
#: The name an old save's name that showed nothing is given when it is read.
NO_NAME = "Sans nom"


def shows(char: str) -> bool:
    r"""True when ``char`` shows something on a card or in a list.

    >>> shows("A"), shows("\u200b"), shows("\x00"), shows(" "), shows("\u3164")
    (True, False, False, False, False)
    """
    return unicodedata.category(char) not in INVISIBLE and ord(char) not in IGNORABLE and not char.isspace()


def half(text: str) -> bool:
    """True when ``text`` holds half a character (a lone surrogate, which a file or a link cannot carry)."""
    return any(0xD800 <= ord(char) <= 0xDFFF for char in text)


def name(value: object, field: str, max_len: int = MAX_NAME) -> str:
    r"""A name (of a fighter, a weapon, a fight): :func:`text`, that shows something (at
    least one character that is not a space, a control such as NUL or an invisible one
    such as the zero-width space: ``invisible``) and holds no half of a character
    (``half_character``).

    >>> name(" Aldric ", "name")
    'Aldric'
    >>> name("\u200b\u200d", "name")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    engine.errors.Refusal: « name » : un nom qui se voit (...), pas seulement des espaces ou des caractères invisibles.
    """
    trimmed = text(value, field, max_len)
    if half(trimmed):
        raise bad(field, "half_character")
    if not any(shows(char) for char in trimmed):
        raise bad(field, "invisible")
    return trimmed


def shown_name(value: str) -> str:
    r"""An old save's name as it is read again: half characters become U+FFFD, and a name
    that shows nothing becomes :data:`NO_NAME` (never refused whole).

    >>> shown_name("\u200b"), shown_name("Br\ud800"), shown_name("Aldric")
    ('Sans nom', 'Br\ufffd', 'Aldric')
    """
    mended = mend(value)
    return mended if any(shows(char) for char in mended) else NO_NAME


def mend(text: str) -> str:
    """``text`` with each half of a character made U+FFFD, as a file or a link would carry it."""
    return "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in text)


def identifier(value: object, field: str) -> str:
    """An id: a non-empty string, kept as given."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME or value != value.strip():
        raise bad(field, "identifier", max=MAX_NAME)
    return value


def mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise bad(field, "object")
    if len(value) > MAX_LIST:
        raise bad(field, "too_many", max=MAX_LIST)
    return value


def sequence(value: object, field: str, max_len: int = MAX_LIST) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise bad(field, "list")
    if len(value) > max_len:
        raise bad(field, "too_many", max=max_len)
    return list(value)


def choice(value: object, field: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise bad(field, "choice", allowed=list(allowed))
    return value
