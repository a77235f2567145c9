"""Saved encounters: the one format for the autosave, exported files and shared links.

An encounter is saved as its resolved command log (RULES.md: ``replay`` rebuilds it
exactly), with the last board for a fast first paint::

    {"app": "riposte", "format": 3, "commands": [...], "board": {...} or null}

The log is kept compact (:func:`compact`): what replay needs, written once. A resolved
``start_round`` whose dice were all rolled by the engine (the usual tap) names them once,
in ``rolls``, with ``"engine_rolled": true`` instead of the list of the same ids again;
:func:`expand` gives the resolved command back exactly.

A share link carries the log alone, shorter (engine/link.py): :func:`parse` reads a link's
text as a save, ``format`` ``"link"``.

Format 1 (the first release's autosave) was ``{"format": 1, "commands": [...]}``; format 2
wrote every resolved command in full. Both are read and migrated (:data:`MIGRATIONS`). A text that is too big, not JSON, not an
encounter, from a newer Riposte, too long to replay (over :data:`MAX_COMMANDS` commands), or whose
log the rules refuse is refused (engine/errors.py: a code, a reason and its params);
nothing is ever half-read.

>>> text = dump([{"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}}])
>>> r = read(text)
>>> r["ok"], r["summary"]["fighters"], r["format"]
(True, ['Aldric'], 3)
>>> read('{"format": 1, "commands": []}')["format"]
1
>>> read("{")["error"]["code"]
'not_json'
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from . import link, values
from .codec import encode, json_text
from .errors import Refusal
from .model import Encounter
from .play import fold
from .view import board

#: The format written today.
SAVE_FORMAT = 3
#: The largest save, file or decompressed link read, in characters (a 300-command fight
#: with 30 fighters and its board is about 400 kB).
MAX_CHARS = 2_000_000

#: The largest file read, in characters: a backup of every fight (the page's list of fights
#: in one file) holds many saves, each within MAX_CHARS; 100 fights of 200 kB.
MAX_FILE_CHARS = 20_000_000

#: The longest command log read or kept: a fight of 30 fighters and 300 rounds is about
#: 10,000 commands, and a short link of 20,000 empty rounds must be refused
#: before any replay. Replay cost is bounded twice: by this count, and by the
#: save's size, checked as the log is replayed (engine/table.py ``_rebuild``), so a link
#: whose dice the engine fills in is refused as soon as its save would pass MAX_CHARS.
#: A command that would make the log longer is refused; so is a save or link with more,
#: before any replay.
MAX_COMMANDS = 12_000

#: The deepest nesting of arrays and objects read. A save is about 10 deep; a parser's
#: recursion on deeper text can overflow the WebAssembly stack (and kill the worker)
#: before Python's recursion limit, so depth is checked before parsing.
MAX_DEPTH = 64

Save = dict[str, Any]


def _from_1(data: Save) -> Save:
    """Format 1 had no board and no ``app`` mark."""
    return {"app": "riposte", "format": 2, "commands": data["commands"], "board": None}


def _from_2(data: Save) -> Save:
    """Format 2 wrote each resolved command in full: a format-3 log as it is."""
    return {**data, "format": 3}


#: format n → a function that turns a format-n save into a format-(n+1) save.
MIGRATIONS: dict[int, Callable[[Save], Save]] = {1: _from_1, 2: _from_2}


def _all_rolled(command: Any) -> bool:
    return (isinstance(command, dict) and command.get("type") == "start_round" and isinstance(command.get("rolls"), dict)
            and isinstance(command.get("engine_rolled"), list) and command["engine_rolled"] == list(command["rolls"]))


def compact(commands: list[Any]) -> list[Any]:
    """The log as a save keeps it: a ``start_round`` whose every die the engine rolled says
    ``"engine_rolled": true`` (the ids are the keys of ``rolls``, in order).

    >>> compact([{"type": "start_round", "rolls": {"c1": 4, "c2": 1}, "engine_rolled": ["c1", "c2"]}])
    [{'type': 'start_round', 'rolls': {'c1': 4, 'c2': 1}, 'engine_rolled': True}]
    """
    return [{**c, "engine_rolled": True} if _all_rolled(c) else c for c in commands]


def expand(commands: list[Any]) -> list[Any]:
    """:func:`compact` undone: the resolved log as replay takes it.

    >>> expand([{"type": "start_round", "rolls": {"c1": 4, "c2": 1}, "engine_rolled": True}])
    [{'type': 'start_round', 'rolls': {'c1': 4, 'c2': 1}, 'engine_rolled': ['c1', 'c2']}]
    """
    return [{**c, "engine_rolled": list(c["rolls"])}
            if isinstance(c, dict) and c.get("type") == "start_round" and c.get("engine_rolled") is True
            and isinstance(c.get("rolls"), dict) else c for c in commands]


def dump(commands: list[Any], board: dict[str, Any] | None = None) -> str:
    """The save text of a resolved command log (and the board it gives), compact; half a
    character (a lone surrogate) written as its escape, so that a file carries it exactly
    (:func:`engine.codec.json_text`)."""
    return json_text({"app": "riposte", "format": SAVE_FORMAT, "commands": compact(commands), "board": board})


def command_text(command: Any) -> str:
    """One command as :func:`dump` writes it in the log (:func:`compact`)."""
    return json_text(compact([command])[0])


#: What every save text written today starts with, up to its first command.
HEAD = json.dumps({"app": "riposte", "format": SAVE_FORMAT}, separators=(",", ":"))[:-1] + ',"commands":['


def dump_texts(texts: list[str], board: dict[str, Any] | None = None) -> str:
    """:func:`dump` of a log whose commands are already written (:func:`command_text`):
    the same text, without encoding the whole log again (the table writes a save on every
    accepted command, engine/table.py).

    >>> log = [{"type": "end_round"}, {"type": "pass", "actor": "c1"}]
    >>> dump_texts([command_text(c) for c in log], {"b": "é"}) == dump(log, {"b": "é"})
    True
    """
    return _joined(texts, json_text(board))


def _joined(texts: list[str], board: str) -> str:
    """The save text of commands and a board, each already written."""
    return f'{HEAD}{",".join(texts)}],"board":{board}}}'


#: A character past U+FFFF: two UTF-16 code units (a surrogate pair) in JavaScript.
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def utf16(text: str) -> int:
    """The length of ``text`` as JavaScript counts it (UTF-16 code units: a character past
    U+FFFF counts two), which is how the page cuts a save text (:func:`follow`). Counted
    without the UTF-16 codec, which the page's Python does not ship.

    >>> utf16("Épée"), utf16("🗡"), utf16("a🗡" + chr(0xDC00))
    (4, 2, 4)
    """
    return len(text) if text.isascii() else len(text) + len(_ASTRAL.findall(text))


def _cut(text: str, units: int) -> str:
    """The first ``units`` UTF-16 code units of ``text`` (JavaScript's ``text.slice(0, units)``:
    a cut inside a surrogate pair keeps its first half).

    >>> _cut("Épée", 2), _cut("a🗡b", 3), _cut("a🗡b", 2) == "a" + chr(0xD83D), _cut("🗡🗡", 9)
    ('Ép', 'a🗡', True, '🗡🗡')
    """
    if text.isascii():
        return text[:units]
    counted, start = 0, 0  # units counted up to the character at `start`
    for astral in _ASTRAL.finditer(text):
        at = astral.start()
        if counted + at - start >= units:
            break
        counted += at - start
        if counted + 1 == units:
            return text[:at] + chr(0xD800 + ((ord(astral.group()) - 0x10000) >> 10))
        counted, start = counted + 2, at + 1
    return text[:start + units - counted]


Change = dict[str, Any]


def follow(text: str, changes: list[Change]) -> str:
    """The save text after ``changes``, in order, of the fight whose save was ``text``: what
    the page keeps of the open fight, its last whole save text and each change the table
    answered since (engine/table.py, an answer's ``log``), composes to (web/infra/
    open-fight.js ``compose`` does the same). A change keeps the first ``keep`` UTF-16 code
    units of the commands written so far (``from`` commands: an undo keeps fewer), adds the
    text of the commands after them (``add``), and paints ``board`` after them.

    >>> w = Written([command_text({"type": "end_round"})])
    >>> board = json_text({"round": 2})
    >>> w.append(command_text({"type": "pass", "actor": "c1"}))
    >>> after = w.change(1, board)
    >>> after["from"], after["add"]
    (1, ',{"type":"pass","actor":"c1"}')
    >>> follow(dump_texts(w.texts[:1]), [after]) == _joined(w.texts, board)
    True
    >>> w.pop()  # undone: the second change keeps the first command only
    >>> follow(dump_texts(w.texts[:1]), [after, w.change(1, "null")]) == dump_texts(w.texts)
    True
    """
    body, board = text, None
    for change in changes:
        body, board = _cut(body, change["keep"]) + change["add"], change["board"]
    return text if board is None else f'{body}],"board":{board}}}'


class Written:
    """A log's commands as a save writes them (:func:`command_text`), with what the page
    needs to keep the save by its changes (:func:`follow`): where each command ends in the
    save text, in UTF-16 code units, and the save's length without its board.

    >>> w = Written(["{}", '{"n":"é"}'])
    >>> w.size("null") == len(_joined(w.texts, "null")), w.keep(1), w.keep(0) == len(HEAD)
    (True, 42, True)
    """

    def __init__(self, texts: list[str] | tuple[str, ...] = ()) -> None:
        self.texts: list[str] = []
        self.ends: list[int] = []  #: where command i ends in the save text (UTF-16)
        self.chars = 0  #: the characters of the commands and the commas between them
        for line in texts:
            self.append(line)

    def __len__(self) -> int:
        return len(self.texts)

    def append(self, line: str) -> None:
        self.chars += len(line) + (1 if self.texts else 0)
        self.ends.append((self.ends[-1] + 1 if self.ends else len(HEAD)) + utf16(line))
        self.texts.append(line)

    def pop(self) -> None:
        line = self.texts.pop()
        self.ends.pop()
        self.chars -= len(line) + (1 if self.texts else 0)

    def keep(self, k: int) -> int:
        """Where the first ``k`` commands end in the save text (UTF-16)."""
        return self.ends[k - 1] if k else len(HEAD)

    def size(self, board: str, line: str | None = None) -> int:
        """The length of the save text with ``board`` (written), ``line`` appended if given."""
        chars = self.chars + (0 if line is None else len(line) + (1 if self.texts else 0))
        return len(HEAD) + chars + len('],"board":') + len(board) + 1

    def text(self, board: str) -> str:
        """The save text, with ``board`` (written)."""
        return _joined(self.texts, board)

    def change(self, k: int, board: str) -> Change:
        """The save's change since it had only its first ``k`` commands (:func:`follow`)."""
        add = ",".join(self.texts[k:])
        return {"from": k, "keep": self.keep(k), "add": ("," if k and add else "") + add, "board": board}


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do
    not count), found without parsing it: the strings and all but the brackets taken out,
    then the deepest running count, opening +1, closing -1. Every step in C (regular
    expressions, ``map``, ``accumulate``), none in Python's loop: in the browser's Python a
    30-fighter save's depth took 6 to 13 ms token by token (docs/PERFORMANCE.md).

    >>> depth('{"a": [1, {"b": "[[["}]}'), depth("[" * 100_000), depth("]]"), depth("")
    (3, 100000, 0, 0)
    """
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def loads(text: str) -> Any:
    """``json.loads`` that refuses nesting over MAX_DEPTH (``too_deep``) before parsing,
    text that is not JSON (``not_json``, where it stops) and an integer longer than Python
    converts (``number_too_long``).

    >>> loads('{"value": ' + "9" * 5000 + "}")
    Traceback (most recent call last):
    engine.errors.Refusal: Ce n'est pas du JSON lisible (un nombre de plus de 4300 chiffres).

    >>> loads("[" * 65)
    Traceback (most recent call last):
    engine.errors.Refusal: Ce n'est pas du JSON lisible (imbrication trop profonde : plus de 64 niveaux).
    """
    if depth(text) > MAX_DEPTH:
        raise Refusal("too_deep", max=MAX_DEPTH)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:  # where it stops (Python's own words are English)
        raise Refusal("not_json", line=exc.lineno, column=exc.colno) from exc
    except ValueError as exc:  # an integer longer than Python converts (not "too deep")
        raise Refusal("number_too_long", max=sys.get_int_max_str_digits()) from exc
    except RecursionError as exc:  # nested deeper than Python goes, on a smaller stack
        raise Refusal("too_deep", max=MAX_DEPTH) from exc


def migrate(data: object) -> Save:
    """A save of any known format as today's format; refused (``not_an_encounter``,
    ``newer_format``) when it cannot be.

    >>> migrate({"format": 1, "commands": []})["format"]
    3
    """
    if not isinstance(data, dict) or not isinstance(data.get("format"), int) or isinstance(data["format"], bool):
        raise Refusal("not_an_encounter")
    if data["format"] > SAVE_FORMAT:
        raise Refusal("newer_format")
    if data["format"] < 1 or not isinstance(data.get("commands"), list):
        raise Refusal("not_an_encounter")
    if data["format"] >= 2 and data.get("app") != "riposte":
        raise Refusal("not_an_encounter")
    while data["format"] < SAVE_FORMAT:
        data = MIGRATIONS[data["format"]](data)
    return data


def parse(text: object) -> dict[str, Any]:
    """A save text read and migrated, its log not yet replayed: ``{"ok": True,
    "format": the format it was written in (``"link"``: a link's text, engine/link.py),
    "commands": [...]}`` or a refusal
    (``too_big``, ``too_long``, ``not_json``, ``not_an_encounter``, ``newer_format``). Never raises."""
    try:
        return {"ok": True, **_parsed(text)}
    except Refusal as refusal:
        return refusal.answer()


def _parsed(text: object) -> dict[str, Any]:
    if not isinstance(text, str):
        raise Refusal("not_an_encounter")
    if len(text) > MAX_CHARS:
        raise too_big(len(text))
    data = loads(text)
    if link.is_packed(data):
        if link.count(data) > MAX_COMMANDS:
            raise too_long(link.count(data))
        commands = mended(link.unpack(data))
        return {"format": "link", "commands": commands, "times": [None] * len(commands)}
    original = data.get("format") if isinstance(data, dict) else None
    data = migrate(data)
    if len(data["commands"]) > MAX_COMMANDS:
        raise too_long(len(data["commands"]))
    commands = expand(data["commands"]) if original == SAVE_FORMAT else data["commands"]
    shown = data.get("board")
    times = unpack_times(shown.get("times") if isinstance(shown, dict) else None, len(commands))
    return {"format": original, "commands": mended(commands), "times": times}


#: The most characters of a fight's name a file's name keeps.
FILE_NAME_MAX = 40


def file_name(name: object) -> str:
    r"""A file's name for a fight named ``name`` (user text): ``riposte-`` then the name in
    lower-case letters without accents, digits and single hyphens, at most
    :data:`FILE_NAME_MAX` of them; ``riposte`` alone when nothing of it is left (no name,
    not text, nothing but signs: no path, no dot, no character a file system refuses).

    >>> file_name("Combat 1"), file_name("../L'Épée\x00 : « Nuit » ✦"), file_name(None), file_name("???")
    ('riposte-combat-1', 'riposte-l-epee-nuit', 'riposte', 'riposte')
    """
    if not isinstance(name, str):
        return "riposte"
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).lower()
    stem = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:FILE_NAME_MAX].strip("-")
    return f"riposte-{stem}" if stem else "riposte"


#: The commands that carry a sheet, and the key it is under.
SHEETS = {"add_combatant": "combatant", "add_copies": "combatant", "update_combatant": "changes"}


def mended(commands: list[Any]) -> list[Any]:
    r"""A log as an earlier release wrote it, its names made ones the rules take today: a
    fighter's or a weapon's name that shows nothing becomes « Sans nom », half a character
    becomes U+FFFD (engine/values.py ``shown_name``). The log opens, never refused whole.

    >>> mended([{"type": "add_combatant", "combatant": {"name": "\u200b", "weapons": [{"name": "\x00"}]}}])
    [{'type': 'add_combatant', 'combatant': {'name': 'Sans nom', 'weapons': [{'name': 'Sans nom'}]}}]
    """
    def named(item: Any) -> Any:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            return {**item, "name": values.shown_name(item["name"])}
        return item

    out = []
    for command in commands:
        key = SHEETS.get(str(command.get("type"))) if isinstance(command, dict) else None
        sheet = command.get(key) if key else None
        if isinstance(sheet, dict):
            sheet = named(sheet)
            if isinstance(sheet.get("weapons"), list):
                sheet = {**sheet, "weapons": [named(w) for w in sheet["weapons"]]}
            command = {**command, key: sheet}
        out.append(command)
    return out


def too_long(count: int, full: bool = False) -> Refusal:
    """The refusal of a log over :data:`MAX_COMMANDS`, checked before any replay; ``full``:
    of a command that the fight has no room for (it says what to do then)."""
    return Refusal("fight_too_long" if full else "too_long", count=count, max=MAX_COMMANDS)


def too_big(size: int, full: bool = False) -> Refusal:
    """The refusal of a save text over :data:`MAX_CHARS` characters (``full``: as
    :func:`too_long`), its size in kB rounded up: one character over is never "2000 kB (at
    most 2000 kB)".

    >>> too_big(MAX_CHARS + 1).message
    'Trop gros pour un combat : 2001 ko (au plus 2000 ko).'
    """
    return Refusal("fight_too_big" if full else "too_big", kb=-(-size // 1000), max_kb=MAX_CHARS // 1000)


def checked_texts(texts: list[str], board: dict[str, Any] | None, full: bool = False) -> str:
    """The save of a log whose commands are written (:func:`command_text`), when it can
    be read back (:func:`parse`: at most :data:`MAX_COMMANDS` commands, :data:`MAX_CHARS`
    characters); else refused (``full``: as :func:`too_long`): what is accepted is always
    readable again.

    >>> checked_texts([], None) == dump([])
    True
    >>> checked_texts(["{}"] * (MAX_COMMANDS + 1), None)
    Traceback (most recent call last):
    engine.errors.Refusal: Combat trop long : 12001 commandes (au plus 12000, pour qu'il se rejoue vite).
    """
    if len(texts) > MAX_COMMANDS:
        raise too_long(len(texts), full)
    text = dump_texts(texts, board)
    checked_size(len(text), full)
    return text


def checked_size(size: int, full: bool = False) -> None:
    """Refused (``too_big``; ``full``: as :func:`too_long`) when a save of ``size``
    characters could not be read back."""
    if size > MAX_CHARS:
        raise too_big(size, full)


def bad_log(index: int, error: dict[str, Any]) -> Refusal:
    """The refusal of a save whose log the rules refuse: command ``index`` (from 0),
    refused with ``error`` (from ``replay``); its ``number`` counts from 1."""
    return Refusal("bad_log", index=index, number=index + 1, refused={"key": error["key"], "params": error["params"]})


#: How many commands are replayed between two calls of a reader's ``pulse``.
PULSE_EVERY = 50


def replayed(commands: list[Any], pulse: Callable[[int, int], None] | None = None) -> tuple[Encounter, list[Any]]:
    """The encounter a log gives and the log resolved, replayed :data:`PULSE_EVERY`
    commands at a time, ``pulse(done, total)`` told after each; refused (``bad_log``) at the
    first command the rules refuse.

    >>> seen = []
    >>> enc, log = replayed([{"type": "add_combatant", "combatant": {"name": "A"}}] * 60, lambda *n: seen.append(n))
    >>> len(enc.combatants), seen
    (60, [(50, 60), (60, 60)])
    """
    enc = Encounter()
    log: list[Any] = []
    for first in range(0, len(commands), PULSE_EVERY):
        enc, result = fold(commands[first:first + PULSE_EVERY], start=enc, with_events=False)
        if not result["ok"]:
            raise bad_log(first + result["error"]["index"], result["error"])
        log.extend(result["commands"])
        if pulse is not None:
            pulse(len(log), len(commands))
    return enc, log


def read(text: object, pulse: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Read a save text: ``{"ok": True, "commands", "state", "board", "format",
    "summary"}`` with the log replayed (``pulse``: told as it goes, :func:`replayed`), or
    ``{"ok": False, "error": {"code", "message"}}``. Never raises."""
    try:
        parsed = _parsed(text)
        enc, commands = replayed(parsed["commands"], pulse)
        shown = board(enc)
        checked_texts([command_text(c) for c in commands], painted(shown))  # as the autosave will write it
    except Refusal as refusal:
        return refusal.answer()
    return {"ok": True, "format": parsed["format"], "commands": commands, "state": encode(enc),
            "board": shown, "summary": summary_of(enc)}


#: What a fighter's card does not show: left out of the board a save keeps.
PAINTLESS = ("actions", "declarations", "suggested_declaration", "likely", "never")


def painted(board: dict[str, Any], times: list[int | None] | None = None) -> dict[str, Any]:
    """The part of a board kept in a save for the first paint: what the cards show,
    not every action's verdict, the catalogue nor the targets (the engine sends them once
    ready); and beside it the times of the log's commands as a save keeps them (``times``,
    :meth:`Times.saved`), when it has any.

    >>> from engine import new_encounter, view
    >>> sorted(painted(view(new_encounter())))[:3]
    ['active', 'combatants', 'conditions_from']
    """
    fighters = {cid: {k: x for k, x in f.items() if k not in PAINTLESS}
                for cid, f in board["combatants"].items()}
    out = {**{k: x for k, x in board.items() if k not in ("catalogue", "targets")}, "combatants": fighters}
    if times is not None:
        out["times"] = times
    return out


class Times:
    """The wall-clock times of a log's commands, kept beside the log (in the board a save
    paints: :func:`painted`), never in the commands (the rules know no clock): ``times[i]``,
    the second (since 1970) command ``i`` was accepted at, ``None`` when not known; and
    ``packed``, the list a save keeps of them: ``None`` for a command without one, else the
    seconds since the command before when that one has a time, or its own time when it has
    none. Kept as the log grows and shrinks, so that a tap packs one time, not the log's.

    >>> t = Times([None, 1_765_000_000, 1_765_000_012, None, 1_765_000_100])
    >>> t.saved()
    [None, 1765000000, 12, None, 1765000100]
    >>> t.pop(), t.saved()[-1]
    (1765000100, None)
    >>> Times([None, None]).saved() is None
    True
    """

    def __init__(self, times: list[int | None] | tuple[int | None, ...] = ()) -> None:
        self.times: list[int | None] = []
        self.packed: list[int | None] = []
        self.known = 0  #: how many times are known
        self.body = ""  #: ``packed`` as JSON, without its brackets (a tap writes it, never encodes it)
        self.ends: list[int] = []  #: where each entry ends in ``body``
        for at in times:
            self.append(at)

    def __len__(self) -> int:
        return len(self.times)

    def _token(self, at: int | None) -> int | None:
        before = self.times[-1] if self.times else None
        return None if at is None else at if before is None else at - before

    def append(self, at: int | None) -> None:
        token = self._token(at)
        self.packed.append(token)
        self.times.append(at)
        self.known += at is not None
        self.body += ("," if self.body else "") + ("null" if token is None else str(token))
        self.ends.append(len(self.body))

    def pop(self) -> int | None:
        at = self.times.pop()
        self.packed.pop()
        self.known -= at is not None
        self.ends.pop()
        self.body = self.body[:self.ends[-1] if self.ends else 0]
        return at

    def text(self, at: object = False) -> str | None:
        """:meth:`saved` as JSON text (given ``at``: with one more command accepted at
        ``at``), written from what is kept, not encoded again: a tap costs one time, not
        the log's.

        >>> t = Times([None, 1_765_000_000, 1_765_000_012])
        >>> t.text(), t.text(1_765_000_020), t.text(None)
        ('[null,1765000000,12]', '[null,1765000000,12,8]', '[null,1765000000,12,null]')
        >>> Times([None]).text() is None
        True
        """
        if at is False:
            return f"[{self.body}]" if self.known else None
        after = at if type(at) is int else None
        if not self.known and after is None:
            return None
        token = self._token(after)
        return f"[{self.body}{',' if self.body else ''}{'null' if token is None else token}]"

    def saved(self) -> list[int | None] | None:
        """The list a save keeps; ``None`` for a log without any time (a fight of an earlier
        release writes what it wrote)."""
        return list(self.packed) if self.known else None


def painted_text(board: dict[str, Any], times: str | None) -> str:
    """:func:`painted` written as a save writes it (:func:`engine.codec.json_text`), with
    the times' text (:meth:`Times.text`) spliced in as it is.

    >>> painted_text({"combatants": {}}, "[5,1]") == json_text(painted({"combatants": {}}, [5, 1]))
    True
    """
    text = json_text(painted(board))
    return text if times is None else f'{text[:-1]},"times":{times}}}'


def unpack_times(packed: object, count: int) -> list[int | None]:
    """:meth:`Times.saved` undone, for a log of ``count`` commands: a list that is not one
    (an older save, a hand-edited one) gives no time, never a refusal (the times are no
    part of the fight).

    >>> unpack_times([None, 1765000000, 12, None, 1765000100], 5)
    [None, 1765000000, 1765000012, None, 1765000100]
    >>> unpack_times([1, "x"], 2), unpack_times(None, 1), unpack_times([5], 2)
    ([None, None], [None], [None, None])
    """
    if (not isinstance(packed, list) or len(packed) != count
            or not all(t is None or (type(t) is int and abs(t) < 10 ** 11) for t in packed)):
        return [None] * count
    out: list[int | None] = []
    before: int | None = None
    for t in packed:
        before = None if t is None else t if before is None else before + t
        out.append(before)
    return out


def summary_of(enc: Encounter) -> dict[str, Any]:
    """What a save holds, to show before it replaces the current encounter."""
    return {"round": enc.round, "fighters": [c.name for c in enc.combatants],
            "pj": sum(1 for c in enc.combatants if c.side.value == "pj")}
