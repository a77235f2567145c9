"""Fuzzing ``engine.apply`` with malformed commands (tests/fuzz.py): never an exception,
never a changed state on refusal, the caller's state never mutated.

CI runs 5,000 commands; ``make test-long`` runs 100,000 (FUZZ_COMMANDS).
"""

from __future__ import annotations

import json
import os
from collections import Counter

import engine
from tests.fuzz import KINDS, corpus, fight

COUNT = int(os.environ.get("FUZZ_COMMANDS", "5000"))


def test_malformed_commands_never_raise_and_refusals_change_nothing() -> None:
    start = engine.replay(fight())
    state = start["state"]
    snapshot = json.dumps(state, sort_keys=True)
    outcomes: Counter[str] = Counter()
    for kind, text in corpus(COUNT):
        try:
            command = json.loads(text)
        except (ValueError, RecursionError):
            command = text  # not JSON, or deeper than any parser goes: a string is a bad command too
        result = engine.apply(state, command)  # raising fails the test
        if result["ok"]:
            # A near miss can be a valid command by chance: then it must replay exactly.
            outcomes["accepted"] += 1
            assert engine.replay([*start["commands"], result["command"]])["state"] == result["state"]
        else:
            outcomes[result["error"]["code"]] += 1
            assert result["state"] is state, (kind, text[:200])
            assert result["error"]["code"] in engine.CODES
            assert isinstance(result["error"]["message"], str) and result["error"]["message"]
            assert "erreur interne" not in result["error"]["message"], (kind, text[:200])  # a caught crash
    assert json.dumps(state, sort_keys=True) == snapshot  # never mutated in place
    assert sum(outcomes.values()) == COUNT
    refused = COUNT - outcomes["accepted"]
    assert refused > COUNT * 0.95  # the corpus is malformed: nearly everything is refused
    print(f"\nfuzz apply: {COUNT} commands ({len(KINDS)} kinds), {refused} refused, {outcomes['accepted']} valid by chance, "
          f"0 exceptions; by code: {dict(outcomes.most_common())}")
