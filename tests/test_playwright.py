"""The end-to-end tests need Playwright (requirements-dev.txt): without it their folder is
not collected (tests/conftest.py), and this test, marked ``browser``, says why."""

from __future__ import annotations

from importlib.util import find_spec

import pytest


@pytest.mark.browser
def test_playwright_is_installed() -> None:
    assert find_spec("playwright") is not None, "Playwright is not installed: the end-to-end tests cannot run (make .venv/.installed)"
