"""The end-to-end tests need Playwright, and the WebKit ones Selenium (requirements-dev.txt): without them they are
not collected (tests/conftest.py), and these tests, marked ``browser``, say why."""

from __future__ import annotations

import re
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import find_chromium


@pytest.mark.browser
def test_playwright_is_installed() -> None:
    assert find_spec("playwright") is not None, "Playwright is not installed: the end-to-end tests cannot run (make .venv/.installed)"


@pytest.mark.browser
def test_selenium_is_installed() -> None:
    assert find_spec("selenium") is not None, "Selenium is not installed: the WebKit tests cannot run (make .venv/.installed)"


@pytest.mark.browser
def test_the_chromium_flags_keep_the_features_playwright_turns_off() -> None:
    """Chromium takes the last ``--disable-features``: ours (tools/find_chromium.py) must name
    every feature Playwright's own names, or Chromium would run them in the tests."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    text = bundle.read_text(encoding="utf-8")
    start = text.index("disabledFeatures = [")
    listed = re.sub(r"//[^\n]*", "", text[start:text.index("]", start)])
    theirs = set(re.findall(r'"([^"]+)"', listed))
    assert theirs, "Playwright's list of disabled features not found"
    ours = next(flag for flag in find_chromium.FLAGS if flag.startswith("--disable-features=")).partition("=")[2].split(",")
    assert theirs <= set(ours), sorted(theirs - set(ours))
    assert set(find_chromium.POPUPS) <= set(ours)
