"""docs/ENGINE.md "Where each rule lives": every rule of RULES.md is listed, in a file
that exists, naming functions or records that the file defines."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_scenarios import RULES  # shared/ beside the repository, else its copy in docs/

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")
ID = r"(?:R\d\.\d|D\d+)"


def rule_ids() -> set[str]:
    """The rule numbers RULES.md uses (some decisions are only cited in parentheses: D1, D3)."""
    return set(re.findall(rf"\b{ID}\b", RULES.read_text(encoding="utf-8")))


def table() -> list[list[str]]:
    section = DOC.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if re.match(rf"\| ?{ID}", line)]
    return [[cell.strip() for cell in row] for row in rows]


def test_every_rule_is_listed() -> None:
    listed = {i for row in table() for i in re.findall(ID, row[0])}
    assert len(rule_ids()) >= 40
    assert rule_ids() - listed == set()


def test_every_place_exists() -> None:
    for row in table():
        assert len(row) == 3, row
        for path, names in re.findall(r"`([\w/]+\.py)`((?: [^`|;]*`\w+`)*)", row[1] + " " + row[2]):
            source = (ROOT / "engine" / path).read_text(encoding="utf-8")
            for name in re.findall(r"`(\w+)`", names):
                assert re.search(rf"\b{name}\b", source), f"{name} not in engine/{path} ({row[0]})"
