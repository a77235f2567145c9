"""The end-to-end tests need Playwright, and the WebKit ones Selenium (requirements-dev.txt): without them they are
not collected (tests/conftest.py), and these tests, marked ``browser``, say why."""

from __future__ import annotations

from importlib.util import find_spec

import pytest


@pytest.mark.browser
def test_playwright_is_installed() -> None:
    assert find_spec("playwright") is not None, "Playwright is not installed: the end-to-end tests cannot run (make .venv/.installed)"


@pytest.mark.browser
def test_selenium_is_installed() -> None:
    assert find_spec("selenium") is not None, "Selenium is not installed: the WebKit tests cannot run (make .venv/.installed)"
