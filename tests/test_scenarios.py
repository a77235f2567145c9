"""Table scenarios kept as data (tests/scenarios/*.json), one per rule, each named after it.

A scenario lists a cast (fighters from ``_casts.json``) and steps: a command and what
must follow, either ``"refused": code`` (the state must not change) or ``"expect"``: a
partial board that ``engine.view`` must match (objects by their keys,
lists item by item), and optionally ``"events"``: event types
that must appear, and ``"event"``: a partial event that must appear.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.casts import CASTS

HERE = Path(__file__).parent / "scenarios"
#: The rules the engine implements: shared/ beside the repository (the team's machines),
#: else the copy kept in docs/ (a clean checkout, as on a GitHub runner, has no shared/).
#: Two tests keep the copy true: where shared/ is, the copy is it; everywhere (CI too), the
#: copy is the one whose SHA-256 docs/RULES.sha256 recorded when it was copied from it.
SHARED_RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "RULES.md"
COPIED_RULES = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
RECORDED = COPIED_RULES.with_suffix(".sha256")
RULES = SHARED_RULES if SHARED_RULES.is_file() else COPIED_RULES
COPY = "cp ../shared/rules/RULES.md docs/ && (cd docs && sha256sum RULES.md > RULES.sha256)"
SCENARIOS = sorted(p for p in HERE.glob("*.json") if not p.name.startswith("_"))


def matches(actual: Any, expected: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from the partial ``expected`` (dicts match by their keys)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(matches(actual[key], value, f"{path}.{key}"))
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (a, e) in enumerate(zip(actual, expected, strict=True)) for d in matches(a, e, f"{path}[{i}]")]
    return [] if actual == expected else [f"{path}: expected {expected!r}, got {actual!r}"]


def run_scenario(data: dict[str, Any]) -> None:
    state = engine.new_encounter()
    for name in data.get("cast", []):
        r = engine.apply(state, {"type": "add_combatant", "combatant": CASTS[name]})
        assert r["ok"], r["error"]
        state = r["state"]
    for i, step in enumerate(data["steps"]):
        where = f"step {i} {step['command']}"
        before = json.dumps(state, sort_keys=True)
        r = engine.apply(state, step["command"])
        if "refused" in step:
            assert not r["ok"], f"{where}: accepted, expected {step['refused']}"
            assert r["error"]["code"] == step["refused"], f"{where}: {r['error']}"
            if "message" in step and re.fullmatch(r"[RD][0-9]+(\.[0-9]+)?", step["message"]):
                # the rule's code is the refusal's ``rule``; its message says the rule in words
                assert step["message"] in r["error"].get("rule", "").split(", "), f"{where}: {r['error']}"
            elif "message" in step:
                assert step["message"] in r["error"]["message"], f"{where}: {r['error']['message']}"
            assert json.dumps(r["state"], sort_keys=True) == before, f"{where}: a refusal changed the state"
            continue
        assert r["ok"], f"{where}: refused {r['error']}"
        state = r["state"]
        types = [e["type"] for e in r["events"]]
        for t in step.get("events", []):
            assert t in types, f"{where}: no {t} event in {types}"
        for t in step.get("no_events", []):
            assert t not in types, f"{where}: unexpected {t} event in {types}"
        if "event" in step:
            found = [e for e in r["events"] if not matches(e, step["event"])]
            assert found, f"{where}: no event like {step['event']} in {r['events']}"
        if "expect" in step:
            diff = matches(engine.view(state), step["expect"])
            assert not diff, f"{where}: " + "; ".join(diff)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    run_scenario(json.loads(path.read_text(encoding="utf-8")))


def rule_ids(text: str) -> list[str]:
    r"""Every rule number (R1.1 …) and decision (D1 …) that RULES.md names: decisions, then rules, by number.

    >>> rule_ids("- R1.2 Each rolls (R1.3, D1).\n- R3.4 D8 A phase; see R4 and D10.")
    ['D1', 'D8', 'D10', 'R1.2', 'R1.3', 'R3.4']
    """
    ids = set(re.findall(r"\b(R\d+\.\d+|D\d+)\b", text))
    return sorted(ids, key=lambda r: (r[0], [int(n) for n in r[1:].split(".")]))


def test_every_rule_has_a_scenario() -> None:
    """Each rule number and decision of ../shared/rules/RULES.md has at least one scenario file."""
    assert RULES.is_file(), f"{RULES} not found: the rules live in shared/ beside the repository, copied in docs/"
    rules = rule_ids(RULES.read_text(encoding="utf-8"))
    assert "R1.1" in rules and "D1" in rules, f"no rule numbers read from {RULES}"
    covered = {rule for p in SCENARIOS for rule in json.loads(p.read_text(encoding="utf-8"))["rules"]}
    missing = [r for r in rules if r not in covered]
    assert missing == [], f"rules of {RULES} with no scenario: {missing}"


@pytest.mark.skipif(not SHARED_RULES.is_file(), reason="no shared/ beside the repository (a clean checkout)")
def test_the_copy_of_the_rules_is_current() -> None:
    """docs/RULES.md is shared/rules/RULES.md as it is, and docs/RULES.sha256 its hash:
    copy both again when the rules change."""
    shared = SHARED_RULES.read_bytes()
    assert COPIED_RULES.read_bytes() == shared, f"{COPIED_RULES} differs from {SHARED_RULES}: {COPY}"
    assert RECORDED.read_text(encoding="utf-8").split()[0] == hashlib.sha256(shared).hexdigest(), COPY


def test_the_copy_of_the_rules_is_the_one_recorded() -> None:
    """Everywhere, CI included, where shared/ is not: docs/RULES.md is the copy whose
    SHA-256 was recorded beside it (docs/RULES.sha256, ``sha256sum -c`` reads it) when it
    was copied from shared/ (the test above checks both there). The rules change in
    shared/ only: an edit of the copy alone fails here."""
    recorded, name = RECORDED.read_text(encoding="utf-8").split()
    assert name == COPIED_RULES.name
    assert hashlib.sha256(COPIED_RULES.read_bytes()).hexdigest() == recorded, (
        f"{COPIED_RULES} is not the copy of the rules recorded in {RECORDED}: the rules change in shared/ ({COPY})")


def test_every_action_has_a_scenario() -> None:
    """Each of the 25 actions of the R4 table is taken in at least one scenario."""
    taken = set()
    for p in SCENARIOS:
        for step in json.loads(p.read_text(encoding="utf-8"))["steps"]:
            if step["command"].get("type") in ("act", "interrupt") and "refused" not in step:
                taken.add(step["command"]["action"])
    assert set(engine.ACTIONS) - taken == set()


def test_every_refusal_code_has_a_scenario() -> None:
    """Each stable error code of the contract (RULES.md: the rules' codes of errors.py
    CODES) is produced by at least one scenario step."""
    seen = {
        step["refused"]
        for p in SCENARIOS
        for step in json.loads(p.read_text(encoding="utf-8"))["steps"]
        if "refused" in step
    }
    assert {code for code, door in engine.CODES.items() if door == "rules"} - seen == set()
