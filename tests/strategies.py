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
                 "pass", "end_round", "update_settings", "add_condition", "remove_condition", "add_copies", "set_rules"]
KEYS = ["type", "actor", "action", "id", "changes", "combatant", "declarations", "rolls", "settings", "condition", "until", *engine.ACTIONS,
        "count", "ids", "target", "against", "weapon", "distance", "test_result", "difficulty", "success", "familier", "skill",
        "posture", "items", "tests", "regles", "from_next_round", "whole"]

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


@st.composite
def regles(draw: st.DrawFn) -> dict[str, Any]:
    """A whole rules value a group may set (engine/regles.py), valid and consistent: a
    complex action costs at least a simple one, the aim's cap is at least its step. Small
    numbers, so that random fights still end their rounds."""
    simple = draw(st.integers(0, 8))
    step = draw(st.integers(1, 3))
    table = draw(st.lists(st.tuples(st.integers(-3, 12), st.integers(0, 30)), max_size=4, unique_by=lambda r: r[0]))
    return {
        "de_initiative": draw(st.integers(2, 12)),
        "diviseur_caracteristique": draw(st.integers(1, 4)),
        "cout_gratuite_suivante": draw(st.integers(0, 8)),
        "cout_simple": simple,
        "cout_complexe": simple + draw(st.integers(0, 8)),
        "cout_interruption": draw(st.integers(0, 8)),
        "espoir_cout": draw(st.integers(0, 2)),
        "espoir_seuil": draw(st.integers(-3, 3)),
        "visee_pas": step,
        "visee_plafond": draw(st.none() | st.integers(step, step + 3)),
        "visee_au_plafond": draw(st.booleans()),
        "visee_perdue": draw(st.lists(st.sampled_from(["gratuite", "simple", "complexe", "interruption"]), unique=True)),
        "charge_attaque": draw(st.integers(-6, 6)),
        "charge_degats": draw(st.integers(-6, 6)),
        "charge_parade": draw(st.integers(-6, 6)),
        "charge_sans_esquive": draw(st.booleans()),
        "charge_portee": draw(st.integers(0, 10)),
        "marche_metres": draw(st.integers(0, 10)),
        "courir_categorie": draw(st.sampled_from(["simple", "complexe"])),
        "courir_table": [list(r) for r in table],
        "passer": draw(st.booleans()),
    }


#: For each field of the rules, values it refuses on its own (a wrong type or out of range).
BAD_RULES: dict[str, list[Any]] = {
    "de_initiative": [1, 0, 101, 6.0, "6", True, None],
    "diviseur_caracteristique": [0, 11, 2.5, "2"],
    "cout_gratuite_suivante": [-1, 100, "5"],
    "cout_simple": [-1, 100, 5.0],
    "cout_complexe": [-1, 100, None],
    "cout_interruption": [-1, 100, [5]],
    "espoir_cout": [-1, 10, False],
    "espoir_seuil": [-100, 100, "0"],
    "visee_pas": [0, 100, None],
    "visee_plafond": [0, 100, "max"],
    "visee_au_plafond": [1, "oui", None],
    "visee_perdue": ["simple", ["course"], ["simple", "simple"], [1], {"simple": True}],
    "charge_attaque": [100, -100, "+4"],
    "charge_degats": [100, 2.5],
    "charge_parade": [-100, "-4"],
    "charge_sans_esquive": [0, "non"],
    "charge_portee": [-1, 1000, 6.5],
    "marche_metres": [-1, 1000, "6"],
    "courir_categorie": ["gratuite", "interruption", 1, None],
    "courir_table": [5, [[0]], [[0, 6, 1]], [["a", 6]], [[0, -1]], [[0, 6], [0, 7]]],
    "passer": [1, "oui", None],
}
