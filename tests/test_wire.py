"""The board as the page's worker sends it (engine/wire.py): each distinct verdict once,
put back by the page (web/infra/verdicts.js) into the board the table session answers."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.stateful import initialize, rule
from strategies import Playing

from engine.table import Table
from engine.wire import Wire, unpack
from tests.casts import CASTS

ROOT = Path(__file__).resolve().parent.parent


def thirty() -> Table:
    """A table with 30 fighters in round 1 (the page bench's fight)."""
    table = Table(rng=random.Random(0))
    for i in range(30):
        table.apply({"type": "add_combatant", "combatant": {**CASTS["orque"], "id": f"f{i}", "name": f"Orque {i}"}})
    assert table.apply({"type": "start_round"})["ok"]
    assert len(table.show()["board"]["order"]) == 30
    return table


def texts(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists)."""
    return json.loads(json.dumps(value))


class Twins(Playing):
    """The same random fight on two tables: one answers as Python (``apply``, ``undo``),
    the other as the page's worker (``call``, JSON text). Each text, its board unpacked,
    is the first table's answer: the wire loses nothing, answer after answer (a fighter
    unchanged keeps its verdicts' texts from one answer to the next)."""

    @initialize()
    def start(self) -> None:
        self.table = Table(rng=random.Random(0))
        self.twin = Table(rng=random.Random(0))
        self.last: dict[str, Any] = {}
        self.remember(self.table.load(None), {"op": "load", "text": None})

    def remember(self, answer: dict[str, Any], request: dict[str, Any] | None = None) -> None:
        if request is None:
            request = {"op": "apply", "command": self.table._log[-1] if answer["ok"] else {}}
        self.last = answer
        if answer["ok"]:
            self.compare(answer, request)

    def compare(self, answer: dict[str, Any], request: dict[str, Any]) -> None:
        """The twin's text for ``request``, its board unpacked, is ``answer``."""
        sent = json.loads(self.twin.call(json.dumps(request)))
        assert "verdicts" in sent["board"] or not any(f.get("actions") for f in answer["board"]["combatants"].values())
        sent["board"] = unpack(sent["board"])
        assert sent == texts(answer)

    @rule()
    def undo(self) -> None:
        answer = self.table.undo()
        if answer["ok"]:
            self.remember(answer, {"op": "undo"})


TestTwins = Twins.TestCase
TestTwins.settings = settings(max_examples=25, stateful_step_count=20, deadline=None)


class SmallTwins(Twins):
    """The same with a table of at most 4 verdicts and 8 parts kept: a new table and parts
    packed again, answer after answer, lose nothing either."""

    @initialize()
    def start(self) -> None:
        super().start()
        self.twin._wire = Wire(most=4, parts=8)


TestSmallTwins = SmallTwins.TestCase
TestSmallTwins.settings = settings(max_examples=15, stateful_step_count=20, deadline=None)


class HeldTwins(Twins):
    """The same, the worker told the board the page holds (``held``, as web/boot/engine.js
    says it): each fighter sent as ``0`` is the one the page kept, and the board put back is
    the first table's, answer after answer. Now and then a request says no board, or an
    older one (a call the page did not take, the test build's raw bridge): its answer and
    the next are whole, never kept from a board the page does not hold."""

    @initialize()
    def start(self) -> None:
        self.held: dict[str, Any] | None = None  # {"mark", "board"}: the last board put back
        super().start()

    def compare(self, answer: dict[str, Any], request: dict[str, Any]) -> None:
        mark = self.held["mark"] if self.held else None
        told = {**request, "held": mark} if mark is not None and len(self.table._log) % 5 else request
        sent = json.loads(self.twin.call(json.dumps(told)))
        board = sent["board"]
        if "since" in board:  # kept only from the board the request says the page holds
            assert board["since"] == told["held"] == board["mark"] - 1
        else:
            assert 0 not in board["combatants"].values()
        sent["board"] = unpack(board, self.held["board"] if self.held else None)
        assert sent == texts(answer)
        if "mark" in board:
            self.held = {"mark": board["mark"], "board": sent["board"]}


TestHeldTwins = HeldTwins.TestCase
TestHeldTwins.settings = settings(max_examples=25, stateful_step_count=20, deadline=None)


def test_a_tap_sends_the_fighters_it_changed() -> None:
    """With 30 fighters, a pass told the board the page holds sends the two or three
    fighters it changed, the others as ``0``: a fraction of the whole board's text. A page
    that holds an older board, or says none, gets the board whole."""
    table = thirty()
    first = json.loads(table.call(json.dumps({"op": "show"})))["board"]
    whole = unpack(first)
    active = first["active"][0]
    text = table.call(json.dumps({"op": "apply", "command": {"type": "pass", "actor": active}, "held": first["mark"]}))
    board = json.loads(text)["board"]
    changed = [fid for fid, f in board["combatants"].items() if f != 0]
    assert board["since"] == first["mark"] and 1 <= len(changed) <= 4 and active in changed
    assert len(json.dumps(board["combatants"])) < len(json.dumps(first["combatants"])) / 5
    assert unpack(board, whole) == texts(table.show()["board"])
    stale = json.loads(table.call(json.dumps({"op": "undo", "held": first["mark"]})))["board"]
    assert "since" not in stale and 0 not in stale["combatants"].values()
    assert unpack(stale) == texts(table.show()["board"])


def test_thirty_fighters_send_each_verdict_once() -> None:
    """With 30 fighters, 750 verdicts and some 25 distinct: the text is less than half the
    board's, and each fighter's ``actions`` is one index per action of the table's list."""
    table = thirty()
    whole = json.dumps(table.show()["board"])
    sent = json.loads(table.call(json.dumps({"op": "show"})))["board"]
    verdicts = sent["verdicts"]
    assert len(verdicts["table"]) < 40
    assert all(f["actions"] == [n for n in f["actions"] if 0 <= n < len(verdicts["table"])] for f in sent["combatants"].values())
    assert all(len(f["actions"]) == len(verdicts["actions"]) for f in sent["combatants"].values())
    assert len(json.dumps(sent)) < len(whole) / 2
    assert unpack(sent) == texts(table.show()["board"])


def test_the_table_keeps_its_boards_whole() -> None:
    """Packing copies: the session's own boards (and the parts it keeps for the next
    board) still carry every verdict after the text is sent."""
    table = thirty()
    before = texts(table.show()["board"])
    table.call(json.dumps({"op": "show"}))
    after = table.show()["board"]
    assert all(isinstance(f["actions"], dict) for f in after["combatants"].values())
    assert texts(after) == before


def test_a_board_without_verdicts_is_sent_as_it_is() -> None:
    """The players' board (no verdicts), a refusal without a board: unchanged."""
    wire = Wire()
    players = thirty().show(players=True)
    assert wire.pack(players) is players
    refusal = {"ok": False, "error": {"code": "x"}}
    assert wire.pack(refusal) is refusal


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_page_puts_back_the_same_board() -> None:
    """web/infra/verdicts.js (the page's unpack, in Node) gives the board Python's gives."""
    table = thirty()
    table.apply({"type": "pass", "actor": table.show()["board"]["active"][0]})
    text = table.call(json.dumps({"op": "show"}))
    script = ("import { unpack } from './web/infra/verdicts.js';"
              "let s = ''; process.stdin.on('data', (d) => { s += d; });"
              "process.stdin.on('end', () => process.stdout.write(JSON.stringify(unpack(JSON.parse(s).board))));")
    run = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, input=text, capture_output=True,
                         text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == unpack(json.loads(text)["board"]) == texts(table.show()["board"])


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_page_keeps_the_fighters_unchanged() -> None:
    """web/infra/verdicts.js ``Held`` (the page's engine, in Node), given the answers of
    taps that each said the board held before: every board it puts back is the engine's."""
    table = thirty()
    texts_sent, boards, mark = [], [], None
    for i in range(6):
        active = table.show()["board"]["active"][0]
        request = {"op": "undo"} if i % 3 == 2 else {"op": "apply", "command": {"type": "pass", "actor": active}}
        text = table.call(json.dumps({**request, **({} if mark is None else {"held": mark})}))
        mark = json.loads(text)["board"]["mark"]
        texts_sent.append(text)
        boards.append(texts(table.show()["board"]))
    assert sum("since" in json.loads(t)["board"] for t in texts_sent) == 5
    script = ("import { Held } from './web/infra/verdicts.js';"
              "let s = ''; process.stdin.on('data', (d) => { s += d; });"
              "process.stdin.on('end', () => { const held = new Held();"
              "process.stdout.write(JSON.stringify(JSON.parse(s).map((t) => held.take(JSON.parse(t).board)))); });")
    run = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, input=json.dumps(texts_sent),
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == boards
