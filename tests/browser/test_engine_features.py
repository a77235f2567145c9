"""What Chromium has of the features the page may use, as docs/BROWSERS.md lists them
(``tests/webkit_firefox/scenario.json``, which WebKit and Firefox check the same way), after a
reload restored from the memory snapshot."""

from __future__ import annotations

import json

from conftest import ROOT, NewPhone, wait_ready
from playwright.sync_api import expect

FEATURES = json.loads((ROOT / "tests" / "webkit_firefox" / "scenario.json").read_text())["features"]


def test_chromium_has_what_docs_browsers_says(new_phone: NewPhone) -> None:
    phone = new_phone(fresh=True)  # a first visit: it makes the snapshot the reload restores
    page = phone.page
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # active: the reload is its page
    page.reload()
    wait_ready(page)
    seen = {f["name"]: page.evaluate(f"Boolean({f['js']})") for f in FEATURES}
    assert seen == {f["name"]: f["chromium"] for f in FEATURES}
    phone.assert_clean()
