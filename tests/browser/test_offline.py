"""Offline at the table (issue "Fast and offline"): the service worker precaches the whole
site, a second visit needs no network, a new deployment is offered and applied on the
user's say, and the web app manifest is valid.

Each test serves its own copy of the built site (a "deployment") that it can stop or
replace, in its own browser context.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import struct
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import build_site
import pytest
import serve
from conftest import SITE, NewPhone, wait_ready
from helpers import act, add_fighter, expect_pi, python, start_round
from playwright.sync_api import expect


class Deployment:
    """A copy of _site/ (or of ``source``) served on its own port, that can go offline or
    be redeployed; ``served`` lists what the server answered: (path, HTTP status)."""

    def __init__(self, folder: Path, source: Path = SITE) -> None:
        self.folder = folder
        shutil.copytree(source, folder)
        self.served: list[tuple[str, int]] = []
        served = self.served

        class Logged(serve.Handler):
            def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
                served.append((self.path, int(code)))

        self.server = serve.serve(folder, 0, handler_class=Logged)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def redeploy(self, build: str, engine: bool = False) -> None:
        """A new version: another build id in the page and, with ``engine``, another
        engine wheel (so another snapshot key) in another app folder (``web-<hash>/``, as
        the build names it after its content), then its service worker rebuilt."""
        index = self.folder / "index.html"
        text = index.read_text()
        start = text.index('data-build="') + len('data-build="')
        text = text[:start] + build + text[text.index('"', start):]
        if engine:
            old = re.search(r"web-[0-9a-f]{12}", text)
            assert old, "index.html names no app folder"
            app = self.folder / old.group(0)
            wheel = next((app / "wheels").glob("*.whl"))
            with zipfile.ZipFile(wheel, "a") as z:
                z.writestr("engine/_deployment.py", f"BUILD = {build!r}\n")
            digest = hashlib.sha256(wheel.read_bytes()).hexdigest()[:16]
            boot = app / "boot" / "boot.mjs"
            boot.write_text(re.sub(r"(runtime/snapshot/[0-9.]+-)[0-9a-f]{16}", rf"\g<1>{digest}", boot.read_text()))
            new = "web-" + hashlib.sha256(build.encode()).hexdigest()[:12]
            app.rename(self.folder / new)
            text = text.replace(old.group(0), new)
        index.write_text(text)
        build_site.service_worker(self.folder)


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    d = Deployment(tmp_path / "site")
    yield d
    with contextlib.suppress(OSError):
        d.stop()


#: Resolves once a service worker controls the page (at once if one does already);
#: rejects after 10 s.
CONTROLLED = """() => new Promise((resolve, reject) => {
    if (navigator.serviceWorker.controller) return resolve(true);
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true), { once: true });
    setTimeout(() => reject(new Error("the service worker never took control")), 10_000);
})"""


def controlled(page: Any, stdlib: bool = True) -> None:
    """Until the service worker has precached everything, controls the page and, with
    ``stdlib``, holds the rest of the standard library (fetched once the page is ready:
    web/boot/offline.js; a page of a layout before the standard library's two zips has none)."""
    page.evaluate("navigator.serviceWorker.ready")
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    page.evaluate(CONTROLLED)
    if stdlib:
        expect(page.locator("html")).to_have_attribute("data-stdlib", "kept", timeout=30_000)


#: In the engine's worker (web/boot/boot.mjs keeps its Python there): the modules of the
#: standard library that came from the rest of it (web/boot/riposte_stdlib.py), and one that
#: does, used.
FROM_THE_REST = "() => ripostePython.runPython('import riposte_stdlib; riposte_stdlib.imported()').toJs()"
MINIDOM = """() => ripostePython.runPython(`import xml.dom.minidom
xml.dom.minidom.parseString('<table nom="Riposte"/>').documentElement.getAttribute('nom')`)"""


def test_a_second_visit_works_with_no_network(new_phone: NewPhone, deployment: Deployment) -> None:
    watched = new_phone(deployment.url)
    page = watched.page
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
    assert python(page).evaluate(FROM_THE_REST) == []  # the shipped standard library was enough
    watched.assert_clean()


def test_a_module_outside_the_shipped_standard_library_imports_online_then_offline(
        new_phone: NewPhone, deployment: Deployment) -> None:
    """The page ships the part of the standard library its Python imports
    (tools/stdlib.txt); any other module is fetched from the rest when first imported, from
    the server on a first visit, from the service worker offline."""
    watched = new_phone(deployment.url)
    page = watched.page
    worker = python(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "cold"
    assert worker.evaluate(FROM_THE_REST) == []  # a cold boot and the first board need nothing more
    assert worker.evaluate(MINIDOM) == "Riposte"  # online
    assert worker.evaluate(FROM_THE_REST) == ["xml"]
    assert ("python_stdlib_rest.zip", 200) in {(path.rpartition("/")[2], code) for path, code in deployment.served}
    controlled(page)  # the service worker holds the site, then the rest of the library
    deployment.stop()  # no network from here on
    assert boot(page) == "restored"
    worker = python(page)
    assert worker.evaluate(FROM_THE_REST) == []
    assert worker.evaluate(MINIDOM) == "Riposte"  # offline
    assert worker.evaluate(FROM_THE_REST) == ["xml"]
    watched.assert_clean()


#: How many responses the service worker's precache holds.
PRECACHED = """async () => {
  const name = (await caches.keys()).find((n) => n.startsWith("workbox-precache"));
  return name ? (await (await caches.open(name)).keys()).length : 0;
}"""


def refilled(page: Any) -> int:
    """The precache's files once the service worker has put back what the page loaded (it
    does so as each answer comes, in the background): their count, unchanged for a second."""
    counts = [page.evaluate(PRECACHED)]
    while len(counts) < 5 or len(set(counts[-5:])) > 1:
        assert len(counts) < 120, f"the precache never settled: {counts[-10:]}"
        page.wait_for_timeout(250)
        counts.append(page.evaluate(PRECACHED))
    return counts[-1]


def test_the_app_comes_back_after_its_cache_storage_is_cleared(new_phone: NewPhone, deployment: Deployment) -> None:
    """The origin's Cache Storage cleared (the browser's « clear cached files ») while the
    fights and the service worker stay: the next online visit boots from the network and puts
    every file it loads back in the precache, so the visit after, offline, opens too."""
    watched = new_phone(deployment.url)
    page = watched.page
    controlled(page)
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {})
    page.evaluate("caches.keys().then((keys) => Promise.all(keys.map((k) => caches.delete(k))))")
    assert page.evaluate(PRECACHED) == 0
    assert boot(page) == "cold"  # online, from the network through the service worker
    expect(page.locator("#board")).to_contain_text("Aldric")
    # The live table's host is made once the engine is ready (web/app.js): its modules are
    # loaded then, and put back too, before the network goes.
    page.wait_for_function("typeof riposteLive === 'object'")
    assert refilled(page) > 0
    deployment.stop()  # no network from here on
    page.reload()
    wait_ready(page, timeout=30_000)
    expect(page.locator("#board")).to_contain_text("Aldric")
    watched.assert_clean()


def test_a_new_deployment_is_offered_then_applied_whole(new_phone: NewPhone, deployment: Deployment) -> None:
    """One version per page: a reload after a deployment is the old version, whole, and
    offers the new one; applied, the tab reloads as the new one; a second tab, still the
    old page, keeps the offer, and its button gives it the new version too."""
    watched = new_phone(deployment.url)
    page = watched.page
    controlled(page)
    old = page.evaluate("document.documentElement.dataset.build")
    deployment.redeploy("nouvelle")

    page.reload()  # the old version still serves this page, whole; the new one installs
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.build") == old
    update = page.locator("#update")
    expect(update).to_be_visible(timeout=30_000)
    expect(update).to_contain_text("Une nouvelle version de Riposte est prête.")
    other = page.context.new_page()
    other.goto(deployment.url)
    wait_ready(other)
    assert other.evaluate("document.documentElement.dataset.build") == old
    expect(other.locator("#update")).to_be_visible(timeout=30_000)
    update.get_by_role("button", name="Passer à la nouvelle version").click()
    expect(page.locator("html")).to_have_attribute("data-build", "nouvelle", timeout=30_000)
    wait_ready(page)
    expect(update).to_be_hidden()
    # The other tab is still the old page under the new worker: the offer stays, and works.
    assert other.evaluate("document.documentElement.dataset.build") == old
    expect(other.locator("#update")).to_be_visible()
    other.locator("#update").get_by_role("button", name="Passer à la nouvelle version").click()
    expect(other.locator("html")).to_have_attribute("data-build", "nouvelle", timeout=30_000)
    wait_ready(other)
    expect(other.locator("#update")).to_be_hidden()
    watched.assert_clean()


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


def snapshot_made(page: Any) -> None:
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=60_000)


def boot(page: Any) -> str:
    page.reload()
    wait_ready(page)
    return page.evaluate("document.documentElement.dataset.boot")


DICE = """async () => {
  const call = async (command) => JSON.parse(await window.riposte.raw(JSON.stringify({ op: "apply", command })));
  for (const name of ["A", "B", "C", "D", "E", "F"]) await call({ type: "add_combatant", combatant: { name } });
  const started = await call({ type: "start_round" });
  await window.riposte.raw(JSON.stringify({ op: "new", party: false }));
  return Object.values(started.command.rolls).join("");
}"""


#: In the engine's worker: the files of the shipped standard library its modules came from.
FROM_THE_ZIP = r"""() => JSON.parse(ripostePython.runPython(`
import json, sys
zip_path = next(p for p in sys.path if p.endswith(".zip")) + "/"
origins = [getattr(getattr(m, "__spec__", None), "origin", None) or "" for m in list(sys.modules.values())]
json.dumps(sorted(o[len(zip_path):] for o in origins if o.startswith(zip_path)))`))"""
#: A failure inside one of them, as a traceback tells it.
FAILED_IN_THE_ZIP = r"""() => ripostePython.runPython(`
import json, traceback
try:
    json.loads("{")
except ValueError:
    told = traceback.format_exc()
told`)"""


#: The worker's fetches of Pyodide's own files, its WebAssembly and the standard library's
#: zip (their Resource Timing): a file read from Cache Storage directly has none.
PYODIDE_FETCHES = r"""() => performance.getEntriesByType("resource")
    .filter((e) => /\/(pyodide\.asm\.wasm|python_stdlib\.zip)$/.test(e.name)).length"""


#: In the engine's worker: for each file of PyScript's package, whether the bytecode beside
#: it is the one made from the text PyScript wrote there (PEP 552's source hash, which
#: Python checks before it uses it); Python itself writes none (``dont_write_bytecode``).
PYSCRIPT_BYTECODE = r"""() => JSON.parse(ripostePython.runPython(`
import importlib.util, json, os, sys
folder = os.path.dirname(sys.modules["pyscript"].__file__)
checked = {}
for name in sorted(os.listdir(folder)):
    if name.endswith(".py"):
        path = os.path.join(folder, name)
        cached = importlib.util.cache_from_source(path)
        with open(path, "rb") as source:
            checked[name] = os.path.exists(cached) and open(cached, "rb").read()[8:16] == importlib.util.source_hash(source.read())
json.dumps([sys.dont_write_bytecode, checked])`))"""


def test_a_first_visit_runs_the_shipped_bytecode_and_repeat_visits_restore_its_snapshot_from_the_precache(
        new_phone: NewPhone, deployment: Deployment) -> None:
    """One first visit and the repeat visits after it (each check below needs a cold boot or
    a restore of its snapshot, and one of each is enough: a first visit boots Python from
    nothing, seconds of CPU).

    - The build compiles Pyodide's modules with Pyodide's own Python
      (tools/stdlib_bytecode.mjs), so a first visit's Python compiles none of them (about 2 s
      of its cold start); Riposte's two modules there stay source. A failure inside a
      compiled module is still told, with the file and line it happened at.
    - Pyodide's loader, as the build patched it (``FETCH``), reads its WebAssembly and the
      standard library from the service worker's precache directly, not through the service
      worker (25-30 MB less on a warm visit): a first visit fetches them, a repeat visit does
      not, and its Python runs.
    - Pyodide's restore, as the build patched it, wrote none of the snapshot's pages of zeros
      (web/boot/pages.js: about 3,300 of its 7,700), and each restored visit rolls new dice
      (a frozen random state would roll the same).
    - The cold boot compiles PyScript's package before it makes the snapshot
      (web/boot/riposte_pyscript.py), and every boot writes that bytecode where Python looks
      for it: Python compiles none of it on a repeat visit (about 50 ms of a warm start)."""
    watched = new_phone(deployment.url)
    page = watched.page
    worker = python(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "cold"
    loaded = worker.evaluate(FROM_THE_ZIP)
    assert len(loaded) > 100 and {"json/__init__.pyc", "dataclasses.pyc", "enum.pyc"} <= set(loaded), loaded
    assert {name for name in loaded if not name.endswith(".pyc")} == {"riposte_stdlib.py", "riposte_pyscript.py"}
    told = worker.evaluate(FAILED_IN_THE_ZIP)
    assert "json/decoder.py\", line" in told and "Expecting property name enclosed in double quotes" in told, told
    assert worker.evaluate(PYODIDE_FETCHES) == 2  # a first visit: from the network
    assert len(page.evaluate(DICE)) == 6  # the engine works
    controlled(page)
    snapshot_made(page)
    rolls = []
    for visit in range(3):
        assert boot(page) == "restored"
        worker = python(page)
        assert worker.evaluate("() => riposteRestore.left") > 1000
        assert worker.evaluate(PYODIDE_FETCHES) == 0
        if visit == 0:
            dont_write, checked = worker.evaluate(PYSCRIPT_BYTECODE)
            assert dont_write and len(checked) >= 10 and all(checked.values()), checked
        rolls.append(page.evaluate(DICE))  # six dice rolled by the engine
    assert len(set(rolls)) == 3, rolls
    watched.assert_clean()


#: Two snapshots that are not one: bytes that are no snapshot, and a text.
CORRUPTED = ["new Uint8Array(4096).fill(7)", "new TextEncoder().encode('pas un instantané')"]


def test_a_corrupted_snapshot_falls_back_to_a_normal_boot(new_phone: NewPhone, deployment: Deployment) -> None:
    """Each corruption in turn, on the one phone (its first visit, Python booted from
    nothing, made the first snapshot; each fallback makes the next)."""
    watched = new_phone(deployment.url)
    page = watched.page
    wait_ready(page)
    snapshot_made(page)
    for bad in CORRUPTED:
        page.evaluate(f"""async () => {{
            const cache = await caches.open("riposte-snapshot");
            const [key] = await cache.keys();
            await cache.put(key, new Response({bad}));
        }}""")
        assert boot(page).startswith("fallback"), bad
        assert len(page.evaluate(DICE)) == 6  # the engine works
        snapshot_made(page)  # the bad one was dropped and a good one made
        assert boot(page) == "restored", bad
    watched.assert_clean()


def test_a_new_engine_never_restores_the_old_snapshot(new_phone: NewPhone, deployment: Deployment) -> None:
    watched = new_phone(deployment.url)
    page = watched.page
    controlled(page)
    snapshot_made(page)
    assert boot(page) == "restored"
    old_keys = page.evaluate("caches.open('riposte-snapshot').then(c => c.keys()).then(k => k.map(r => r.url))")
    deployment.redeploy("moteur-2", engine=True)
    page.reload()
    wait_ready(page)
    page.locator("#update").get_by_role("button", name="Passer à la nouvelle version").click(timeout=30_000)
    expect(page.locator("html")).to_have_attribute("data-build", "moteur-2", timeout=30_000)
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "cold"  # not the old engine's heap
    snapshot_made(page)
    new_keys = page.evaluate("caches.open('riposte-snapshot').then(c => c.keys()).then(k => k.map(r => r.url))")
    assert len(new_keys) == 1 and new_keys != old_keys
    assert boot(page) == "restored"
    watched.assert_clean()
