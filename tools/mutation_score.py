"""Print the mutation score of engine/ after `mutmut run` (the last step of `make mutants`).

Reads the verdicts mutmut left in mutants/ (one `.meta` file per mutated module) with
mutmut's own table of exit codes, prints killed / total and every mutant not killed, one
line each, and writes their diffs to mutants/survivors.diff. Exits 1 when no verdict is
found (mutmut did not run). Killed means killed by a test or by its time limit.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant
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
        os.chdir(ROOT)  # mutmut reads its configuration and mutants/ from the project root
        diffs = [f"# {name}: {status}\n{get_diff_for_mutant(name, path=path)}" for name, (status, path) in sorted(left.items())]
        (ROOT / "mutants" / "survivors.diff").write_text("\n".join(diffs), encoding="utf-8")
        print("  (their diffs: mutants/survivors.diff)")
    print()
    print("By status: " + ", ".join(f"{status} {n}" for status, n in sorted(counts.items())))
    print(f"Mutation score of engine/: {100 * killed / len(found):.1f} % ({killed} of {len(found)} mutants killed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
