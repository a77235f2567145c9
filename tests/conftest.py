"""Test-wide set-up: ``tests/`` on the path, and the end-to-end tests left out when
Playwright is not installed, so that ``pytest -m "not browser"`` runs without it. Asked
for anyway (``pytest`` or ``-m browser``), they fail: ``test_playwright_is_installed``."""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

HERE = Path(__file__).parent
BROWSER = HERE / "browser"
PLAYWRIGHT = find_spec("playwright") is not None

sys.path.insert(0, str(HERE))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not PLAYWRIGHT and (collection_path == BROWSER or BROWSER in collection_path.parents):
        return True
    return None
