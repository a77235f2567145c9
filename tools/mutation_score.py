"""Print the mutation score of engine/ after `mutmut run` (the last step of `make mutants`).

Reads the verdicts mutmut left in mutants/ (one `.meta` file per mutated module) with
mutmut's own table of exit codes, prints killed / total and every mutant not killed, one
line each, and writes their diffs to mutants/survivors.diff. Exits 1 when no verdict is
found (mutmut did not run). Killed means killed by a test or by its time limit.
"""

from __future__ import annotations

import ast
import difflib
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from mutmut.stats import status_by_exit_code

ROOT = Path(__file__).resolve().parent.parent
KILLED = {"killed", "timeout"}


def verdicts() -> dict[str, tuple[str, Path]]:
    """Every mutant of engine/ with its status ("killed", "survived", "no tests", ...) and file."""
    found: dict[str, tuple[str, Path]] = {}
    for meta in sorted((ROOT / "mutants" / "engine").rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        source = meta.with_suffix("").relative_to(ROOT / "mutants")
        found.update({name: (status_by_exit_code[code], source) for name, code in codes.items()})
    return found


@cache
def functions(path: Path) -> dict[str, str]:
    """The source of every function of a mutated module (mutants/engine/...), by name."""
    source = (ROOT / "mutants" / path).read_text(encoding="utf-8")
    lines = source.splitlines()
    return {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno]) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef)}


def diff(name: str, path: Path) -> str:
    """The lines a mutant changes: its function against the original, as mutmut keeps both."""
    mutant = name.rsplit(".", 1)[1]
    orig = mutant.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"
    found = functions(path)
    mutated = found.get(mutant, "").replace(mutant, orig, 1)
    lines = difflib.unified_diff(found.get(orig, "").splitlines(), mutated.splitlines(), str(path), str(path), lineterm="", n=1)
    return "\n".join(lines)


def main() -> int:
    found = verdicts()
    if not found:
        print("No mutmut verdict in mutants/: run `make mutants`.")
        return 1
    left = {name: verdict for name, verdict in found.items() if verdict[0] not in KILLED}
    killed = len(found) - len(left)
    counts = Counter(status for status, _ in found.values())
    print()
    print("Mutants not killed:" if left else "Every mutant was killed.")
    for name, (status, _) in sorted(left.items()):
        print(f"  {name}: {status}")
    if left:
        diffs = [f"# {name}: {status}\n{diff(name, path)}" for name, (status, path) in sorted(left.items())]
        (ROOT / "mutants" / "survivors.diff").write_text("\n".join(diffs), encoding="utf-8")
        print("  (their diffs: mutants/survivors.diff)")
    print()
    print("By status: " + ", ".join(f"{status} {n}" for status, n in sorted(counts.items())))
    print(f"Mutation score of engine/: {100 * killed / len(found):.1f} % ({killed} of {len(found)} mutants killed)")
    checked = len(found) - counts["not checked"]
    if counts["not checked"] and checked:
        # A run stopped before its end (mutmut goes from the mutants whose tests are quickest).
        print(f"Of the {checked} checked: {100 * killed / checked:.1f} %; not checked, by module: "
              + ", ".join(f"{path.as_posix()} {n}" for path, n in sorted(Counter(
                  path for status, path in found.values() if status == "not checked").items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
