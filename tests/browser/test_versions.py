"""Addresses that carry their version: the runtime under
``runtime/<package>-<version>/``, the app's files under ``web-<hash of their content>/``
(tools/build_site.py), so that the service worker's precache takes what a first visit
downloaded from the HTTP cache (tools/service_worker.mjs), a repeat visit downloads
nothing, and a returning user's service worker of the previous layout upgrades cleanly.

Each test serves its own copy of a built site (test_offline.Deployment).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import find_chromium
import pytest
from conftest import FLAGS, PHONE, ROOT, SITE, NewPhone, Watched, wait_ready
from helpers import act, add_fighter, expect_pi, start_round
from playwright.sync_api import expect
from test_offline import Deployment, controlled

#: The page, its manifest and icon, and the service worker keep their address from one
#: version to the next (the first three precached with a revision, a hash of their
#: content); the install icons too (fetched by the browser for the manifest, online, not
#: precached); everything else carries its version in its address.
UNVERSIONED = {"", "index.html", "pyscript.toml", "manifest.webmanifest", "web/icon.svg", "sw.js", "sw-player.js", "web/icons/icon-192.png",
               "web/icons/icon-512.png", "web/icons/icon-512-maskable.png"}
VERSIONED = re.compile(r"^(runtime/(pyodide-314\.0\.2-[0-9a-f]{8}|pyscript-0\.7\.31|qrcode-generator-2\.0\.4)|(web|stdlib)-[0-9a-f]{12})/")
#: The rest of the standard library: not precached, fetched once the page is
#: ready and kept by the service worker in a cache of its own (tools/service_worker.mjs).
REST = re.compile(r"^stdlib-[0-9a-f]{12}/python_stdlib_rest\.zip$")

#: The URLs in Workbox's precache (its cache keys: a revisioned URL carries
#: ``__WB_REVISION__``, a versioned one is its own key).
PRECACHED = """async () => {
  const name = (await caches.keys()).find((n) => n.startsWith("workbox-precache"));
  return name ? (await (await caches.open(name)).keys()).map((r) => r.url) : [];
}"""

#: main before the versioned layout: runtime/pyodide/, web/, pyscript.toml, micropip.
PREVIOUS = "045e24e"


def site_path(url: str, base: str) -> str:
    return url[len(base):].split("?")[0].split("#")[0]


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[Deployment]:
    d = Deployment(tmp_path / "site")
    yield d
    with contextlib.suppress(OSError):
        d.stop()


def test_every_file_the_page_loads_is_precached_under_its_versioned_name(
        browser: Any, deployed: Deployment, tmp_path: Path) -> None:
    """A profile on disk, as a phone's: a private one keeps its HTTP cache in memory,
    where Chromium does not keep pyodide.asm.wasm (9.6 MB) for the precache to find."""
    deployment = deployed
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=find_chromium.find(), args=FLAGS, viewport=PHONE)
    try:
        _first_and_repeat_visits(deployment, context)
    finally:
        context.close()


def _first_and_repeat_visits(deployment: Deployment, context: Any) -> None:
    watched = Watched(context.pages[0] if context.pages else context.new_page(), deployment.url.rstrip("/"))
    page = watched.page
    page.goto(deployment.url)
    controlled(page)
    # The snapshot the cold boot made, stored.
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=60_000)
    loaded = {site_path(url, deployment.url) for url in watched.requests if url.startswith(deployment.url)}
    precached = {site_path(url, deployment.url) for url in page.evaluate(PRECACHED)}
    versioned = {path for path in loaded if VERSIONED.match(path)}
    assert loaded - versioned <= UNVERSIONED, loaded - versioned - UNVERSIONED
    pyodide = next((SITE / "runtime").glob("pyodide-*")).name
    assert f"runtime/{pyodide}/pyodide.asm.wasm" in versioned and any(p.endswith("/boot.mjs") for p in versioned)
    rest = {path for path in versioned if REST.match(path)}
    assert len(rest) == 1, versioned
    assert versioned - rest <= precached, versioned - rest - precached
    kept = page.evaluate("caches.open('riposte-stdlib').then(c => c.keys()).then(k => k.map(r => r.url))")
    assert [site_path(url, deployment.url) for url in kept] == sorted(rest)
    keys = page.evaluate(PRECACHED)
    assert all("__WB_REVISION__" not in k for k in keys if VERSIONED.match(site_path(k, deployment.url)))
    assert {"index.html", "manifest.webmanifest", "web/icon.svg"} <= precached
    # The precache took what the page had downloaded from the HTTP cache: each versioned
    # file came from the server once, the page's and the precache's fetches together.
    served = Counter(path.lstrip("/") for path, code in deployment.served if code == 200)
    twice = {path: n for path, n in served.items() if n > 1 and VERSIONED.match(path)}
    assert twice == {}, twice

    # A repeat visit: nothing from the server but the service worker's update check,
    # answered "304 Not Modified" (no body).
    deployment.served.clear()
    page.reload()
    wait_ready(page)
    expect(page.locator("html")).to_have_attribute("data-boot", "restored")
    assert set(deployment.served) <= {("/sw.js", 304)}, deployment.served
    watched.assert_clean()


@pytest.fixture(scope="module")
def previous_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as the previous layout built it (``git archive PREVIOUS``, built with its
    own tools/build_site.py and this checkout's node_modules)."""
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{PREVIOUS}^{{commit}}"], capture_output=True)
    if known.returncode != 0:
        pytest.skip(f"commit {PREVIOUS} is not in this clone (shallow): the previous build cannot be made")
    tmp = tmp_path_factory.mktemp("previous")
    src = tmp / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", PREVIOUS], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(src, filter="data")
    (src / "node_modules").symlink_to(ROOT / "node_modules")
    if (ROOT / "build" / "cache").is_dir():  # micropip's wheel, if a build here has it
        (src / "build").mkdir()
        (src / "build" / "cache").symlink_to(ROOT / "build" / "cache")
    (tmp / "temporary").mkdir()  # for what that build leaves in the temporary folder (Workbox's bundles)
    subprocess.run([sys.executable, str(src / "tools" / "build_site.py")], check=True, cwd=src, capture_output=True,
                   env={**os.environ, "TMPDIR": str(tmp / "temporary")})
    assert (src / "_site" / "runtime" / "pyodide" / "pyodide.asm.wasm").exists()  # the old layout
    return src / "_site"


@pytest.fixture
def old_deployment(tmp_path: Path, previous_site: Path) -> Iterator[Deployment]:
    d = Deployment(tmp_path / "site", source=previous_site)
    yield d
    with contextlib.suppress(OSError):
        d.stop()


def test_a_page_of_the_previous_layout_upgrades_and_works_offline(
        new_phone: NewPhone, old_deployment: Deployment) -> None:
    d = old_deployment
    watched = new_phone(d.url)
    page = watched.page
    controlled(page, stdlib=False)  # the previous service worker holds the previous site
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {}, weapon=("Épée", "melee", "epee", 3))
    old = page.evaluate("document.documentElement.dataset.build")
    new = re.search(r'data-build="([0-9a-f]+)"', (SITE / "index.html").read_text())
    assert new and new.group(1) != old

    # This version is deployed over it, its files dated now (as an upload would: the server
    # answers the update check with "304 Not Modified" when sw.js looks older).
    shutil.rmtree(d.folder)
    shutil.copytree(SITE, d.folder, copy_function=shutil.copy)
    page.reload()  # the previous service worker still serves the previous page, whole
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.build") == old
    page.locator("#update").get_by_role("button", name="Passer à la nouvelle version").click(timeout=60_000)
    expect(page.locator("html")).to_have_attribute("data-build", new.group(1), timeout=30_000)
    wait_ready(page)
    expect(page.locator("#board")).to_contain_text("Aldric")  # the fight saved by the previous version
    expect(page.locator("html")).to_have_attribute("data-stdlib", "kept", timeout=30_000)
    precached = page.evaluate(PRECACHED)
    assert not [url for url in precached if "/runtime/pyodide/" in url or "/web/app.js" in url], "old entries kept"

    d.stop()  # offline from here on
    from_network: list[str] = []
    page.on("response", lambda r: None if r.from_service_worker or not r.url.startswith("http") else from_network.append(r.url))
    page.reload()
    wait_ready(page, timeout=30_000)
    expect(page.locator("html")).to_have_attribute("data-build", new.group(1))
    add_fighter(page, "Orque", "pnj", {"melee": 6}, {})
    start_round(page, {"Aldric": 4, "Orque": 1})
    expect_pi(page, Aldric=10, Orque=4)
    act(page, "Aldric", "observer")
    expect_pi(page, Aldric=5, Orque=4)
    assert from_network == [], from_network
    watched.assert_clean()
