"""The live table's seating under random play (Hypothesis), through the real ``Table``:
every request JSON in and JSON out by ``Table.call``, as the game master's page sends them
(engine/table.py ``hear``, ``phone``, ``host``; engine/seating.py decides).

Phones from a small pool of fingerprints join, go silent, are heard, lost and back, are
muted, freed and removed; they claim PJ (one held by a phone away is asked of the game
master), declare dice, ask to interrupt and play, each play numbered (``n``: the next one,
or replayed, or out of order); the game master plays the fight, answers on the table,
switches fights and reloads the page (a new ``Table``, the same save, the ``kept`` table).
Checked at every step (docs/LIVE-TABLE.md, « Table en direct »):

1. a PJ is held by at most one phone;
2. a PJ held by a phone away goes to another phone only by the game master's accept;
3. each phone has at most one waiting line;
4. a play is judged once: a number not above the last one heard on its connection is
   refused as ``replayed``; a line applied or refused never comes back, nor is applied;
5. no message to a phone names a fighter hidden from the players, nor, unless the game
   master shows them, a PNJ's P.I., initiative, die, wounds or Espoir (D26);
6. every play that waits ends told once (applied, or refused with its reason), unless its
   phone went away, was muted, removed or let go of its PJ (the line is then dropped); a
   play the game master undoes is told ``undone`` on the phone that plays that PJ;
7. every answer is JSON, and none is a fault (``internal``);

and a phone plays, declares and asks only for the PJ it holds (one on the players' board).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule
from strategies import options_for

import engine
from engine import seating as seat
from engine.players import PNJ_DETAILS
from engine.table import Table

#: The phones of the table: three certificates' fingerprints.
POOL = [hashlib.sha256(f"phone {n}".encode()).hexdigest() for n in range(3)]

INTERRUPTIONS = [a for a, x in engine.ACTIONS.items() if x.category == "interruption"]
PHASE_ACTIONS = [a for a, x in engine.ACTIONS.items() if x.category != "interruption"]

#: How a waiting line ends: its phone lost, muted, removed, freed or letting go of its PJ,
#: « Refuser tout », another fight, mode off, « Appliquer » or « Refuser » (D27).
ENDINGS = ("lost", "mute", "remove", "free", "release", "refuse_all", "switch", "off", "apply", "refuse")

#: How a play waiting for the game master may end, told to its phone.
ENDS = ("gm_refused", "engine", "players_off", "fight_switched", "read_only")

SWORD = {"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee", "stowed": True}
BOW = {"id": "arc", "name": "Arc", "kind": "bow", "skill": "arc", "stowed": True}
SHIELD = {"id": "bouclier", "name": "Bouclier", "kind": "shield", "skill": "bouclier", "stowed": False}


def fighter(name: str, side: str, hidden: bool = False, bow: bool = False) -> dict[str, Any]:
    weapons = [SWORD, SHIELD] + ([BOW] if bow else [])
    return {"name": name, "side": side, "hope": 1, "hidden": hidden,
            "characteristics": {"melee": 8, "tir": 6, "derobee": 6, "lancer": 4},
            "skills": {"epee": 2, "arc": 2, "esquive": 2, "bouclier": 1, "course": 1},
            "weapons": weapons, "in_hand": ["arc"] if bow else ["epee", "bouclier"]}


def saved(cast: list[dict[str, Any]]) -> str:
    table = Table()
    for sheet in cast:
        assert table.apply({"type": "add_combatant", "combatant": sheet})["ok"]
    text: str = table.export(True)["text"]
    return text


#: Two fights: three PJ among PNJ, one PNJ hidden from the players (an ambush, D26); the
#: second puts a PNJ where the first has a PJ, so a claim kept across a switch names a PNJ.
FIGHTS = [
    saved([fighter("Aldric", "pj"), fighter("Brune", "pj", bow=True), fighter("Orque", "pnj"),
           fighter("Lyra", "pj"), fighter("Zorglub", "pnj", hidden=True), fighter("Gobelin", "pnj")]),
    saved([fighter("Ogre", "pnj"), fighter("Dorian", "pj"), fighter("Sournois", "pnj", hidden=True),
           fighter("Elsa", "pj", bow=True)]),
]


def strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value: its keys and its texts."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def cards(value: Any) -> Iterator[dict[str, Any]]:
    """Every object of a JSON value that names a fighter by ``id``."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value
        for v in value.values():
            yield from cards(v)
    elif isinstance(value, list):
        for v in value:
            yield from cards(v)


class LiveTable(RuleBasedStateMachine):
    """A random live table played through ``Table.call``."""

    def __init__(self) -> None:
        super().__init__()
        self.table = Table()
        self.fight = 0
        self.kept: Any = None
        self.pnj_details = False
        self.state: dict[str, str] = {}  # each phone's connection, as the engine should have it
        self.muted: dict[str, bool] = {}
        self.heard: dict[str, int] = {}  # the last play number accepted on each phone's connection
        self.ended: set[int] = set()  # the lines applied, refused or dropped
        self.last_line = 0
        self.secrets: dict[str, str] = {}  # the fighters hidden from the players: id, name
        self.were_pj: set[str] = set()  # the fighters that were PJ in this fight

    # --- one request, and what every step checks ---------------------------------------------
    @property
    def seating(self) -> seat.Seating:
        return self.table._live.seating  # the state the checks read

    def board(self) -> dict[str, Any]:
        shown: dict[str, Any] = self.table.show()["board"]
        return shown

    def players_board(self) -> dict[str, Any]:
        shown: dict[str, Any] = self.table.show(players=True, pnj_details=self.pnj_details)["board"]
        return shown

    def call(self, op: str, _step: dict[str, Any] | None = None, **args: Any) -> dict[str, Any]:
        """``Table.call`` with ``op`` and ``args``, then every invariant over the step.
        ``_step``: what the step was (``hear``: the phone that spoke; ``host``: the tap)."""
        before = self.seating
        text = self.table.call(json.dumps({"op": op, **args}))
        answer: dict[str, Any] = json.loads(text)  # 7: JSON
        if not answer["ok"]:  # 7: a refusal, never a fault
            assert answer["error"]["code"] in engine.CODES and answer["error"]["code"] != "internal", answer["error"]
        if op in ("hear", "phone", "host"):
            # The table's own operations never refuse a well-formed request, but for a
            # player's play the game master applies and the engine then refuses.
            assert answer["ok"] or op == "host", answer
        live = answer.get("live")
        told: list[list[Any]] = live["told"] if live else []
        if live:
            self.kept = live["kept"]
        self.check_secrets(answer, told)
        self.check_seating(before, self.seating, op, args, _step or {}, told, answer)
        return answer

    def check_secrets(self, answer: dict[str, Any], told: list[list[Any]]) -> None:
        """5: nothing of a hidden fighter, and no PNJ detail unless shown, to a phone."""
        board = self.board()
        for fid, f in board["combatants"].items():
            if f["hidden"]:
                self.secrets[fid] = f["name"]
            else:
                self.secrets.pop(fid, None)
        self.were_pj |= {fid for fid, f in board["combatants"].items() if f["side"] == "pj"}
        pnj = {fid for fid, f in board["combatants"].items() if f["side"] != "pj" and not f["hidden"]}
        live = answer.get("live") or {}
        # The players' board and journal come once in the answer (engine/live.py `_wire`).
        sent = [m for m in told if m[0] != seat.GM] + ([["shown", "shown", live["shown"]]] if live.get("shown") else [])
        sent += [["journal", "journal", {"entries": live["journal"]}]] if live.get("journal") else []
        for fp, kind, fields in sent:
            for word in strings(fields):
                for fid, name in self.secrets.items():
                    assert word != fid and name not in word, (fp, kind, fid, name, fields)
            if not self.pnj_details:
                # The journal tells what the players saw then: a PJ's die stays once it is a PNJ.
                for card in cards(fields):
                    if card["id"] in pnj and not (kind == "journal" and card["id"] in self.were_pj):
                        assert all(card.get(k) is None for k in PNJ_DETAILS), (fp, kind, card)

    def check_seating(self, before: seat.Seating, after: seat.Seating, op: str, args: dict[str, Any],
                      step: dict[str, Any], told: list[list[Any]], answer: dict[str, Any]) -> None:
        # 1. a PJ, one phone.
        claims = [p.claim for p in after.phones if p.claim is not None]
        assert len(claims) == len(set(claims)), after.phones
        # 3. one waiting line per phone.
        fps = [x.fp for x in after.lines]
        assert len(fps) == len(set(fps)), after.lines
        # A waiting line is its phone's play for the PJ it holds: one away, muted, removed or
        # let go of its PJ has none.
        for x in after.lines:
            holder = after.phone(x.fp)
            assert holder is not None and holder.state != "away" and not holder.muted, (x, holder)
            assert x.command["actor"] == holder.claim, (x, holder)
        # The engine's phones are the model's.
        assert {p.fp: p.state for p in after.phones} == self.state, (after.phones, self.state)
        assert {p.fp: p.muted for p in after.phones} == {fp: self.muted.get(fp, False) for fp in self.state}
        assert after.pnj_details == self.pnj_details
        # 2. a PJ held by a phone away changes phone by the game master's accept only.
        gave = op == "host" and args["do"].get("what") == "claim" and args["do"].get("yes") is True
        for p in before.phones:
            if p.claim is not None and p.state == "away":
                now = after.holder(p.claim)
                if now is not None and now.fp != p.fp:
                    assert gave and now.fp == args["do"]["fp"], (p, now, op, args)
        # A phone takes a PJ only while it follows (a claim, or the game master's accept of
        # one): a phone away keeps the PJ it held, and gets none (D27); a reload's phones are away.
        if not (op == "host" and args["do"].get("what") == "restore"):
            for p in after.phones:
                was = before.phone(p.fp)
                if p.claim is not None and (was is None or was.claim != p.claim):
                    assert p.open, (p, was, op, args)
        # 4. a line ended never comes back; lines are numbered anew.
        ids_before = {x.id for x in before.lines}
        for x in after.lines:
            assert x.id not in self.ended, (x, self.ended)
            if x.id not in ids_before:
                assert x.id > self.last_line, (x, self.last_line)
                self.last_line = x.id
        ids_after = {x.id for x in after.lines}
        self.ended |= ids_before - ids_after
        # A phone plays, declares and asks for the PJ it holds, a PJ on the players' board.
        mine = self.players_board()["mine"]
        for x in after.lines:
            if x.id not in ids_before:
                holder = after.phone(x.fp)
                assert holder is not None and x.command["actor"] == holder.claim in mine, (x, holder, list(mine))
        for r in set(after.requests) - set(before.requests):
            assert r in mine, (r, list(mine))
        for prop in set(after.proposals) - set(before.proposals):
            assert prop.fighter in mine, (prop, list(mine))
        command = answer.get("command")
        if isinstance(command, dict) and command.get("by_player") is True and op in ("hear", "host"):
            assert command["actor"] in mine, (command, list(mine))
        # What a phone is told goes to a phone of the table; a board, to one that follows,
        # numbered as the seating numbers its boards (a phone keeps only the newest).
        for fp, kind, fields in told:
            if fp != seat.GM:
                assert before.phone(fp) is not None or after.phone(fp) is not None, (fp, kind)
            if kind == "board":
                p = after.phone(fp)
                assert p is not None and p.open and fields["seq"] == after.seq, (fp, fields, after.seq)
        # 6. every play that waits ends told once.
        self.check_ends(before, after, op, args, step, told, answer)

    def check_ends(self, before: seat.Seating, after: seat.Seating, op: str, args: dict[str, Any],
                   step: dict[str, Any], told: list[list[Any]], answer: dict[str, Any]) -> None:
        def ends(fp: str) -> list[dict[str, Any]]:
            return [f for to, kind, f in told if to == fp and (
                (kind == "ok" and f.get("what") == "applied") or (kind == "refused" and f.get("reason") in ENDS))]

        speaker = step.get("hear")
        if speaker is not None:  # one answer to a player's message
            answers = [m for m in told if m[0] == speaker and m[1] in ("ok", "refused")]
            assert len(answers) <= 1, answers
            if answers and answers[0][1:] == ["ok", {"what": "waiting"}]:
                line = after.line_of(speaker)
                assert line is not None and line.id not in {x.id for x in before.lines}, (line, before.lines)
        waiting = {x.fp: x for x in before.lines}
        for p in [*before.phones, *after.phones]:
            fp = p.fp
            if fp == speaker:
                continue
            said = ends(fp)
            line = waiting.get(fp)
            if line is None:
                assert not said, (fp, said, op, args)
                continue
            if line.id in {x.id for x in after.lines}:
                assert not said, (fp, said, op, args)
                continue
            now, was = after.phone(fp), before.phone(fp)
            assert was is not None
            dropped = now is None or not now.open or now.muted or now.claim != was.claim
            assert len(said) == 1 or (dropped and not said), (fp, said, op, args, was, now)
            if said:
                reason = said[0].get("reason")
                do = args.get("do", {}) if op == "host" else {}
                expected = {"line": ("applied", "engine", "read_only") if do.get("yes") is True else ("gm_refused",),
                            "refuse_all": ("gm_refused",), "mode": ("players_off",),
                            "switched": ("fight_switched",)}.get(do.get("what"), ())
                # A play for a PJ no longer on the players' board (hidden, or gone with a
                # new fight) goes with the change, told as not applied.
                if line.command["actor"] not in self.players_board()["mine"]:
                    expected += ("gm_refused",)
                assert (reason or "applied") in expected, (reason, op, args)
        # A play the game master undid or did again: said on the phone that plays its PJ.
        for kind in ("undone", "redone"):
            command = answer.get(kind) if op in ("undo", "redo") else None
            players = []
            if isinstance(command, dict) and command.get("by_player") is True:
                players = [p.fp for p in after.phones if p.claim == command["actor"] and p.open]
            assert Counter(m[0] for m in told if m[1] == kind) == Counter(players), (kind, command, told)

    # --- the fight ---------------------------------------------------------------------------
    @initialize(first=st.sampled_from([0, 1]), seated=st.lists(st.sampled_from(POOL), unique=True, min_size=1, max_size=3))
    def open_fight(self, first: int, seated: list[str]) -> None:
        """A fight, and most often phones that follow it, each with the next PJ free."""
        self.fight = first
        self.call("load", text=FIGHTS[first])
        board = self.board()
        pj = [fid for fid, f in board["combatants"].items() if f["side"] == "pj"]
        for fp, fid in zip(seated, pj, strict=False):
            self.connection(fp, "open")
            self.hear(fp, {"t": "claim", "id": fid})
        self.call("apply", command={"type": "start_round", "rolls": {fid: 1 + n % 6 for n, fid in enumerate(board["combatants"])}})

    @rule(data=st.data())
    def start_round(self, data: st.DataObject) -> None:
        board = self.board()
        rolls = {c: data.draw(st.integers(1, 6)) for c, f in board["combatants"].items()
                 if not f["hors_combat"] and data.draw(st.booleans())}
        self.call("apply", command={"type": "start_round", "rolls": rolls})

    @rule(data=st.data())
    def gm_acts(self, data: st.DataObject) -> None:
        board = self.board()
        if not board["active"]:
            self.call("apply", command={"type": "end_round"})
            return
        actor = data.draw(st.sampled_from(board["active"]))
        f = board["combatants"][actor]
        allowed = [a for a, v in f["actions"].items() if v["allowed"] and v["category"] != "interruption"]
        if not allowed or data.draw(st.integers(0, 4)) == 0:
            self.call("apply", command={"type": "pass", "actor": actor})
            return
        action = data.draw(st.sampled_from(allowed))
        others = [c for c in board["combatants"] if c != actor]
        self.call("apply", command={"type": "act", "actor": actor, "action": action,
                                    **options_for(action, f, others, data.draw)})

    @rule(what=st.sampled_from(["undo", "undo", "redo", "end_round"]))
    def gm_history(self, what: str) -> None:
        if what == "end_round":
            self.call("apply", command={"type": "end_round"})
        else:
            self.call(what)

    @rule(data=st.data())
    def gm_changes_a_fighter(self, data: st.DataObject) -> None:
        """Hidden from the players, shown again (D26), or made a PJ or a PNJ."""
        board = self.board()
        if not board["combatants"]:
            return
        fid = data.draw(st.sampled_from(sorted(board["combatants"])))
        change = data.draw(st.sampled_from([{"hidden": True}, {"hidden": False}] * 3 + [{"side": "pj"}, {"side": "pnj"}]))
        self.call("apply", command={"type": "update_combatant", "id": fid, "changes": change})

    @rule(data=st.data())
    def switch_fights(self, data: st.DataObject) -> None:
        """Another fight opened (a save, or a new one with the party), then said to the table."""
        if data.draw(st.booleans()):
            self.fight = 1 - self.fight
            self.secrets, self.were_pj = {}, set()
            self.call("load", text=FIGHTS[self.fight])
        else:
            self.secrets, self.were_pj = {}, set()
            self.call("new", party=data.draw(st.sampled_from([True, True, False])))
        self.call("host", do={"what": "switched"})

    @rule()
    def reload(self) -> None:
        """The game master's page reloaded: a new table, the same fight, the kept table."""
        text = self.table.export(True)["text"]
        kept = self.kept
        self.table, self.state, self.muted, self.pnj_details = Table(), {}, {}, False
        self.ended, self.last_line = set(), 0  # a new page numbers its lines anew
        self.call("load", text=text)
        self.state = {p["fp"]: "away" for p in (kept or {}).get("players", [])}
        self.muted = {p["fp"]: p["muted"] for p in (kept or {}).get("players", [])}
        self.heard = dict.fromkeys(self.state, 0)
        self.pnj_details = (kept or {}).get("pnjDetails") is True
        self.call("host", do={"what": "restore", "kept": kept})

    # --- the phones --------------------------------------------------------------------------
    @rule(fp=st.sampled_from(POOL), state=st.sampled_from(["open", "open", "silent", "heard", "lost", "connecting"]))
    def connection(self, fp: str, state: str) -> None:
        if state == "open":
            self.state[fp] = "connected"
            self.heard[fp] = 0
        elif fp in self.state and state == "lost":
            self.state[fp] = "away"
        elif fp in self.state:
            self.state[fp] = {"silent": "silent", "heard": "connected", "connecting": "connecting"}[state]
        self.call("phone", fp=fp, state=state, at=1000, name=None)

    def hear(self, fp: str, message: dict[str, Any]) -> dict[str, Any]:
        """A player's message; a numbered play is judged once (4)."""
        opened = self.state.get(fp) in ("connected", "silent")
        before = self.seating
        answer = self.call("hear", {"hear": fp}, fp=fp, message=message)
        told = answer["live"]["told"]
        if not opened:
            assert told == [] and self.seating == before, told
            return answer
        if "n" in message:
            replayed = [m for m in told if m[0] == fp and m[1:] == ["refused", {"reason": "replayed"}]]
            if message["n"] <= self.heard[fp]:
                assert replayed and told == replayed, (message, self.heard[fp], told)
            else:
                assert not replayed, (message, self.heard[fp], told)
                self.heard[fp] = message["n"]
        return answer

    def number(self, fp: str, data: st.DataObject) -> int:
        last = self.heard.get(fp, 0)
        return data.draw(st.sampled_from([last + 1, last + 1, last + 1, last + 2, last, max(0, last - 1), 1]))

    @rule(fp=st.sampled_from(POOL), data=st.data())
    def claim(self, fp: str, data: st.DataObject) -> None:
        board = self.board()
        pj = [fid for fid, f in board["combatants"].items() if f["side"] == "pj"]
        pj = data.draw(st.sampled_from([None, *pj, *pj, *board["combatants"], "c1", "c2", "c4"]))
        self.hear(fp, {"t": "claim", "id": pj})

    def player(self, data: st.DataObject) -> str:
        """Most often a phone that follows with a PJ; else any phone of the pool."""
        playing = [p.fp for p in self.seating.phones if p.claim is not None and p.open]
        return data.draw(st.sampled_from(playing if playing and data.draw(st.integers(0, 4)) else POOL))

    @rule(data=st.data(), die=st.integers(1, 6), weapon=st.sampled_from([None, "epee", "arc", "absent"]))
    def declare(self, data: st.DataObject, die: int, weapon: str | None) -> None:
        self.hear(self.player(data), {"t": "declare", "die": die, **({} if weapon == "absent" else {"weapon": weapon})})

    @rule(data=st.data())
    def ask_to_interrupt(self, data: st.DataObject) -> None:
        self.hear(self.player(data), {"t": "interrupt"})

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Half of the time, a play the engine allows (:meth:`allowed_play`)."""
        if data.draw(st.booleans()) and self.allowed_play(data):
            return
        fp = self.player(data)
        board = self.board()
        p = self.seating.phone(fp)
        pj = p.claim if p is not None and p.claim in board["combatants"] else None
        kind = data.draw(st.sampled_from(["act", "act", "interrupt", "pass", "pass"]))
        message: dict[str, Any] = {"t": kind, "n": self.number(fp, data)}
        if kind != "pass":
            f = board["combatants"][pj] if pj else None
            allowed = [a for a, v in (f["actions"] if f else {}).items() if v["allowed"]
                       and (v["category"] == "interruption") == (kind == "interrupt")]
            pool = allowed if allowed and data.draw(st.integers(0, 3)) else INTERRUPTIONS if kind == "interrupt" else PHASE_ACTIONS
            action = data.draw(st.sampled_from(pool))
            others = [c for c in board["combatants"] if c != pj]
            options = options_for(action, f, others, data.draw) if f else {}
            message.update(action=action, options=options)
        self.hear(fp, message)

    @rule(data=st.data())
    def play_again(self, data: st.DataObject) -> None:
        """Plays are the heart of the table: drawn twice as often, this time one the engine
        allows when there is one."""
        if not self.allowed_play(data):
            self.play(data)

    @precondition(lambda self: any(p.open and not p.muted and p.claim is not None for p in self.seating.phones))
    @rule(data=st.data())
    def play_allowed(self, data: st.DataObject) -> None:
        self.allowed_play(data)

    def allowed_play(self, data: st.DataObject) -> bool:
        """A player plays what the engine allows their PJ now: one of the actions or
        interruptions its board allows (``mine``), or a pass; most often in mode confirm, so
        that plays wait for the game master and meet every way a waiting line ends (6): the
        random plays below are mostly refused, and a line then rarely waits. Whether a
        phone played."""
        mine = self.players_board()["mine"]
        phones = [p.fp for p in self.seating.phones if p.open and not p.muted and p.claim in mine]
        if not phones:
            return False
        fp = data.draw(st.sampled_from(phones))
        if self.seating.mode == "off" or (self.seating.mode == "auto" and not data.draw(st.booleans())):
            self.mode("confirm")
        pj = self.seating.phone(fp).claim  # type: ignore[union-attr]
        plays = [(v["category"], a) for a, v in mine[pj]["actions"].items() if v["allowed"]]
        passes = self.table.check({"type": "pass", "actor": pj, "by_player": True})["ok"]
        if not plays and not passes:
            return False
        category, action = data.draw(st.sampled_from(plays + [("pass", None)] * passes))
        message: dict[str, Any] = {"t": "pass", "n": self.heard[fp] + 1}
        if action is not None:
            shown = self.players_board()["combatants"]
            others = [c for c in shown if c != pj]
            message.update(t="interrupt" if category == "interruption" else "act", action=action,
                           options=options_for(action, self.board()["combatants"][pj], others, data.draw))
        answer = self.hear(fp, message)
        if [fp, "ok", {"what": "waiting"}] in answer["live"]["told"]:
            event("a play waits")
            if not data.draw(st.booleans()):  # the ways a line ends, met at once half of the time
                self.end_a_line(data, data.draw(st.sampled_from(ENDINGS)))
        return True

    # --- the game master's taps on the table -------------------------------------------------
    @precondition(lambda self: bool(self.seating.lines) or bool(self.ended))
    @rule(data=st.data(), yes=st.booleans(), writer=st.sampled_from([True, True, True, False]))
    def line(self, data: st.DataObject, yes: bool, writer: bool) -> None:
        ids = [x.id for x in self.seating.lines]
        old = sorted(self.ended)
        line_id = data.draw(st.sampled_from(ids) if ids and (not old or data.draw(st.integers(0, 3))) else st.sampled_from(old))
        answer = self.call("host", do={"what": "line", "id": line_id, "yes": yes}, writer=writer)
        if line_id in old:  # 4: a line ended is never applied again: the fight does not change
            assert "seq" not in answer and answer["live"]["told"] == [], answer

    @precondition(lambda self: bool(self.seating.lines))
    @rule(data=st.data(), how=st.sampled_from(ENDINGS))
    def end_a_line(self, data: st.DataObject, how: str) -> None:
        """A waiting line meets one of the ways it ends (6), each by the rule that does it:
        at random they rarely meet a line while it waits."""
        fp = data.draw(st.sampled_from([x.fp for x in self.seating.lines]))
        line = self.seating.line_of(fp)
        assert line is not None
        if how == "lost":
            self.connection(fp, "lost")
        elif how in ("mute", "remove", "free", "refuse_all"):
            self.tap_a_phone(fp, how)
        elif how == "release":
            self.hear(fp, {"t": "claim", "id": None})
        elif how == "switch":
            self.switch_fights(data)
        elif how == "off":
            self.mode("off")
        else:
            self.call("host", do={"what": "line", "id": line.id, "yes": how == "apply"})

    @rule(fp=st.sampled_from(POOL), yes=st.booleans())
    def answer_claim(self, fp: str, yes: bool) -> None:
        self.call("host", do={"what": "claim", "fp": fp, "yes": yes})

    @precondition(lambda self: bool(self.seating.requests))
    @rule(data=st.data(), yes=st.booleans())
    def answer_request(self, data: st.DataObject, yes: bool) -> None:
        self.call("host", do={"what": "request", "id": data.draw(st.sampled_from(self.seating.requests)), "yes": yes})

    @rule(fp=st.sampled_from(POOL), what=st.sampled_from(["refuse_all", "free", "mute", "unmute", "remove"]))
    def tap_a_phone(self, fp: str, what: str) -> None:
        if what in ("mute", "unmute"):
            if fp in self.state:
                self.muted[fp] = what == "mute"
            self.call("host", do={"what": "mute", "fp": fp, "on": what == "mute"})
            return
        if what == "remove":
            self.state.pop(fp, None)
            self.muted.pop(fp, None)
        self.call("host", do={"what": what, "fp": fp})

    @rule(mode=st.sampled_from(seat.MODES))
    def mode(self, mode: str) -> None:
        self.call("host", do={"what": "mode", "mode": mode})

    @rule(on=st.booleans())
    def pnj_details_shown(self, on: bool) -> None:
        self.pnj_details = on
        self.call("host", do={"what": "pnj_details", "on": on})


TestLiveTable = LiveTable.TestCase

PHONE = "e" * 64


def test_a_phone_plays_only_a_pj_of_the_players_board() -> None:
    """A phone whose PJ the game master made a PNJ (or whose PJ's id names a PNJ in the
    fight opened since) declares, asks and plays nothing for it, nor is told of its attacks."""
    table = Table()

    def call(**request: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(table.call(json.dumps(request)))
        return answer

    for sheet in ({"name": "Aldric", "side": "pj"}, {"name": "Orque"}):
        call(op="apply", command={"type": "add_combatant", "combatant": sheet})
    call(op="phone", fp=PHONE, state="open", at=1)
    call(op="hear", fp=PHONE, message={"t": "claim", "id": "c1"})
    call(op="apply", command={"type": "update_combatant", "id": "c1", "changes": {"side": "pnj"}})
    call(op="apply", command={"type": "start_round", "rolls": {"c1": 1, "c2": 6}})
    for message in ({"t": "declare", "die": 4}, {"t": "interrupt"}, {"t": "pass", "n": 1}):
        told = call(op="hear", fp=PHONE, message=message)["live"]["told"]
        assert told == [[PHONE, "refused", {"reason": "no_claim"}]], (message, told)
    assert call(op="host", do={"what": "mode", "mode": "auto"})["ok"]
    attack = call(op="apply", command={"type": "act", "actor": "c2", "action": "attaque_melee", "target": "c1"})
    assert attack["ok"] and [m for m in attack["live"]["told"] if m[1] == "attacked"] == []
    answer = call(op="hear", fp=PHONE, message={"t": "interrupt", "action": "parer", "n": 2})
    assert answer["live"]["told"] == [[PHONE, "refused", {"reason": "no_claim"}]]
    assert table.show()["undo"] == attack["undo"]
