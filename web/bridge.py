"""The engine's side of the page: runs in a PyScript worker, owns the encounter.

JS calls ``sync.call(request_json)`` once per tap and gets JSON back; Python here never
touches the DOM. The encounter is its resolved command log: undo replays it without the
last command, redo applies the command taken back. Saves, files and links are all read
by ``engine.save`` (one format, one size limit, one migration path).
"""

import json
import os
import random

import js
from pyscript import sync

import engine
from engine import save
from engine.codec import combatant_sheet, decode
from engine.journal import journal

random.seed(os.urandom(16))


def _boot():
    """How Python started in this worker: "cold", "restored" (from a snapshot) or
    "fallback: why" (a snapshot that could not be restored), as web/boot.mjs noted it."""
    return str(getattr(js, "riposteBoot", "cold"))


class Table:
    def __init__(self):
        self.state = engine.new_encounter()
        self.log = []
        self.undone = []

    def answer(self, result=None, **extra):
        out = {"ok": True, "board": engine.view(self.state), "length": len(self.log), "redo": len(self.undone)}
        if result is not None:
            out["ok"] = result["ok"]
            if result["ok"]:
                out["command"] = result["command"]
                out["events"] = result["events"]
            else:
                out["error"] = result["error"]
        out.update(extra)
        return out

    def _start(self, result, **extra):
        """A new encounter from a replayed log (a save read, or the party): nothing to redo."""
        self.state, self.log, self.undone = result["state"], list(result["commands"]), []
        return self.answer(commands=self.log, **extra)

    def load(self, text):
        """Replace the encounter by a save (autosave, file or link), or by an empty one for
        ``None``; refused, nothing changes."""
        limits = {"max_chars": save.MAX_CHARS, "format": save.SAVE_FORMAT, "boot": _boot()}
        result = engine.replay([]) if text is None else save.read(text)
        if not result["ok"]:
            return {**self.answer(), "ok": False, "error": result["error"], **limits}
        return self._start(result, summary=result.get("summary"), **limits)

    def inspect(self, text):
        """What a save holds, without opening it."""
        result = save.read(text)
        return {"ok": result["ok"], "summary": result.get("summary"), "error": result.get("error")}

    def export(self, board=False):
        return {"ok": True, "text": save.dump(self.log, engine.view(self.state) if board else None)}

    def journal(self):
        return {"ok": True, "entries": journal(self.log)}

    def new(self, party):
        """A new encounter; with ``party``, the PJ with their sheets as they are now
        (wounds and Espoir carry over: the rules are silent, docs/TABLE.md), standing,
        out of any round."""
        sheets = [combatant_sheet(c) for c in decode(self.state).combatants if party and c.side.value == "pj"]
        log = [{"type": "add_combatant", "combatant": {k: v for k, v in s.items() if k != "entry"}} for s in sheets]
        return self._start(engine.replay(log))

    def apply(self, command):
        """A new command: what was undone can no longer be redone."""
        answer = self._commit(command)
        if answer["ok"]:
            self.undone = []
        return {**answer, "redo": len(self.undone)}

    def _commit(self, command):
        result = engine.apply(self.state, command)
        if result["ok"]:
            self.state = result["state"]
            self.log.append(result["command"])
        return self.answer(result)

    def check(self, command):
        result = engine.apply(self.state, command)
        return {"ok": result["ok"], "error": result.get("error")}

    def undo(self):
        if not self.log:
            return self.answer()
        result = engine.replay(self.log[:-1])
        self.undone.append(self.log[-1])
        self.state, self.log = result["state"], list(result["commands"])
        return self.answer(undone=self.undone[-1])

    def redo(self):
        if not self.undone:
            return self.answer()
        return self._commit(self.undone.pop())


table = Table()


def _unreadable(message):
    return {**table.answer(), "ok": False, "error": {"code": "bad_command", "message": message}}


def dispatch(request):
    op = request.get("op")
    if op == "apply":
        return table.apply(request.get("command"))
    if op == "check":
        return table.check(request.get("command"))
    if op == "load":
        return table.load(request.get("text"))
    if op == "inspect":
        return table.inspect(request.get("text"))
    if op == "export":
        return table.export(bool(request.get("board")))
    if op == "journal":
        return table.journal()
    if op == "new":
        return table.new(bool(request.get("party")))
    if op == "undo":
        return table.undo()
    if op == "redo":
        return table.redo()
    return _unreadable(f"Opération inconnue : {str(op)[:40]!r}.")


def call(request_json):
    """One request, one answer, both JSON text. A request that is not a JSON object is
    refused like a bad command; only a real fault of this code answers ``internal``.
    The answer is ASCII JSON: a lone surrogate quoted from bad input cannot break it."""
    too_big = not isinstance(request_json, str) or len(request_json) > 3 * save.MAX_CHARS
    try:
        request = None if too_big else save.loads(request_json)
    except (ValueError, RecursionError):
        request = None
    if not isinstance(request, dict):
        return json.dumps(_unreadable("Requête illisible : un objet JSON est attendu."))
    try:
        answer = dispatch(request)
    except Exception as exc:  # the page shows it in French and keeps the encounter
        answer = {"ok": False, "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
    return json.dumps(answer)


sync.call = call
