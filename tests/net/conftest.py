"""The NAT rig's fixtures (tests/net/rig.py): ``rig``, built once for the module and taken
down after it (also when a test failed), and ``phone_browser``, a Chromium inside a phone's
namespace driven by Playwright. Marked ``net`` (``make test-net``, a stage of ``make test`` of its own): they
need root, ``ip``, ``nft`` and coturn, and are skipped saying so where one is missing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "tools"))

import find_chromium  # noqa: E402
import rig as rig_module  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/net" in str(item.fspath):
            item.add_marker(pytest.mark.net)
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[rig_module.Rig]:
    reason = rig_module.missing()
    if reason:
        pytest.skip(reason)
    if not (rig_module.SITE / "index.html").exists():
        pytest.fail("_site-test/ is not built: run `make site`")
    built = rig_module.Rig(tmp_path_factory.mktemp("rip9")).up()
    try:
        yield built
    finally:
        built.down()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture
def phone_browser(rig: rig_module.Rig, playwright: Any) -> Iterator[Callable[[str], Any]]:
    """``phone_browser("c1")``: a Chromium in phone c1's namespace (closed after the test)."""
    chromium = find_chromium.find()
    if chromium is None:
        pytest.fail("No Chromium: set $CHROMIUM or install Debian's chromium")
    opened: list[Any] = []

    def launch(name: str) -> Any:
        browser = rig.browser(playwright, name, chromium, find_chromium.TEST_FLAGS)
        opened.append(browser)
        return browser

    yield launch
    for browser in opened:
        browser.close()
