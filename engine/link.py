"""Share links, short: the resolved command log in a compact positional form.

A share link (web/infra/share-links.js) carries a fight in its fragment. The first links carried the
save text (engine/save.py, ``#c=``): a link of a small fight was over 1,200 characters and
its QR code dense. A link of today (``#z=``) carries :func:`pack`'s text, deflated by the
page: the log alone, as a JSON array that starts with :data:`TAG`, then strings of short
tokens between ``~``, one token a command:

- ``+|Aldric|1274060002003|m31Épée|s10Bouclier``: a fighter joins (``add_combatant``),
  made as the page's form makes one: its number when it is not the next one, its name, its
  numbers in :data:`PLACES` order (side 1 PJ or 0 PNJ, hope, the seven characteristics,
  the seven usual skills, wounds, initiative bonus; one digit each, trailing zeros left
  out, or between commas when one is not a digit), then each weapon: kind letter, skill
  level, a flag (1 in hand, +2 not stowed, +4 its skill is its name), name (its id
  is its name's slug, and so is its skill without the +4);
- ``E`` ends the round, ``P4`` fighter c4 passes, ``R4`` removes it, ``A4q`` c4 acts
  (``I``: interrupts) with the 17th action of :data:`ACTION_IDS`, options after it as
  ``1,e7`` (the option's letter in OPTIONS and its value in JSON, a fighter by its number;
  the letter left out for the target of an act, the attacker of an interruption);
- ``s3b-6|0_`` starts a round: each fighter c1, c2… in turn, its die (a digit when the
  engine rolled it, a letter ``a`` = 0 … when the table typed it, ``-`` when it has none),
  then after ``|`` its declared weapon's place among its weapons (``_`` bare hands, ``-``
  none declared), or after ``!`` the same with weapon ids, between commas.

A command that has no such token (a sheet not made by the form, a name with ``|`` or
``~``…) is kept as it is, an object, between the strings.

Fighters are named by number (``c4`` is 4) when the engine gave their id. :func:`pack`
checks every command it shortens: :func:`unpack` gives each back exactly, up to the order
of keys that the rules never read in order (the keys of a command and of its sheet, the
dice and declarations of a round).

>>> from engine.model import CHARACTERISTICS
>>> sheet = {"id": "c1", "name": "Aldric", "side": "pj", "characteristics": {c: 0 for c in CHARACTERISTICS} | {"melee": 7},
...          "skills": {s: 0 for s in SKILLS} | {"epee": 3}, "initiative_bonus": 0, "wounds": 0, "hope": 2,
...          "weapons": [{"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee", "stowed": True}], "in_hand": ["epee"]}
>>> log = [{"type": "add_combatant", "combatant": sheet},
...        {"type": "start_round", "declarations": {"c1": "epee"}, "rolls": {"c1": 4}, "engine_rolled": ["c1"]},
...        {"type": "act", "actor": "c1", "action": "observer"}, {"type": "end_round"}]
>>> pack(log)
'["r1","+|Aldric|127|m31Épée~s4|0~A1h~E"]'
>>> unpack(pack(log)) == log
True
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from .codec import json_text
from .commands import OPTIONS
from .errors import Refusal
from .model import CHARACTERISTICS

#: The first value of a compact link text: its version.
TAG = "r1"

#: The actions by their place in a compact link (as a letter, ``a`` first). Frozen: a new
#: action is appended, never inserted, or links made before it would name the wrong one.
ACTION_IDS = (
    "dire_phrase", "faire_geste", "lacher_objet", "se_jeter_au_sol", "ajuster_tir", "encocher_fleche",
    "lancer_arme", "observer", "prendre_objet", "preparer_arme", "se_deplacer", "courir", "se_mettre_a_couvert",
    "se_relever", "tir_arc", "utiliser_objet", "attaque_melee", "charge", "donner_ordre", "utiliser_competence",
    "bloquer", "esquiver", "parer", "intercepter", "esquive_acrobatique",
)
#: The weapon kinds by a letter; the skills every sheet of the page's form lists, in order.
KINDS = {"melee": "m", "bow": "b", "thrown": "t", "shield": "s"}
SKILLS = ("corps_a_corps", "course", "discretion", "esquive", "vigilance", "art_de_la_guerre", "acrobatie")
SIDES = {"pj": 1, "pnj": 0}

_FIGHTER = re.compile(r"c[1-9][0-9]{0,5}")
_ACT = re.compile(r"([AI])([1-9][0-9]{0,5})([a-y])(.*)", re.DOTALL)


class _NoToken(Exception):
    """Not a failure: this command has no compact form, and :func:`pack_command` keeps it
    as it is, an object."""


def _text(value: Any) -> str:
    return json_text(value)  # half a character escaped: a link (UTF-8) carries it exactly


def slug(name: str) -> str:
    """The id the page's fighter form gives a weapon named ``name`` (web/views/cast-view.js ``slug``,
    when no other weapon of the fighter has it).

    >>> slug("Épée longue"), slug("!!")
    ('epee_longue', 'arme')
    """
    base = "".join(ch for ch in unicodedata.normalize("NFD", name) if not "\u0300" <= ch <= "\u036f").lower()
    return re.sub(r"[^a-z0-9]+", "_", base).strip("_") or "arme"


def _number(cid: Any) -> int:
    """An id the engine gave (``c12``) as its number; _NoToken for another one."""
    if not isinstance(cid, str) or not _FIGHTER.fullmatch(cid):
        raise _NoToken(cid)
    return int(cid[1:])


# --- fighters ---------------------------------------------------------------------------------
#: The numbers of a sheet, in their places in a fighter's token.
PLACES = ("side", "hope", *(f"c.{c}" for c in CHARACTERISTICS), *(f"s.{k}" for k in SKILLS), "wounds", "initiative_bonus")


def _next_number(arms: Arms) -> int:
    """The number of the fighter who joins next, when the engine names it (``free_id``)."""
    return 1 + max((int(cid[1:]) for cid in arms if _FIGHTER.fullmatch(cid)), default=0)


def _pack_sheet(sheet: dict[str, Any], arms: Arms) -> str:
    skills = dict(sheet["skills"])
    weapons = []
    for w in reversed(sheet["weapons"]):  # the weapons' own skills end the skills, in weapon order
        level = skills.pop(w["skill"], None) if w["skill"] == next(reversed(skills), None) else None
        named = w["skill"] == w["name"] != w["id"]
        if w["id"] != slug(w["name"]) or w["skill"] not in (w["id"], w["name"]) or type(level) is not int or not 0 <= level <= 9:
            raise _NoToken(w)
        flag = (1 if w["id"] in sheet["in_hand"] else 0) + (0 if w["stowed"] is True else 2) + (4 if named else 0)
        weapons.append(f"{KINDS[w['kind']]}{level}{flag}{w['name']}")
    if tuple(skills) != SKILLS or tuple(sheet["characteristics"]) != CHARACTERISTICS:
        raise _NoToken("skills")
    values = {"side": SIDES[sheet["side"]], "hope": sheet["hope"], "wounds": sheet["wounds"],
              "initiative_bonus": sheet["initiative_bonus"], **{f"c.{k}": n for k, n in sheet["characteristics"].items()},
              **{f"s.{k}": n for k, n in skills.items()}}
    numbers = [values[place] for place in PLACES]
    if not all(type(n) is int for n in numbers):
        raise _NoToken("numbers")
    while numbers and numbers[-1] == 0:
        numbers.pop()
    digits = "".join(map(str, numbers)) if all(0 <= n <= 9 for n in numbers) else ",".join(map(str, numbers))
    number = _number(sheet["id"])
    return "|".join([f"+{'' if number == _next_number(arms) else number}", sheet["name"], digits, *reversed(weapons)])


def _unpack_sheet(token: str, arms: Arms) -> dict[str, Any]:
    number, name, digits, *weapons = token[1:].split("|")
    numbers = [int(n) for n in (digits.split(",") if "," in digits else digits)]
    if len(numbers) > len(PLACES):
        raise ValueError(digits)
    values = dict(zip(PLACES, numbers + [0] * (len(PLACES) - len(numbers)), strict=True))
    sheet_weapons, held = [], []
    skills = {k: values[f"s.{k}"] for k in SKILLS}
    letters = {letter: kind for kind, letter in KINDS.items()}
    for w in weapons:
        wid, flag = slug(w[3:]), int(w[2])
        skill = w[3:] if flag & 4 else wid
        skills[skill] = int(w[1])
        sheet_weapons.append({"id": wid, "name": w[3:], "kind": letters[w[0]], "skill": skill, "stowed": flag & 2 == 0})
        if flag % 2:
            held.append(wid)
    return {"id": f"c{int(number) if number else _next_number(arms)}", "name": name,
            "side": {v: k for k, v in SIDES.items()}[values["side"]],
            "characteristics": {c: values[f"c.{c}"] for c in CHARACTERISTICS}, "skills": skills,
            "initiative_bonus": values["initiative_bonus"], "wounds": values["wounds"], "hope": values["hope"],
            "weapons": sheet_weapons, "in_hand": held}


# --- rounds and actions -----------------------------------------------------------------------
Arms = dict[str, list[str]]  # fighter id -> its weapons' ids, as the log goes


def _remember(arms: Arms, command: Any) -> None:
    """What a command says of the fighters' weapons, for the declarations after it."""
    try:
        if command["type"] == "add_combatant":
            arms[command["combatant"]["id"]] = [w["id"] for w in command["combatant"]["weapons"]]
        elif command["type"] == "update_combatant" and "weapons" in command["changes"]:
            arms[command["id"]] = [w["id"] for w in command["changes"]["weapons"]]
        elif command["type"] == "add_copies":
            for cid in command["ids"]:
                arms[cid] = [w["id"] for w in command["combatant"]["weapons"]]
        elif command["type"] == "add_combatants":
            for sheet in command["combatants"]:
                arms[sheet["id"]] = [w["id"] for w in sheet.get("weapons", [])]
    except (KeyError, TypeError, IndexError):
        pass


def _pack_round(c: dict[str, Any], arms: Arms) -> str:
    rolls, declared = c["rolls"], c.get("declarations", {})
    engine = c.get("engine_rolled", [])
    if set(declared) - set(rolls) or ("engine_rolled" in c and not engine) or not set(engine) <= set(rolls):
        raise _NoToken("round")
    last = max((_number(cid) for cid in rolls), default=0)
    dice, weapons = "", []
    for n in range(1, last + 1):
        cid = f"c{n}"
        die = rolls.get(cid)
        if die is None:
            dice += "-"
            continue
        if type(die) is not int or not 0 <= die <= 9:
            raise _NoToken(die)
        dice += str(die) if cid in engine else chr(97 + die)
        weapon = declared.get(cid, "-")
        own = arms.get(cid, [])
        weapons.append("" if weapon is None else str(own.index(weapon)) if weapon in own[:10] else weapon)
    if "declarations" not in c:
        return f"s{dice}"
    short = {"": "_", "-": "-"}
    if all(w in short or (len(w) == 1 and w.isdigit()) for w in weapons):
        return f"s{dice}|{''.join(short.get(w, w) for w in weapons)}"
    return f"s{dice}!{','.join(weapons)}"


def _unpack_round(token: str, arms: Arms) -> dict[str, Any]:
    dice, mark, declared = re.fullmatch(r"([^|!]*)([|!]?)(.*)", token[1:], re.DOTALL).groups()  # type: ignore[union-attr]
    short = {"_": "", "-": "-"}
    weapons = iter(declared.split(",") if mark == "!" else [short.get(w, w) for w in declared]) if mark else None
    rolls: dict[str, int] = {}
    engine: list[str] = []
    declarations: dict[str, Any] = {}
    for n, ch in enumerate(dice, start=1):
        if ch == "-":
            continue
        cid = f"c{n}"
        if ch.isdigit():
            rolls[cid] = int(ch)
            engine.append(cid)
        elif "a" <= ch <= "j":
            rolls[cid] = ord(ch) - 97
        else:
            raise ValueError(ch)
        if weapons is not None:
            weapon = next(weapons)
            if weapon.isdigit() and len(weapon) == 1:
                weapon = arms[cid][int(weapon)]
            if weapon != "-":
                declarations[cid] = weapon or None
    if weapons is not None and next(weapons, None) is not None:
        raise ValueError("more weapons than fighters")
    out: dict[str, Any] = {"type": "start_round", "rolls": rolls}
    if weapons is not None:
        out["declarations"] = declarations
    if engine:
        out["engine_rolled"] = engine
    return out


def _pack_act(c: dict[str, Any]) -> str:
    options: list[str] = []
    first = "target" if c["type"] == "act" else "against"
    for name in OPTIONS:
        if name in c:
            value = _number(c[name]) if name in ("target", "against") else c[name]
            options.append(("" if name == first and not options else chr(97 + OPTIONS.index(name))) + _text(value))
    if c["action"] not in ACTION_IDS:
        raise _NoToken(c["action"])
    return f"{'A' if c['type'] == 'act' else 'I'}{_number(c['actor'])}{chr(97 + ACTION_IDS.index(c['action']))}{','.join(options)}"


def _unpack_act(token: str) -> dict[str, Any]:
    match = _ACT.fullmatch(token)
    if not match:
        raise ValueError(token)
    kind, actor, action, rest = match.groups()
    out: dict[str, Any] = {"type": "act" if kind == "A" else "interrupt", "actor": f"c{actor}",
                           "action": ACTION_IDS[ord(action) - 97]}
    first = "target" if kind == "A" else "against"
    for i, part in enumerate(rest.split(",") if rest else []):
        bare = i == 0 and part[0].isdigit()
        name = first if bare else OPTIONS[ord(part[0]) - 97]
        value = json.loads(part if bare else part[1:])
        out[name] = f"c{value}" if name in ("target", "against") else value
    return out


def _pack_one(c: dict[str, Any], arms: Arms) -> Any:
    kind = c["type"]
    if kind == "add_combatant" and set(c) == {"type", "combatant"}:
        return _pack_sheet(c["combatant"], arms)
    if kind == "start_round":
        return _pack_round(c, arms)
    if kind in ("act", "interrupt"):
        return _pack_act(c)
    if kind in ("pass", "remove_combatant") and len(c) == 2:
        return f"{'P' if kind == 'pass' else 'R'}{_number(c.get('actor', c.get('id')))}"
    if kind == "end_round" and len(c) == 1:
        return "E"
    raise _NoToken(kind)


def _unpack_one(item: Any, arms: Arms) -> Any:
    if isinstance(item, dict):
        return item
    if item[0] == "+":
        return {"type": "add_combatant", "combatant": _unpack_sheet(item, arms)}
    if item == "E":
        return {"type": "end_round"}
    if item[0] in "PR" and item[1:].isdigit():
        return {"type": "pass", "actor": f"c{item[1:]}"} if item[0] == "P" else {"type": "remove_combatant", "id": f"c{item[1:]}"}
    if item[0] == "s":
        return _unpack_round(item, arms)
    return _unpack_act(item)


def _canonical(command: Any) -> str:
    """A command's JSON text with its keys sorted where the rules never read them in
    order: the command's, its sheet's, a round's dice, declarations and engine-rolled ids."""
    if not isinstance(command, dict):
        return _text(command)
    out = dict(sorted(command.items()))
    if isinstance(out.get("combatant"), dict):
        out["combatant"] = dict(sorted(out["combatant"].items()))
    for key in ("rolls", "declarations"):
        if isinstance(out.get(key), dict):
            out[key] = dict(sorted(out[key].items()))
    if isinstance(out.get("engine_rolled"), list):
        out["engine_rolled"] = sorted(map(str, out["engine_rolled"]))
    return _text(out)


def pack_command(command: Any, arms: Arms | None = None) -> Any:
    """One resolved command, compact; as it is (an object) when the compact form would
    not give it back exactly. ``arms``: the fighters' weapons so far (a round declares a
    weapon by its place), updated."""
    arms = {} if arms is None else arms
    packed = command
    try:
        short = _pack_one(command, arms)
        if "~" not in short and _canonical(_unpack_one(json.loads(_text(short)), dict(arms))) == _canonical(command):
            packed = short
    except (_NoToken, KeyError, TypeError, ValueError, IndexError, AttributeError, StopIteration):
        pass
    _remember(arms, command)
    return packed


def pack(commands: list[Any]) -> str:
    """The compact text of a resolved log (the page deflates it into a ``#z=`` link)."""
    arms: Arms = {}
    items: list[Any] = [TAG]
    for command in commands:
        item = pack_command(command, arms)
        if isinstance(item, str) and isinstance(items[-1], str) and items[-1] != TAG:
            items[-1] += "~" + item
        else:
            items.append(item)
    return _text(items)


def is_packed(data: object) -> bool:
    """True for the parsed JSON of a :func:`pack` text: a list that starts with TAG."""
    return isinstance(data, list) and bool(data) and data[0] == TAG


def count(data: list[Any]) -> int:
    """How many commands a parsed :func:`pack` text holds, counted before any is decoded
    (a short link of 20,000 tokens is refused by its length first, engine/save.py).

    >>> count(["r1", "P1~P2~E", {"type": "end_round"}])
    4
    """
    return sum(item.count("~") + 1 if isinstance(item, str) else 1 for item in data[1:])


def unpack(data: Any) -> list[Any]:
    """The log of a :func:`pack` text (parsed or not); refused (``not_an_encounter``)
    when it is not one. What it gives is still to be checked by the rules (replay).

    >>> for command in unpack('["r1","P1",{"type":"end_round"},"sa-|_~E"]'):
    ...     print(command)
    {'type': 'pass', 'actor': 'c1'}
    {'type': 'end_round'}
    {'type': 'start_round', 'rolls': {'c1': 0}, 'declarations': {'c1': None}}
    {'type': 'end_round'}
    """
    try:
        if isinstance(data, str):
            data = json.loads(data)
        if not is_packed(data):
            raise ValueError("not packed")
        arms: Arms = {}
        commands = []
        for item in data[1:]:
            for one in item.split("~") if isinstance(item, str) else [item]:
                commands.append(_unpack_one(one, arms))
                _remember(arms, commands[-1])
        return commands
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, StopIteration, RecursionError) as exc:
        raise Refusal("not_an_encounter") from exc
