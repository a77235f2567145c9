"""The board as the page's worker sends it: each distinct verdict once.

A board judges every action of every fighter (engine/view.py): with 30 fighters, 750
verdicts, of which some 25 differ (most fighters get the same refusal for every phase
action, D5-D7). Sent as they are, they are two thirds of a tap's answer, which the page
parses on its main thread. :class:`Wire` writes the board's ``verdicts`` once, a table
(``{"actions": [action ids], "table": [verdicts]}``), and each fighter's ``actions`` as
the indexes of its verdicts in that table, action by action; web/infra/verdicts.js puts
them back, so every screen reads the board as :func:`engine.view.board` makes it.

A board the worker packs is numbered (``mark``), and the page says with each request the
board it holds (``held``, the mark of the last one it put back). When that is the last
board packed, a fighter whose part has not changed since is sent as ``0``, the page keeping
its own (``since``: the board it keeps them from): a tap sends the two or three fighters it
changed, and an undo those it brought back. The page parses that much less on its main
thread, between the tap and its frame.

Only the text crosses: the table session's answers (``Table.apply`` and the others) keep
the board whole, and so do the save's painted board and the live table's boards.

>>> board = {"combatants": {"a": {"actions": {"x": {"allowed": True}, "y": {"allowed": False}}},
...                         "b": {"actions": {"x": {"allowed": True}, "y": {"allowed": True}}}}}
>>> packed = Wire().pack({"ok": True, "board": board})["board"]
>>> packed["verdicts"], packed["combatants"]["a"]["actions"], packed["combatants"]["b"]["actions"]
({'actions': ['x', 'y'], 'table': [{'allowed': True}, {'allowed': False}]}, [0, 1], [0, 0])
>>> unpack(packed) == board
True
"""

from __future__ import annotations

import json
from typing import Any


class Wire:
    """Packs the boards of one table session. Its table of verdicts lasts from one answer
    to the next (at most ``most`` verdicts; one more starts a new table), and a fighter's
    part of the board is a value the session's :class:`engine.view.Boards` hands again
    while the fighter does not change: each part is packed once and kept (the last
    ``parts``), so a tap packs the two or three fighters it changed, and an undo finds the
    parts it brings back packed. Each answer carries the whole table.

    >>> wire, verdicts = Wire(most=2), [{"allowed": n == 0, "n": n} for n in range(3)]
    >>> first = wire.pack({"board": {"combatants": {"a": {"actions": {"x": verdicts[0], "y": verdicts[1]}}}}})["board"]
    >>> first["verdicts"]["table"] == verdicts[:2], first["combatants"]["a"]["actions"]
    (True, [0, 1])
    >>> again = wire.pack({"board": {"combatants": {"b": {"actions": {"x": verdicts[2], "y": verdicts[1]}}}}})["board"]
    >>> again["verdicts"]["table"] == [verdicts[2], verdicts[1]], again["combatants"]["b"]["actions"]
    (True, [0, 1])

    A page that holds the last board packed (``held``) is sent ``0`` for each fighter whose
    part is the one that board carried:

    >>> wire, a, b = Wire(), {"actions": {"x": verdicts[0]}}, {"actions": {"x": verdicts[1]}}
    >>> first = wire.pack({"board": {"combatants": {"a": a, "b": b}}})["board"]
    >>> first["mark"], first["combatants"]
    (1, {'a': {'actions': [0]}, 'b': {'actions': [1]}})
    >>> b2 = {"actions": {"x": verdicts[0]}}
    >>> second = wire.pack({"board": {"combatants": {"a": a, "b": b2}}}, held=1)["board"]
    >>> second["mark"], second["since"], second["combatants"]
    (2, 1, {'a': 0, 'b': {'actions': [0]}})
    >>> wire.pack({"board": {"combatants": {"a": a, "b": b2}}}, held=1)["board"]["combatants"]  # not the last: whole
    {'a': {'actions': [0]}, 'b': {'actions': [0]}}
    """

    def __init__(self, most: int = 128, parts: int = 2048) -> None:
        self._most = most
        self._parts = parts
        self._mark = 0  # the last board packed
        self._sent: dict[str, Any] = {}  # fighter id → its part in that board (the page holds it)
        self._fresh()

    def _fresh(self) -> None:
        self._index: dict[str, int] = {}  # a verdict's text → its place in the table
        self._table: list[Any] = []
        self._order: tuple[str, ...] | None = None  # the actions, in the order each part lists them
        self._packed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # id of a part → (the part, packed)

    def pack(self, answer: dict[str, Any], held: object = None) -> dict[str, Any]:
        """``answer`` with its ``board`` packed, or ``answer`` itself when it has no board
        of verdicts (a refusal's board is the board as it was, packed too). ``held``: the
        mark of the board the page holds (its request's); when it is the last one packed,
        each fighter unchanged since is ``0``. Never changes ``answer`` or its board: a
        packed copy shares what it does not change."""
        board = answer.get("board")
        if not isinstance(board, dict) or "verdicts" in board:
            return answer
        fighters = board.get("combatants")
        if not isinstance(fighters, dict):
            return answer
        packed = {fid: self._part(f) for fid, f in fighters.items()}
        if len(self._table) > self._most:  # a new table, for this board's verdicts alone
            self._fresh()
            packed = {fid: self._part(f) for fid, f in fighters.items()}
        if len(self._packed) > self._parts:  # the oldest quarter goes
            for key in list(self._packed)[: self._parts // 4]:
                del self._packed[key]
        if self._order is None or all(p is f for p, f in zip(packed.values(), fighters.values(), strict=True)):
            return answer
        verdicts = {"actions": list(self._order), "table": list(self._table)}
        marked: dict[str, Any] = {"verdicts": verdicts}
        if self._mark and type(held) is int and held == self._mark:  # the page holds the last board: its parts
            packed = {fid: 0 if self._sent.get(fid) is f else p
                      for (fid, p), f in zip(packed.items(), fighters.values(), strict=True)}
            marked["since"] = held
        self._mark += 1
        self._sent = dict(fighters)
        marked["mark"] = self._mark
        return {**answer, "board": {**board, "combatants": packed, **marked}}

    def _part(self, f: Any) -> Any:
        """A fighter's part packed: its verdicts as their places in the table (the part as
        it is when it has none, or lists its actions in another order)."""
        actions = f.get("actions") if isinstance(f, dict) else None
        if not isinstance(actions, dict):
            return f
        known = self._packed.get(id(f))
        if known is not None and known[0] is f:
            return known[1]
        order = tuple(actions)
        self._order = self._order or order
        if order != self._order:
            return f
        at = []
        for verdict in actions.values():
            text = json.dumps(verdict, sort_keys=True)
            n = self._index.get(text)
            if n is None:
                n = self._index[text] = len(self._table)
                self._table.append(verdict)
            at.append(n)
        packed = {**f, "actions": at}
        self._packed[id(f)] = (f, packed)
        return packed


def unpack(board: dict[str, Any], held: dict[str, Any] | None = None) -> dict[str, Any]:
    """A packed board as :func:`engine.view.board` makes it (web/infra/verdicts.js does the
    same in the page; the tests check the two agree). ``held``: the board put back before
    it (by its ``since``), whose fighters the ``0`` stand for."""
    verdicts = board.get("verdicts")
    if not isinstance(verdicts, dict):
        return board
    ids, table = verdicts["actions"], verdicts["table"]
    kept = held["combatants"] if "since" in board and held is not None else {}

    def part(fid: str, f: Any) -> Any:
        if type(f) is int:
            return kept[fid]
        if isinstance(f.get("actions"), list):
            return {**f, "actions": dict(zip(ids, (table[n] for n in f["actions"]), strict=True))}
        return f

    fighters = {fid: part(fid, f) for fid, f in board["combatants"].items()}
    return {k: v for k, v in board.items() if k not in ("verdicts", "mark", "since")} | {"combatants": fighters}
