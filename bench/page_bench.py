"""Page benchmark: Riposte in headless Chromium against a floor page, in one run.

The floor (bench/floor/) is the least a Python-in-the-browser page does: the same
vendored PyScript and Pyodide, Python in a worker, a one-function wheel installed by
micropip, one call answered; no service worker, no snapshot. Each run uses a fresh
persistent profile (Playwright's default context has no disk cache, which would make
warm figures wrong) and two visits: cold (empty profile) then warm (the same profile,
a new browser). Riposte's warm visit restores its memory snapshot and is served by its
service worker; before it, a 30-fighter fight is saved, so its first paint shows a board.

Measured per run: first contentful paint; engine ready (the page's "riposte:ready"
mark), cold and warm; long tasks (> 50 ms) on the main thread after the first paint;
bytes on the wire, cold and warm, from servers that serve as GitHub Pages does (text
gzipped, fresh for 10 minutes: tools/serve.py PagesHandler), and the cold visit's files
uncompressed; tap to painted board with 30 fighters (a tap on "Passer" or "Annuler" until
the board is drawn again and its frame painted), p50 and p95, as it is and with the page's
main thread slowed ×4 (Emulation.setCPUThrottlingRate on the page's CDP session, the
phone's CPU; the worker's Python is not slowed: Chromium throttles pages only). Then, once, how cost
grows with the fight: a fight of 100, 1,000 and 10,000 commands (30 fighters)
saved, the page reloaded (warm): engine ready, undo (a tap on "Annuler" until the board is
drawn, 20 taps, p50 and p95) and export (the bridge call the menu makes); and a backup
file of 1,000 and of 10,000 fights imported (from the file given to the fights said
added, and whether the progress with « Arrêter » was shown). Prints medians
and spread, Riposte's figures as ratios of the floor's, and draws docs/performance.png.

Usage: ``python bench/page_bench.py [--runs 5] [--taps 40] [--json FILE] [--png FILE]``
(``make bench`` builds the site first); ``--only-taps``: the tap figures alone (Riposte's
first visits, nothing else); ``--only-taps --base DIR``: the same for a second built site
(another commit's ``_site``, copied aside) in the same run, visits alternating, and the
ratio of the two; ``--only-imports``: the import figures alone; ``--first-visit [--site
DIR]...``: the bytes a first visit sends before the engine is ready, its files, and the
time until ready, of each site (``_site-test/`` by default; ``--site _site --site OTHER``
compares the shipped site with another build) and of the floor, in one run.
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

import find_chromium  # noqa: E402
import serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

#: The test build (tools/build_site.py --test-hooks): the shipped site with the page's test
#: hooks, which the figures read (the "riposte:ready" mark, the raw bridge); its app's
#: modules are about 1 KB larger than the shipped ones (tests/test_no_hooks.py).
SITE = ROOT / "_site-test"
# Both pages get the same browser, with the tests' flags (tools/find_chromium.py FLAGS: its
# address bar's popups turned off, for Riposte and the floor alike, docs/PERFORMANCE.md).
FLAGS = find_chromium.FLAGS

# Installed before any page script: long tasks and the first time the board has cards.
#: The page's test hooks switched on (web/infra/hooks.js): the raw bridge the export's
#: figure calls.
HOOKS = "globalThis.__riposteHooks = true;"

WATCH = """
window.__long = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
  .observe({ type: "longtask", buffered: true });
document.addEventListener("DOMContentLoaded", () => {
  const board = document.querySelector("#board");
  if (!board) return;
  const seen = () => { if (board.children.length && !window.__boardAt) window.__boardAt = performance.now(); };
  new MutationObserver(seen).observe(board, { childList: true });
  seen();
});
"""

FIGURES = """() => {
  const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
  const ready = performance.getEntriesByName("riposte:ready")[0]?.startTime ?? null;
  const after = window.__long.filter(([start]) => fcp !== null && start >= fcp);
  return { fcp, ready, board: window.__boardAt ?? null, long: after.length, longest: Math.max(0, ...after.map(([, d]) => d)),
           boot: document.documentElement.dataset.boot ?? null };
}"""

TAPS = """async (count) => {
  const board = document.querySelector("#board");
  const tap = (button) => new Promise((resolve) => {
    const t0 = performance.now();
    // The board's children replaced, then its frame: a task after the animation frame runs
    // once the frame is painted.
    const painted = () => setTimeout(() => resolve(performance.now() - t0));
    const seen = new MutationObserver(() => { seen.disconnect(); requestAnimationFrame(painted); });
    seen.observe(board, { childList: true });
    button.click();
  });
  const times = [];
  for (let i = 0; i < count; i++) {
    times.push(await tap(board.querySelector('button[data-do="pass"]')));
    times.push(await tap(document.querySelector("#undo")));
  }
  return times;
}"""


class Counting(serve.PagesHandler):
    """Serves as GitHub Pages does (text gzipped, fresh for 10 minutes: tools/serve.py) and
    counts what it sends: ``sent``, the bytes on the wire (headers and bodies), and
    ``files``, the sizes of the files it answered with a body (the same bytes uncompressed)."""

    sent = 0
    files = 0
    by_path: dict[str, int] = {}  # noqa: RUF012  (each server's class gets its own: ``start``)
    #: Each write: when (the epoch, ms), its path, its bytes (``first_visits``).
    writes: list[tuple[float, str, int]] = []  # noqa: RUF012
    lock = threading.Lock()

    def setup(self) -> None:
        super().setup()
        raw = self.wfile
        handler = type(self)
        request = self

        class Writer:
            def write(self, data: bytes) -> int:
                path = getattr(request, "path", "").split("?")[0]
                with handler.lock:
                    handler.sent += len(data)
                    handler.by_path[path] = handler.by_path.get(path, 0) + len(data)
                    handler.writes.append((time.time() * 1000, path, len(data)))
                return raw.write(data)

            def __getattr__(self, name: str) -> Any:
                return getattr(raw, name)

        self.wfile = Writer()  # type: ignore[assignment]

    def send_response(self, code: int, message: str | None = None) -> None:
        super().send_response(code, message)
        path = Path(self.served_file())
        if code == 200 and path.is_file():
            with type(self).lock:
                type(self).files += path.stat().st_size


def start(folder: Path) -> tuple[http.server.ThreadingHTTPServer, type[Counting], str]:
    handler = type("Counter", (Counting,), {"sent": 0, "files": 0, "by_path": {}, "writes": [], "lock": threading.Lock()})
    server = serve.serve(folder, 0, handler_class=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler, f"http://127.0.0.1:{server.server_address[1]}/"


#: The floor installs its wheel with micropip, as the issue defines it (Riposte no longer
#: ships micropip: web/boot/boot.mjs unpacks its wheel). PyPI's wheel, pinned by its sha256;
#: Pyodide checks integrity, so the floor's lock file gets that sha256.
MICROPIP = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"


def micropip_wheel() -> Path:
    cache = ROOT / "build" / "cache"
    wheel = cache / MICROPIP
    if not wheel.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--python-version", "3.14", "-d", str(cache), f"micropip=={MICROPIP.split('-')[1]}"], check=True)
    if hashlib.sha256(wheel.read_bytes()).hexdigest() != MICROPIP_SHA256:
        sys.exit(f"page_bench: {wheel} is not the pinned {MICROPIP_SHA256}")
    return wheel


def floor_runtime(folder: Path) -> None:
    """The site's runtime folders (links), with micropip beside Pyodide for the floor. Its
    Pyodide is as npm ships it, in a folder named with its version alone: the site's
    (``pyodide-<version>-<digest>``) has two calls of its loader changed for Riposte's
    snapshot (tools/build_site.py, PATCHES), which the floor does without."""
    folder.mkdir()
    npm = ROOT / "node_modules" / "pyodide"
    for src in (SITE / "runtime").iterdir():
        if not src.name.startswith("pyodide-"):
            (folder / src.name).symlink_to(src)
            continue
        dest = folder / f"pyodide-{json.loads((npm / 'package.json').read_text())['version']}"
        dest.mkdir()
        for f in src.iterdir():
            dest.joinpath(f.name).symlink_to(npm / f.name if f.name.endswith(".mjs") else f)
        shutil.copy2(micropip_wheel(), dest / MICROPIP)
        # The floor boots with Pyodide's whole standard library, at its usual address (the
        # site ships only the part Riposte imports: tools/stdlib.txt).
        if not (dest / "python_stdlib.zip").exists():
            (dest / "python_stdlib.zip").symlink_to(npm / "python_stdlib.zip")
        # Pyodide's lock as npm ships it (the site's page carries its own: web/boot/boot.mjs).
        lock = json.loads((npm / "pyodide-lock.json").read_text())
        lock["packages"]["micropip"]["sha256"] = MICROPIP_SHA256
        (dest / "pyodide-lock.json").write_text(json.dumps(lock, separators=(",", ":")))


def floor_site(tmp: Path) -> Path:
    """bench/floor/ beside the vendored runtime, with its one-function wheel."""
    for needed in ("runtime/pyscript-0.7.31/core.js", "runtime/pyodide-314.0.2-*/pyodide.mjs"):
        if not any(SITE.glob(needed)):
            sys.exit(f"page_bench: the floor names {needed}, which the build no longer makes: update bench/floor/floor.js")
    folder = tmp / "floor"
    shutil.copytree(ROOT / "bench" / "floor", folder)
    floor_runtime(folder / "runtime")
    name = "floorpkg-0.1.0"
    files = {
        "floorpkg/__init__.py": 'def answer(request):\n    return "pong"\n',
        f"{name}.dist-info/METADATA": "Metadata-Version: 2.1\nName: floorpkg\nVersion: 0.1.0\n",
        f"{name}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: page_bench\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{name}.dist-info/RECORD"] = "".join(f"{path},,\n" for path in files) + f"{name}.dist-info/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{name}-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
    return folder


def fight_save(fighters: int) -> str:
    import engine
    from tests.test_save import CASTS

    log: list[dict[str, Any]] = [{"type": "add_combatant", "combatant": {**CASTS["orque"], "id": f"f{i}", "name": f"Orque {i}"}}
                                 for i in range(fighters)]
    log.append({"type": "start_round"})
    result = engine.replay(log)
    return json.dumps({"app": "riposte", "format": 2, "commands": result["commands"], "board": None})


class Memory:
    """The resident memory of the page's renderer process (the page and its dedicated
    workers, Python's among them; Linux's /proc). ``phase()`` is its peak since the last
    call (VmHWM, then reset by ``clear_refs``), in MB; the largest renderer of the browser
    that runs on ``profile`` is the page's (the others: the browser's own WebUI, excluded,
    and a spare renderer)."""

    def __init__(self, profile: Path) -> None:
        self.flag = f"--user-data-dir={profile}".encode()

    def renderers(self) -> list[int]:
        pids = []
        for entry in Path("/proc").iterdir():
            try:
                # Chromium rewrites its children's command line: one string, spaces between
                argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split() if entry.name.isdigit() else []
            except OSError:
                continue
            if b"--type=renderer" in argv and self.flag in argv and b"--top-chrome-webui" not in argv:
                pids.append(int(entry.name))
        return pids

    def phase(self) -> float:
        peaks = [0]
        for pid in self.renderers():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                Path(f"/proc/{pid}/clear_refs").write_text("5")
            except OSError:
                continue
            peaks += [int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")]
        return max(peaks) / 1024


#: Phones, as Chromium's DevTools protocol emulates them: the page's main thread slowed ×4
#: (Emulation.setCPUThrottlingRate; Chromium refuses it for workers, where Python runs:
#: "Operation is only supported for pages, not workers") and the network of every request
#: of the page and its workers (Network.emulateNetworkConditions): download and upload in
#: bits per second, round trip in ms, as WebPageTest's profiles.
PHONES = {"Wi-Fi": (30e6, 15e6, 28), "4G": (9e6, 9e6, 170)}


def throttle(context: Any, page: Any, phone: str | None) -> None:
    if phone is None:
        return
    down, up, rtt = PHONES[phone]
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": rtt, "downloadThroughput": down / 8,
                                                  "uploadThroughput": up / 8})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})


def open_page(p: Any, chromium: str, profile: Path, phone: str | None = None) -> tuple[Any, Any]:
    context = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=FLAGS,
                                                   viewport={"width": 390, "height": 844})
    context.add_init_script(HOOKS + WATCH)
    page = context.pages[0] if context.pages else context.new_page()
    throttle(context, page, phone)
    return context, page


#: The rest of the standard library: fetched once the page is ready, in the
#: background, and counted apart.
REST = "/python_stdlib_rest.zip"


def visit(p: Any, chromium: str, profile: Path, url: str, counter: type[Counting], before: str | None = None,
          taps: int = 0, phone: str | None = None) -> dict[str, Any]:
    """One visit: its figures, its bytes, its memory. ``before`` ("riposte"): a first visit
    of Riposte's, which then readies the next visit and measures taps."""
    context, page = open_page(p, chromium, profile, phone)
    memory = Memory(profile)
    counter.sent = counter.files = 0
    counter.by_path.clear()
    page.goto(url)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=300_000)
    figures: dict[str, Any] = {"memory_boot": memory.phase()}  # until ready: on a cold boot, the snapshot too
    page.wait_for_timeout(1500)  # long tasks right after ready are counted too
    figures.update(page.evaluate(FIGURES))
    if before == "riposte":
        # A first visit is over when the service worker holds the site (it installs once
        # the engine is up) and the snapshot is stored: its downloads count. The rest of the
        # standard library comes after, in the background: counted apart.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_selector("html[data-snapshot]", state="attached", timeout=120_000)
        if phone is None:
            page.wait_for_selector("html[data-stdlib]", state="attached", timeout=120_000)
    figures["memory_table"] = memory.phase()  # from ready until the first visit is over
    with counter.lock:
        figures["background"] = sum(n for path, n in counter.by_path.items() if path.endswith(REST))
        figures["bytes"] = counter.sent - figures["background"]
    figures["files"] = counter.files
    if before == "riposte":
        # Ready the next visit: a 30-fighter fight saved with its board, the page reloaded
        # (restored from the snapshot: taps measured on it).
        from tests.fight_storage import store

        store(page, "riposte.encounter", fight_save(30))
        page.reload()
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        if phone is None:
            figures["taps"] = page.evaluate(TAPS, taps)
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            figures["taps_cpu4"] = page.evaluate(TAPS, taps)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    context.close()
    return figures


def invitation(p: Any, chromium: str, url: str) -> str:
    """A live table's invitation link, made by a game master's page (web/live/host.js)."""
    import re

    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory() as profile:
        context, page = open_page(p, chromium, Path(profile))
        page.goto(url)
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=300_000)
        page.get_by_role("button", name="Partie").click()
        page.get_by_role("button", name="Inviter un joueur").click()
        expect(page.locator("#invite-link")).to_have_value(re.compile("#table="), timeout=60_000)
        link = str(page.locator("#invite-link").input_value())
        context.close()
    return link


def player_visit(p: Any, chromium: str, profile: Path, link: str, counter: type[Counting], phone: str | None = None) -> dict[str, Any]:
    """A player's page (``#table=…``, no Python): the link opened until the answer code is
    shown (web/live/guest.js), its bytes and memory."""
    context, page = open_page(p, chromium, profile, phone)
    memory = Memory(profile)
    counter.sent = counter.files = 0
    page.goto(link)
    page.wait_for_function("performance.getEntriesByName('riposte:live-answer').length > 0", timeout=300_000)
    figures = {"answer": page.evaluate("performance.getEntriesByName('riposte:live-answer')[0].startTime"),
               "memory": memory.phase()}
    page.wait_for_timeout(1500)
    figures["bytes"] = counter.sent
    context.close()
    return figures


UNDO = """async (count) => {
  const board = document.querySelector("#board");
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      const seen = new MutationObserver(() => { seen.disconnect(); requestAnimationFrame(resolve); });
      seen.observe(board, { childList: true, subtree: true, characterData: true });
      document.querySelector("#undo").click();
    });
    times.push(performance.now() - t0);
  }
  return times;
}"""

#: The time of each tap's save (web/infra/store.js "riposte:write": from the write's start,
#: once the tap's board is painted, to the database's "written"), ``count``
#: undos one after the other, each once the one before is written.
WRITES = """async (count) => {
  const times = [];
  for (let i = 0; i < count; i++) {
    const before = performance.getEntriesByName("riposte:write")[0];
    document.querySelector("#undo").click();
    for (let n = 0; n < 2000; n++) {
      const last = performance.getEntriesByName("riposte:write")[0];
      if (last && last !== before) {
        times.push(last.duration);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return times;
}"""

EXPORT = """async () => {
  const t0 = performance.now();
  const text = await window.riposte.raw('{"op": "export", "board": true}');
  return [performance.now() - t0, text.length];
}"""


def scale(p: Any, chromium: str, profile: Path, url: str, sizes: tuple[int, ...], undos: int = 20) -> list[dict[str, Any]]:
    """Reload, undo and export in the page with fights of each size (a warm profile)."""
    from tests.fight_storage import store
    from tests.long_fight import long_save

    context = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=FLAGS,
                                                   viewport={"width": 390, "height": 844})
    context.add_init_script(HOOKS)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    rows = []
    for n in sizes:
        store(page, "riposte.encounter", long_save(n))
        store(page, "riposte.checkpoint", None)
        readies = []
        for _ in range(3):
            page.reload()
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            readies.append(page.evaluate('performance.getEntriesByName("riposte:ready")[0].startTime'))
        undo = page.evaluate(UNDO, undos)
        writes = page.evaluate(WRITES, undos)
        export_ms, chars = page.evaluate(EXPORT)
        rows.append({"commands": n, "save_chars": chars, "ready_ms": statistics.median(readies),
                     "undo_p50": pct(undo, 0.5), "undo_p95": pct(undo, 0.95), "export_ms": export_ms,
                     "write_p50": pct(writes, 0.5), "write_p95": pct(writes, 0.95)})
        print(f"scale: {n} commands done", file=sys.stderr)
    context.close()
    return rows


def largest(p: Any, chromium: str, profile: Path, url: str) -> dict[str, Any]:
    """The largest fight a link carries (64 fighters, 2,300 rounds: tests/long_fight.py)
    opened from its link on an empty fight, the CPU four times slower (CDP, the page and
    its worker's renderer): from the address to the board of 64, how long, how many signs
    of progress the page showed, and whether a fault came."""
    import base64
    import time
    import zlib

    from tests.long_fight import largest_link

    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    fragment = base64.urlsafe_b64encode(squeeze.compress(largest_link().encode("utf-8")) + squeeze.flush()).decode().rstrip("=")
    context = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=FLAGS,
                                                   viewport={"width": 390, "height": 844})
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    began = time.monotonic()
    page.evaluate("(h) => { location.hash = h; }", "z=" + fragment)
    shown = 0
    while page.locator("#board .fighter").count() < 64:
        shown += page.locator("#engine-work:not([hidden])").count()
        if page.locator("html[data-engine=fault]").count():
            break
        assert time.monotonic() - began < 600, "the largest link never opened"
        page.wait_for_timeout(200)
    figures = {"seconds": time.monotonic() - began, "progress_seen": shown,
               "fault": bool(page.locator("html[data-engine=fault]").count()), "round": page.locator("#round").text_content()}
    context.close()
    return figures


def imports(p: Any, chromium: str, profile: Path, url: str, counts: tuple[int, ...]) -> list[dict[str, Any]]:
    """A backup file of n fights (each the seeded two-fighter fight, « Exporter la liste des
    combats » as it writes them) imported into an empty list: from the file given to the
    message that says them added, how long, and whether the progress was shown."""
    import time

    from tests.fuzz import fight as fight_log

    save = json.dumps({"app": "riposte", "format": 2, "commands": fight_log(), "board": None})
    rows = []
    for n in counts:
        context = p.chromium.launch_persistent_context(str(profile / str(n)), executable_path=chromium, args=FLAGS,
                                                       viewport={"width": 390, "height": 844})
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        backup = profile / f"backup-{n}.json"
        fights = [{"name": f"Combat importé {i}", "save": save} for i in range(n)]
        backup.write_text(json.dumps({"app": "riposte", "kind": "fights", "version": 1, "fights": fights}), encoding="utf-8")
        page.get_by_role("button", name="Partie").click()
        began = time.monotonic()
        page.locator("#import").set_input_files(str(backup))
        shown = 0
        while f"{n} combats ajoutés" not in (page.locator("#message").text_content() or ""):
            shown += page.locator("#engine-work:not([hidden])").count()
            assert time.monotonic() - began < 1200, f"the backup of {n} fights never imported"
            page.wait_for_timeout(200)
        rows.append({"fights": n, "seconds": time.monotonic() - began, "progress_seen": shown})
        print(f"imports: {n} fights done", file=sys.stderr)
        context.close()
    return rows


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):8.{digits}f} (min {min(values):.{digits}f}, max {max(values):.{digits}f})"


#: Who the charts draw, in what colour.
COLOURS = (("riposte", "Riposte", "#8a2a14"), ("floor", "floor", "#6b6b6b"), ("player", "a player's page", "#2a5d8a"))


def chart(results: dict[str, Any], rows: list[tuple[str, str]], png: Path, p: Any, chromium: str,
          pages: tuple[str, ...] = ("riposte", "floor")) -> None:
    """A bar chart of the medians of ``rows`` (label, key) for each of ``pages`` that has
    them, drawn as SVG and photographed by Chromium (no plotting library)."""
    drawn = [(who, name, colour) for who, name, colour in COLOURS
             if who in pages and any(key in results.get(who, {}) for _, key in rows)]
    top = max(max(results[who][key]) for who, _, _ in drawn for _, key in rows if key in results[who])
    bars = []
    y = 40
    for label, key in rows:
        bars.append(f'<text x="10" y="{y + 14}" font-size="14">{label}</text>')
        dy = 0
        for who, _, colour in drawn:
            if key not in results[who]:
                continue
            value = statistics.median(results[who][key])
            width = 420 * value / top
            bars.append(f'<rect x="200" y="{y + dy}" width="{width:.1f}" height="16" fill="{colour}"/>'
                        f'<text x="{205 + width:.1f}" y="{y + dy + 13}" font-size="12">{value:,.0f} ms</text>')
            dy += 20
        y += dy + 16
    legend = "".join(f'<rect x="{200 + 130 * i}" y="10" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{216 + 130 * i}" y="21" font-size="12">{name}</text>' for i, (_, name, colour) in enumerate(drawn))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="720" height="{y + 10}" font-family="sans-serif">'
           f'<rect width="100%" height="100%" fill="#fff"/>{legend}{"".join(bars)}</svg>')
    browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
    page = browser.new_page(viewport={"width": 720, "height": y + 10})
    page.set_content(f'<body style="margin:0">{svg}</body>')
    page.screenshot(path=str(png))
    browser.close()


def main_rows(results: dict[str, Any], scale_rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The main chart's rows; the last ones, Riposte alone: reload (engine ready) and undo
    p95 by the length of the fight."""
    rows = [("First paint, cold", "fcp_cold"), ("First paint, warm", "fcp_warm"), ("Engine ready, cold", "ready_cold"),
            ("Engine ready, warm", "ready_warm")]
    for row in scale_rows:
        n = f"{row['commands']:,}"
        results["riposte"][f"reload_{n}"] = [row["ready_ms"]]
        results["riposte"][f"undo_{n}"] = [row["undo_p95"]]
        rows += [(f"Reload, {n} commands", f"reload_{n}"), (f"Undo p95, {n} commands", f"undo_{n}")]
    return rows


def phone_rows(phones: list[str]) -> list[tuple[str, str]]:
    """The phone chart's rows: the engine ready (a player's page: its answer shown), first and
    repeat visit."""
    return [row for phone in phones for row in ((f"{phone}, first visit", f"{phone}:ready_cold"),
                                                 (f"{phone}, repeat visit", f"{phone}:ready_warm"))]


def record(into: dict[str, list[Any]], **values: Any) -> None:
    for name, value in values.items():
        into.setdefault(name, []).append(value)


def tap_figures(visit: dict[str, Any]) -> dict[str, float]:
    """A visit's taps: p50 and p95, as they are and at CPU ×4."""
    return {"tap_p50": pct(visit["taps"], 0.5), "tap_p95": pct(visit["taps"], 0.95),
            "tap_cpu4_p50": pct(visit["taps_cpu4"], 0.5), "tap_cpu4_p95": pct(visit["taps_cpu4"], 0.95)}


def report_taps(rf: dict[str, list[Any]], runs: int, taps: int, label: str = "") -> None:
    """Tap to painted board, 30 fighters: p50 and p95 of each run's, unthrottled and at
    CPU ×4, and their ratio (medians over the runs)."""
    med = statistics.median
    print(f"tap to painted board, 30 fighters{label} ({2 * taps} taps a run, {runs} runs; medians (min, max) of each run's)")
    for q in ("p50", "p95"):
        plain, slow = rf[f"tap_{q}"], rf[f"tap_cpu4_{q}"]
        print(f"  {q}: unthrottled {summary(plain, 1)} ms, CPU ×4 {summary(slow, 1)} ms, ratio {med(slow) / med(plain):.2f}×")


def only_taps(p: Any, chromium: str, args: argparse.Namespace) -> None:
    """The tap figures alone: Riposte's first visits, each then reloaded on a saved fight.
    With ``--base DIR``, a second built site (another commit's ``_site``) measured in the
    same run, the two sites' visits alternating (who goes first alternates too), and the
    ratio of this site's medians to the base's."""
    sites = {"site": SITE, **({"base": args.base} if args.base else {})}
    results: dict[str, dict[str, list[Any]]] = {who: {} for who in sites}
    with tempfile.TemporaryDirectory() as tmp_name:
        servers = {who: start(folder) for who, folder in sites.items()}
        try:
            for run in range(args.runs):
                order = list(servers.items()) if run % 2 == 0 else list(servers.items())[::-1]
                for who, (_, counter, url) in order:
                    cold = visit(p, chromium, Path(tmp_name) / f"{who}-{run}", url, counter, before="riposte", taps=args.taps)
                    record(results[who], **tap_figures(cold))
                print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        finally:
            for server, _, _ in servers.values():
                server.shutdown()
    if not args.base:
        report_taps(results["site"], args.runs, args.taps)
        return
    report_taps(results["site"], args.runs, args.taps, f" ({SITE})")
    report_taps(results["base"], args.runs, args.taps, f" (base: {args.base})")
    med = statistics.median
    for key in ("tap_p50", "tap_p95", "tap_cpu4_p50", "tap_cpu4_p95"):
        site, base = med(results["site"][key]), med(results["base"][key])
        print(f"  {key:13} {site:7.1f} ms / base {base:7.1f} ms = {site / base:.2f}×")


#: When the engine is ready (the epoch, ms), as the page says it on any build (its
#: ``data-engine``): the test build's mark, the shipped build's attribute alike.
READY_AT = """
new MutationObserver((_, seen) => {
  if (document.documentElement?.dataset.engine !== "ready") return;
  window.__readyAt = performance.timeOrigin + performance.now();
  seen.disconnect();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-engine"] }); // before <html> is parsed
"""


def first_visits(p: Any, chromium: str, args: argparse.Namespace) -> None:
    """A first visit's critical path: the bytes on the wire (gzipped as GitHub Pages serves)
    that each site in ``--site`` sent before its engine was ready, and the time until ready,
    against the floor's (bench/floor/) in the same run, visits alternating: the median of
    the runs, and the files each sent (the last run's). No hooks are needed: the shipped
    build measures as it ships."""
    sites = args.site or [SITE]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folders = {str(site): site for site in sites}
        folders["floor"] = floor_site(tmp)
        totals: dict[str, list[int]] = {who: [] for who in folders}
        ready: dict[str, list[float]] = {who: [] for who in folders}
        files: dict[str, dict[str, int]] = {}
        servers = {who: start(folder) for who, folder in folders.items()}
        try:
            for run in range(args.runs):
                order = list(folders) if run % 2 == 0 else list(folders)[::-1]  # who goes first alternates
                for who in order:
                    _, counter, url = servers[who]
                    context = p.chromium.launch_persistent_context(str(tmp / f"{run}-{list(folders).index(who)}"),
                                                                   executable_path=chromium, args=FLAGS,
                                                                   viewport={"width": 390, "height": 844})
                    context.add_init_script(READY_AT)
                    page = context.pages[0] if context.pages else context.new_page()
                    with counter.lock:
                        counter.writes.clear()
                    page.goto(url)
                    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=300_000)
                    ready_at, origin = page.evaluate("[window.__readyAt, performance.timeOrigin]")
                    context.close()
                    with counter.lock:
                        before = [(path, n) for at, path, n in counter.writes if at <= ready_at]
                    by_path: dict[str, int] = {}
                    for path, n in before:
                        by_path[path] = by_path.get(path, 0) + n
                    totals[who].append(sum(by_path.values()))
                    ready[who].append(ready_at - origin)
                    files[who] = by_path
                print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        finally:
            for server, _, _ in servers.values():
                server.shutdown()
    med = statistics.median
    floor_bytes, floor_ready = med(totals["floor"]), med(ready["floor"])
    for who in folders:
        print(f"{who}: {med(totals[who]):,.0f} bytes before ready (runs: {', '.join(f'{n:,}' for n in totals[who])}),"
              f" ready at {med(ready[who]):,.0f} ms (runs: {', '.join(f'{n:,.0f}' for n in ready[who])})")
        if who != "floor":
            print(f"  against the floor: {(floor_bytes - med(totals[who])) / 1024:,.0f} KB under it,"
                  f" ready at {med(ready[who]) / floor_ready:.2f}× its time")
        for path, n in sorted(files[who].items(), key=lambda item: -item[1]):
            print(f"  {n:>10,}  {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--png", type=Path, default=ROOT / "docs" / "performance.png")
    parser.add_argument("--scale", type=lambda text: tuple(int(n) for n in text.split(",") if n), default=(100, 1000, 10_000),
                        help="fight lengths for the scale figures (commands, comma-separated; empty: none)")
    parser.add_argument("--phone-runs", type=int, default=2, help="runs of each phone profile (0: none)")
    parser.add_argument("--phones", type=lambda text: [n for n in text.split(",") if n], default=list(PHONES),
                        help=f"phone profiles, comma-separated, of {', '.join(PHONES)}")
    parser.add_argument("--phone-png", type=Path, default=ROOT / "docs" / "performance-phone.png")
    parser.add_argument("--only-taps", action="store_true", help="the tap figures alone (Riposte's first visits)")
    parser.add_argument("--base", type=Path, help="with --only-taps: another built site measured in the same run, visits alternating (A/B)")
    parser.add_argument("--no-largest", dest="largest", action="store_false", help="without the largest link at CPU ×4")
    parser.add_argument("--imports", type=lambda text: tuple(int(n) for n in text.split(",") if n), default=(1000, 10_000),
                        help="backup files of so many fights imported (comma-separated; empty: none)")
    parser.add_argument("--only-imports", action="store_true", help="the import figures alone")
    parser.add_argument("--first-visit", action="store_true",
                        help="a first visit's bytes and time until the engine is ready, its files, alone (each --site, the floor)")
    parser.add_argument("--site", type=Path, action="append", help="with --first-visit: a built site (again: another, compared)")
    args = parser.parse_args()
    chromium = find_chromium.find()
    if not chromium or not (SITE / "index.html").exists():
        sys.exit("page_bench: needs a built _site-test/ (make site) and a Chromium")
    if args.base and not (args.only_taps and (args.base / "index.html").exists()):
        sys.exit("page_bench: --base needs --only-taps and a built site (its index.html)")
    if args.only_taps:
        with sync_playwright() as p:
            only_taps(p, chromium, args)
        return
    if args.only_imports:
        with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as p:
            report_imports(imports(p, chromium, Path(tmp_name), start(SITE)[2], args.imports))
        return
    if args.first_visit:
        with sync_playwright() as p:
            first_visits(p, chromium, args)
        return
    results: dict[str, dict[str, list[Any]]] = {"riposte": {}, "floor": {}, "player": {}}
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as p:
        tmp = Path(tmp_name)
        sites = {"riposte": start(SITE), "floor": start(floor_site(tmp))}
        link = invitation(p, chromium, sites["riposte"][2])
        for phone in [None, *args.phones]:
            runs = args.runs if phone is None else args.phone_runs
            tag = "" if phone is None else f"{phone}:"
            for run in range(runs):
                order = list(sites.items()) if run % 2 == 0 else list(sites.items())[::-1]  # who goes first alternates
                for who, (_, counter, url) in order:
                    profile = tmp / f"{who}-{phone}-{run}"
                    cold = visit(p, chromium, profile, url, counter, before=who, taps=args.taps, phone=phone)
                    warm = visit(p, chromium, profile, url, counter, phone=phone)
                    if phone is not None:
                        record(results[who], **{f"{tag}ready_cold": cold["ready"], f"{tag}ready_warm": warm["ready"],
                                                f"{tag}fcp_cold": cold["fcp"], f"{tag}fcp_warm": warm["fcp"],
                                                f"{tag}bytes_cold": cold["bytes"]})
                        if who == "riposte":
                            record(results[who], **{f"{tag}board_at_warm": warm["board"] or 0})
                        continue
                    record(results[who], fcp_cold=cold["fcp"], fcp_warm=warm["fcp"], ready_cold=cold["ready"], ready_warm=warm["ready"],
                           bytes_cold=cold["bytes"], bytes_warm=warm["bytes"], files_cold=cold["files"],
                           background=cold["background"], long_tasks=cold["long"] + warm["long"],
                           longest_task=max(cold["longest"], warm["longest"]),
                           memory_boot_cold=cold["memory_boot"], memory_table_cold=cold["memory_table"],
                           memory_boot_warm=warm["memory_boot"], memory_table_warm=warm["memory_table"])
                    if who == "riposte":
                        record(results[who], board_at_warm=warm["board"] or 0, boot_warm=warm["boot"])
                        record(results[who], **tap_figures(cold))
                # A player's page: a first visit, then a repeat one (the same link, again).
                profile = tmp / f"player-{phone}-{run}"
                cold = player_visit(p, chromium, profile, link, sites["riposte"][1], phone)
                warm = player_visit(p, chromium, profile, link, sites["riposte"][1], phone)
                record(results["player"], **{f"{tag}ready_cold": cold["answer"], f"{tag}ready_warm": warm["answer"],
                                             f"{tag}bytes_cold": cold["bytes"], f"{tag}bytes_warm": warm["bytes"],
                                             f"{tag}memory_cold": cold["memory"], f"{tag}memory_warm": warm["memory"]})
                print(f"{phone or 'unthrottled'}: run {run + 1}/{runs} done", file=sys.stderr)
        scale_rows = scale(p, chromium, tmp / "riposte-None-0", sites["riposte"][2], args.scale) if args.scale else []
        heaviest = largest(p, chromium, tmp / "riposte-largest", sites["riposte"][2]) if args.largest else None
        imported = imports(p, chromium, tmp / "riposte-imports", sites["riposte"][2], args.imports) if args.imports else []
        chart(results, main_rows(results, scale_rows), args.png, p, chromium)
        if args.phone_runs and args.phones:
            chart(results, phone_rows(args.phones), args.phone_png, p, chromium, ("riposte", "floor", "player"))
    report(results, args, scale_rows)
    if heaviest:
        print(f"\nThe largest fight a link carries (64 fighters, 2,300 rounds), opened at CPU ×4: {heaviest['seconds']:.1f} s,"
              f" progress shown at {heaviest['progress_seen']} of the 0.2 s looks, {'a FAULT' if heaviest['fault'] else 'no fault'},"
              f" « {heaviest['round']} »")
    report_imports(imported)
    if args.json:
        args.json.write_text(json.dumps({**results, "scale": scale_rows, "imports": imported}, indent=1))


def report_imports(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        print(f"\nA backup file of {row['fights']:,} fights imported: {row['seconds']:.1f} s"
              f" ({1000 * row['seconds'] / row['fights']:.2f} ms a fight), progress shown at {row['progress_seen']} of the 0.2 s looks")


def times(rf: dict[str, list[Any]], ff: dict[str, list[Any]], tag: str = "") -> None:
    """First paint and engine ready, Riposte's and the floor's, and their ratio."""
    print(f"{'':28}{'Riposte':>28}{'floor':>28}{'ratio':>9}")
    for label, key in (("first contentful paint, cold", "fcp_cold"), ("first contentful paint, warm", "fcp_warm"),
                       ("engine ready, cold (ms)", "ready_cold"), ("engine ready, warm (ms)", "ready_warm")):
        r, f = rf[tag + key], ff[tag + key]
        print(f"{label:28}{summary(r):>28}{summary(f):>28}{statistics.median(r) / statistics.median(f):>8.2f}×")


def report(results: dict[str, dict[str, list[Any]]], args: argparse.Namespace, scale_rows: list[dict[str, Any]]) -> None:
    rf, ff, pf = results["riposte"], results["floor"], results["player"]
    med = statistics.median
    print(f"Riposte vs floor, {args.runs} runs, medians (min, max); ratios of medians\n")
    times(rf, ff)
    for label, key in (("bytes on the wire, cold", "bytes_cold"), ("bytes on the wire, warm", "bytes_warm"),
                       ("same, uncompressed, cold", "files_cold")):
        print(f"{label:28}{med(rf[key]):>28,.0f}{med(ff[key]):>28,.0f}{med(rf[key]) - med(ff[key]):>+12,.0f} B")
    print(f"{'then, in the background':28}{med(rf['background']):>28,.0f}{'':>28}  (the rest of the standard library)")
    print(f"{'long tasks after FCP (sum)':28}{sum(rf['long_tasks']):>28}{sum(ff['long_tasks']):>28}")
    print(f"{'longest such task (ms)':28}{max(rf['longest_task']):>28.0f}{max(ff['longest_task']):>28.0f}")
    print("\nMemory: peak resident of the page's renderer (the page and its workers), MB")
    for label, key in (("first visit, until ready", "memory_boot_cold"), ("first visit, then", "memory_table_cold"),
                       ("repeat visit, until ready", "memory_boot_warm"), ("repeat visit, then", "memory_table_warm")):
        print(f"{label:28}{summary(rf[key]):>28}{summary(ff[key]):>28}{med(rf[key]) - med(ff[key]):>+12.0f} MB")
    print(f"\nRiposte warm boots: {rf['boot_warm']}; saved board drawn at {summary(rf['board_at_warm'])} ms")
    report_taps(rf, args.runs, args.taps)
    print(f"\nA player's page (#table=…, no Python): the link opened until the answer code is shown, {args.runs} runs")
    print(f"  first visit  {summary(pf['ready_cold'])} ms, {med(pf['bytes_cold']):,.0f} B, peak {summary(pf['memory_cold'])} MB")
    print(f"  repeat visit {summary(pf['ready_warm'])} ms, {med(pf['bytes_warm']):,.0f} B, peak {summary(pf['memory_warm'])} MB")
    for phone in args.phones if args.phone_runs else []:
        down, up, rtt = PHONES[phone]
        t = f"{phone}:"
        print(f"\n{phone} ({down / 1e6:g}/{up / 1e6:g} Mbit/s, {rtt} ms), CPU ×4 (the main thread), {args.phone_runs} runs")
        times(rf, ff, t)
        print(f"{'saved board drawn, warm':28}{summary(rf[t + 'board_at_warm']):>28}")
        print(f"{'bytes on the wire, cold':28}{med(rf[t + 'bytes_cold']):>28,.0f}{med(ff[t + 'bytes_cold']):>28,.0f}")
        print(f"{'a player: answer shown':28}{summary(pf[t + 'ready_cold']):>28} first visit, {summary(pf[t + 'ready_warm'])} repeat")
    if scale_rows:
        print("\nHow cost grows with the fight, in the page (warm; ready after a reload, ratio to the shortest fight's)")
        print(f"{'commands':>10}{'save (chars)':>14}{'ready':>10}{'ratio':>8}{'undo p50':>11}{'undo p95':>11}{'export':>10}"
              f"{'write p50':>12}{'write p95':>12}")
        base = scale_rows[0]["ready_ms"]
        for row in scale_rows:
            print(f"{row['commands']:>10,}{row['save_chars']:>14,}{row['ready_ms']:>7.0f} ms{row['ready_ms'] / base:>7.2f}×"
                  f"{row['undo_p50']:>8.1f} ms{row['undo_p95']:>8.1f} ms{row['export_ms']:>7.0f} ms"
                  f"{row['write_p50']:>9.1f} ms{row['write_p95']:>9.1f} ms")
    charts = [args.png, *([args.phone_png] if args.phone_runs and args.phones else [])]
    print("charts: " + ", ".join(str(c.relative_to(ROOT) if c.is_relative_to(ROOT) else c) for c in charts))


if __name__ == "__main__":
    main()
