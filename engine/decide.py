"""Commands checked against the rules become events: ``decide(state, command) -> events``.

Nothing here changes a state: :mod:`engine.evolve` applies the events. A refused command
raises :class:`~engine.errors.Refusal` and produces no event. :func:`step` is what
``engine.apply`` does with one command: decide, apply the events, then end the round
if they spent the last P.I. (R2.4), decided once on the state they give.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from . import values as v
from .actions import ACTIONS
from .actions.base import Act, Action
from .codec import combatant_sheet
from .commands import Command, check_options, check_shape
from .errors import Refusal
from .events import (
    ActionTaken,
    AimLost,
    CombatantAdded,
    CombatantRemoved,
    CombatantUpdated,
    ConditionAdded,
    ConditionEnded,
    ConditionRemoved,
    Disengaged,
    EngagementsSet,
    Event,
    Initiative,
    Roll,
    RoundEnded,
    RoundStarted,
    RulesSet,
    SettingsUpdated,
    TurnPassed,
)
from .evolve import evolve
from .initiative import breakdown, declarable, ready, round_is_spent
from .model import Category, Combatant, Encounter, Settings
from .regles import Regles, differences, run_table
from .regles import read as read_regles
from .rules import describe_tests, loses_aim, may_pass, plan, turn_of
from .sheet import NEW_FIELDS, TABLE_FIELDS, check_changes, parse_combatant

#: The most fighters in one encounter: a ``start_round`` maps each fighter's die and a
#: JSON object is read with at most :data:`values.MAX_LIST` entries, so the limit is
#: enforced where a fighter is added (every door: a tap, a file, a link, the autosave).
MAX_FIGHTERS = v.MAX_LIST


def decide(enc: Encounter, command: object) -> list[Event]:
    """The events that ``command`` produces (without the end of the round it may bring:
    see :func:`step`)."""
    cmd = check_shape(command)
    return _DECIDERS[cmd["type"]](enc, cmd)


def step(enc: Encounter, command: object) -> tuple[Encounter, list[Event]]:
    """The encounter after ``command`` and its events, followed by the end of the round
    when they spend the last P.I. of a round in progress (R2.4, D21), and by the end of
    the conditions that last until then (D25)."""
    events = decide(enc, command)
    after = enc
    for e in events:
        after = evolve(after, e)
    if events and not enc.round_over and not after.round_over and round_is_spent(after):
        end = RoundEnded(round=enc.round, reason="pi", unspent=unspent(after))
        events.append(end)
        after = evolve(after, end)
    if not enc.round_over and after.round_over:
        for e in ended_conditions(after, enc.round):
            events.append(e)
            after = evolve(after, e)
    return after, events


def _combatant(enc: Encounter, cid: object, field: str = "id") -> Combatant:
    c = enc.combatant(cid)
    if c is None:
        raise Refusal("unknown_combatant", id=v.shown(cid), field=field)
    return c


def _declare(c: Combatant, weapon_id: object, d6: object, regles: Regles) -> dict[str, Any]:
    """R1.1, R1.2, D2: a declared weapon must be on the sheet and in hand; a die 1 to 6
    (the rules' faces, ``de_initiative``)."""
    if weapon_id is not None:
        wid = v.identifier(weapon_id, f"declarations.{c.id}")
        w = c.weapon(wid)
        if w is None:
            raise Refusal("no_such_weapon", field=f"declarations.{c.id}", name=c.name, weapon=wid)
        if w not in declarable(c):
            raise Refusal("not_declarable", name=c.name, weapon=w.name)
    die = v.integer(d6, f"rolls.{c.id}", low=1, high=regles.de_initiative)
    return breakdown(c, weapon_id if isinstance(weapon_id, str) else None, die, regles)


def _add_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    if len(enc.combatants) >= MAX_FIGHTERS:
        raise Refusal("too_many_fighters", max=MAX_FIGHTERS)
    sheet = v.mapping(cmd["combatant"], "combatant")
    cid = v.identifier(sheet.get("id"), "combatant.id")
    if enc.combatant(cid) is not None:
        raise Refusal("id_taken", field="combatant.id", id=cid)
    c = parse_combatant(sheet, cid, entry=max((x.entry for x in enc.combatants), default=-1) + 1)
    renamed: list[Event] = []
    if "numbered" in cmd and v.boolean(cmd["numbered"], "numbered"):
        # A copy of a model, numbered with the fighters of its name: "Orque" on the board
        # becomes "Orque 1" and the new one "Orque 2" (never "Orque" beside "Orque 1").
        match = _NUMBERED.match(c.name)
        base = match.group(1) if match else c.name
        same = next((x for x in enc.combatants if x.name == base), None)
        first, names = copy_names(base, {x.name for x in enc.combatants} - ({base} if same is None else set()), 1)
        if same is not None and first is not None:
            renamed.append(CombatantUpdated(id=same.id, changes={"name": first}))
        c = replace(c, name=names[0] if same is not None else first or names[0])
    entry: Roll | None = None
    if "declaration" in cmd or "roll" in cmd:
        if enc.round_over:
            raise Refusal("joins_next_round")
        if "engine_rolled" in cmd:
            v.boolean(cmd["engine_rolled"], "engine_rolled")
        b = _declare(c, cmd.get("declaration"), cmd.get("roll"), enc.regles)
        entry = Roll(weapon=cmd.get("declaration"), d6=b["d6"], rolled_by="engine" if cmd.get("engine_rolled") else "table",
                     initiative=b["initiative"], breakdown=b)
    return [*renamed, CombatantAdded(combatant=c, joins=entry)]


def _update_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    c = _combatant(enc, cmd["id"])
    others = tuple(x.id for x in enc.combatants if x.id != c.id)
    changes = check_changes(c, cmd["changes"], others)
    events: list[Event] = []
    sheet_changes = {k: x for k, x in changes.items() if k not in ("engaged", "engaged_with")}
    if sheet_changes:
        events.append(CombatantUpdated(id=c.id, changes=sheet_changes))
    if "engaged_with" in changes:  # D11: set by the GM, with fighters on the tracker
        with_, off = changes["engaged_with"], changes.get("engaged") is True and not changes["engaged_with"]
        events.append(EngagementsSet(id=c.id, with_=tuple(with_), off_tracker=off))
    elif changes.get("engaged") is False:  # ends every engagement
        events.append(EngagementsSet(id=c.id, with_=(), off_tracker=False))
    elif changes.get("engaged") is True:  # engaged with someone off the tracker
        events.append(EngagementsSet(id=c.id, with_=c.engaged_with, off_tracker=True))
    if changes.get("hors_combat") and (c.engaged_with or c.engaged_off_tracker):
        events.append(Disengaged(actor=c.id))  # D11
    return events


#: A name's trailing number: "Orque 2" is the copy number 2 of "Orque".
_NUMBERED = re.compile(r"^(.*\S)\s+(\d{1,4})$")


def model_name(name: str) -> str:
    """The name a model made from a fighter takes: a numbered copy's without its number
    (copies are numbered from it again when the model is added).

    >>> model_name("Garde 1"), model_name("Garde")
    ('Garde', 'Garde')
    """
    match = _NUMBERED.match(name)
    return match.group(1) if match else name


def copy_names(name: str, taken: set[str], count: int) -> tuple[str | None, list[str]]:
    """Copies numbered from the original: the original's new name (None: it keeps its
    own, already numbered) and the names of ``count`` copies, after the highest number
    of the same base among ``taken`` (the names on the board). Each fits :data:`v.MAX_NAME`.

    >>> copy_names("Orque", {"Orque"}, 1)
    ('Orque 1', ['Orque 2'])
    >>> copy_names("Orque 2", {"Orque 1", "Orque 2", "Aldric"}, 2)
    (None, ['Orque 3', 'Orque 4'])
    >>> copy_names("Orque", {"Orque", "Orque 1"}, 1)
    ('Orque 2', ['Orque 3'])
    """
    match = _NUMBERED.match(name)
    base = match.group(1) if match else name
    used = {int(m.group(2)) for t in taken if (m := _NUMBERED.match(t)) and m.group(1) == base}
    renamed = None
    if match is None:
        first = next(n for n in range(1, len(used) + 2) if n not in used)
        used.add(first)
        renamed = first
    top = max(used)

    def named(n: int) -> str:
        suffix = f" {n}"
        return base[:v.MAX_NAME - len(suffix)].rstrip() + suffix

    return (named(renamed) if renamed is not None else None), [named(top + k) for k in range(1, count + 1)]


def _duplicate_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    """Copies of a fighter's sheet (not its round: they join the next round, D7), numbered
    from the original: copying "Orque" renames it "Orque 1" and names the copy "Orque 2"."""
    c = _combatant(enc, cmd["id"])
    count = v.integer(cmd.get("count", 1), "count", low=1, high=MAX_FIGHTERS)
    ids = [v.identifier(i, "ids[]") for i in v.sequence(cmd.get("ids"), "ids")]
    if len(ids) != count or len(set(ids)) != count:
        raise v.bad("ids", "distinct_ids", count=count)
    if len(enc.combatants) + count > MAX_FIGHTERS:
        raise Refusal("too_many_fighters", max=MAX_FIGHTERS)
    renamed, names = copy_names(c.name, {x.name for x in enc.combatants}, count)
    events: list[Event] = []
    if renamed is not None:
        events.append(CombatantUpdated(id=c.id, changes={"name": renamed}))
    sheet = {k: x for k, x in combatant_sheet(c).items() if k not in ("id", "entry")}
    entry = max(x.entry for x in enc.combatants)
    for k, (cid, name) in enumerate(zip(ids, names, strict=True)):
        if enc.combatant(cid) is not None:
            raise Refusal("id_taken", field="ids", id=cid)
        events.append(CombatantAdded(combatant=parse_combatant({**sheet, "name": name}, cid, entry=entry + 1 + k),
                                     joins=None))
    return events


def _add_copies(enc: Encounter, cmd: Command) -> list[Event]:
    """``count`` copies of one sheet (a model), at once: one command, so one undo takes
    them all back. Each is numbered as ``add_combatant`` ``numbered`` numbers one copy
    (a fighter of the model's name on the board: "Orque" becomes "Orque 1", the copies
    "Orque 2", "Orque 3"…), out of the round (they join the next one, D7). The sheet's
    own ``id``, if any, is not used: each copy has its id of ``ids``.

    >>> from engine.sheet import parse_combatant
    >>> enc = Encounter(combatants=(parse_combatant({"name": "Orque"}, "c1", 0),), next_id=2)
    >>> events = _add_copies(enc, {"combatant": {"name": "Orque"}, "count": 2, "ids": ["c2", "c3"]})
    >>> [getattr(e, "changes", None) or e.combatant.name for e in events]
    [{'name': 'Orque 1'}, 'Orque 2', 'Orque 3']
    >>> _add_copies(enc, {"combatant": {"name": "Orque"}, "count": 64, "ids": []})
    Traceback (most recent call last):
    ...
    engine.errors.Refusal: Au plus 64 combattants dans un combat : on peut encore en ajouter 63.
    """
    sheet = {k: x for k, x in v.mapping(cmd["combatant"], "combatant").items() if k != "id"}
    count = cmd["count"]
    if type(count) is not int or count < 1:
        raise v.bad("count", "copies_count")
    room = MAX_FIGHTERS - len(enc.combatants)
    if count > room:
        raise Refusal("too_many_copies", max=MAX_FIGHTERS, room=room) if room > 0 else Refusal("too_many_fighters", max=MAX_FIGHTERS)
    ids = [v.identifier(i, "ids[]") for i in v.sequence(cmd.get("ids"), "ids")]
    if len(ids) != count or len(set(ids)) != count:
        raise v.bad("ids", "distinct_ids", count=count)
    events: list[Event] = []
    after = enc
    for cid in ids:
        for e in _add_combatant(after, {"type": "add_combatant", "combatant": {**sheet, "id": cid}, "numbered": True}):
            events.append(e)
            after = evolve(after, e)
    return events


def _add_combatants(enc: Encounter, cmd: Command) -> list[Event]:
    """Several fighters at once (a cast set up beforehand, the example fight): one command,
    so one undo takes them all back. Each joins as ``add_combatant`` makes it join (out of
    the round, D7), in order; the table fields a sheet carries besides (``notes``,
    ``arrow_nocked``…: ``update_combatant``'s) are set right after it joins, as
    ``update_combatant`` sets them. The first refusal refuses the whole command.

    >>> events = _add_combatants(Encounter(), {"combatants": [{"name": "Lyra", "id": "c1", "notes": "Guette"},
    ...                                                       {"name": "Bastien", "id": "c2"}]})
    >>> [type(e).__name__ for e in events], events[1].changes
    (['CombatantAdded', 'CombatantUpdated', 'CombatantAdded'], {'notes': 'Guette'})
    >>> _add_combatants(Encounter(), {"combatants": []})
    Traceback (most recent call last):
    ...
    engine.errors.Refusal: « combatants » : au moins un.
    """
    sheets = v.sequence(cmd["combatants"], "combatants", max_len=MAX_FIGHTERS)
    if not sheets:
        raise v.bad("combatants", "empty")
    if len(enc.combatants) + len(sheets) > MAX_FIGHTERS:
        room = MAX_FIGHTERS - len(enc.combatants)
        raise Refusal("too_many_copies", max=MAX_FIGHTERS, room=room) if room > 0 else Refusal("too_many_fighters", max=MAX_FIGHTERS)
    events: list[Event] = []
    after = enc
    for item in sheets:
        item = v.mapping(item, "combatants[]")
        table = {k: x for k, x in item.items() if k in TABLE_FIELDS and k not in NEW_FIELDS}
        sheet = {k: x for k, x in item.items() if k not in table}
        made = _add_combatant(after, {"type": "add_combatant", "combatant": sheet})
        for e in made:
            after = evolve(after, e)
        if table:
            for e in (changed := _update_combatant(after, {"type": "update_combatant", "id": sheet.get("id"), "changes": table})):
                after = evolve(after, e)
            made = [*made, *changed]
        events.extend(made)
    return events


def _remove_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    c = _combatant(enc, cmd["id"])
    return [CombatantRemoved(id=c.id)]


def _start_round(enc: Encounter, cmd: Command) -> list[Event]:
    """R1: every fighter not out of the fight (D6) declares and rolls, by the rules the
    round starts with (``set_rules`` for the next round); R2.4, D3."""
    if not enc.round_over:
        raise Refusal("round_in_progress", round=enc.round)
    declarations = v.mapping(cmd.get("declarations", {}), "declarations")
    rolls = v.mapping(cmd.get("rolls", {}), "rolls")
    if "app_rolled" in cmd:  # taken by the engine before the rules (commands.resolve): a bad one is left
        raise v.bad("app_rolled", "app_rolled")
    engine_rolled = [v.identifier(i, "engine_rolled[]") for i in v.sequence(cmd.get("engine_rolled", []), "engine_rolled")]
    for key in (*declarations, *rolls):
        c = _combatant(enc, key, "declarations/rolls")
        if c.hors_combat:
            raise Refusal("rolls_hors_combat", name=c.name)
    fighters = [c for c in enc.combatants if not c.hors_combat]
    if not fighters:
        raise Refusal("nobody_fights")
    initiatives = []
    refused: list[Refusal] = []
    for c in fighters:
        try:
            if c.id not in rolls:
                raise v.bad(f"rolls.{c.id}", "die_missing", name=c.name)
            b = _declare(c, declarations.get(c.id), rolls[c.id], enc.regles_du_tour_suivant)
        except Refusal as refusal:  # every fighter judged: the form shows each bad die at once
            refused.append(refusal)
            continue
        initiatives.append(Initiative(
            id=c.id, weapon=declarations.get(c.id), d6=b["d6"], rolled_by="engine" if c.id in engine_rolled else "table",
            initiative=b["initiative"], breakdown=b,
        ))
    if refused:
        raise _every(refused)
    return [RoundStarted(round=enc.round + 1, initiatives=tuple(initiatives))]


def _every(refused: list[Refusal]) -> Refusal:
    """R1.1, R1.2, D2: the first refusal of a start of round, carrying every declaration and
    die it refuses (``fields``, each ``{"field", "key", "params"}``), fighter by fighter.

    >>> from engine.sheet import parse_combatant
    >>> enc = Encounter(combatants=tuple(parse_combatant({"name": n}, n, i) for i, n in enumerate("abc")), round_over=True)
    >>> try:
    ...     _start_round(enc, {"type": "start_round", "rolls": {"a": 7, "b": 2, "c": 0}})
    ... except Refusal as r:
    ...     r.key, [(f["field"], f["key"]) for f in r.fields]
    ('range', [('rolls.a', 'range'), ('rolls.c', 'range')])
    """
    first = refused[0]
    first.fields = [r.field_json() for r in refused if "field" in r.params]
    return first


def _end_round(enc: Encounter, cmd: Command) -> list[Event]:
    """R2.4: the GM may end a round early, the event naming who could still act (still in
    the round, D21, with P.I. > 0); on a round already over nothing changes."""
    if enc.round_over:
        return []
    holding = tuple(c.id for c in enc.combatants if c.still_in_round and c.pi > 0)
    return [RoundEnded(round=enc.round, reason="mj", holding=holding, unspent=unspent(enc))]


def unspent(enc: Encounter) -> tuple[str, ...]:
    """Who has P.I. left as the round ends (``RoundEnded.unspent``): rolled this round,
    not out of the fight (D6), P.I. > 0, passed (D5) or not; kept for interruptions until
    the next round discards them (R5.4, D3)."""
    return tuple(c.id for c in enc.combatants if c.in_round and not c.hors_combat and c.pi > 0)


def _pass(enc: Encounter, cmd: Command) -> list[Event]:
    """D5: stop taking phases for the rest of the round (P.I. kept for interruptions)."""
    c = _combatant(enc, cmd["actor"], "actor")
    may_pass(c, turn_of(enc, c, ()))  # passing needs no turn of one's own (D5)
    return [TurnPassed(actor=c.id, pi=c.pi)]


def _update_settings(enc: Encounter, cmd: Command) -> list[Event]:
    """R4.3: the group's own run table, ``[[min_test_result, metres], ...]``, in force at
    once (the rules' ``courir_table``, now and for the rules to come)."""
    settings = v.mapping(cmd["settings"], "settings")
    for key in settings:
        if key != "run_table":
            raise v.bad(f"settings.{key}", "unknown_field", known=["run_table"])
    return [SettingsUpdated(settings=Settings(run_table=run_table(settings.get("run_table", []), "run_table")))]


def _set_rules(enc: Encounter, cmd: Command) -> list[Event]:
    """The group's rules (engine/regles.py): ``regles``, the fields that change (``whole``:
    a whole value, each missing field as in RULES.md), over the rules the next round
    starts with; in force from the next round's ``start_round`` (``from_next_round``, by
    default), or at once (``from_next_round: false``, and before the first round). Rules
    that change nothing are accepted with no event."""
    at_once = not v.boolean(cmd.get("from_next_round", True), "from_next_round") or enc.round == 0
    whole = v.boolean(cmd.get("whole", False), "whole")
    coming = enc.regles_du_tour_suivant
    regles = read_regles(cmd["regles"], Regles() if whole else coming)
    if regles == (enc.regles if at_once else coming) and (not at_once or enc.regles_a_venir is None):
        return []
    changes = differences(enc.regles if at_once else coming, regles)
    return [RulesSet(regles=regles, at_once=at_once, changes=tuple(d["field"] for d in changes))]


#: D25: the longest condition's words, and the most conditions a fighter carries at once.
MAX_CONDITION = 40
MAX_CONDITIONS = 8


def condition_rounds_from(enc: Encounter) -> int:
    """D25: the first round whose end a new condition may last until: this round while one
    runs, else the next one.

    >>> condition_rounds_from(Encounter(round=2, round_over=False)), condition_rounds_from(Encounter(round=2, round_over=True))
    (2, 3)
    """
    return enc.round + 1 if enc.round_over else enc.round


def _add_condition(enc: Encounter, cmd: Command) -> list[Event]:
    """D25: a condition on a fighter, until removed or until the end of round ``until``
    (this round while one runs, else a round to come); the same words again change its end.

    >>> from engine.sheet import parse_combatant
    >>> enc = Encounter(round=2, round_over=False, combatants=(parse_combatant({"name": "Brune"}, "c1", 0),))
    >>> _add_condition(enc, {"id": "c1", "condition": " étourdi ", "until": 2})
    [ConditionAdded(id='c1', text='étourdi', until=2)]
    >>> _add_condition(enc, {"id": "c1", "condition": "saigne", "until": 1})
    Traceback (most recent call last):
    ...
    engine.errors.Refusal: « until » : de 2 à 1001.
    """
    c = _combatant(enc, cmd["id"])
    text = v.text(cmd["condition"], "condition", MAX_CONDITION)
    first = condition_rounds_from(enc)
    until = v.integer(cmd["until"], "until", low=first, high=first + v.MAX_VALUE) if "until" in cmd else None
    if len(c.conditions) >= MAX_CONDITIONS and all(x.text != text for x in c.conditions):
        raise v.bad("condition", "too_many", max=MAX_CONDITIONS)
    return [ConditionAdded(id=c.id, text=text, until=until)]


def _remove_condition(enc: Encounter, cmd: Command) -> list[Event]:
    """D25: a condition taken off before its end (or one that had none)."""
    c = _combatant(enc, cmd["id"])
    text = v.text(cmd["condition"], "condition", MAX_CONDITION)
    if all(x.text != text for x in c.conditions):
        raise Refusal("no_such_condition", name=c.name, condition=text)
    return [ConditionRemoved(id=c.id, text=text)]


def ended_conditions(enc: Encounter, round_: int) -> list[Event]:
    """D25: the conditions whose end comes with the end of ``round_``, in board order."""
    return [ConditionEnded(id=c.id, text=x.text, round=round_)
            for c in enc.combatants for x in c.conditions if x.until is not None and x.until <= round_]


def _act(enc: Encounter, cmd: Command) -> list[Event]:
    return _action(enc, cmd, interruption=False)


def _interrupt(enc: Encounter, cmd: Command) -> list[Event]:
    return _action(enc, cmd, interruption=True)


def _action(enc: Encounter, cmd: Command, interruption: bool) -> list[Event]:
    """R4, R5: an action by ``actor``, judged by :func:`engine.rules.plan` (as the board's
    verdicts are), then what it does: its cost paid, its own effects."""
    c = _combatant(enc, cmd["actor"], "actor")
    action = _named_action(cmd["action"], interruption)
    options = _options(enc, c, action, cmd)
    regles = enc.regles
    p = plan(c, turn_of(enc, c, ready(enc)), action, options)
    w = p.weapon
    keeps_aim = action.keeps_aim and w is not None and c.aim_weapon == w.id
    events: list[Event] = []
    if loses_aim(c, action, w, regles):
        events.append(AimLost(actor=c.id, bonus=c.aim_bonus))  # R4.1, D13: any other action loses the aim
    events.append(ActionTaken(
        actor=c.id, action=action.id, category=action.category_in(regles).value, cost=p.cost, pays=p.pays,
        pi_before=c.pi, pi_after=c.pi - p.cost if p.pays == "pi" else c.pi,
        hope_before=c.hope, hope_after=c.hope - p.cost if p.pays == "espoir" else c.hope,
        weapon=w.id if w else None, options=dict(options), tests=describe_tests(c, action, w, options, regles),
        outcome={k: options[k] for k in ("success", "test_result", "tests") if k in options},
    ))
    events.extend(action.effects(Act(enc=enc, actor=c, weapon=w, options=options, keeps_aim=keeps_aim)))
    return events


def _named_action(name: object, interruption: bool) -> Action:
    """R4: the action of the catalogue; R5.3: an interruption through ``interrupt`` only,
    any other action through ``act``."""
    action = ACTIONS.get(name) if isinstance(name, str) else None
    if action is None:
        raise Refusal("unknown_action", got=v.shown(name))
    is_interruption = action.category is Category.INTERRUPTION
    if is_interruption != interruption:
        raise Refusal("use_interrupt" if is_interruption else "use_act", action=action.id)
    return action


def _options(enc: Encounter, c: Combatant, action: Action, cmd: Command) -> dict[str, Any]:
    """The command's options, each of its type, each one the action takes; a target or an
    attacker is another fighter on the tracker."""
    options = check_options(cmd)
    for name in options:
        if name not in action.options:
            raise Refusal("option_not_taken", action=action.id, option=name)
    for name in ("target", "against"):
        if name in options and _combatant(enc, options[name], name).id == c.id:
            raise v.bad(name, "not_self")
    return options


_DECIDERS = {
    "add_combatant": _add_combatant,
    "update_combatant": _update_combatant,
    "remove_combatant": _remove_combatant,
    "duplicate_combatant": _duplicate_combatant,
    "add_copies": _add_copies,
    "add_combatants": _add_combatants,
    "start_round": _start_round,
    "end_round": _end_round,
    "pass": _pass,
    "update_settings": _update_settings,
    "set_rules": _set_rules,
    "act": _act,
    "interrupt": _interrupt,
    "add_condition": _add_condition,
    "remove_condition": _remove_condition,
}
