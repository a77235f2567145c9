"""Random rounds played fast, for the lab (engine/labo.py): the engine's own judgement,
worked out once per set of marks, and the round's numbers in plain lists.

A fighter's *marks* (what it holds, aims and has nocked, its posture and cover, whether
it charged this round or is engaged: its :class:`~engine.model.Combatant` with the
round's numbers left out) change seldom; its P.I., its Espoir, whether it passed and
whose phase is open change at every command. So each set of marks (:class:`Marks`) is
judged once, by the engine's own functions: what it may do (``rules.plan``, the judgement
``decide`` and the board use), in its phase or its phase kept open (D8), and which
interruptions, paid in P.I. or in Espoir, with enough Espoir or not (R5.2); what each
action costs (``rules.price``); the marks it leaves (the action's own effects and the aim
it loses, D13, applied by ``evolve``). The round's numbers move as ``evolve`` and
``decide.step`` move them: R1 (P.I. = initiative at the start, R1.3), R3.3 (the cost paid
after the action), R5.2 (an interruption at P.I. ≤ the threshold paid in Espoir), D8 (a
free action at 0 keeps the phase open), D5 (passing), R2.1 and D4 (who may take the
phase: the highest P.I., ties by the die, PJ, entry), R2.4 and D21 (the round ends when
nobody still in it has P.I.). ``tests/test_simulation.py`` plays the commands it chose
through the table session and finds the same costs, P.I., Espoir, rounds and figures,
and the board's own verdicts for every choice it made.

The policy (the lab's fighters are not players): each phase a fighter the rules let act
is drawn; every other fighter whose interruption the rules allow interrupts with chance
:data:`INTERRUPT` (``against`` the one acting); the one drawn passes with chance
:data:`PASS` (or when nothing is allowed), else takes an action drawn among those
allowed, then one of its ways (each weapon it may use, each item, each posture; a
charge over its base reach; the acrobatic dodge's two tests drawn), its ``target`` drawn
among the other side. Each fighter declares its first weapon in hand (D2; bare hands
with none) and the engine rolls its die.

>>> from engine.sheet import parse_combatant
>>> from engine.regles import DEFAUT
>>> import random
>>> cast = [parse_combatant({"name": n, "characteristics": {"melee": 6}}, n, i) for i, n in enumerate(("a", "b"))]
>>> play = Simulation(cast, DEFAUT, random.Random(1))
>>> for _ in range(3):
...     play.round()
>>> play.rounds, play.phases > 0, sum(play.actions) > 0
(3, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .actions import ACTIONS
from .actions.base import Act, Action
from .errors import Refusal
from .events import AimLost, Disengaged, Engaged, Event
from .evolve import evolve
from .initiative import breakdown
from .model import Category, Combatant, Encounter, Side
from .regles import Regles
from .rules import Turn, loses_aim, plan

#: A round stops after this many phases (a table whose free actions cost nothing never ends).
MAX_PHASES = 200
#: The chance that a fighter whose interruption is allowed interrupts, each phase.
INTERRUPT = 0.15
#: The chance that a fighter who may act passes instead.
PASS = 0.1
#: The target an action's effects are worked out with, once per set of marks (the real
#: one, drawn each time, takes its place).
_TARGET = "@cible"

#: The interruptions (R5) and the other actions, in the R4 order.
INTERRUPTIONS = tuple(a for a, action in ACTIONS.items() if action.category is Category.INTERRUPTION)
PHASE_ACTIONS = tuple(a for a in ACTIONS if a not in INTERRUPTIONS)


#: What the actions change of a fighter (evolve's marks and melee, R4.2's charge): a set of
#: marks is known by these and the fighter (nothing else of it changes in these rounds).
MARK_FIELDS = ("in_hand", "aim_bonus", "aim_weapon", "arrow_nocked", "posture", "cover", "charged")


def marks_of(c: Combatant) -> Combatant:
    """``c`` with the round's numbers and what no rule reads left out: its :class:`Marks`
    (engaged or not, not with whom: the rules ask only whether, D11; what it holds in
    the sheet's order, as every rule reads it: ``Combatant.held``)."""
    return replace(c, in_hand=tuple(w.id for w in c.weapons if w.id in c.in_hand), pi=0,
                   hope=0, in_round=True, passed=False, initiative=None, d6=None, declared=None,
                   engaged_with=("@",) if c.engaged else (), engaged_off_tracker=False,
                   notes="", conditions=(), hidden=False)


def _key(c: Combatant) -> tuple[Any, ...]:
    return (c.id, frozenset(c.in_hand), *(getattr(c, name) for name in MARK_FIELDS[1:]), c.engaged)


@dataclass(slots=True)
class Move:
    """One way to take an action, judged allowed for a set of marks."""

    action: Action
    options: dict[str, Any]
    cost: int
    pays: str  # "pi", "espoir" or "rien"
    interruption: bool
    opens: bool  # D8: a free action at 0 keeps the phase open
    aimed: bool  # takes a target
    weapon: Any
    after: Marks | None = None  # the marks it leaves, once worked out
    engages: bool = False  # D11: the target engaged
    disengages: bool = False  # D11: every engagement ended


class Marks:
    """A set of marks under one rule set: what they allow and where each move leads."""

    __slots__ = ("_acts", "_inters", "acting", "book", "c", "declaring", "flipped", "fresh")

    def __init__(self, book: Book, c: Combatant) -> None:
        self.book = book
        self.c = c
        self.acting = replace(c, pi=1)  # R2.3: with P.I. to act
        self._acts: list[list[tuple[Move, ...] | None]] = [[None] * len(PHASE_ACTIONS), [None] * len(PHASE_ACTIONS)]
        self._inters: list[tuple[tuple[Move, ...], ...] | None] = [None, None, None, None]
        self.fresh: Marks | None = None  # at the start of a round (R4.2: the charge forgotten)
        self.flipped: Marks | None = None  # engaged, or no longer (D11)
        held = c.held()  # D2: the first weapon in hand, or bare hands
        weapon = held[0].id if held else None
        self.declaring = (weapon, breakdown(c, weapon, 0, book.regles)["initiative"])

    def act(self, own_phase: bool, k: int) -> tuple[Move, ...]:
        """The ways it may take the ``k``-th action of :data:`PHASE_ACTIONS` in its phase
        (``own_phase``: kept open, D8); none when the rules refuse it."""
        found = self._acts[own_phase][k]
        if found is None:
            turn = self.book.turns[own_phase]
            found = self._acts[own_phase][k] = self.book.judge(self.acting, turn, PHASE_ACTIONS[k])
        return found

    def draw(self, own_phase: bool, rng: random.Random) -> Move | None:
        """An action drawn among those it may take in its phase, then one of its ways
        (each action judged when first drawn); ``None`` when none is allowed."""
        left = list(range(len(PHASE_ACTIONS)))
        while left:
            at = rng.randrange(len(left))
            found = self.act(own_phase, left[at])
            if found:
                return found[0] if len(found) == 1 else rng.choice(found)
            left[at] = left[-1]
            left.pop()
        return None

    def inters(self, espoir: bool, afford: bool) -> tuple[tuple[Move, ...], ...]:
        """The interruptions it may make, paid in Espoir or not (R5.2: P.I. at or below
        the threshold), with enough Espoir or not."""
        slot = 2 * espoir + afford
        found = self._inters[slot]
        if found is None:
            r = self.book.regles
            c = replace(self.c, pi=r.espoir_seuil if espoir else r.espoir_seuil + 1,
                        hope=r.espoir_cout if afford else r.espoir_cout - 1)
            turn = Turn(started=True, over=False, ready=False, own_phase=False, other_phase=False, regles=r, prochaines=r)
            found = self._inters[slot] = tuple(ways for name in INTERRUPTIONS if (ways := self.book.judge(c, turn, name)))
        return found

    def after(self, move: Move) -> Marks:
        """The marks ``move`` leaves (worked out once)."""
        if move.after is None:
            self.book.follow(self, move)
        assert move.after is not None
        return move.after

    def round_start(self) -> Marks:
        if self.fresh is None:
            self.fresh = self.book.intern(replace(self.c, charged=False))
        return self.fresh

    def engaged(self, engaged: bool) -> Marks:
        if self.c.engaged == engaged:
            return self
        if self.flipped is None:
            self.flipped = self.book.intern(replace(self.c, engaged_with=("@",) if engaged else ()))
        return self.flipped


class Book:
    """Every set of marks met under one rule set."""

    def __init__(self, regles: Regles) -> None:
        self.regles = regles
        self.marks: dict[tuple[Any, ...], Marks] = {}
        #: A fighter's turn in its phase, and in its phase kept open (D8).
        self.turns = tuple(Turn(started=True, over=False, ready=True, own_phase=own, other_phase=False,
                                regles=regles, prochaines=regles) for own in (False, True))

    def intern(self, c: Combatant) -> Marks:
        key = _key(c)
        found = self.marks.get(key)
        if found is None:
            found = self.marks[key] = Marks(self, marks_of(c))
        return found

    def judge(self, c: Combatant, turn: Turn, name: str) -> tuple[Move, ...]:
        """The ways of :func:`ways` the rules allow ``c`` to take action ``name`` now
        (``rules.plan``, options checked)."""
        action = ACTIONS[name]
        tried = ways(c, action, self.regles)
        if len(tried) > 1:
            try:  # as the board judges it, with no option: refused so, refused every way
                plan(c, turn, action, {}, probe=True)
            except Refusal:
                return ()
        category = action.category_in(self.regles)
        moves: list[Move] = []
        for options in tried:
            try:
                p = plan(c, turn, action, options)
            except Refusal:
                continue
            moves.append(Move(action, options, p.cost, p.pays, category is Category.INTERRUPTION,
                              category is Category.GRATUITE and p.cost == 0, "target" in action.options, p.weapon))
        if "weapon" in action.options and any("weapon" in m.options for m in moves):
            moves = [m for m in moves if "weapon" in m.options]  # the engine's own choice is one of them
        return tuple(moves)

    def follow(self, marks: Marks, move: Move) -> None:
        """Where ``move`` leads: its events (the aim lost, D13; its effects), applied by
        ``evolve`` to a fighter alone; the engagements they make or end (D11) said apart."""
        c, action, w = marks.c, move.action, move.weapon
        options = {**move.options, "target": _TARGET} if move.aimed else move.options
        enc = Encounter(round=1, round_over=False, regles=self.regles, combatants=(c,))
        keeps_aim = action.keeps_aim and w is not None and c.aim_weapon == w.id
        events: list[Event] = [AimLost(actor=c.id, bonus=c.aim_bonus)] if loses_aim(c, action, w, self.regles) else []
        events += action.effects(Act(enc=enc, actor=c, weapon=w, options=options, keeps_aim=keeps_aim))
        if not events:  # nothing of the fighter changes
            move.after = marks
            return
        for e in events:
            enc = evolve(enc, e)
        move.engages = any(isinstance(e, Engaged) for e in events)
        move.disengages = any(isinstance(e, Disengaged) for e in events)
        move.after = self.intern(enc.combatants[0])


def ways(c: Combatant, action: Action, regles: Regles) -> list[dict[str, Any]]:
    """The ways the lab tries an action (its options but ``target`` and ``against``, drawn
    apart): each weapon of the sheet (else none: bare hands, or the engine's choice), each
    item to drop (or all) or to pick up, each posture, a charge at its base reach, the
    acrobatic dodge's four outcomes, a skill of the sheet."""
    base: dict[str, Any] = {}
    if action.id == "charge":
        base = {"distance": regles.charge_portee, "test_result": 0}
    elif action.id == "utiliser_competence":
        base = {"skill": c.skills[0][0] if c.skills else "vigilance"}
    if "weapon" in action.options and c.weapons:
        return [{**base, "weapon": w.id} for w in c.weapons] + [base]
    if action.id == "lacher_objet":
        return [{}] + [{"items": [i]} for i in c.in_hand]
    if action.id == "prendre_objet":
        return [{}] + [{"items": [w.id]} for w in c.weapons]
    if action.id == "se_jeter_au_sol":
        return [{"posture": "a_terre"}, {"posture": "a_genoux"}]
    if action.id == "esquive_acrobatique":
        return [{"tests": {"esquive": x, "acrobatie": y}} for x in (True, False) for y in (True, False)]
    return [base]


class Simulation:
    """Random rounds of ``cast`` (fighters in the fight) under ``regles``, from ``rng``;
    :meth:`round` plays one. ``record``: told each command as the table session takes it,
    with what the simulation found (its cost, the P.I. and Espoir after, whether the round
    is over), and as each phase begins, what it finds allowed (``None``: for the tests)."""

    def __init__(self, cast: list[Combatant], regles: Regles, rng: random.Random,
                 record: Callable[[dict[str, Any] | None, dict[str, Any]], None] | None = None) -> None:
        self.book = Book(regles)
        self.regles = regles
        self.rng = rng
        self.record = record
        self.ids = [c.id for c in cast]
        n = len(cast)
        self.n = n
        self.pj = [c.side is Side.PJ for c in cast]
        self.entry = [c.entry for c in cast]
        self.marks = [self.book.intern(c) for c in cast]
        self.hope = [c.hope for c in cast]
        self.pi = [0] * n
        self.d6 = [0] * n
        self.passed = [False] * n
        self.engaged: list[set[int]] = [set() for _ in cast]
        self.foes = [[j for j in range(n) if self.pj[j] != self.pj[i]] or [j for j in range(n) if j != i] for i in range(n)]
        self.over = True
        self.phase: int | None = None
        self.live = 0  # still in the round with P.I. > 0 (R2.4, D21)
        self.order: list[int] = []  # D4: the round's tie order
        self.actions = [0] * n
        self.interruptions = [0] * n
        self.first = [0] * n
        self.rounds = self.phases = self.passes = self.possible = self.chances = self.espoir = self.cut = 0

    # --- the round's numbers, as evolve and decide.step move them -----------------------

    def _start(self) -> None:
        """R1: each fighter declares (D2) and the engine rolls its die (R1.2); P.I. =
        initiative (R1.3); the round's charge and pass forgotten (R4.2, D5)."""
        faces, rng = self.regles.de_initiative, self.rng
        rolls: dict[str, int] = {}
        declarations: dict[str, str] = {}
        initiatives: dict[str, int] = {}
        for i in range(self.n):
            m = self.marks[i] = self.marks[i].round_start()
            weapon, base = m.declaring
            die = rng.randint(1, faces)
            self.d6[i] = die
            self.pi[i] = base + die
            self.passed[i] = False
            if self.record is not None:
                rolls[self.ids[i]] = die
                initiatives[self.ids[i]] = base + die
                if weapon is not None:
                    declarations[self.ids[i]] = weapon
        self.order = sorted(range(self.n), key=lambda i: (-self.d6[i], not self.pj[i], self.entry[i]))
        self.over, self.phase = False, None
        self.live = sum(1 for x in self.pi if x > 0)
        self.rounds += 1
        if self.record is not None:
            self.record({"type": "start_round", "rolls": rolls, "declarations": declarations,
                         "engine_rolled": list(rolls)}, {"initiatives": initiatives})

    def _ready(self) -> list[int]:
        """R2.1, D4, D21, D22: who may take the phase now (the one whose phase is open)."""
        if self.over:
            return []
        if self.phase is not None:
            return [self.phase]
        pi, passed = self.pi, self.passed
        top, tied = 0, []
        for i in self.order:  # D4's order: the tied ones come in it
            if passed[i]:
                continue
            if pi[i] > top:
                top, tied = pi[i], [i]
            elif pi[i] == top and top > 0:
                tied.append(i)
        return tied

    def _spent(self, i: int, before: int) -> None:
        """R2.4, D21: ``i`` no longer counts among those still in the round with P.I."""
        if before > 0 and not self.passed[i] and self.pi[i] <= 0:
            self.live -= 1
            if self.live == 0 and not self.over:
                self.over, self.phase = True, None

    def _take(self, i: int, move: Move, other: int | None) -> None:
        """R3.3: the cost paid after the action (P.I., or Espoir, R5.2); D8; the marks it
        leaves; D11: the engagements it makes or ends."""
        before, hope = self.pi[i], self.hope[i]
        if move.pays == "pi":
            self.pi[i] = before - move.cost
        elif move.pays == "espoir":
            self.hope[i] = hope - move.cost
            self.espoir += move.cost
        if move.interruption:
            self.interruptions[i] += 1
        else:
            self.actions[i] += 1
            self.phase = i if move.opens else None
        m = self.marks[i]
        after = move.after if move.after is not None else m.after(move)
        self.marks[i] = after
        if move.disengages:
            for j in self.engaged[i]:
                self.engaged[j].discard(i)
                if not self.engaged[j]:
                    self.marks[j] = self.marks[j].engaged(False)
            self.engaged[i].clear()
        if move.engages and other is not None:
            self.engaged[i].add(other)
            self.engaged[other].add(i)
            self.marks[other] = self.marks[other].engaged(True)
        self._spent(i, before)
        if self.record is not None:
            command = {"type": "interrupt" if move.interruption else "act", "actor": self.ids[i],
                       "action": move.action.id, **move.options}
            if other is not None:
                command["against" if move.interruption else "target"] = self.ids[other]
            self.record(command, {"cost": move.cost, "pays": move.pays, "pi_after": self.pi[i],
                                  "hope_after": self.hope[i], "over": self.over})

    def _pass(self, i: int) -> None:
        """D5: no more phases this round, the P.I. kept for interruptions."""
        if self.phase == i:
            self.phase = None
        if self.pi[i] > 0:
            self.live -= 1
        self.passed[i] = True
        if self.live == 0 and not self.over:
            self.over, self.phase = True, None
        self.passes += 1
        if self.record is not None:
            self.record({"type": "pass", "actor": self.ids[i]}, {"over": self.over})

    def _told(self, actor: int) -> None:
        """What the simulation finds allowed as a phase begins (for the tests): the actions
        of the one drawn and the interruptions of the others, each action by its id."""
        m, own = self.marks[actor], self.phase == actor
        able = self.pi[actor] > 0 and not self.passed[actor]
        allowed = [name for k, name in enumerate(PHASE_ACTIONS) if able and m.act(own, k)]
        seuil, cost = self.regles.espoir_seuil, self.regles.espoir_cout
        inters = {self.ids[j]: [ways[0].action.id for ways in self.marks[j].inters(self.pi[j] <= seuil, self.hope[j] >= cost)]
                  for j in range(self.n) if j != actor}
        assert self.record is not None
        self.record(None, {"actor": self.ids[actor], "allowed": allowed, "interruptions": inters})

    def _draw(self, allowed: tuple[tuple[Move, ...], ...]) -> Move:
        rng = self.rng
        ways_ = allowed[0] if len(allowed) == 1 else rng.choice(allowed)
        return ways_[0] if len(ways_) == 1 else rng.choice(ways_)

    # --- one round ----------------------------------------------------------------------

    def round(self) -> None:
        """One random round, to its end (R2.4) or cut after :data:`MAX_PHASES` phases."""
        rng, pi, hope = self.rng, self.pi, self.hope
        seuil, cost = self.regles.espoir_seuil, self.regles.espoir_cout
        self._start()
        opened = False
        for _phase in range(MAX_PHASES):
            active = self._ready()
            if not active:
                break
            actor = active[0] if len(active) == 1 else rng.choice(active)
            if not opened:
                self.first[actor] += 1
                opened = True
            self.phases += 1
            if self.record is not None:
                self._told(actor)
            marks = self.marks
            self.chances += self.n - 1
            for j in range(self.n):
                if j == actor:
                    continue
                possible = marks[j].inters(pi[j] <= seuil, hope[j] >= cost)
                if possible:
                    self.possible += 1
                    if rng.random() < INTERRUPT:
                        answer = self._draw(possible)
                        self._take(j, answer, actor if "against" in answer.action.options else None)
            # R5.1: an interruption lowers only the interrupter's P.I. and leaves the phases
            # alone: the one drawn still acts, unless the interruptions ended the round.
            if self.over:
                continue
            move: Move | None = None
            if pi[actor] > 0 and not self.passed[actor]:  # R2.3, D5
                if self.regles.passer and rng.random() < PASS:
                    self._pass(actor)
                    continue
                move = self.marks[actor].draw(self.phase == actor, rng)
            if move is None:
                if not self.regles.passer:
                    break
                self._pass(actor)
                continue
            foes = self.foes[actor]
            self._take(actor, move, rng.choice(foes) if move.aimed and foes else None)  # alone: no target
        if not self.over:
            self.cut += 1
            self.over, self.phase = True, None
            if self.record is not None:
                self.record({"type": "end_round"}, {"over": True})
