"""The board as the page's worker sends it: each distinct verdict once.

A board judges every action of every fighter (engine/view.py): with 30 fighters, 750
verdicts, of which some 25 differ (most fighters get the same refusal for every phase
action, D5-D7). Sent as they are, they are two thirds of a tap's answer, which the page
parses on its main thread. :class:`Wire` writes the board's ``verdicts`` once, a table
(``{"actions": [action ids], "table": [verdicts]}``), and each fighter's ``actions`` as
the indexes of its verdicts in that table, action by action; web/infra/verdicts.js puts
them back, so every screen reads the board as :func:`engine.view.board` makes it.

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
    """Packs the boards of one table session. A fighter's part of the board is a value the
    session's :class:`engine.view.Boards` keeps and hands again while the fighter does not
    change, so each verdict's text (its identity in the table) is written once per part:
    a tap writes those of the two or three fighters it changed. Only the parts of the last
    board are kept."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[dict[str, Any], tuple[str, ...], list[str]]] = {}

    def pack(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` with its ``board`` packed, or ``answer`` itself when it has no board
        of verdicts (a refusal's board is the board as it was, packed too). Never changes
        ``answer`` or its board: a packed copy shares what it does not change."""
        board = answer.get("board")
        if not isinstance(board, dict) or "verdicts" in board:
            return answer
        fighters = board.get("combatants")
        if not isinstance(fighters, dict):
            return answer
        index: dict[str, int] = {}
        table: list[Any] = []
        order: tuple[str, ...] | None = None
        known: dict[int, tuple[dict[str, Any], tuple[str, ...], list[str]]] = {}
        packed: dict[str, Any] = {}
        for fid, f in fighters.items():
            actions = f.get("actions") if isinstance(f, dict) else None
            if not isinstance(actions, dict):
                packed[fid] = f
                continue
            entry = self._known.get(id(f))
            if entry is None or entry[0] is not f:
                entry = (f, tuple(actions), [json.dumps(v, sort_keys=True) for v in actions.values()])
            known[id(f)] = entry
            if order is None:
                order = entry[1]
            if entry[1] != order:  # not the board's actions: sent as it is
                packed[fid] = f
                continue
            at = []
            for text, verdict in zip(entry[2], actions.values(), strict=True):
                n = index.get(text)
                if n is None:
                    n = index[text] = len(table)
                    table.append(verdict)
                at.append(n)
            packed[fid] = {**f, "actions": at}
        if order is None:
            return answer
        self._known = known
        return {**answer, "board": {**board, "combatants": packed, "verdicts": {"actions": list(order), "table": table}}}


def unpack(board: dict[str, Any]) -> dict[str, Any]:
    """A packed board as :func:`engine.view.board` makes it (web/infra/verdicts.js does the
    same in the page; the tests check the two agree)."""
    verdicts = board.get("verdicts")
    if not isinstance(verdicts, dict):
        return board
    ids, table = verdicts["actions"], verdicts["table"]
    fighters = {fid: {**f, "actions": dict(zip(ids, (table[n] for n in f["actions"]), strict=True))}
                if isinstance(f.get("actions"), list) else f for fid, f in board["combatants"].items()}
    return {k: v for k, v in board.items() if k != "verdicts"} | {"combatants": fighters}
