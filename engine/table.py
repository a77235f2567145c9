"""The table session: the fight on the game master's phone, with its history.

A :class:`Table` holds the encounter, its resolved command log and the commands taken
back by undo. Each call returns a JSON-shaped answer that says everything the page must
show and keep: the board, how many commands can be undone and redone, and, whenever the
fight changed, what to write (engine/save.py: one format for the autosave, files and
links). The page keeps no copy of the log.

What to write costs what the change did, not the fight's length: each answer to a change
is numbered (``seq``, one more than the answer to the change before it) and carries
either the whole ``save`` text (a fight opened or made, and whenever the page may not
hold the fight before: after :meth:`revert`, or when it asks, :meth:`whole`), or its
``log``: how the save text of the change before becomes this one
(:func:`engine.save.follow`: the commands kept, those added, the board painted). The page
keeps the last whole text and the changes after it (web/infra/open-fight.js), and
composes them into exactly the save text of the fight.

>>> table = Table()
>>> first = table.new()
>>> a = table.apply({"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}})
>>> a["ok"], a["undo"], a["redo"], list(a["board"]["combatants"])
(True, 1, 0, ['c1'])
>>> first["seq"], a["seq"], a["log"]["from"], "save" in a, "log" in table.check({"type": "end_round"})
(1, 2, 0, False, False)
>>> u = table.undo()
>>> u["seq"], u["log"]["from"], u["log"]["add"]
(3, 0, '')
>>> save.follow(first["save"], [a["log"], u["log"]]) == table.export(True)["text"]
True
>>> table.undo()["board"]["combatants"], table.redo()["board"]["order"]
({}, ['c1'])
>>> table.apply({"type": "pass", "actor": "c9"})["error"]["code"]
'unknown_combatant'

Undo replays the log without its last command (RULES.md: ``replay``); redo applies the
command taken back. A new command clears what could be redone.

Checkpoints keep that cost from growing with the fight: every :data:`CHECKPOINT_EVERY`
commands the table keeps the encounter reached (a frozen value, engine/model.py, that
shares every unchanged fighter with the encounters before and after it). Undo starts
from the last checkpoint before the command it takes back and replays at most
``CHECKPOINT_EVERY - 1`` commands, without encoding their events; redo applies one
command. Each command's text is written once, when the command is accepted
(:class:`engine.save.Written`), and a whole save text is assembled from them only when one
is handed over.

>>> t = Table()
>>> answers = [t.apply({"type": "add_combatant", "combatant": {"name": f"F{n}", "side": "pnj"}})
...            for n in range(CHECKPOINT_EVERY + 3)]
>>> [n + 1 for n, a in enumerate(answers) if a.get("checkpoint")], t.undo()["undo"]
([50], 52)

The autosave may keep the last checkpoint beside the log (an answer's ``checkpoint``: the
text to keep, or ``None`` to drop it) so that a reload replays only what follows it:
``load(text, checkpoint)`` uses it only when it provably belongs to this log and this
engine: it names this engine's :data:`ENGINE` (a hash of the engine's own code,
so a checkpoint kept by another release, whose rules may differ, is never trusted) and its
hash seals that name, the log's first ``at`` commands and the state itself (a state edited
by hand does not match its seal). Otherwise the whole log is replayed: the log stays the
truth; files and links carry the log only. The checkpoints before it are rebuilt later, a few at a time
(``fill``, asked for by the page when idle), or at once by an undo that needs them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import save, values
from . import seating as seat
from .codec import combatant_sheet, decode, encode
from .decide import MAX_CONDITION, MAX_FIGHTERS
from .errors import Refusal
from .example import example_log
from .journal import Players, Steps, journal
from .labo import LABO_EVERY, LABO_ROUNDS
from .labo import replay as labo_replay
from .labo import rounds as labo_rounds
from .link import pack
from .live import JOURNAL_LAST, OPEN_INVITATIONS, Live
from .model import Encounter, Side
from .play import attempt, fold
from .players import players_attack, players_board
from .regles import DEFAUT, as_json, read_sets
from .regles import screen as rules_screen
from .sheet import LIMITS, MAX_NOTES
from .summary import summary
from .values import MAX_WEAPONS
from .view import ATTACKS, Boards
from .wire import Wire

Answer = dict[str, Any]

#: The operations a page may ask for by name (:meth:`Table.call`), with their arguments.
OPERATIONS = {
    "show": ("players", "pnj_details"),
    "apply": ("command",),
    "check": ("command",),
    "undo": (),
    "redo": (),
    "load": ("text", "checkpoint", "kept"),
    "fill": (),
    "inspect": ("text",),
    "export": ("board", "name"),
    "link": (),
    "journal": ("players", "pnj_details", "last"),
    "summary": (),
    "labo": ("regles", "rounds", "seed", "more"),
    "rule_sets": ("text",),
    "new": ("party", "restore"),
    "revert": (),
    "whole": (),
    "limits": (),
    "name": ("text",),
    "names": ("texts",),
    "example": ("lang",),
    "hear": ("fp", "message", "writer"),
    "phone": ("fp", "state", "at", "name"),
    "host": ("do", "writer"),
}

#: The operations that change the fight: their answers carry the live table's part too
#: (engine/live.py), while a phone follows or the players' view is on screen.
CHANGES = frozenset({"apply", "undo", "redo", "load", "new", "revert", "example"})

#: The longest text of rule sets read (a file of them, or a link's): 64 sets are far less.
MAX_RULE_SETS_CHARS = 200_000

#: The longest request read (a save, plus room for the JSON that quotes it).
MAX_REQUEST = 3 * save.MAX_CHARS

#: A checkpoint every this many commands: undo replays at most this many less one.
#: ``bench/engine_bench.py`` prints what it costs (undo and reload as the fight grows):
#: at 50, an undo replays 25 commands on average (about 2 ms in CPython) and a 10,000-
#: command fight keeps 201 encounters, which share their unchanged fighters.
CHECKPOINT_EVERY = 50

#: The turn's key right after a load: no turn yet seen by this table, never equal to one.
_LOADED = object()

#: How far back an answer's ``used`` looks for each fighter's last action (a bound on
#: the work of every answer, whatever the length of the fight).
USED_WINDOW = 400

#: The turn clock's limit, in seconds, the game master may set (``host`` ``clock``).
MIN_CLOCK, MAX_CLOCK = 10, 3600

#: How many missing checkpoints one ``fill`` rebuilds (each replays CHECKPOINT_EVERY commands).
FILL_MARKS = 8


def _fingerprint() -> str:
    """This engine's version, as a checkpoint names it: a hash of the engine's own code (its
    modules, by name and content), computed once when the engine is imported. Any change of
    a rule, of the codec or of the replay gives another one."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


#: The engine's version a checkpoint must name to be trusted (:func:`_fingerprint`).
ENGINE = _fingerprint()


def _seal(texts: list[str], state: object) -> str:
    """The hash that ties a checkpoint to this engine, to the log before it and to the
    state it holds (its JSON with sorted keys: the same however it was written).

    >>> _seal(["{}"], {"a": 1}) == _seal(["{}"], {"a": 1}) != _seal(["{}"], {"a": 2})
    True
    """
    body = json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256("\n".join([ENGINE, ",".join(texts), body]).encode("utf-8", "surrogatepass")).hexdigest()


class Table:
    """The fight at the table: an encounter, its resolved log, what undo took back."""

    def __init__(self, rng: random.Random | None = None, every: int = CHECKPOINT_EVERY) -> None:
        self._rng = rng
        self._every = max(1, every)
        self._enc = Encounter()
        self._log: list[Any] = []
        self._texts = save.Written()  # each command of the log as the save writes it
        #: The answers to changes given so far (each answer's ``seq``); ``_low``: the fewest
        #: commands the log had since the last one (an undo lowers it), which the next one's
        #: ``log`` keeps; ``_whole``: the next one hands over the whole save text instead.
        self._seq = 0
        self._low = 0
        self._whole = False
        #: ``_marks[k]``: the encounter after the first ``k * every`` commands; always
        #: ``len(self._log) // every + 1`` of them.
        #: After a load from a saved checkpoint, the ones before it are ``None`` until rebuilt.
        self._marks: list[Encounter | None] = [Encounter()]
        self._sent = 0  # the checkpoint the page was last given (its index in _marks)
        self._undone: list[Any] = []
        #: The wall clock beside the log, never in it (the rules know no clock): the page
        #: gives its time with each call (``call``'s ``clock``, ms since 1970: ``_now``);
        #: ``_times.times[i]``, the second command ``i`` was accepted at (``None``: not known, a
        #: fight of an earlier release), kept in the save (engine/save.py ``Times``);
        #: ``_undone_times``, those of the commands undo took back, which redo gives back.
        self._now: int | None = None
        self._times = save.Times()
        self._undone_times: list[int | None] = []
        #: The turn's clock: who may act now (the round and the fighters ``active``) and
        #: since when (ms on the page's clock), restarted whenever that changes.
        self._turn: tuple[Any, int | None] = (None, None)
        #: The turn clock's limit, in seconds, as the game master's device set it (None:
        #: the clock is off); shown to the players with their board (engine/live.py).
        self.clock_limit: int | None = None
        #: The last commands pushed, each with the encounter before it (at most ``every``):
        #: an undo takes that encounter back instead of replaying from a checkpoint.
        self._steps: list[tuple[Any, Encounter]] = []
        self._boards = Boards()  # the board drawn from the last one's fighters (engine/view.py)
        self._wire = Wire()  # the board's verdicts written once each in the answer's text (engine/wire.py)
        #: The journal's steps replayed, kept: the players' journal that goes with every
        #: board replays the same last commands again (engine/journal.py).
        self._replayed = Steps()
        self._before: tuple[Any, ...] | None = None  # the fight before the last load or new, for revert
        #: Told ``pulse(done, total)`` as a long replay goes on (every CHECKPOINT_EVERY
        #: commands): the worker says it is alive and how far it is (web/boot/bridge.py).
        self.pulse: Callable[[int, int], None] | None = None
        self._live = Live()  # the live table's seating (engine/seating.py)
        #: The lab's random rounds under way (engine/labo.py), played a part per call.
        self._labo: Any = None

    def _beat(self, done: int, total: int) -> None:
        if self.pulse is not None:
            self.pulse(done, total)

    # --- the log and its checkpoints ------------------------------------------------------
    def _push(self, command: Any, after: Encounter, line: str, at: int | None = None) -> None:
        """``command`` accepted, ``after`` the encounter it gave, ``line`` the command as
        the save writes it, ``at`` the second it was accepted at (None: not known)."""
        self._steps.append((command, self._enc))
        del self._steps[:-self._every]
        self._enc, self._before = after, None
        self._log.append(command)
        self._times.append(at)
        self._texts.append(line)
        if len(self._log) % self._every == 0:
            self._marks.append(after)

    def _mark(self, k: int) -> Encounter:
        """Checkpoint ``k``, rebuilt first (with the missing ones before it) if missing."""
        j = k
        while self._marks[j] is None:
            j -= 1
        enc = self._marks[j]
        assert enc is not None  # _marks[0] is never missing
        for m in range(j + 1, k + 1):
            enc, result = fold(self._log[(m - 1) * self._every:m * self._every], self._rng, start=enc,
                               with_events=False)
            assert result["ok"], result  # a prefix of an accepted log is accepted
            self._marks[m] = enc
            self._beat(m - j, k - j)
        return enc

    def _pop(self) -> Any:
        """The last command taken off the log; the encounter the one before it was, when
        this table pushed that command, or else rebuilt from the last checkpoint before it."""
        command = self._log.pop()
        self._times.pop()
        self._texts.pop()
        self._low = min(self._low, len(self._log))
        self._before = None
        del self._marks[len(self._log) // self._every + 1:]
        if self._steps and self._steps[-1][0] is command:
            self._enc = self._steps.pop()[1]
            return command
        self._steps = []
        since = self._log[(len(self._marks) - 1) * self._every:]
        enc, result = fold(since, self._rng, start=self._mark(len(self._marks) - 1), with_events=False)
        assert result["ok"], result  # a prefix of an accepted log is accepted
        self._enc = enc
        return command

    def _restored(self, texts: list[str], checkpoint: object) -> tuple[int, Encounter] | None:
        """The saved checkpoint (``at``, encounter) if it belongs to this log, else None:
        an unreadable or foreign one (not JSON, another log, engine or state than its seal
        says, a state the codec refuses) is ignored, the log replayed. Any other exception
        is a fault of the engine's code: raised, answered as one (``internal``)."""
        try:
            data = save.loads(checkpoint) if isinstance(checkpoint, str) and len(checkpoint) <= save.MAX_CHARS else None
            if not isinstance(data, dict):
                return None
            at = data.get("at")
            if not isinstance(at, int) or at <= 0 or at % self._every or at > len(texts):
                return None
            if data.get("engine") != ENGINE or data.get("hash") != _seal(texts[:at], data.get("state")):
                return None
            return at, decode(data.get("state"))
        except Refusal:  # unreadable (bad JSON, a state decode refuses): ignored, the log is replayed
            return None

    def _rebuild(self, commands: list[Any], checkpoint: object = None, times: list[int | None] | None = None) -> None:
        """Replace the log by ``commands``, replayed from an empty fight (or from a saved
        ``checkpoint`` of its first commands) with checkpoints on the way; nothing to redo.
        Refused (a command the rules refuse: ``bad_log``; a save that would grow past the
        limit once the dice are written in: ``too_big``, said as soon as it does rather than
        after the whole replay), nothing changes."""
        texts = [save.command_text(c) for c in commands]
        restored = self._restored(texts, checkpoint) if checkpoint is not None else None
        at, enc = restored if restored is not None else (0, Encounter())
        marks: list[Encounter | None] = [Encounter(), *[None] * (at // self._every - 1)] + ([enc] if at else [])
        log = list(commands[:at])
        size = sum(len(x) for x in texts[:at])
        for first in range(at, len(commands), self._every):
            enc, result = fold(commands[first:first + self._every], self._rng, start=enc, with_events=False)
            if not result["ok"]:
                raise save.bad_log(first + result["error"]["index"], result["error"])
            log.extend(result["commands"])
            size += sum(len(save.command_text(c)) for c in result["commands"])
            if size > save.MAX_CHARS:
                raise save.too_big(size)
            if len(log) % self._every == 0:
                marks.append(enc)
            self._beat(len(log), len(commands))
        self._enc, self._log, self._marks, self._undone, self._steps = enc, log, marks, [], []
        self._times = save.Times(times if times is not None and len(times) == len(log) else [None] * len(log))
        self._undone_times = []
        self._texts = save.Written(texts[:at] + [save.command_text(c) for c in log[at:]])  # as resolved
        self._sent = len(marks) - 1 if restored is not None and len(marks) - 1 == at // self._every else -1
        # The turn's clock after a load (a reload, a tab that follows, a fight opened): the
        # turn went on since the last command's time, when the save keeps it.
        last = self._times.times[-1] if self._times.times else None
        self._turn = (_LOADED, last * 1000 if last is not None else None)

    def _checkpoint(self) -> str | None:
        """The last checkpoint as the autosave keeps it (None: none yet)."""
        last = len(self._marks) - 1
        if last == 0:
            return None
        at = last * self._every
        state = encode(self._mark(last))
        return json.dumps({"at": at, "engine": ENGINE, "hash": _seal(self._texts.texts[:at], state), "state": state},
                          ensure_ascii=False, separators=(",", ":"))

    # --- what every answer says -----------------------------------------------------------
    def _answer(self, changed: bool = False, text: str | None = None, shown: dict[str, Any] | None = None,
                painted: str | None = None, **extra: Any) -> Answer:
        """``shown``: the board of the fight now, when the caller has just made it (and
        ``painted``: its part a save keeps, written). ``text``: the whole save text, when
        the caller has just made it: handed over. A change is said by its ``log`` unless
        the whole text is handed over (``text``, or ``_whole``)."""
        used, attackers = self._recent()
        out: Answer = {"ok": True, "board": self._boards.board(self._enc) if shown is None else shown, "undo": len(self._log),
                       "redo": len(self._undone), "last": self._log[-1] if self._log else None,
                       "next": self._undone[-1] if self._undone else None, "used": used, "attackers": attackers,
                       "gone": self._gone()}
        came = self._clock(out["board"])
        out["turn"] = self.turn()
        if came and changed and "command" in extra:
            out["cue"] = came
        if changed:
            self._seq += 1
            out["seq"] = self._seq
            if text is None:
                painted = painted if painted is not None else save.painted_text(out["board"], self._times.text())
                if self._whole:
                    text = self._texts.text(painted)
                else:
                    out["log"] = self._texts.change(self._low, painted)
            if text is not None:
                out["save"] = text
            self._low, self._whole = len(self._log), False
            if self._sent != len(self._marks) - 1:  # a new last checkpoint: the autosave keeps it
                self._sent = len(self._marks) - 1
                out["checkpoint"] = self._checkpoint()
        out.update(extra)
        return out

    def _clock(self, board: dict[str, Any]) -> str | None:
        """The turn's clock after an answer whose board is ``board``: restarted at the
        page's time when who may act now changed (a new round, an action or a pass that
        gave the turn to another, an undo); after a load, at the last command's time when
        the save keeps it (the turn went on while the page was away). ``"pj_turn"`` when it changed to a turn a PJ
        holds (the game master's device may sound or vibrate: web/infra/cue.js), else None.

        >>> t = Table()
        >>> for sheet in ({"name": "Aldric", "side": "pj"}, {"name": "Orque"}):
        ...     _ = t.apply({"type": "add_combatant", "combatant": sheet})
        >>> t._now = 1_000
        >>> a = t.apply({"type": "start_round", "rolls": {"c1": 6, "c2": 3}})
        >>> a["cue"], a["turn"]
        ('pj_turn', {'id': 'c1', 'since': 1000, 'limit': None})
        >>> t._now = 9_000
        >>> b = t.apply({"type": "act", "actor": "c1", "action": "observer"})
        >>> "cue" in b, b["turn"]["id"], b["turn"]["since"]
        (False, 'c2', 9000)
        """
        active = tuple(board.get("active") or ())
        key = (board.get("round"), board.get("round_over"), active) if active and not board.get("round_over") else None
        if key == self._turn[0]:
            return None
        loaded = self._turn[0] is _LOADED and self._turn[1] is not None
        self._turn = (key, (self._turn[1] if loaded else self._now) if key is not None else None)
        fighters = board.get("combatants", {})
        if key is not None and any(fighters.get(fid, {}).get("side") == "pj" for fid in active):
            return "pj_turn"
        return None

    def turn(self) -> dict[str, Any]:
        """Who holds the turn now (the first of those who may act, R2.1), since when on the
        page's clock (ms; None: not known, or no turn) and the clock's limit in seconds as
        the game master set it (None: off). A table's clock, never a rule: it is not in the
        log and changes no P.I."""
        key, since = self._turn
        return {"id": key[2][0] if key else None, "since": since, "limit": self.clock_limit}

    def _gone(self) -> dict[str, str]:
        """The name of the fighter the last command removed, no longer on the board, by its
        id: undo's label names it as redo's does (« retrait de Bran » both ways).

        >>> t = Table()
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "Bran"}})
        >>> t.apply({"type": "remove_combatant", "id": "c1"})["gone"], t.undo()["gone"]
        ({'c1': 'Bran'}, {})
        """
        last = self._log[-1] if self._log else None
        if not isinstance(last, dict) or last.get("type") != "remove_combatant" or self._enc.combatant(last.get("id")):
            return {}
        if self._steps and self._steps[-1][0] is last:  # the fight before it, kept for undo
            c = self._steps[-1][1].combatant(last["id"])
        else:
            n = len(self._log) - 1
            k = n // self._every
            enc, result = fold(self._log[k * self._every:n], self._rng, start=self._mark(k), with_events=False)
            c = enc.combatant(last["id"]) if result["ok"] else None
        return {c.id: c.name} if c else {}

    def _recent(self) -> tuple[dict[str, str], dict[str, str]]:
        """Among the last :data:`USED_WINDOW` commands: the last action each fighter took
        (``act``, not an interruption), which the page offers again on its card; and who
        last attacked each fighter since the round started (an attack with a target,
        ``ATTACKS``), whom its interruption sheets name first as the attacker (``against``,
        D16).

        >>> t = Table()
        >>> for name in ("A", "B"):
        ...     _ = t.apply({"type": "add_combatant", "combatant": {"name": name}})
        >>> _ = t.apply({"type": "start_round", "rolls": {"c1": 6, "c2": 1}})
        >>> t.apply({"type": "act", "actor": "c1", "action": "observer"})["used"]
        {'c1': 'observer'}
        >>> t.apply({"type": "act", "actor": "c2", "action": "attaque_melee", "target": "c1"})["attackers"]
        {'c1': 'c2'}
        """
        used: dict[str, str] = {}
        attackers: dict[str, str] = {}
        this_round = True
        for command in reversed(self._log[-USED_WINDOW:]):
            kind = command.get("type")
            this_round = this_round and kind != "start_round"
            if kind != "act":
                continue
            used.setdefault(command["actor"], command["action"])
            if this_round and command["action"] in ATTACKS and "target" in command:
                attackers.setdefault(command["target"], command["actor"])
        return used, attackers

    def _refused(self, error: dict[str, Any]) -> Answer:
        """The fight as it is, and why ``error`` refused what was asked."""
        return {**self._answer(), "ok": False, "error": error}

    def _try(self, command: object, rng: random.Random | None = None,
             at: int | None = None) -> tuple[Encounter, dict[str, Any]]:
        """``attempt``, then the limits of a save (engine/save.py): a command that would
        make the fight too long to replay, or its save too big to read back, is refused
        before it is accepted. Accepted, the result carries the save ``text``, the
        command's ``line`` in it and the board ``shown`` after it."""
        if len(self._log) >= save.MAX_COMMANDS:  # before computing anything
            return self._enc, save.too_long(len(self._log) + 1, full=True).answer()
        after, result = attempt(self._enc, command, rng or self._rng)
        if not result["ok"]:
            return self._enc, result
        line, shown = save.command_text(result["command"]), self._boards.board(after)
        painted = save.painted_text(shown, self._times.text(at))
        try:
            save.checked_size(self._texts.size(painted, line), full=True)
        except Refusal as refusal:
            return self._enc, refusal.answer()
        return after, {**result, "line": line, "shown": shown, "painted": painted}

    def _commit(self, command: object, at: int | None = None) -> Answer:
        after, result = self._try(command, at=at)
        if not result["ok"]:
            return self._refused(result["error"])
        self._push(result["command"], after, result["line"], at)
        return self._answer(changed=True, shown=result["shown"], painted=result["painted"], command=result["command"],
                            events=result["events"])

    def _start(self, commands: list[Any], checkpoint: object = None, times: list[int | None] | None = None) -> Answer:
        """Another fight from a resolved log (a save opened, a new fight): nothing to redo,
        and no lab's rounds of the fight before. ``times``: its commands' (save.unpack_times)."""
        self._labo = None
        before = (self._enc, self._log, self._texts, self._marks, self._undone, self._sent, self._times, self._undone_times)
        try:
            self._rebuild(commands, checkpoint, times)
            shown = self._boards.board(self._enc)
            text = save.checked_texts(self._texts.texts, save.painted(shown, self._times.saved()))  # readable again
        except Refusal as refusal:
            (self._enc, self._log, self._texts, self._marks, self._undone, self._sent, self._times,
             self._undone_times) = before
            return self._refused(refusal.as_json())
        self._before = before
        return self._answer(changed=True, text=text, shown=shown)

    # --- the operations -------------------------------------------------------------------
    def show(self, players: object = False, pnj_details: object = False) -> Answer:
        """The fight as it is: nothing changes. ``players``: the board the players may see
        (engine/players.py: D26, D4; the PNJ's values only with ``pnj_details``), and the
        ``attack`` they are told of (R5.3), and nothing else of the game master's: not
        the history, whose commands may name a fighter hidden from them.

        >>> t = Table()
        >>> for sheet in ({"name": "Aldric", "side": "pj"}, {"name": "Gobelin"}):
        ...     _ = t.apply({"type": "add_combatant", "combatant": sheet})
        >>> _ = t.apply({"type": "update_combatant", "id": "c2", "changes": {"hidden": True}})
        >>> _ = t.apply({"type": "start_round", "rolls": {"c1": 1, "c2": 6}})
        >>> _ = t.apply({"type": "act", "actor": "c2", "action": "attaque_melee", "target": "c1"})
        >>> sorted(t.show(players=True))
        ['attack', 'board', 'ok']
        >>> t.show(players=True)["board"]["order"], t.show(players=True)["attack"]
        (['c1'], None)
        """
        if players is not True:
            return self._answer()
        shown = players_board(self._boards.board(self._enc), pnj_details is True)
        return {"ok": True, "board": shown, "attack": players_attack(shown, self._log[-1] if self._log else None)}

    def apply(self, command: object) -> Answer:
        """A new command; accepted, what was undone can no longer be redone. It is kept
        with the second the page gave (``call``'s ``clock``), beside the log."""
        answer = self._commit(command, None if self._now is None else self._now // 1000)
        if answer["ok"]:
            self._undone = []
            self._undone_times = []
            answer["redo"] = 0
        return answer

    def check(self, command: object) -> Answer:
        """Would the engine accept ``command`` now (the limits of a save included)?
        Nothing changes, not even the table's dice: the dice a checked command leaves to
        the engine are thrown with a die of its own (no verdict depends on them). For a
        sheet (``add_combatant``, ``update_combatant``) and the rules (``set_rules``),
        ``fields`` lists every field it refuses, all at once (engine/sheet.py,
        engine/regles.py: their refusal carries them).

        >>> [e["field"] for e in Table().check({"type": "add_combatant", "combatant": {"name": "", "hope": -1}})["fields"]]
        ['name', 'hope']
        """
        _, result = self._try(command, random.Random())
        error = result.get("error")
        answer: Answer = {"ok": result["ok"], "error": error}
        if isinstance(command, dict) and command.get("type") in ("add_combatant", "update_combatant", "set_rules"):
            answer["fields"] = error.get("fields", []) if error else []
        return answer

    def limits(self) -> Answer:
        """The limits of a sheet and of a fight, the same numbers the checks use, for the
        page to put on its fields and to check what it sends before it sends it: a sheet's
        (``name``, ``value``, ``initiative_bonus``, ``weapons``), a fighter's ``notes``, a
        condition's words (``condition``, D25), the weapon ids a command lists (``items``),
        the fighters of a fight (``fighters``) and the copies of a model added at once
        (``copies``: ``add_copies``, as many as a fight holds), a save's commands and
        characters (``commands``, ``chars``: engine/save.py), the characters of a file,
        which may hold every fight (``file``), the fields of the group's rules, each
        with its range or choices, its default and its label (``regles``: engine/regles.py
        ``screen``), and the live table's invitations open at once (``invitations``:
        engine/live.py).

        >>> limits = Table().limits()["limits"]
        >>> limits["value"], limits["notes"], limits["fighters"], limits["commands"], limits["chars"], limits["items"]
        ({'low': 0, 'high': 999}, 120, 64, 12000, 2000000, 16)
        >>> limits["condition"], limits["copies"], limits["invitations"]
        (40, {'low': 1, 'high': 64}, 8)
        >>> [(f["name"], f["low"], f["high"]) for f in limits["regles"] if f["name"] == "cout_interruption"]
        [('cout_interruption', 0, 99)]
        """
        return {"ok": True, "limits": {**LIMITS, "notes": MAX_NOTES, "condition": MAX_CONDITION, "items": MAX_WEAPONS,
                                       "fighters": MAX_FIGHTERS, "copies": {"low": 1, "high": MAX_FIGHTERS},
                                       "commands": save.MAX_COMMANDS, "chars": save.MAX_CHARS, "file": save.MAX_FILE_CHARS,
                                       "regles": rules_screen(), "rule_sets": MAX_RULE_SETS_CHARS, "invitations": OPEN_INVITATIONS}}

    def name(self, text: object) -> Answer:
        r"""A fight's name as typed, judged as a fighter's is (engine/values.py ``name``):
        ``{"ok": True, "name": trimmed}``, or refused (a name that shows nothing, half a
        character, too long), naming the field ``name``.

        >>> Table().name(" Le pont ")["name"]
        'Le pont'
        >>> Table().name("\u200b\u00a0")["error"]["key"]
        'invisible'
        """
        try:
            return {"ok": True, "name": values.name(text, "name")}
        except Refusal as refusal:
            return refusal.answer()

    def names(self, texts: object) -> Answer:
        r"""The names of a list of fights from storage or a file, as the list keeps them:
        each trimmed, half characters made U+FFFD, cut to the longest name; ``None`` for one
        that is not text or shows nothing (the list then names the fight itself).

        >>> Table().names(["  Embuscade ", "\u200b", "\x00 ", 3, "Br\ud800"])["names"]
        ['Embuscade', None, None, None, 'Br\ufffd']
        """
        if not isinstance(texts, list) or len(texts) > save.MAX_COMMANDS:
            return Refusal("list", field="texts").answer()
        kept: list[str | None] = []
        for text in texts:
            cut = values.mend(text.strip())[:values.MAX_NAME].strip() if isinstance(text, str) else ""
            kept.append(cut if any(values.shows(char) for char in cut) else None)
        return {"ok": True, "names": kept}

    def undo(self) -> Answer:
        """Take back the last command: the log replayed without it."""
        if not self._log:
            return self._answer()
        at = self._times.times[-1]
        self._undone.append(self._pop())
        self._undone_times.append(at)  # redo gives it back
        return self._answer(changed=True, undone=self._undone[-1])

    def redo(self) -> Answer:
        """Apply again the last command taken back (``redone``: that command).

        >>> t = Table()
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "Aldric"}})
        >>> t.undo()["undone"]["type"], t.redo()["redone"]["type"]
        ('add_combatant', 'add_combatant')
        """
        if not self._undone:
            return self._answer()
        answer = self._commit(self._undone[-1], self._undone_times[-1])
        if answer["ok"]:
            self._undone.pop()
            self._undone_times.pop()
            answer["redo"] = len(self._undone)
            answer["redone"] = answer["command"]
        return answer

    def load(self, text: object, checkpoint: object = None, kept: object = False) -> Answer:
        """Replace the fight by a save (autosave, file or link), or by an empty fight for
        ``None``. Refused, nothing changes. ``checkpoint``: the one the autosave kept
        beside the log, used only if it belongs to this log. ``kept=True``: ``text`` is
        what the autosave holds (the page's start): when the save of the fight is that
        very text, the answer leaves it out, there being nothing to write again
        (the start sends the board once, not the board and a save text quoting it)."""
        if text is None:
            return self._start([])
        parsed = save.parse(text)
        if not parsed["ok"]:
            return self._refused(parsed["error"])
        answer = self._start(parsed["commands"], checkpoint, parsed["times"])
        if answer["ok"]:
            answer["summary"] = save.summary_of(self._enc)
            if kept is True and answer.get("save") == text:
                del answer["save"]
        return answer

    def fill(self) -> Answer:
        """Rebuild up to FILL_MARKS checkpoints missing after a load from a saved one (the
        page asks when idle): ``left``, how many are still missing. Nothing changes."""
        missing = [k for k, mark in enumerate(self._marks) if mark is None]
        for k in missing[:FILL_MARKS]:
            self._mark(k)
        return {"ok": True, "left": max(0, len(missing) - FILL_MARKS)}

    def inspect(self, text: object) -> Answer:
        """What a save holds, without opening it."""
        result = save.read(text, self._beat)
        return {"ok": result["ok"], "summary": result.get("summary"), "error": result.get("error")}

    def export(self, with_board: object = False, name: object = None) -> Answer:
        """The save text of the fight, for a file (with the board, ``with_board=True``) or
        a link (the log alone: shorter); with the fight's ``name``, the ``file`` name it
        gives its file (:func:`engine.save.file_name`). ``untouched``: no command in the
        fight, none undone either (a fight just made, that a link or a file opened after
        it may leave out of the list: web/infra/fight-list.js).

        >>> t = Table()
        >>> t.export(True, "L'embuscade du pont")["file"], t.export()["untouched"]
        ('riposte-l-embuscade-du-pont', True)
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "Bran"}})
        >>> _ = t.undo()
        >>> t.export()["untouched"]
        False
        """
        painted = save.painted(self._boards.board(self._enc), self._times.saved()) if with_board is True else None
        return {"ok": True, "text": save.dump_texts(self._texts.texts, painted), "file": save.file_name(name),
                "untouched": not self._log and not self._undone}

    def link(self) -> Answer:
        """The text of a share link: the log alone, compact (engine/link.py); the page
        deflates it. :meth:`load` and :meth:`inspect` read it back as a save.

        >>> Table().link()["text"]
        '["r1"]'
        """
        return {"ok": True, "text": pack(list(self._log))}

    def journal(self, players: object = False, pnj_details: object = False, last: object = None) -> Answer:
        """The journal of the fight, round by round (engine/journal.py). ``players``: what
        the live table's players may see of it, cut as their board is (D26: nothing about
        a fighter hidden from them; unless ``pnj_details``, no PNJ value their board hides:
        engine/journal.py ``Players``). ``last``: only the
        entries of the last commands, replayed from the encounter before them that undo keeps,
        else from the checkpoint before them, so that a long fight's last rounds come as fast
        as a short one's.

        >>> t = Table()
        >>> for name in ("A", "B"):
        ...     _ = t.apply({"type": "add_combatant", "combatant": {"name": name}})
        >>> _ = t.apply({"type": "update_combatant", "id": "c2", "changes": {"hidden": True}})
        >>> [e["name"] for e in t.journal()["entries"]], [e["name"] for e in t.journal(players=True)["entries"]]
        (['A', 'B'], ['A'])
        >>> [e["name"] for e in t.journal(last=1)["entries"]]
        []
        """
        count = len(self._log)
        shown = count if type(last) is not int or last < 0 else min(count, last)
        first = count - shown
        k = first // self._every
        seen = None
        if players is True:
            seen = Players(pnj_details is True, frozenset(c.id for c in self._enc.combatants if c.hidden))
        if shown and len(self._steps) >= shown and self._steps[-shown][0] is self._log[first]:
            # The encounter before the first of them, kept for undo: nothing replayed before it.
            entries = journal(self._log[first:], start=self._steps[-shown][1], players=seen, steps=self._replayed)
        else:
            entries = journal(self._log[k * self._every:], start=self._mark(k), skip=first - k * self._every, players=seen,
                              steps=self._replayed)
        return {"ok": True, "entries": entries}

    def summary(self) -> Answer:
        """The story of the fight in numbers (engine/summary.py), rebuilt from its whole log.

        >>> t = Table()
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "A"}})
        >>> _ = t.apply({"type": "start_round", "rolls": {"c1": 6}})
        >>> _ = t.apply({"type": "act", "actor": "c1", "action": "observer"})
        >>> t.summary()["summary"]["fighters"][0]["pi_spent"]
        5
        """
        return {"ok": True, "summary": summary(list(self._log), start=self._mark(0), times=self._times.times)}

    def labo(self, regles: object = None, rounds: object = None, seed: object = None, more: object = False) -> Answer:
        """The lab (engine/labo.py): the open fight under other rules, the fight unchanged.
        ``regles`` given: the log replayed under them (``replay``), and random rounds of its
        fighters under its rules and under them started (``rounds`` of them,
        :data:`~engine.labo.LABO_ROUNDS` by default,
        from ``seed``); each call plays :data:`~engine.labo.LABO_EVERY` rounds and says how
        far (``progress``: ``done``, ``total``); ``more: true`` plays the next part, until the
        answer's ``result`` is there (the comparison). A call without them, or a new one,
        drops the rounds under way: the page stops them by not asking for more. Refused
        (``bad_value``, each field in ``fields``) when the rules or the count are.

        >>> t = Table()
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "Aldric"}})
        >>> first = t.labo({"cout_simple": 4}, 150, 1)
        >>> first["replay"]["refused"], first["progress"], first["result"]
        (None, {'done': 100, 'total': 300}, None)
        >>> last = t.labo(more=True)
        >>> while last["result"] is None:
        ...     last = t.labo(more=True)
        >>> last["progress"], last["result"]["b"]["rounds"], t.labo(more=True)["error"]["key"]
        ({'done': 300, 'total': 300}, 150, 'labo_none')
        """
        if more is True:
            if self._labo is None:
                return {"ok": False, "error": Refusal("labo_none").as_json()}
        else:
            self._labo = None
            if regles is None:
                return {"ok": True}
            try:
                verdict = labo_replay(list(self._log), regles)
                self._labo = {"play": labo_rounds(list(self._log), regles, LABO_ROUNDS if rounds is None else rounds,
                                                  0 if seed is None else seed, LABO_EVERY), "replay": verdict}
            except Refusal as r:
                error = r.as_json()
                return {"ok": False, "error": error, "fields": r.fields or [r.field_json()]}
        answer: Answer = {"ok": True, "replay": self._labo["replay"], "result": None}
        try:
            done, total = next(self._labo["play"])
            answer["progress"] = {"done": done, "total": total}
            self._beat(done, total)
        except StopIteration as stop:
            answer["result"], answer["progress"] = stop.value, self._labo.get("progress")
            self._labo = None
            return answer
        self._labo["progress"] = answer["progress"]
        if done == total:  # the last part: its result at once
            try:
                next(self._labo["play"])
            except StopIteration as stop:
                answer["result"] = stop.value
                self._labo = None
        return answer

    def rule_sets(self, text: object) -> Answer:
        """The named rule sets a file or a link carries (« Importer des jeux de règles », a
        rule set's link), read by engine/regles.py ``read_sets``: ``{"ok": True, "sets":
        [{"name", "regles"}]}``, each set's rules whole (each field missing the book's); or
        refused, nothing kept: not such a text (``not_rule_sets``, ``not_json``), or every
        field of every set it refuses in ``fields`` (``set``: its index, ``name``: its name).

        >>> Table().rule_sets('{"app": "riposte", "name": "Maison", "regles": {"passer": false}}')["sets"][0]["regles"]["passer"]
        False
        >>> [(f["field"], f["name"]) for f in Table().rule_sets('{"app": "riposte", "name": "M", "regles": {"cout": 1}}')["fields"]]
        [('regles[0].regles.cout', 'M')]
        >>> Table().rule_sets('{"format": 3, "commands": []}')["error"]["key"]
        'not_rule_sets'
        """
        try:
            if not isinstance(text, str) or len(text) > MAX_RULE_SETS_CHARS:
                raise Refusal("not_rule_sets")
            sets = read_sets(save.loads(text))
        except Refusal as r:
            return {"ok": False, "error": r.as_json(), "fields": r.fields}
        return {"ok": True, "sets": [{"name": name, "regles": as_json(regles)} for name, regles in sets]}

    def new(self, party: object = False, restore: object = False) -> Answer:
        """A new fight; with ``party``, the PJ with their sheets (docs/TABLE.md, "A new
        fight with the party": the rules are silent). Their weapons in hand as their sheet
        gives them (the hands the form or ``add_combatant`` last set, not those the fight
        left: a thrown weapon is back, D19); standing, out of any round, no aim, charge,
        cover, arrow, engagement, note or condition. Wounds and Espoir as they are now
        (a campaign's next fight starts where the last one ended), or, with ``restore``, as
        each PJ joined this fight. The group's rules go on: those the next round would
        start with, when they are not RULES.md's (a ``set_rules`` first in the new log).

        >>> def after_a_throw() -> Table:  # Brune threw her javelin, spent a point d'Espoir, took 3 wounds
        ...     t = Table()
        ...     for command in ({"type": "add_combatant", "combatant": {"name": "Brune", "side": "pj", "hope": 2,
        ...                      "weapons": [{"id": "j", "name": "Javelot", "kind": "thrown", "skill": "j"}], "in_hand": ["j"]}},
        ...                     {"type": "start_round", "rolls": {"c1": 6}}, {"type": "act", "actor": "c1", "action": "lancer_arme"},
        ...                     {"type": "update_combatant", "id": "c1", "changes": {"hope": 1, "wounds": 3}}):
        ...         _ = t.apply(command)
        ...     return t
        >>> [(f["in_hand"], f["hope"], f["wounds"]) for f in after_a_throw().new(True)["board"]["combatants"].values()]
        [(['j'], 1, 3)]
        >>> [(f["in_hand"], f["hope"], f["wounds"]) for f in after_a_throw().new(True, True)["board"]["combatants"].values()]
        [(['j'], 2, 0)]
        """
        kept = self._sheets()
        regles = self._enc.regles_du_tour_suivant
        log: list[dict[str, Any]] = [] if regles == DEFAUT else [{"type": "set_rules", "regles": as_json(regles), "whole": True}]
        for c in self._enc.combatants:
            if party is not True or c.side is not Side.PJ:
                continue
            sheet = {k: x for k, x in combatant_sheet(c).items() if k != "entry"}
            was = kept.get(c.id, {})
            sheet["in_hand"] = [w for w in was.get("in_hand", sheet["in_hand"]) if c.weapon(w) is not None]
            if restore is True:
                sheet.update({k: was[k] for k in ("wounds", "hope") if k in was})
            log.append({"type": "add_combatant", "combatant": sheet})
        return self._start(log)

    def example(self, lang: object = "fr") -> Answer:
        """A new fight: the example a first visit offers (engine/example.py), its weapons
        and notes in ``lang``; like :meth:`new`, :meth:`revert` brings back the fight before.

        >>> t = Table()
        >>> a = t.example("en")
        >>> a["ok"], a["undo"], len(a["board"]["combatants"]), a["board"]["combatants"]["c3"]["notes"][:15]
        (True, 1, 5, 'Charges Bastien')
        """
        return self._start(example_log(lang))

    def _sheets(self) -> dict[str, dict[str, Any]]:
        """Read from the log, for each fighter: the hands its sheet gives it (``in_hand`` as
        ``add_combatant`` or ``update_combatant`` last set it) and the wounds and Espoir it
        joined the fight with (a copy: those of its original when it joined)."""
        sheets: dict[str, dict[str, Any]] = {}
        for command in self._log:
            kind = command.get("type")
            if kind == "add_combatant":
                sheet = command["combatant"]
                sheets[sheet["id"]] = {"in_hand": list(sheet.get("in_hand", [])), "wounds": sheet.get("wounds", 0),
                                       "hope": sheet.get("hope", 0)}
            elif kind == "update_combatant" and "in_hand" in command["changes"] and command["id"] in sheets:
                sheets[command["id"]]["in_hand"] = list(command["changes"]["in_hand"])
            elif kind == "duplicate_combatant" and command["id"] in sheets:
                for cid in command["ids"]:
                    sheets[cid] = dict(sheets[command["id"]])
            elif kind == "add_copies":
                sheet = command["combatant"]
                for cid in command["ids"]:
                    sheets[cid] = {"in_hand": list(sheet.get("in_hand", [])), "wounds": sheet.get("wounds", 0),
                                   "hope": sheet.get("hope", 0)}
            elif kind == "add_combatants":
                for sheet in command["combatants"]:
                    sheets[sheet["id"]] = {"in_hand": list(sheet.get("in_hand", [])), "wounds": sheet.get("wounds", 0),
                                           "hope": sheet.get("hope", 0)}
        return sheets

    def revert(self) -> Answer:
        """Back to the fight before the last ``load`` or ``new``, exactly as it was (its
        undo and redo too), when nothing has been played since: the page opened another
        fight but could not write it (web/infra/fight-list.js), so the fight its board
        shows stays the engine's. Refused (``nothing_to_revert``) otherwise; nothing changes.
        The page may then hold either fight: the next change hands over the whole save.

        >>> t = Table()
        >>> _ = t.apply({"type": "add_combatant", "combatant": {"name": "Aldric"}})
        >>> t.new()["undo"], t.revert()["undo"], t.revert()["error"]["key"]
        (0, 1, 'nothing_to_revert')
        """
        if self._before is None:
            return self._refused(Refusal("nothing_to_revert").as_json())
        (self._enc, self._log, self._texts, self._marks, self._undone, self._sent, self._times,
         self._undone_times) = self._before
        self._before, self._steps = None, []
        self._whole = True  # the page may hold either fight: the next change hands over the whole save
        return self._answer()

    def whole(self) -> Answer:
        """The fight's whole save text, handed over as an answer to a change (the next
        change's ``log`` follows from it): the page asks when what it keeps may not be
        the engine's fight (it followed another tab, or held its save back).

        >>> t = Table()
        >>> a = t.apply({"type": "add_combatant", "combatant": {"name": "Aldric"}})
        >>> w = t.whole()
        >>> w["seq"], w["save"] == t.export(True)["text"], t.undo()["log"]["from"]
        (2, True, 0)
        """
        return self._answer(changed=True, text=self.export(True)["text"])

    # --- the page's one entry point ---------------------------------------------------------
    def call(self, request_json: object, **extra: Any) -> str:
        """One request, one answer, both JSON text (web/boot/bridge.py passes them through);
        ``extra`` is added to the answer (what the worker knows: how Python started).

        A request that is not a JSON object naming a known operation is refused like a bad
        command; only a real fault of this code answers ``internal``. The answer is ASCII
        JSON: a lone surrogate quoted from bad input cannot break it. Its board carries each
        distinct verdict once (engine/wire.py), which the page puts back.

        >>> json.loads(Table().call('{"op": "undo"}'))["undo"]
        0
        >>> json.loads(Table().call('[1]'))["error"]["code"]
        'bad_command'
        """
        request = None
        if isinstance(request_json, str) and len(request_json) <= MAX_REQUEST:
            try:
                request = save.loads(request_json)
            except Refusal:
                request = None
        try:
            answer = self._wire.pack(self._dispatch(request), request.get("held") if isinstance(request, dict) else None)
        except Exception as exc:  # the page says so in the reader's language and keeps the fight
            answer = Refusal("internal", error=f"{type(exc).__name__}: {exc}"[:300]).answer()
        return json.dumps({**answer, **extra})

    def _dispatch(self, request: object) -> Answer:
        if not isinstance(request, dict):
            return self._refused(Refusal("bad_request").as_json())
        op = request.get("op")
        if not isinstance(op, str) or op not in OPERATIONS:
            return self._refused(Refusal("unknown_operation", got=values.shown(op)).as_json())
        clock = request.get("clock")
        self._now = clock if type(clock) is int and 0 <= clock < 10 ** 14 else None
        method = getattr(self, op)
        answer: Answer = method(*(request.get(name) for name in OPERATIONS[op]))
        if op in CHANGES and answer.get("ok") and "seq" in answer and self._live.on():
            self._after(answer)
        return answer

    # --- the live table (engine/live.py, engine/seating.py) -------------------------------
    def _fight(self) -> seat.Fight:
        return self._live.fight(self._boards.board(self._enc), self._log[-1] if self._log else None,
                                self._verdict, self._players_journal, {**self.turn(), "now": self._now})

    def _verdict(self, command: Any) -> Any:
        answer = self.check(command)
        return None if answer["ok"] else answer["error"]

    def _players_journal(self, pnj_details: bool) -> list[Any]:
        entries: list[Any] = self.journal(players=True, pnj_details=pnj_details, last=JOURNAL_LAST)["entries"]
        return entries

    def _after(self, answer: Answer, told: list[seat.Told] | None = None) -> Answer:
        """``answer`` changed the fight: its ``live`` part, from the same board."""
        fight = self._fight()
        hidden = [fid for fid, f in answer["board"]["combatants"].items() if f.get("hidden")]
        self._live.seating, more = seat.after_change(self._live.seating, fight, answer.get("undone"), answer.get("redone"), hidden)
        answer["live"] = self._live.answer(fight, answer["board"], [*(told or []), *more])
        return answer

    def _live_only(self, fight: seat.Fight, told: list[seat.Told], **more: Any) -> Answer:
        """An answer that changed the table, not the fight."""
        return {"ok": True, "live": self._live.answer(fight, self._boards.board(self._enc), told, **more)}

    def _play(self, line: seat.Line | None, told: list[seat.Told], writer: object, fight: seat.Fight) -> Answer:
        """A player's play to apply now (the game master's « Appliquer », or plays applied
        at once, D24): applied as the game master's own command, and its player told."""
        if line is None:
            return self._live_only(fight, told)
        if writer is False:  # another tab writes the fight (web/controllers/tabs.js)
            error = Refusal("read_only").as_json()
            return self._live_only(fight, [*told, *seat.applied(line, error)])
        answer = self.apply(dict(line.command))
        told = [*told, *seat.applied(line, None if answer["ok"] else answer["error"])]
        if answer["ok"]:
            return self._after(answer, told)
        answer["live"] = self._live.answer(fight, answer["board"], told)
        return answer

    def hear(self, fp: object, message: object, writer: object = True) -> Answer:
        """A player's message, from the phone ``fp`` (its shape checked on the wire):
        everything it changes, in one answer (engine/live.py)."""
        if not isinstance(fp, str) or not isinstance(message, dict):
            return self._refused(Refusal("bad_request").as_json())
        fight = self._fight()
        waiting = {x.id for x in self._live.seating.lines}
        self._live.seating, told, line = seat.judge(self._live.seating, fight, fp, message)
        answer = self._play(line, told, writer, fight)
        if any(x.id not in waiting for x in self._live.seating.lines):
            answer["cue"] = "answer"  # a player's play waits for « Appliquer » (D27)
        return answer

    def phone(self, fp: object, state: object, at: object = None, name: object = None) -> Answer:
        """The connection of ``fp``'s phone opened (``open``, at ``at`` on the page's clock,
        with the name its player chose), went ``silent``, was ``heard`` again, or was
        ``lost``."""
        if not isinstance(fp, str) or state not in ("open", "silent", "heard", "connecting", "lost"):
            return self._refused(Refusal("bad_request").as_json())
        fight = self._fight()
        told: list[seat.Told] = []
        s = self._live.seating
        if state == "open":
            # The name is the seating's to judge (engine/seating.py phone_name).
            s, told = seat.joined(s, fight, fp, at if type(at) is int else None, name if isinstance(name, str) else None)
        elif state == "lost":
            s, told = seat.lost(s, fight, fp)
        else:
            s = seat.phone_state(s, fp, "connected" if state == "heard" else str(state))
        self._live.seating = s
        return self._live_only(fight, told)

    def host(self, do: object, writer: object = True) -> Answer:
        """The game master's tap on the live table (engine/live.py ``Live.host``), or the
        players' view shown (``watch``), the PNJ's details shown to the players
        (``pnj_details``), another fight opened (``switched``)."""
        if not isinstance(do, dict):
            return self._refused(Refusal("bad_request").as_json())
        what = do.get("what")
        if what == "watch":
            self._live.watching = do.get("on") is True
            return self._live_only(self._fight(), [])
        if what == "clock":
            limit = do.get("limit")
            self.clock_limit = limit if type(limit) is int and MIN_CLOCK <= limit <= MAX_CLOCK else None
            fight = self._fight()
            self._live.seating, told = seat.after_change(self._live.seating, fight)
            return {**self._live_only(fight, told), "turn": self.turn()}
        if what == "pnj_details":
            self._live.after_pnj_details(do.get("on") is True)
            fight = self._fight()
            self._live.seating, told = seat.after_change(self._live.seating, fight)
            return self._live_only(fight, told)
        if what == "switched":
            fight = self._fight()
            self._live.seating, told = seat.switched(self._live.seating, fight, do.get("fight"), do.get("from"))
            return self._live_only(fight, told)
        fight = self._fight()
        told, line, more = self._live.host(do, fight)
        answer = self._play(line, told, writer, fight)
        answer["live"].update(more)
        return answer
