"""Hypothesis strategies for fighters and commands, legal and not."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

import engine
from engine.table import Table

NAMES = st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != "")
SMALL = st.integers(min_value=0, max_value=12)

WEAPONS = [
    {"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee", "stowed": True},
    {"id": "arc", "name": "Arc", "kind": "bow", "skill": "arc", "stowed": True},
    {"id": "dague", "name": "Dague", "kind": "thrown", "skill": "dague", "stowed": True},
    {"id": "bouclier", "name": "Bouclier", "kind": "shield", "skill": "bouclier", "stowed": False},
]


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    weapons = draw(st.lists(st.sampled_from(WEAPONS), unique_by=lambda w: w["id"], max_size=4))
    held = [w["id"] for w in weapons if draw(st.booleans())]
    return {
        "name": draw(NAMES),
        "side": draw(st.sampled_from(["pj", "pnj"])),
        "characteristics": {k: draw(SMALL) for k in ("melee", "tir", "lancer", "derobee")},
        "skills": {k: draw(st.integers(0, 4)) for k in ("epee", "arc", "dague", "corps_a_corps", "course")},
        "initiative_bonus": draw(st.integers(-2, 3)),
        "wounds": draw(st.integers(0, 3)),
        "hope": draw(st.integers(0, 2)),
        "weapons": weapons,
        "in_hand": held,
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)

COMMAND_TYPES = ["add_combatant", "update_combatant", "remove_combatant", "start_round", "act", "interrupt",
                 "pass", "end_round", "update_settings", "add_condition", "remove_condition", "add_copies"]
KEYS = ["type", "actor", "action", "id", "changes", "combatant", "declarations", "rolls", "settings", "condition", "until", *engine.ACTIONS,
        "count", "ids", "target", "against", "weapon", "distance", "test_result", "difficulty", "success", "familier", "skill",
        "posture", "items", "tests"]

#: Commands of every shape: near-misses (right keys, wrong values) and plain garbage.
MALFORMED = st.one_of(
    JSON,
    st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5),
    st.builds(lambda t, rest: {"type": t, **rest}, st.sampled_from(COMMAND_TYPES),
              st.dictionaries(st.sampled_from(KEYS), JSON | st.sampled_from(["c1", "c2", "epee", "arc"]), max_size=4)),
)


def options_for(action: str, fighter: dict[str, Any], others: list[str], draw: st.DrawFn) -> dict[str, Any]:
    """Plausible options for an action the board shows as allowed."""
    o: dict[str, Any] = {}
    if action in ("attaque_melee", "charge", "tir_arc", "lancer_arme") and others and draw(st.booleans()):
        o["target"] = draw(st.sampled_from(others))
    if action == "charge":
        o["test_result"] = draw(st.integers(-3, 10))
        o["distance"] = draw(st.integers(0, 6 + o["test_result"] + 2))
    if action == "courir" and draw(st.booleans()):
        o["test_result"] = draw(st.integers(-3, 12))
    if action == "utiliser_competence":
        o["skill"] = draw(st.sampled_from(["course", "herboristerie"]))
    if action == "esquive_acrobatique":
        o["tests"] = {"esquive": draw(st.booleans()), "acrobatie": draw(st.booleans())}
    if action == "se_jeter_au_sol":
        o["posture"] = draw(st.sampled_from(["a_genoux", "a_terre"]))
    if action == "lacher_objet" and fighter["in_hand"] and draw(st.booleans()):
        o["items"] = fighter["in_hand"][:1]
    if action in ("observer", "donner_ordre", "bloquer", "esquiver", "parer") and draw(st.booleans()):
        o["success"] = draw(st.booleans())
    return o


def next_command(board: dict[str, Any], draw: st.DrawFn) -> dict[str, Any] | None:
    """A legal phase command read off ``board``: the first fighter ready takes one of the
    actions the board allows, with plausible options, or passes when none is; ``None``
    when nobody may act."""
    if not board["active"]:
        return None
    actor = board["active"][0]
    fighter = board["combatants"][actor]
    allowed = [a for a, v in fighter["actions"].items() if v["allowed"] and v["category"] != "interruption"]
    if not allowed:
        return {"type": "pass", "actor": actor}
    action = draw(st.sampled_from(allowed))
    others = [c for c in board["combatants"] if c != actor]
    return {"type": "act", "actor": actor, "action": action, **options_for(action, fighter, others, draw)}


class Playing(RuleBasedStateMachine):
    """A fight played at random on ``self.table``: fighters added, rounds started, the
    next command drawn from the board. A subclass sets ``table`` and ``last`` and says
    what it keeps of each answer (``remember``)."""

    table: Table
    last: dict[str, Any]

    def remember(self, answer: dict[str, Any]) -> None:
        self.last = answer

    @rule(sheet=sheets())
    def add(self, sheet: dict[str, Any]) -> None:
        self.remember(self.table.apply({"type": "add_combatant", "combatant": sheet}))

    @rule()
    def start_round(self) -> None:
        self.remember(self.table.apply({"type": "start_round"}))

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        command = next_command(self.last["board"], data.draw)
        if command is not None:
            self.remember(self.table.apply(command))
