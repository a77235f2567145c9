"""Commands checked against the rules become events: ``decide(state, command) -> events``.

Nothing here changes a state: :mod:`engine.evolve` applies the events. A refused command
raises :class:`~engine.errors.Refusal` and produces no event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import values as v
from .catalogue import ACTIONS, Action
from .codec import combatant_sheet
from .commands import Command, check_options, check_shape
from .errors import Refusal
from .evolve import evolve
from .initiative import breakdown, ready, round_is_spent
from .model import Category, Combatant, Encounter, Posture, WeaponKind
from .rules import Plan, describe_tests, plan, turn_of
from .sheet import check_changes, parse_combatant

Event = dict[str, Any]


def decide(enc: Encounter, command: object) -> list[Event]:
    """The events that ``command`` produces, followed by the end of the round when it
    spends the last P.I. (R2.4)."""
    cmd = check_shape(command)
    events = _DECIDERS[cmd["type"]](enc, cmd)
    if not enc.round_over and events:
        after = enc
        for e in events:
            after = evolve(after, e)
        if not after.round_over and round_is_spent(after):
            events.append({"type": "round_ended", "round": enc.round, "reason": "pi"})
    return events


def _combatant(enc: Encounter, cid: object, field: str = "id") -> Combatant:
    c = enc.combatant(cid)
    if c is None:
        raise Refusal("unknown_combatant", f"Aucun combattant n'a l'id {cid!r:.40} (« {field} »).")
    return c


def _declare(c: Combatant, weapon_id: object, d6: object) -> dict[str, Any]:
    """R1.1, R1.2, D2: a declared weapon must be on the sheet and in hand; a die 1 to 6."""
    if weapon_id is not None:
        wid = v.identifier(weapon_id, f"declarations.{c.id}")
        w = c.weapon(wid)
        if w is None:
            raise Refusal("bad_value", f"« declarations.{c.id} » : {c.name} n'a pas d'arme {wid!r}.")
        if wid not in c.in_hand:
            raise Refusal("not_allowed", f"{c.name} ne peut pas déclarer {w.name} : l'arme n'est pas en main. Préparez-la d'abord (D2).")
    die = v.integer(d6, f"rolls.{c.id}", low=1, high=6)
    return breakdown(c, weapon_id if isinstance(weapon_id, str) else None, die)


def _add_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    sheet = v.mapping(cmd["combatant"], "combatant")
    cid = v.identifier(sheet.get("id"), "combatant.id")
    if enc.combatant(cid) is not None:
        raise Refusal("bad_value", f"« combatant.id » : l'id {cid!r} est déjà pris.")
    c = parse_combatant(sheet, cid, entry=max((x.entry for x in enc.combatants), default=-1) + 1)
    entry = None
    if "declaration" in cmd or "roll" in cmd:
        if enc.round_over:
            raise Refusal("round_over", "Aucun tour en cours : le combattant rejoindra le prochain tour (D7).")
        if "engine_rolled" in cmd:
            v.boolean(cmd["engine_rolled"], "engine_rolled")
        b = _declare(c, cmd.get("declaration"), cmd.get("roll"))
        entry = {
            "weapon": cmd.get("declaration"),
            "d6": b["d6"],
            "rolled_by": "engine" if cmd.get("engine_rolled") else "table",
            "initiative": b["initiative"],
            "breakdown": b,
        }
    return [{"type": "combatant_added", "combatant": combatant_sheet(c), "joins": entry}]


def _update_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    c = _combatant(enc, cmd["id"])
    others = tuple(x.id for x in enc.combatants if x.id != c.id)
    changes = check_changes(c, cmd["changes"], others)
    events: list[Event] = []
    sheet_changes = {k: x for k, x in changes.items() if k not in ("engaged", "engaged_with")}
    if sheet_changes:
        events.append({"type": "combatant_updated", "id": c.id, "changes": sheet_changes})
    if "engaged_with" in changes:  # D11: set by the GM, with fighters on the tracker
        with_, off = changes["engaged_with"], changes.get("engaged") is True and not changes["engaged_with"]
        events.append({"type": "engagements_set", "id": c.id, "with": with_, "off_tracker": off})
    elif changes.get("engaged") is False:  # ends every engagement
        events.append({"type": "engagements_set", "id": c.id, "with": [], "off_tracker": False})
    elif changes.get("engaged") is True:  # engaged with someone off the tracker
        events.append({"type": "engagements_set", "id": c.id, "with": list(c.engaged_with), "off_tracker": True})
    if changes.get("hors_combat") and (c.engaged_with or c.engaged_off_tracker):
        events.append({"type": "disengaged", "actor": c.id})  # D11
    return events


def _remove_combatant(enc: Encounter, cmd: Command) -> list[Event]:
    c = _combatant(enc, cmd["id"])
    return [{"type": "combatant_removed", "id": c.id}]


def _start_round(enc: Encounter, cmd: Command) -> list[Event]:
    """R1: every fighter not out of the fight (D6) declares and rolls; R2.4, D3."""
    if not enc.round_over:
        raise Refusal("round_in_progress", f"Le tour {enc.round} est en cours : terminez-le d'abord (R2.4).")
    declarations = v.mapping(cmd.get("declarations", {}), "declarations")
    rolls = v.mapping(cmd.get("rolls", {}), "rolls")
    engine_rolled = [v.identifier(i, "engine_rolled[]") for i in v.sequence(cmd.get("engine_rolled", []), "engine_rolled")]
    for key in (*declarations, *rolls):
        c = _combatant(enc, key, "declarations/rolls")
        if c.hors_combat:
            raise Refusal("not_allowed", f"{c.name} est hors combat : il ne lance pas d'initiative (D6).")
    fighters = [c for c in enc.combatants if not c.hors_combat]
    if not fighters:
        raise Refusal("not_allowed", "Aucun combattant en état de combattre : ajoutez-en (R1).")
    initiatives = []
    for c in fighters:
        if c.id not in rolls:
            raise Refusal("bad_value", f"« rolls.{c.id} » manque : le dé de {c.name}.")
        b = _declare(c, declarations.get(c.id), rolls[c.id])
        initiatives.append({
            "id": c.id,
            "weapon": declarations.get(c.id),
            "d6": b["d6"],
            "rolled_by": "engine" if c.id in engine_rolled else "table",
            "initiative": b["initiative"],
            "breakdown": b,
        })
    return [{"type": "round_started", "round": enc.round + 1, "initiatives": initiatives}]


def _end_round(enc: Encounter, cmd: Command) -> list[Event]:
    """R2.4: the GM may end a round early; on a round already over nothing changes."""
    if enc.round_over:
        return []
    return [{"type": "round_ended", "round": enc.round, "reason": "mj"}]


def _pass(enc: Encounter, cmd: Command) -> list[Event]:
    """D5: stop taking phases for the rest of the round (P.I. kept for interruptions)."""
    c = _combatant(enc, cmd["actor"], "actor")
    if enc.round == 0 or enc.round_over:
        raise Refusal("round_over", "Aucun tour en cours (R2.4).")
    if c.hors_combat:
        raise Refusal("not_allowed", f"{c.name} est hors combat (D6).")
    if not c.in_round:
        raise Refusal("not_allowed", f"{c.name} rejoint le prochain tour (D7).")
    if c.passed:
        raise Refusal("not_allowed", f"{c.name} a déjà passé (D5).")
    return [{"type": "turn_passed", "actor": c.id, "pi": c.pi}]


def _update_settings(enc: Encounter, cmd: Command) -> list[Event]:
    """R4.3: the group's own run table, ``[[min_test_result, metres], ...]``."""
    settings = v.mapping(cmd["settings"], "settings")
    for key in settings:
        if key != "run_table":
            raise v.bad(f"settings.{key}", "un réglage connu (run_table)", key)
    rows = []
    for i, row in enumerate(v.sequence(settings.get("run_table", []), "run_table")):
        pair = v.sequence(row, f"run_table[{i}]", 2)
        if len(pair) != 2:
            raise v.bad(f"run_table[{i}]", "une paire [résultat minimum, mètres]", row)
        rows.append([v.integer(pair[0], f"run_table[{i}][0]"), v.integer(pair[1], f"run_table[{i}][1]", low=0)])
    rows.sort()
    if len({r[0] for r in rows}) != len(rows):
        raise v.bad("run_table", "des résultats minimums distincts", rows)
    return [{"type": "settings_updated", "settings": {"run_table": rows}}]


def _act(enc: Encounter, cmd: Command) -> list[Event]:
    return _action(enc, cmd, interruption=False)


def _interrupt(enc: Encounter, cmd: Command) -> list[Event]:
    return _action(enc, cmd, interruption=True)


def _action(enc: Encounter, cmd: Command, interruption: bool) -> list[Event]:
    c = _combatant(enc, cmd["actor"], "actor")
    action = ACTIONS.get(cmd["action"]) if isinstance(cmd["action"], str) else None
    if action is None:
        raise Refusal("unknown_action", f"Action inconnue : {cmd['action']!r:.40} (R4).")
    is_interruption = action.category is Category.INTERRUPTION
    if is_interruption != interruption:
        raise Refusal(
            "bad_command",
            f"« {action.id} » est une interruption : utilisez « interrupt » (R5)." if is_interruption
            else f"« {action.id} » n'est pas une interruption : utilisez « act » (R5.3).",
        )
    options = check_options(cmd)
    for name in options:
        if name not in action.options:
            raise Refusal("bad_command", f"« {action.id} » ne prend pas l'option « {name} ».")
    for name in ("target", "against"):
        if name in options:
            other = _combatant(enc, options[name], name)
            if other.id == c.id:
                raise v.bad(name, "un autre combattant", options[name])
    p = plan(c, turn_of(enc, c, ready(enc)), action, options)
    return _effects(enc, c, action, p, options)


def _effects(enc: Encounter, c: Combatant, action: Action, p: Plan, options: Mapping[str, Any]) -> list[Event]:
    """The action's event and what it changes (R4 table, D9 to D19)."""
    a = action.id
    actor = c.id
    w = p.weapon
    events: list[Event] = []
    keeps_aim = a in ("ajuster_tir", "tir_arc", "lancer_arme") and w is not None and c.aim_weapon == w.id
    if c.aim_bonus and not keeps_aim:
        events.append({"type": "aim_lost", "actor": actor, "bonus": c.aim_bonus})  # R4.1, D13
    pi_after = c.pi - p.cost if p.pays == "pi" else c.pi
    hope_after = c.hope - p.cost if p.pays == "espoir" else c.hope
    outcome = {k: options[k] for k in ("success", "test_result", "tests") if k in options}
    events.append({
        "type": "action_taken",
        "actor": actor,
        "action": a,
        "category": action.category.value,
        "cost": p.cost,
        "pays": p.pays,
        "pi_before": c.pi,
        "pi_after": pi_after,
        "hope_before": c.hope,
        "hope_after": hope_after,
        "weapon": w.id if w else None,
        "options": dict(options),
        "tests": describe_tests(c, action, w, options),
        "outcome": outcome,
    })
    if a == "ajuster_tir" and w is not None:
        cap = max(1, c.skill(w.skill))
        bonus = min(cap, c.aim_bonus + 1) if keeps_aim else 1
        events.append({"type": "aim_adjusted", "actor": actor, "weapon": w.id, "bonus": bonus,
                       "capped": keeps_aim and c.aim_bonus >= cap})  # R4.1, D17
    elif a in ("tir_arc", "lancer_arme") and w is not None:
        if keeps_aim:
            events.append({"type": "aim_used", "actor": actor, "weapon": w.id, "bonus": c.aim_bonus})
        if a == "tir_arc":
            events.append({"type": "arrow_loosed", "actor": actor, "weapon": w.id})
        else:  # D19: the thrown weapon leaves the hand and stays on the sheet
            events.append(_hands(c, tuple(i for i in c.in_hand if i != w.id)))
        if "target" in options:
            events.append({"type": "attacked", "actor": actor, "target": options["target"]})
    elif a == "encocher_fleche" and w is not None:
        events.append({"type": "arrow_nocked", "actor": actor, "weapon": w.id})  # D18
    elif a == "lacher_objet":
        dropped = options.get("items", list(c.in_hand))
        events.append(_hands(c, tuple(i for i in c.in_hand if i not in dropped)))
    elif a == "prendre_objet" and "items" in options:
        toggled = options["items"]
        kept = tuple(i for i in c.in_hand if i not in toggled)
        taken = tuple(i for i in toggled if i not in c.in_hand)
        events.append(_hands(c, kept + taken))
    elif a == "preparer_arme" and w is not None:
        events.append(_hands(c, (*c.in_hand, w.id)))
    elif a == "se_jeter_au_sol":
        events.append({"type": "posture_changed", "actor": actor, "posture": options.get("posture", "a_terre")})
    elif a == "se_relever":
        events.append({"type": "posture_changed", "actor": actor, "posture": Posture.DEBOUT.value})
    elif a == "se_mettre_a_couvert":
        events.append({"type": "cover_taken", "actor": actor})
    elif a in ("se_deplacer", "courir", "charge"):
        events.extend(_move(enc, c, a, options))
    elif a == "attaque_melee" and "target" in options:
        events.append({"type": "engaged", "actor": actor, "target": options["target"]})  # D11
    return events


def _hands(c: Combatant, in_hand: tuple[str, ...]) -> Event:
    """What the fighter holds now; a bow that leaves the hand loses its arrow."""
    bow_kept = any(w.kind is WeaponKind.BOW and w.id in in_hand for w in c.weapons)
    return {"type": "hands_changed", "actor": c.id, "in_hand": list(in_hand),
            "arrow_lost": c.arrow_nocked and not bow_kept}


def _move(enc: Encounter, c: Combatant, a: str, options: Mapping[str, Any]) -> list[Event]:
    """D10, D11: moving (walking, running, charging) leaves cover; walking and running
    leave melee; a charge engages its target and marks the round (R4.2)."""
    events: list[Event] = []
    if c.cover:
        events.append({"type": "cover_lost", "actor": c.id})
    if a == "charge":
        events.append({"type": "charged", "actor": c.id, "distance": options["distance"],
                       "reach": 6 + options["test_result"]})
        if "target" in options:
            events.append({"type": "engaged", "actor": c.id, "target": options["target"]})
        return events
    if c.engaged:
        events.append({"type": "disengaged", "actor": c.id})
    distance: float | int | None = 6
    if a == "courir":
        distance = options.get("distance", _run_distance(enc, options.get("test_result")))
    events.append({"type": "moved", "actor": c.id, "how": "course" if a == "courir" else "marche",
                   "distance": distance})
    return events


def _run_distance(enc: Encounter, result: int | None) -> int | None:
    """R4.3: the row with the highest minimum not above the result; below every row 0 m;
    with no table or no result, unknown."""
    if result is None or not enc.settings.run_table:
        return None
    metres = 0
    for minimum, m in enc.settings.run_table:
        if minimum <= result:
            metres = m
    return metres


_DECIDERS = {
    "add_combatant": _add_combatant,
    "update_combatant": _update_combatant,
    "remove_combatant": _remove_combatant,
    "start_round": _start_round,
    "end_round": _end_round,
    "pass": _pass,
    "update_settings": _update_settings,
    "act": _act,
    "interrupt": _interrupt,
}
