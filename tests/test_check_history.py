"""tools/check_history.py (``make lint``): a comment or a doc that cites an issue fails; a
rule, a colour, a fragment or an id passes. The examples are put together here, so that
this file cites nothing itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import check_history  # noqa: E402

N = "#"  # a number sign, kept apart from the digits in this file's own text

CITING = [
    f"# the list's end ({N}12)",
    f"// kept for the tests (issue {N}3)",
    f'"""Issue {N}28: the page ships the part it imports."""',
    f"<!-- see issues {N}13, {N}25 -->",
    f"Several fights ({N}13, {N}25): a game master prepares them",
    f"Improved Initiative ({N}16, {N}238) keeps its own",
    f"on the release before {N}25, the list",
    f"* fixed by PR {N}7",
]

PASSING = [
    "# −4 to the test (R4.2): the rule",
    "// who plays which PJ (D27)",
    "color: #fff; background: #000;",
    "border: 1px solid #123456;",
    "location.hash = '#table=' + code;",
    "document.querySelector('#board li.fighter')",
    "#live-state { display: none }",
    "a fight of 64 fighters, item 5 of the list",
]


@pytest.mark.parametrize("line", CITING)
def test_a_line_that_cites_an_issue_is_found(line: str) -> None:
    assert list(check_history.citations(f"x = 1\n{line}\n")) == [(2, line.strip())]


@pytest.mark.parametrize("line", PASSING)
def test_a_rule_a_colour_a_fragment_or_an_id_passes(line: str) -> None:
    assert list(check_history.citations(line)) == []


def test_the_check_fails_on_a_file_with_one_and_passes_on_one_without(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cited, clean = tmp_path / "cited.js", tmp_path / "clean.md"
    cited.write_text(f"// a reason\n{CITING[1]}\n", encoding="utf-8")
    clean.write_text("\n".join(PASSING), encoding="utf-8")
    (tmp_path / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert check_history.main([str(clean), str(tmp_path / "icon.png")]) == 0
    assert check_history.main([str(tmp_path)]) == 1
    assert f"cited.js:2: {CITING[1]}" in capsys.readouterr().out


def test_the_checks_own_doctests() -> None:
    import doctest

    assert doctest.testmod(check_history).failed == 0
