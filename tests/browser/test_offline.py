"""Offline at the table (issue "Fast and offline"): the service worker precaches the whole
site, a second visit needs no network, a new deployment is offered and applied on the
user's say, and the web app manifest is valid.

Each test serves its own copy of the built site (a "deployment") that it can stop or
replace, in its own browser context.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serve
from conftest import ROOT, SITE, Watched, wait_ready
from helpers import act, add_fighter, expect_pi, start_round
from playwright.sync_api import expect


class Deployment:
    """A copy of _site/ served on its own port, that can go offline or be redeployed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        shutil.copytree(SITE, folder)
        self.server = serve.serve(folder, 0)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def redeploy(self, build: str) -> None:
        """A new version: another build id in the page, and its service worker rebuilt."""
        index = self.folder / "index.html"
        text = index.read_text()
        start = text.index('data-build="') + len('data-build="')
        index.write_text(text[:start] + build + text[text.index('"', start):])
        subprocess.run(["node", str(ROOT / "tools" / "service_worker.mjs"), str(self.folder)], check=True,
                       capture_output=True)


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    d = Deployment(tmp_path / "site")
    yield d
    try:
        d.stop()
    except OSError:
        pass


def controlled(page: Any) -> None:
    """Until the service worker has precached everything and controls the page."""
    page.evaluate("navigator.serviceWorker.ready")
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    for _ in range(100):
        if page.evaluate("Boolean(navigator.serviceWorker.controller)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control")


def test_a_second_visit_works_with_no_network(browser: Any, deployment: Deployment) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    watched = Watched(context.new_page(), deployment.url.rstrip("/"))
    page = watched.page
    page.goto(deployment.url)
    controlled(page)
    deployment.stop()  # no network from here on

    from_network: list[str] = []
    page.on("response", lambda r: None if r.from_service_worker or not r.url.startswith("http") else from_network.append(r.url))
    page.reload()
    wait_ready(page, timeout=30_000)
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {}, weapon=("Épée", "melee", "epee", 3))
    add_fighter(page, "Orque", "pnj", {"melee": 6}, {})
    start_round(page, {"Aldric": 4, "Orque": 1})
    expect_pi(page, Aldric=10, Orque=4)
    act(page, "Aldric", "observer")
    expect_pi(page, Aldric=5, Orque=4)
    assert from_network == [], from_network
    watched.assert_clean()
    context.close()


def test_a_new_deployment_is_offered_then_applied_whole(browser: Any, deployment: Deployment) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    watched = Watched(context.new_page(), deployment.url.rstrip("/"))
    page = watched.page
    page.goto(deployment.url)
    controlled(page)
    old = page.evaluate("document.documentElement.dataset.build")
    deployment.redeploy("nouvelle")

    page.reload()  # the old version still serves this page, whole; the new one installs
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.build") == old
    update = page.locator("#update")
    expect(update).to_be_visible(timeout=30_000)
    expect(update).to_contain_text("Une nouvelle version de Riposte est prête.")
    update.get_by_role("button", name="Passer à la nouvelle version").click()
    expect(page.locator("html")).to_have_attribute("data-build", "nouvelle", timeout=30_000)
    wait_ready(page)
    expect(update).to_be_hidden()
    watched.assert_clean()
    context.close()


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_valid_and_its_icons_exist(phone: Any, site_url: str) -> None:
    page = phone.page
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    response = page.request.get(site_url + href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    for key in ("name", "short_name", "start_url", "scope", "display", "icons", "theme_color", "background_color", "lang"):
        assert manifest.get(key), key
    assert manifest["display"] in ("standalone", "fullscreen", "minimal-ui")
    assert len(manifest["short_name"]) <= 12
    sizes = set()
    for icon in manifest["icons"]:
        path = SITE / icon["src"]
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
        sizes.add((width, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes  # what browsers ask to install
    phone.assert_clean()
