"""The JSON codec, derived from the dataclass fields: the state (an
:class:`~engine.model.Encounter` to and from the plain dict callers hold) and the events
(:mod:`engine.events` to the plain dicts of the contract).

Each field is written under its name (a trailing ``_`` dropped) by a converter chosen
once from its type: an enum as its value, a tuple as a list, sorted ``(name, value)``
pairs with text names (characteristics, skills) as an object, a nested dataclass as an
object; plain values as they are. Reading builds each dataclass with keyword arguments.
:func:`writer` and :func:`reader` derive them for a class (the module's own are derived
once, at import).

>>> from engine.model import Encounter
>>> decode(encode(Encounter())) == Encounter()
True
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from .errors import Refusal
from .events import Event, NamedTest, type_name
from .model import Combatant, Encounter, Weapon
from .regles import Regles

#: The version of the state's JSON shape, for saved encounters (see docs).
STATE_FORMAT = 1

#: Half a character: a surrogate code point, which UTF-8 cannot carry.
_HALF = re.compile("[\ud800-\udfff]")


def json_text(value: Any) -> str:
    r"""``value`` as the compact JSON text of a save, a file or a link: every character as
    it is (``ensure_ascii=False``) but half a character (a lone surrogate, which a file or a
    link, in UTF-8, would turn into U+FFFD), written as its escape: read back, the text
    gives exactly ``value``.

    >>> json_text({"nom": "Écu \ud800"})
    '{"nom":"Écu \\ud800"}'
    >>> json.loads(json_text(["\udfff"])) == ["\udfff"]
    True
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _HALF.sub(lambda half: f"\\u{ord(half.group()):04x}", text)


Convert = Callable[[Any], Any] | None  # None: the value is written and read as it is

_PLAIN = (int, str, bool, float, type(None), typing.Any, Mapping[str, Any])


def _converters(tp: Any) -> tuple[Convert, Convert]:
    """(to JSON, from JSON) for a field type; ``None`` where nothing changes."""
    if tp in _PLAIN or typing.get_origin(tp) is Mapping:
        return None, None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        if all(a in _PLAIN for a in inner):
            return None, None
        out, back = _converters(inner[0]) if len(inner) == 1 else (None, None)
        if out is None or back is None:
            raise TypeError(f"no JSON form for {tp!r}")
        o, b = out, back
        return (lambda x: None if x is None else o(x)), (lambda x: None if x is None else b(x))
    if isinstance(tp, type) and issubclass(tp, StrEnum):
        # str.__str__ gives a StrEnum member's value and a dict lookup the member back:
        # both several times faster than ``x.value`` and ``tp(x)``.
        return str.__str__, {e.value: e for e in tp}.__getitem__
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return writer(tp), reader(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        if typing.get_origin(item) is tuple and typing.get_args(item)[0] is str:  # sorted named pairs
            return dict, lambda d: tuple(sorted(d.items()))
        out, back = _converters(item)
        if out is None or back is None:
            return list, tuple
        o, b = out, back
        return (lambda xs: [o(x) for x in xs]), (lambda xs: tuple([b(x) for x in xs]))
    if origin is tuple:  # a fixed pair, e.g. a row of the run table
        return list, tuple
    raise TypeError(f"no JSON form for {tp!r}")


def _plan(cls: type, names: tuple[str, ...] | None = None) -> list[tuple[str, str, Convert, Convert]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, f.name.rstrip("_"), *_converters(hints[f.name]))
            for f in dataclasses.fields(cls) if names is None or f.name in names]


def writer(cls: type, names: tuple[str, ...] | None = None, kind: str | None = None,
           special: Mapping[str, Callable[[Any], Any]] | None = None) -> Callable[[Any], dict[str, Any]]:
    """``cls`` to its JSON object: each field (or each of ``names``) under its key, by the
    converter chosen once from its type (``special`` ones by field name); ``kind`` written
    first as ``"type"`` (events)."""
    plan = [(name, key, (special or {}).get(name, out)) for name, key, out, _ in _plan(cls, names)]
    head = {"type": kind} if kind else {}

    def to_json(obj: Any) -> dict[str, Any]:
        out = dict(head)
        for name, key, convert in plan:
            value = getattr(obj, name)
            out[key] = value if convert is None else convert(value)
        return out

    return to_json


def reader(cls: type) -> Callable[[Mapping[str, Any]], Any]:
    """``cls`` from its JSON object, built with keyword arguments. A field added since the
    object was written (``notes``) takes its default; a field without one is required."""
    plan = [(name, key, back) for name, key, _, back in _plan(cls)]
    optional = {f.name for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING and (f.name in LATER or cls in LATER_WHOLE)}

    def from_json(d: Mapping[str, Any]) -> Any:
        return cls(**{name: d[key] if back is None else back(d[key]) for name, key, back in plan
                      if key in d or name not in optional})

    return from_json


#: Fields added after states were first written: a state without them still reads.
LATER = frozenset({"notes", "conditions", "hidden", "regles", "regles_a_venir"})
#: Classes each of whose fields may be missing (a field added later reads as its default).
LATER_WHOLE: tuple[type, ...] = (Regles,)

weapon_json = writer(Weapon)
weapon_from_json: Callable[[Mapping[str, Any]], Weapon] = reader(Weapon)
#: A fighter as the state holds it (every field).
combatant_json = writer(Combatant)
#: The sheet part of a fighter, as ``add_combatant`` takes it (plus ``entry``).
SHEET = ("id", "name", "side", "characteristics", "skills", "initiative_bonus", "wounds", "hope", "weapons",
         "in_hand", "entry")
combatant_sheet = writer(Combatant, SHEET)
_encounter_json = writer(Encounter)
_encounter_from_json: Callable[[Mapping[str, Any]], Encounter] = reader(Encounter)


def encode(enc: Encounter) -> dict[str, Any]:
    return {"format": STATE_FORMAT, **_encounter_json(enc)}


def decode(state: object) -> Encounter:
    """The encounter a state dict holds; anything else is refused (``bad_value``)."""
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise Refusal("bad_state")
    try:
        if "regles" not in state and isinstance(state.get("settings"), dict):  # before the rules: the run table alone
            state = {**state, "regles": {"courir_table": state["settings"].get("run_table", [])}}
        return _encounter_from_json(state)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Refusal("bad_state") from exc


def event_writer(cls: type) -> Callable[[Any], dict[str, Any]]:
    """The writer of an event class: its ``type`` first, a fighter as its sheet."""
    return writer(cls, kind=type_name(cls), special={"combatant": combatant_sheet})


_EVENTS = {cls: event_writer(cls) for cls in typing.get_args(Event)}


def event_json(e: Event) -> dict[str, Any]:
    """An event as the contract writes it: ``{"type": ..., field: value, ...}``."""
    return _EVENTS[type(e)](e)


#: A test an action names (D14), as the board shows it.
named_test_json = writer(NamedTest)
