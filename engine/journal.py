"""The journal of a fight: what happened, round by round, read from the resolved log.

Each entry is plain data with the names as they were at that moment; the page words
it in the reader's language. Refused commands are never in the log, so never here.

>>> log = [{"type": "add_combatant", "combatant": {"name": "Aldric", "side": "pj"}},
...        {"type": "start_round", "rolls": {"c1": 4}},
...        {"type": "act", "actor": "c1", "action": "observer"}]
>>> [e["kind"] for e in journal(log)]
['joined', 'round_started', 'action', 'round_ended']
>>> e = journal(log)[2]
>>> e["round"], e["name"], e["cost"], e["pi_before"], e["pi_after"]
(1, 'Aldric', 5, 4, -1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .codec import named_test_json
from .commands import resolve
from .decide import model_name, step
from .errors import Refusal
from .events import (
    ActionTaken,
    AimAdjusted,
    AimLost,
    CombatantAdded,
    CombatantRemoved,
    CombatantUpdated,
    ConditionAdded,
    ConditionEnded,
    ConditionRemoved,
    Event,
    NamedTest,
    RoundEnded,
    RoundStarted,
    RulesSet,
    TurnPassed,
)
from .model import Combatant, Encounter, Side, Weapon
from .regles import Regles, differences, said

Entry = dict[str, Any]


def _no_dice(faces: int) -> int:
    raise Refusal("unresolved_log")


class Steps:
    """The steps a journal replayed, kept for the next one: a command and the encounter
    before it (both immutable values, known by identity) give the same encounter after and
    the same events. The table's journals replay the same last commands on each change (the
    live table's players' journal, with every board), from the encounters undo keeps: once
    kept, each of those commands is a lookup, and only a new one is replayed. At most
    ``most`` steps, the oldest quarter dropped past it.

    >>> log = [{"type": "add_combatant", "combatant": {"name": "Aldric"}}]
    >>> steps = Steps()
    >>> journal(log, steps=steps) == journal(log, steps=steps) == journal(log)
    True
    >>> len(steps.known)
    1
    """

    def __init__(self, most: int = 256) -> None:
        self._most = most
        self.known: dict[int, tuple[Any, Encounter, Encounter, list[Event]]] = {}

    def step(self, enc: Encounter, command: Any) -> tuple[Encounter, list[Event]]:
        known = self.known.get(id(command))
        if known is not None and known[0] is command and known[1] is enc:
            return known[2], known[3]
        after, events = _step(enc, command)
        if len(self.known) >= self._most:
            for key in list(self.known)[: self._most // 4]:
                del self.known[key]
        self.known[id(command)] = (command, enc, after, events)
        return after, events


def _step(enc: Encounter, command: Any) -> tuple[Encounter, list[Event]]:
    return step(enc, resolve(enc, command, _no_dice) if isinstance(command, dict) else command)


def journal(commands: list[Any], start: Encounter | None = None, skip: int = 0,
            players: Players | None = None, steps: Steps | None = None) -> list[Entry]:
    """The entries of a resolved command log (as ``replay`` returns it). A log that
    does not replay ends the journal where it stops: the first command the rules or the
    codec refuse (a :class:`Refusal`: a command without its dice, a malformed one). Any
    other exception is a fault of the engine's code and is raised, not hidden in a
    shorter journal (the table answers it as a fault, ``internal``).

    ``start``: the encounter before ``commands`` (a checkpoint of the table's, engine/table.py;
    an empty fight by default); ``skip``: how many of the first commands are only replayed,
    their entries left out. An entry of a command a player sent from their phone says so
    (``by_player``, D26). ``players``: the journal as the live table's players may see it.
    ``steps``: the steps replayed before, kept (:class:`Steps`).

    >>> log = [{"type": "add_combatant", "combatant": {"id": "o", "name": "Orque"}},
    ...        {"type": "add_combatant", "combatant": {"id": "a", "name": "Aldric", "side": "pj"}},
    ...        {"type": "start_round", "rolls": {"o": 6, "a": 1}},
    ...        {"type": "act", "actor": "o", "action": "observer"},
    ...        {"type": "pass", "actor": "a", "by_player": True}]
    >>> [(e["kind"], e["by_player"]) for e in journal(log)[-2:]]
    [('action', False), ('passed', True)]
    >>> journal(log, players=Players(pnj_details=False))[-2]["pi_after"] is None
    True
    """
    enc = Encounter() if start is None else start
    out: list[Entry] = []
    for n, command in enumerate(commands):
        try:
            after, events = steps.step(enc, command) if steps is not None else _step(enc, command)
        except Refusal:  # a log that is not resolved, or not a log: the journal stops there
            break
        if n >= skip:
            by_player = isinstance(command, Mapping) and command.get("by_player") is True
            entries: list[Entry] = []
            for event in events:  # names and round as they were before the command
                made = _entries(enc, event)
                entries.extend(made if players is None else players.seen(enc, event, made))
            for event in events:
                if isinstance(event, AimAdjusted):  # R4.1, D17: the bonus reached, and whether it was at its cap
                    for entry in entries:
                        if entry["kind"] == "action":
                            entry["aim"] = {"bonus": event.bonus, "capped": event.capped}
                if isinstance(event, AimLost):  # R4.1, D13: the aim another action lost
                    for entry in entries:
                        if entry["kind"] == "action":
                            entry["aim_lost"] = event.bonus
            if isinstance(command, Mapping) and command.get("type") == "add_copies":
                entries = _copies(entries)
            out.extend({**e, "by_player": by_player} if e["kind"] in ("action", "passed") else e for e in entries)
        enc = after
    return out


class Players:
    """What of the journal the live table's players may see (D26): cut as their
    board is (engine/players.py). Nothing about a fighter hidden from them (when the entry
    was made, or now: ``hidden_now``, the ids hidden at the end of the log), and, unless
    the game master shows them (``pnj_details``), none of a PNJ's values their board
    hides: its P.I., wounds, Espoir, die and initiative (``PNJ_DETAILS``), the values of
    its sheet its tests name (``characteristic_value``, ``skill_level``: D14) and its
    notes (neither is in ``SHOWN``). The weapon it declared is on their board
    (``declared``): it stays."""

    def __init__(self, pnj_details: bool = False, hidden_now: frozenset[str] = frozenset()) -> None:
        self.pnj_details = pnj_details
        self.hidden_now = hidden_now

    def seen(self, enc: Encounter, event: Event, entries: list[Entry]) -> list[Entry]:
        hidden = self.hidden_now | {c.id for c in enc.combatants if c.hidden}
        if isinstance(event, CombatantAdded) and event.combatant.hidden:
            return []  # an ambush's arrival, even once it has left the fight (and hidden_now)
        if _about(event) & hidden:
            return []
        pnj = set() if self.pnj_details else {c.id for c in enc.combatants if c.side is Side.PNJ}
        if not self.pnj_details and isinstance(event, CombatantUpdated) and event.changes.get("side") == Side.PNJ:
            pnj.add(event.id)  # a PNJ from this change on: what it changes is a PNJ's
        return [shown for e in entries if (shown := self._shown(e, event, hidden, pnj)) is not None]

    @staticmethod
    def _shown(e: Entry, event: Event, hidden: set[str] | frozenset[str], pnj: set[str]) -> Entry | None:
        if e["kind"] in ("wounds", "hope", "notes") and isinstance(event, CombatantUpdated) and event.id in pnj:
            return None  # a PNJ's wounds, Espoir and notes, kept by the game master
        if e["kind"] == "round_started":
            return {**e, "initiatives": [{**i, "d6": None, "initiative": None} if i["id"] in pnj else i
                                         for i in e["initiatives"] if i["id"] not in hidden]}
        if e["kind"] == "action" and isinstance(event, ActionTaken) and event.actor in pnj:
            return {**e, "pi_before": None, "pi_after": None, "hope_before": None, "hope_after": None,
                    "tests": [{**t, "characteristic_value": None, "skill_level": None} for t in e["tests"]]}
        if e["kind"] == "passed" and isinstance(event, TurnPassed) and event.actor in pnj:
            return {**e, "pi": None}
        if e["kind"] == "round_ended" and "holding" in e:  # who could still act: none hidden, no PNJ's P.I.
            return {**e, "holding": [{**h, "pi": None} if h["id"] in pnj else h for h in e["holding"] if h["id"] not in hidden]}
        return e


def _copies(entries: list[Entry]) -> list[Entry]:
    """The entries of ``add_copies`` as one: « Ajout de 3 × Orque », the copies' names
    (``names``), and the fighter of the model's name renamed by the first copy
    (``renamed``: "Orque" becoming "Orque 1"), when it is seen. No copy seen (a hidden
    model, on a player's phone, D26): the rename alone, if seen.

    >>> e = _copies([{"round": 0, "kind": "renamed", "name": "Orque", "to": "Orque 1"},
    ...          {"round": 0, "kind": "joined", "name": "Orque 2", "side": "pnj"},
    ...          {"round": 0, "kind": "joined", "name": "Orque 3", "side": "pnj"}])[0]
    >>> e["kind"], e["name"], e["count"], e["names"], e["renamed"]
    ('copies', 'Orque', 2, ['Orque 2', 'Orque 3'], {'name': 'Orque', 'to': 'Orque 1'})
    """
    joined = [e for e in entries if e["kind"] == "joined"]
    if not joined:
        return entries
    renamed = next(({"name": e["name"], "to": e["to"]} for e in entries if e["kind"] == "renamed"), None)
    return [{"round": joined[0]["round"], "kind": "copies", "name": model_name(joined[0]["name"]), "side": joined[0]["side"],
             "count": len(joined), "names": [e["name"] for e in joined], "renamed": renamed}]


def _about(event: Event) -> set[str]:
    """The fighters an event names (its journal entry would name them)."""
    match event:
        case CombatantAdded(combatant=c):
            return {c.id}
        case CombatantRemoved(id=cid) | CombatantUpdated(id=cid):
            return {cid}
        case ActionTaken():
            return {event.actor, *(str(event.options[k]) for k in ("target", "against") if k in event.options)}
        case TurnPassed(actor=a):
            return {a}
        case ConditionAdded(id=cid) | ConditionRemoved(id=cid) | ConditionEnded(id=cid):
            return {cid}
    return set()


def _name(enc: Encounter, cid: object) -> str:
    c = enc.combatant(cid)
    return c.name if c else str(cid)


def _updated(enc: Encounter, cid: object, changes: Mapping[str, Any], at: Entry) -> list[Entry]:
    """A new name (the game master's, or the original's number given by its first copy,
    "Orque" becoming "Orque 1"): the journal's later entries use it, so it says when.
    Out of the fight or back (D6). Wounds and Espoir that change (R1.7, R5.2: from the
    board's steppers or the form), before and after; notes that change. The rest of a
    sheet's changes are not told."""
    out: list[Entry] = []
    c = enc.combatant(cid)
    before = _name(enc, cid)
    if "name" in changes and changes["name"] != before:
        out.append({**at, "kind": "renamed", "name": before, "to": changes["name"]})
    if "hors_combat" in changes:
        out.append({**at, "kind": "out" if changes["hors_combat"] else "back", "name": before})
    for field, kind in (("wounds", "wounds"), ("hope", "hope")):
        was = getattr(c, field) if c else None
        if field in changes and changes[field] != was:
            out.append({**at, "kind": kind, "name": before, "before": was, "after": changes[field]})
    if "notes" in changes and c is not None and changes["notes"] != c.notes:
        out.append({**at, "kind": "notes", "name": before, "notes": changes["notes"]})
    return out


def _tests(c: Combatant | None, weapon: str | None, tests: tuple[NamedTest, ...]) -> list[Entry]:
    """The tests of an action as the journal keeps them, each weapon's skill with the name
    the sheet gives it (``skill_name``: the weapon's, « Épée » for ``epee``)."""
    out = []
    for t in tests:
        entry = named_test_json(t)
        named = _weapon_of(c, weapon, t.skill)
        if named is not None:
            entry["skill_name"] = named.name
        out.append(entry)
    return out


def _weapon_of(c: Combatant | None, weapon: str | None, skill: str) -> Weapon | None:
    """The weapon whose skill ``skill`` is: the one used, else the first on the sheet."""
    if c is None:
        return None
    used = c.weapon(weapon)
    if used is not None and used.skill == skill:
        return used
    return next((w for w in c.weapons if w.skill == skill), None)


def _rules(at: Entry, before: Regles, after: Regles, when: str) -> Entry:
    """The group's rules changed (``set_rules``), or come into force at a round's start:
    each field's ``before`` and ``after`` (``changes``), ``when`` (``now``, ``next_round``,
    ``round_start``) and the line in each language (``lines``)."""
    changes = differences(before, after)
    return {**at, "kind": "rules", "when": when, "changes": changes,
            "lines": {language: said(changes, when, language) for language in ("fr", "en")}}


def _entries(enc: Encounter, e: Event) -> list[Entry]:
    at = {"round": enc.round}
    match e:
        case CombatantAdded(combatant=c):
            return [{**at, "kind": "joined", "name": c.name, "side": c.side.value}]
        case CombatantRemoved(id=cid):
            return [{**at, "kind": "removed", "name": _name(enc, cid)}]
        case CombatantUpdated(id=cid, changes=changes):
            return _updated(enc, cid, changes, at)
        case RoundStarted(round=n, initiatives=initiatives):
            rolls = []
            for i in initiatives:
                fighter = enc.combatant(i.id)
                held = fighter.weapon(i.weapon) if fighter else None
                rolls.append({"id": i.id, "name": _name(enc, i.id), "weapon": held.name if held else None, "d6": i.d6,
                              "initiative": i.initiative, "rolled_by": i.rolled_by})
            started: Entry = {"round": n, "kind": "round_started", "initiatives": rolls}
            coming = enc.regles_a_venir
            return [started] if coming is None else [started, _rules({"round": n}, enc.regles, coming, "round_start")]
        case RulesSet(regles=regles, at_once=at_once):
            return [_rules(at, enc.regles if at_once else enc.regles_du_tour_suivant, regles, "now" if at_once else "next_round")]
        case ActionTaken():
            options = e.options
            return [{
                **at, "kind": "action", "name": _name(enc, e.actor), "action": e.action, "category": e.category,
                "cost": e.cost, "pays": e.pays, "pi_before": e.pi_before, "pi_after": e.pi_after,
                "hope_before": e.hope_before, "hope_after": e.hope_after,
                "tests": _tests(enc.combatant(e.actor), e.weapon, e.tests), "outcome": e.outcome,
                "target": _name(enc, options["target"]) if "target" in options else None,
                "against": _name(enc, options["against"]) if "against" in options else None,
                "distance": options.get("distance"),
            }]
        case ConditionAdded(id=cid, text=text, until=until):
            return [{**at, "kind": "condition", "name": _name(enc, cid), "condition": text, "until": until}]
        case ConditionRemoved(id=cid, text=text):
            return [{**at, "kind": "condition_removed", "name": _name(enc, cid), "condition": text}]
        case ConditionEnded(id=cid, text=text):
            return [{**at, "kind": "condition_ended", "name": _name(enc, cid), "condition": text}]
        case TurnPassed(actor=a, pi=pi):
            return [{**at, "kind": "passed", "name": _name(enc, a), "pi": pi}]
        case RoundEnded(reason=reason, holding=holding):
            still = [{"id": f.id, "name": f.name, "pi": f.pi} for f in map(enc.combatant, holding) if f is not None]
            return [{**at, "kind": "round_ended", "reason": reason, **({"holding": still} if still else {})}]
    return []
