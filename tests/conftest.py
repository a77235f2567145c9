"""Test-wide set-up: ``tests/`` on the path, the Hypothesis profiles, and the end-to-end
tests (``browser/``, ``net/``) left out when Playwright (or, for ``webkit_firefox/test_webkit.py``, Selenium) is not
installed, so that ``pytest -m "not browser"`` runs without it. Asked for anyway
(``pytest`` or ``-m browser``), they fail: ``test_playwright_is_installed``,
``test_selenium_is_installed``.

Hypothesis profiles: ``ci`` (default, quick) and ``long`` (``HYPOTHESIS_PROFILE=long``,
``make test-long``): see docs/RELIABILITY.md for the figures; ``mutants`` (``make
mutants``): derandomized, so that every mutant meets the same examples and a score does
not move from one run to the next.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

HERE = Path(__file__).parent
BROWSER = HERE / "browser"
NET = HERE / "net"
PLAYWRIGHT = find_spec("playwright") is not None
WEBKIT = HERE / "webkit_firefox" / "test_webkit.py"
SELENIUM = find_spec("selenium") is not None

sys.path.insert(0, str(HERE))

settings.register_profile("ci", max_examples=60, stateful_step_count=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# mutants: no shrinking, which changes no verdict (a mutant is killed by the first failing
# example) and held a worker until the time limit for each mutant the machines kill.
settings.register_profile("mutants", max_examples=15, stateful_step_count=25, deadline=None,
                          derandomize=True, database=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``make mutants``, the quickest tests first: mutmut runs a mutant's tests with
    ``-x``, in no particular order, so a mutant that a 5 ms test kills could wait for the
    Hypothesis fight's seconds first. The durations are those of mutmut's own first run
    (``mutmut-stats.json`` in ``mutants/``, where it runs the tests); elsewhere nothing moves."""
    stats = Path("mutmut-stats.json")
    if not os.environ.get("MUTANT_UNDER_TEST") or not stats.is_file():
        return
    durations = json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {})
    items.sort(key=lambda item: durations.get(item.nodeid, 0.0))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not PLAYWRIGHT and any(collection_path == folder or folder in collection_path.parents for folder in (BROWSER, NET)):
        return True
    if not SELENIUM and collection_path == WEBKIT:
        return True
    return None
