"""Actions told event by event (engine/actions/): what each one produces, exactly, on a
fixed fight. The scenarios (tests/scenarios/) check the board; these check the events,
which the journal, the page's toasts and a replay read."""

from __future__ import annotations

from typing import Any

import engine
from tests.casts import CASTS

#: Lyra with a dagger she knows (Dague 3) in her second hand, and P.I. to spare.
LYRA = {**CASTS["lyra"], "skills": {**CASTS["lyra"]["skills"], "dague": 3}, "in_hand": ["arc", "dague"],
        "initiative_bonus": 20}
START = [{"type": "add_combatant", "combatant": LYRA}, {"type": "add_combatant", "combatant": CASTS["gobelin"]},
         {"type": "start_round", "declarations": {"lyra": "arc"}, "rolls": {"lyra": 6, "gobelin": 1}}]


def act(action: str, **options: Any) -> dict[str, Any]:
    return {"type": "act", "actor": "lyra", "action": action, **options}


def effects(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the last command of ``log``, without its ``action_taken``."""
    before = engine.replay(log[:-1])
    assert before["ok"], before
    result = engine.apply(before["state"], log[-1])
    assert result["ok"], result
    return [e for e in result["events"] if e["type"] != "action_taken"]


def test_each_aim_adds_one_up_to_the_skill() -> None:
    """R4.1: +1 per aim, up to the weapon's skill (Arc 3); D17: at the cap, nothing more."""
    log = [*START, act("encocher_fleche", weapon="arc")]
    bonuses = []
    for _ in range(4):
        log.append(act("ajuster_tir", weapon="arc"))
        bonuses.append([(e["bonus"], e["capped"]) for e in effects(log) if e["type"] == "aim_adjusted"])
    assert bonuses == [[(1, False)], [(2, False)], [(3, False)], [(3, True)]]


def test_aiming_with_another_weapon_starts_again_at_one() -> None:
    """D13: the aim on the bow is lost; R4.1: the dagger's aim starts at +1, not at +3."""
    log = [*START, act("encocher_fleche", weapon="arc"), act("ajuster_tir", weapon="arc"), act("ajuster_tir", weapon="arc"),
           act("ajuster_tir", weapon="dague")]
    assert effects(log) == [{"type": "aim_lost", "actor": "lyra", "bonus": 2},
                            {"type": "aim_adjusted", "actor": "lyra", "weapon": "dague", "bonus": 1, "capped": False}]


def test_an_aimed_arrow_uses_the_aim_leaves_the_bow_and_attacks() -> None:
    """R4.1: the shot consumes the aim; D18: the arrow is gone; the target is attacked."""
    log = [*START, act("encocher_fleche", weapon="arc"), act("ajuster_tir", weapon="arc"),
           act("tir_arc", weapon="arc", target="gobelin")]
    assert effects(log) == [{"type": "aim_used", "actor": "lyra", "weapon": "arc", "bonus": 1},
                            {"type": "arrow_loosed", "actor": "lyra", "weapon": "arc"},
                            {"type": "attacked", "actor": "lyra", "target": "gobelin"}]


def test_an_arrow_without_aim_nor_target_only_leaves_the_bow() -> None:
    log = [*START, act("encocher_fleche", weapon="arc"), act("tir_arc", weapon="arc")]
    assert effects(log) == [{"type": "arrow_loosed", "actor": "lyra", "weapon": "arc"}]


def test_an_aimed_throw_uses_the_aim_and_the_weapon_leaves_the_hand() -> None:
    """R4.1: the throw consumes the aim; D19: the dagger leaves the hand (not the sheet)."""
    log = [*START, act("ajuster_tir", weapon="dague"), act("lancer_arme", weapon="dague", target="gobelin")]
    assert effects(log) == [{"type": "aim_used", "actor": "lyra", "weapon": "dague", "bonus": 1},
                            {"type": "hands_changed", "actor": "lyra", "in_hand": ["arc"], "arrow_lost": False},
                            {"type": "attacked", "actor": "lyra", "target": "gobelin"}]
    after = engine.replay(log)["state"]
    assert "dague" in [w["id"] for w in engine.view(after)["combatants"]["lyra"]["weapons"]]


def test_a_throw_without_aim_nor_target_only_empties_the_hand() -> None:
    log = [*START, act("lancer_arme", weapon="dague")]
    assert effects(log) == [{"type": "hands_changed", "actor": "lyra", "in_hand": ["arc"], "arrow_lost": False}]
