"""The engine's side of the page: runs in a PyScript worker, owns the encounter.

JS calls ``sync.call(request_json)`` once per tap and gets JSON back; Python here never
touches the DOM. The encounter is its resolved command log: undo replays it without the
last command, redo applies the command taken back.
"""

import json
import os
import random

from pyscript import sync

import engine

random.seed(os.urandom(16))


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

    def load(self, log):
        result = engine.replay(log)
        if not result["ok"]:
            return {**self.answer(), "ok": False, "error": result["error"]}
        self.state, self.log, self.undone = result["state"], list(result["commands"]), []
        return self.answer()

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


def call(request_json):
    try:
        request = json.loads(request_json)
        op = request.get("op")
        if op == "apply":
            answer = table.apply(request.get("command"))
        elif op == "check":
            answer = table.check(request.get("command"))
        elif op == "load":
            answer = table.load(request.get("log"))
        elif op == "undo":
            answer = table.undo()
        elif op == "redo":
            answer = table.redo()
        else:
            answer = table.answer()
    except Exception as exc:  # the page shows it in French and keeps the encounter
        answer = {"ok": False, "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
    return json.dumps(answer, ensure_ascii=False)


sync.call = call
