"""Comments and docs say what is, not where it came from: no issue or pull request number.

A line's history belongs in its commit message (``git log``); a comment or a doc names the
rule (R4.2, D27), says the reason, or says nothing. This check (``make lint``) fails on a
line that cites an issue: ``issue`` or ``issues`` then a number, a number in parentheses
alone or in a list (``(`` ``#12`` ``)``, ``(`` ``#16, #38`` ``)``), ``PR`` or ``pull
request`` then a number, ``before``, ``after``, ``since``, ``see``, ``fixes`` or
``closes`` then a number. It leaves alone what is not a citation: a colour (``#fff``,
``#000``), a fragment (``#table=``), an id (``#board``), a rule number.

Usage: ``python tools/check_history.py [PATH...]`` (by default the project's sources and
docs, ``CHECKED``); prints each line found and exits 1 if there is one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What is checked: the folders whole, and the files at the top.
CHECKED = ("engine", "web", "tools", "tests", "bench", "docs", ".github", ".ci", "README.md", "Makefile", "index.html",
           "pyscript.toml", "pyproject.toml", "eslint.config.mjs")
#: Folders never read (caches, what a build or a tool writes).
SKIPPED = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "node_modules", "out"}
NUMBER = r"#\d+\b(?![-=])"
CITATION = re.compile(
    rf"\b(?:issues?|PRs?|pull requests?|before|after|since|see|fixes|closes)\s+{NUMBER}"
    rf"|\({NUMBER}(?:\s*,\s*{NUMBER})*(?:\)|\s*,)",
    re.IGNORECASE,
)


def citations(text: str) -> Iterator[tuple[int, str]]:
    """Each line of ``text`` that cites an issue: its number (from 1) and the line.

    >>> found = "# why (" + "#7)"
    >>> [number for number, line in citations(f"x = 1  # R4.2: the rule\\ncolor: #fff;\\n{found}\\n")]
    [3]
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if CITATION.search(line):
            yield number, line.strip()


def files(paths: Iterable[Path]) -> Iterator[Path]:
    """The text files under ``paths`` (a file as it is, a folder's files but ``SKIPPED``)."""
    for path in paths:
        if path.is_file():
            yield path
        elif path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and not SKIPPED & set(found.relative_to(path).parts):
                    yield found


def main(argv: list[str]) -> int:
    paths = [Path(arg) for arg in argv] or [ROOT / name for name in CHECKED]
    found = 0
    for path in files(paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # an image, an icon
        for number, line in citations(text):
            found += 1
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            print(f"{shown}:{number}: {line}")
    if found:
        print(f"check_history: {found} line{'s cite' if found > 1 else ' cites'} an issue: say the rule (R…, D…) or the reason "
              "instead (the history belongs in the commit message)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
