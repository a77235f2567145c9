"""The figures the README and the docs quote come from one `make bench` run, kept as docs/bench.txt.

The rule (docs/PERFORMANCE.md, "Figures"): in a section marked with the line
``<!-- figures: docs/bench.txt -->``, every number written with a unit (µs, ms, s, min, ×,
B, kB, KB, MB, %), each number of a pair or range written with one unit (``16.7 / 25.3 ms``,
``2.8–13.1 s``) and each ratio written ``×41.1`` or ``× 41.1``, appears in docs/bench.txt
as the bench printed it (the same digits, commas and decimals). A section that quotes no
figure passes whatever the file holds; a figure the run did not print fails, naming itself.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
BENCH = ROOT / "docs" / "bench.txt"
MARK = "<!-- figures: docs/bench.txt -->"

#: The sections that must carry the mark: (file, heading).
MARKED = (
    ("README.md", "## Speed"),
    ("docs/PERFORMANCE.md", "## Figures"),
    ("docs/LIVE-TABLE.md", "## Figures"),
)

NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNIT = r"(?:µs|ms|s|min|×|kB|KB|MB|B|%)(?![A-Za-z0-9])"
#: A number with its unit, the numbers before it joined by a dash or a slash sharing that unit.
WITH_UNIT = re.compile(rf"(?<![\w.,])({NUMBER}(?:\s*[–/-]\s*{NUMBER})*)\s?{UNIT}")
#: A ratio written after its sign: ×41.1, × 8.1.
AFTER_TIMES = re.compile(rf"×\s?({NUMBER})(?![\d])")


def figures(text: str) -> list[str]:
    """The numbers of ``text`` that are figures, in order.

    >>> figures("a tap 16.7 / 25.3 ms, ready 0.26 × the floor, ×41.1, 30 fighters, 2.8–13.1 s")
    ['16.7', '25.3', '0.26', '41.1', '2.8', '13.1']
    """
    found: list[tuple[int, str]] = []
    for match in WITH_UNIT.finditer(text):
        found += [(match.start(1) + m.start(), m.group()) for m in re.finditer(NUMBER, match.group(1))]
    found += [(m.start(1), m.group(1)) for m in AFTER_TIMES.finditer(text)]
    return [number for _, number in sorted(set(found))]


def printed(number: str, bench: str) -> bool:
    """Whether ``bench`` holds ``number`` as a whole number (not the start or end of a longer one)."""
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", bench) is not None


def marked_sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of every section of a Markdown text that carries the mark."""
    sections = re.split(r"(?m)^(?=#{1,6} )", text)
    return [(s.splitlines()[0], s) for s in sections if MARK in s]


def missing(text: str, bench: str) -> list[str]:
    """The figures of the marked sections of ``text`` that ``bench`` does not hold."""
    return [f"{heading}: {n}" for heading, body in marked_sections(text) for n in figures(body) if not printed(n, bench)]


def test_the_sections_that_quote_the_bench_are_marked() -> None:
    for name, heading in MARKED:
        sections = dict(marked_sections((ROOT / name).read_text(encoding="utf-8")))
        assert heading in sections, f"{name}: {heading} lacks the line {MARK}"


def test_every_figure_quoted_is_in_the_bench_run() -> None:
    bench = BENCH.read_text(encoding="utf-8")
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    wrong = [f"{doc.relative_to(ROOT)}, {line}" for doc in docs for line in missing(doc.read_text(encoding="utf-8"), bench)]
    assert wrong == [], "figures not printed by the run in docs/bench.txt:\n" + "\n".join(wrong)


def test_the_bench_run_says_when_and_where() -> None:
    first = BENCH.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("== make bench"), first


def test_a_made_up_figure_is_caught() -> None:
    bench = (
        "== make bench, 2026-12-06 07:05 UTC, 2 cores, load average 1.02, 0.98, 0.91\n"
        "tap   : median   1.69 ms  p95  16.40 ms   speed-up ×8.1 (target ≥ 4)\n"
        "engine ready, warm             723 (min 703, max 795)     1,665 (min 1,595, max 1,703)    0.43×\n"
        "    10,000        664,020    6.90 ms   18.30 ms   1,164 ms\n"
    )
    section = f"## Speed\n{MARK}\n\nA tap {{}}, ready {{}} the floor's, a reload {{}}; 30 fighters, 10,000 commands.\n## Next\n0.99 ×\n"
    good = section.format("1.69 / 16.40 ms", "0.43 ×", "1,164 ms")
    assert missing(good, bench) == []
    assert missing(section.format("1.69 / 16.4 ms", "0.43 ×", "1,164 ms"), bench) == ["## Speed: 16.4"]
    assert missing(section.format("1.69 / 16.40 ms", "0.45 ×", "1,164 ms"), bench) == ["## Speed: 0.45"]
    assert missing(section.format("1.69 / 16.40 ms", "×8.2", "1,160 ms"), bench) == ["## Speed: 8.2", "## Speed: 1,160"]
    assert missing(section.format("1.69 / 16.40 ms", "0.43 ×", "1,164 ms").replace(MARK, ""), bench) == []
    assert not printed("1,16", bench) and not printed("64", bench) and printed("664,020", bench)
