"""Invariants of the engine under random play (Hypothesis), through the public contract.

Profiles: ``ci`` (default, quick) and ``long`` (``HYPOTHESIS_PROFILE=long``, ``make
test-long``): see docs/RELIABILITY.md for the figures.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import MALFORMED, options_for, sheets

import engine
from engine import link, save

INTERRUPTIONS = [a for a, x in engine.ACTIONS.items() if x.category == "interruption"]


def no_internal_error(result: dict[str, Any]) -> None:
    if not result["ok"]:
        assert set(result["error"]) >= {"code", "message"}
        assert result["error"]["code"] in engine.CODES
        assert "erreur interne" not in result["error"]["message"], result["error"]


class Fight(RuleBasedStateMachine):
    """Random fights: mostly legal moves read off the board, some illegal and malformed."""

    def __init__(self) -> None:
        super().__init__()
        self.state = engine.new_encounter()
        self.log: list[Any] = []
        self.rng = random.Random(0)
        # engine.view of the state, made once per state: the rules and invariants read it,
        # none changes it (json_round_trip_changes_nothing views a copy afresh).
        self.board = engine.view(self.state)

    def send(self, command: Any) -> dict[str, Any]:
        before = self.state
        snapshot = copy.deepcopy(before)
        board = self.board
        r = engine.apply(before, command, rng=self.rng)
        no_internal_error(r)
        assert before == snapshot, "apply changed its input"
        if not r["ok"]:
            assert r["state"] is before, "a refusal returned another state"
            return r
        after = engine.view(r["state"])
        self.check_step(board, after, r["command"])
        self.state, self.board = r["state"], after
        self.log.append(r["command"])
        return r

    def check_step(self, board: dict[str, Any], after: dict[str, Any], command: dict[str, Any]) -> None:
        if board["round"] == after["round"]:  # P.I. only fall within a round
            for cid, f in after["combatants"].items():
                old = board["combatants"].get(cid)
                if old is not None and old["in_round"] and f["in_round"]:
                    assert f["pi"] <= old["pi"], (cid, old["pi"], f["pi"])
        if command["type"] == "act":  # a phase action only at P.I. > 0 by the active fighter
            actor = board["combatants"][command["actor"]]
            assert actor["pi"] > 0 and command["actor"] in board["active"]

    @initialize(cast=st.lists(sheets(), min_size=2, max_size=5))
    def cast(self, cast: list[dict[str, Any]]) -> None:
        """Most fights start with a cast and a round under way."""
        for sheet in cast:
            self.send({"type": "add_combatant", "combatant": sheet})
        self.send({"type": "start_round"})

    @precondition(lambda self: len(self.state["combatants"]) < 6)
    @rule(sheet=sheets())
    def add(self, sheet: dict[str, Any]) -> None:
        self.send({"type": "add_combatant", "combatant": sheet})

    @precondition(lambda self: self.state["round_over"])
    @rule(data=st.data())
    def start_round(self, data: st.DataObject) -> None:
        board = self.board
        rolls = {c: data.draw(st.integers(1, 6)) for c, f in board["combatants"].items()
                 if not f["hors_combat"] and data.draw(st.booleans())}
        self.send({"type": "start_round", "rolls": rolls})

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        board = self.board
        if not board["active"]:
            return
        cid = data.draw(st.sampled_from(board["active"]))
        f = board["combatants"][cid]
        allowed = [a for a, x in f["actions"].items() if x["allowed"] and x["category"] != "interruption"]
        if not allowed:
            return
        action = data.draw(st.sampled_from(allowed))
        others = [c for c in board["combatants"] if c != cid]
        r = self.send({"type": "act", "actor": cid, "action": action, **options_for(action, f, others, data.draw)})
        assert r["ok"] or r["error"]["code"] in ("too_far", "not_allowed"), r["error"]

    @rule(data=st.data())
    def act_again(self, data: st.DataObject) -> None:
        """Phase actions are the heart of a fight: drawn twice as often."""
        self.act(data)

    @rule(data=st.data())
    def interrupt(self, data: st.DataObject) -> None:
        board = self.board
        if not board["combatants"]:
            return
        cid = data.draw(st.sampled_from(list(board["combatants"])))
        action = data.draw(st.sampled_from(INTERRUPTIONS))
        f = board["combatants"][cid]
        r = self.send({"type": "interrupt", "actor": cid, "action": action,
                       **options_for(action, f, [], data.draw)})
        verdict = f["actions"][action]
        assert r["ok"] == verdict["allowed"], (verdict, r.get("error"))
        if r["ok"]:
            taken = next(e for e in r["events"] if e["type"] == "action_taken")
            assert taken["pays"] in (verdict["pays"], "rien")

    @rule(data=st.data())
    def pass_or_end(self, data: st.DataObject) -> None:
        board = self.board
        if board["combatants"] and data.draw(st.integers(0, 4)) > 0:
            self.send({"type": "pass", "actor": data.draw(st.sampled_from(list(board["combatants"])))})
        else:
            self.send({"type": "end_round"})

    @rule(data=st.data())
    def gm_changes(self, data: st.DataObject) -> None:
        board = self.board
        if not board["combatants"]:
            return
        cid = data.draw(st.sampled_from(list(board["combatants"])))
        change = data.draw(st.sampled_from([
            {"wounds": data.draw(st.integers(0, 4))}, {"hope": data.draw(st.integers(0, 2))},
            {"hors_combat": data.draw(st.booleans())}, {"engaged": False}, {"engaged": True},
        ]))
        self.send({"type": "update_combatant", "id": cid, "changes": change})

    @rule(data=st.data())
    def conditions(self, data: st.DataObject) -> None:
        """D25: a condition put on until removed, this round or a round to come, or taken off."""
        board = self.board
        if not board["combatants"]:
            return
        cid = data.draw(st.sampled_from(list(board["combatants"])))
        text = data.draw(st.sampled_from(["étourdi", "saigne", "aveuglé"]))
        if data.draw(st.booleans()):
            self.send({"type": "remove_condition", "id": cid, "condition": text})
            return
        first = board["round"] + 1 if board["round_over"] else board["round"]
        until = data.draw(st.sampled_from([None, first - 1, first, first + 1]))
        r = self.send({"type": "add_condition", "id": cid, "condition": text, **({} if until is None else {"until": until})})
        assert r["ok"] == (until is None or until >= first), r.get("error")

    @precondition(lambda self: len(self.log) > 0)
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        board = self.board
        if board["combatants"] and data.draw(st.integers(0, 9)) == 0:
            self.send({"type": "remove_combatant", "id": data.draw(st.sampled_from(list(board["combatants"])))})

    @rule(command=MALFORMED)
    def garbage(self, command: Any) -> None:
        self.send(command)

    @invariant()
    def hope_never_below_zero(self) -> None:
        for f in self.board["combatants"].values():
            assert f["hope"] >= 0

    @invariant()
    def no_condition_outlives_its_round(self) -> None:
        """D25: a condition whose round has ended is gone (ended with the round)."""
        board = self.board
        first = board["round"] + 1 if board["round_over"] else board["round"]
        for f in board["combatants"].values():
            assert all(c["until"] is None or c["until"] >= first for c in f["conditions"]), f["conditions"]

    @invariant()
    def every_verdict_is_what_the_rules_probe_says(self) -> None:
        """The board judges a fighter's eligibility for phase actions once for them all
        (engine/view.py, ``_verdicts``): each verdict is still the rules' own probe of it."""
        from engine.actions import ACTIONS
        from engine.codec import decode
        from engine.errors import Refusal
        from engine.initiative import ready
        from engine.rules import plan, turn_of

        board, enc = self.board, decode(self.state)
        for c in enc.combatants:
            turn = turn_of(enc, c, ready(enc))
            for action_id, verdict in board["combatants"][c.id]["actions"].items():
                try:
                    cost = plan(c, turn, ACTIONS[action_id], {}, probe=True).cost
                    assert verdict["allowed"] and verdict["cost"] == cost, (c.id, action_id, verdict)
                except Refusal as r:
                    said = (verdict["allowed"], verdict["code"], verdict["reason"])
                    assert said == (False, r.code, r.message), (c.id, action_id, verdict)

    @invariant()
    def json_round_trip_changes_nothing(self) -> None:
        again = json.loads(json.dumps(self.state))
        assert again == self.state
        assert engine.view(again) == self.board

    def teardown(self) -> None:
        r = engine.replay(self.log)
        assert r["ok"], r.get("error")
        assert r["state"] == self.state, "replaying the resolved log rebuilt another state"
        linked = save.parse(link.pack(self.log))  # a share link of the fight (engine/link.py)
        assert linked["ok"], linked
        assert engine.replay(linked["commands"])["state"] == self.state, "a share link rebuilt another state"


TestFight = Fight.TestCase


