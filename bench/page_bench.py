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
uncompressed; tap-to-board with 30 fighters (a tap on
"Passer" or "Annuler" until the board is drawn again), p50 and p95. Then, once, how cost
grows with the fight (issue #14): a fight of 100, 1,000 and 10,000 commands (30 fighters)
saved, the page reloaded (warm): engine ready, undo (a tap on "Annuler" until the board is
drawn, 20 taps, p50 and p95) and export (the bridge call the menu makes). Prints medians
and spread, Riposte's figures as ratios of the floor's, and draws docs/performance.png.

Usage: ``python bench/page_bench.py [--runs 5] [--taps 40] [--json FILE] [--png FILE]``
(``make bench`` builds the site first).
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
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

import find_chromium  # noqa: E402
import serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

SITE = ROOT / "_site"
# Both pages get the same browser. Its address bar's popup is a web page of its own in
# this Chromium (156): a new browser draws it in a renderer of its own for about 1 s of CPU
# while the visit starts, on a 2-core machine half of it, and no phone does that when a page
# opens; it is turned off, for Riposte and the floor alike (docs/PERFORMANCE.md).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup"]

# Installed before any page script: long tasks and the first time the board has cards.
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
    const seen = new MutationObserver(() => { seen.disconnect(); requestAnimationFrame(() => resolve(performance.now() - t0)); });
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
    lock = threading.Lock()

    def setup(self) -> None:
        super().setup()
        raw = self.wfile
        handler = type(self)

        class Writer:
            def write(self, data: bytes) -> int:
                with handler.lock:
                    handler.sent += len(data)
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
    handler = type("Counter", (Counting,), {"sent": 0, "files": 0, "lock": threading.Lock()})
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
    """The site's runtime folders (links), with micropip beside Pyodide for the floor."""
    folder.mkdir()
    for src in (SITE / "runtime").iterdir():
        if not src.name.startswith("pyodide-"):
            (folder / src.name).symlink_to(src)
            continue
        (folder / src.name).mkdir()
        for f in src.iterdir():
            (folder / src.name / f.name).symlink_to(f)
        shutil.copy2(micropip_wheel(), folder / src.name / MICROPIP)
        lock_path = folder / src.name / "pyodide-lock.json"
        lock = json.loads(lock_path.read_text())
        lock_path.unlink()
        lock["packages"]["micropip"]["sha256"] = MICROPIP_SHA256
        lock_path.write_text(json.dumps(lock, separators=(",", ":")))


def floor_site(tmp: Path) -> Path:
    """bench/floor/ beside the vendored runtime, with its one-function wheel."""
    for needed in ("runtime/pyscript-0.7.31/core.js", "runtime/pyodide-314.0.2/pyodide.mjs"):
        if not (SITE / needed).exists():
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


def visit(p: Any, chromium: str, profile: Path, url: str, counter: type[Counting], before: str | None = None,
          taps: int = 0) -> dict[str, Any]:
    context = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=FLAGS,
                                                   viewport={"width": 390, "height": 844})
    context.add_init_script(WATCH)
    page = context.pages[0] if context.pages else context.new_page()
    counter.sent = counter.files = 0
    page.goto(url)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    page.wait_for_timeout(1500)  # long tasks right after ready are counted too
    figures = page.evaluate(FIGURES)
    if before == "riposte":
        # A first visit is over when the service worker holds the site (it installs once
        # the engine is up): its downloads count.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    figures["bytes"] = counter.sent
    figures["files"] = counter.files
    if before == "riposte":
        # Ready the next visit: the snapshot made, the service worker in control, a
        # 30-fighter fight saved with its board; and measure taps on it.
        page.wait_for_selector("html[data-snapshot]", state="attached", timeout=120_000)
        page.evaluate("navigator.serviceWorker.ready")
        page.evaluate("text => localStorage.setItem('riposte.encounter', text)", fight_save(30))
        page.reload()
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        figures["taps"] = page.evaluate(TAPS, taps)
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

EXPORT = """async () => {
  const t0 = performance.now();
  const text = await window.riposte.raw('{"op": "export", "board": true}');
  return [performance.now() - t0, text.length];
}"""


def scale(p: Any, chromium: str, profile: Path, url: str, sizes: tuple[int, ...], undos: int = 20) -> list[dict[str, Any]]:
    """Reload, undo and export in the page with fights of each size (a warm profile)."""
    from tests.long_fight import long_save

    context = p.chromium.launch_persistent_context(str(profile), executable_path=chromium, args=FLAGS,
                                                   viewport={"width": 390, "height": 844})
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    rows = []
    for n in sizes:
        page.evaluate("text => localStorage.setItem('riposte.encounter', text)", long_save(n))
        readies = []
        for _ in range(3):
            page.reload()
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            readies.append(page.evaluate('performance.getEntriesByName("riposte:ready")[0].startTime'))
        undo = page.evaluate(UNDO, undos)
        export_ms, chars = page.evaluate(EXPORT)
        rows.append({"commands": n, "save_chars": chars, "ready_ms": statistics.median(readies),
                     "undo_p50": pct(undo, 0.5), "undo_p95": pct(undo, 0.95), "export_ms": export_ms})
        print(f"scale: {n} commands done", file=sys.stderr)
    context.close()
    return rows


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):8.{digits}f} (min {min(values):.{digits}f}, max {max(values):.{digits}f})"


def chart(results: dict[str, Any], png: Path, p: Any, chromium: str) -> None:
    """A bar chart of the medians, drawn as SVG and photographed by Chromium (no plotting
    library); the last rows, Riposte alone: reload (engine ready) and undo p95 by the
    length of the fight."""
    rows = [("First paint, cold", "fcp_cold"), ("First paint, warm", "fcp_warm"), ("Engine ready, cold", "ready_cold"),
            ("Engine ready, warm", "ready_warm")]
    for row in results.get("scale", []):
        n = f"{row['commands']:,}"
        results["riposte"][f"reload_{n}"] = [row["ready_ms"]]
        results["riposte"][f"undo_{n}"] = [row["undo_p95"]]
        rows += [(f"Reload, {n} commands", f"reload_{n}"), (f"Undo p95, {n} commands", f"undo_{n}")]
    top = max(max(results[w][k]) for w in ("riposte", "floor") for _, k in rows if k in results[w])
    bars = []
    y = 40
    for label, key in rows:
        bars.append(f'<text x="10" y="{y + 14}" font-size="14">{label}</text>')
        for who, colour, dy in (("riposte", "#8a2a14", 0), ("floor", "#6b6b6b", 20)):
            if key not in results[who]:
                continue
            value = statistics.median(results[who][key])
            width = 420 * value / top
            bars.append(f'<rect x="200" y="{y + dy}" width="{width:.1f}" height="16" fill="{colour}"/>'
                        f'<text x="{205 + width:.1f}" y="{y + dy + 13}" font-size="12">{value:.0f} ms</text>')
        y += 56 if key in results["floor"] else 30
    legend = ('<rect x="200" y="10" width="12" height="12" fill="#8a2a14"/><text x="216" y="21" font-size="12">Riposte</text>'
              '<rect x="290" y="10" width="12" height="12" fill="#6b6b6b"/><text x="306" y="21" font-size="12">floor</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="720" height="{y + 10}" font-family="sans-serif">'
           f'<rect width="100%" height="100%" fill="#fff"/>{legend}{"".join(bars)}</svg>')
    browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
    page = browser.new_page(viewport={"width": 720, "height": y + 10})
    page.set_content(f'<body style="margin:0">{svg}</body>')
    page.screenshot(path=str(png))
    browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--png", type=Path, default=ROOT / "docs" / "performance.png")
    parser.add_argument("--scale", type=lambda text: tuple(int(n) for n in text.split(",") if n), default=(100, 1000, 10_000),
                        help="fight lengths for the scale figures (commands, comma-separated; empty: none)")
    args = parser.parse_args()
    chromium = find_chromium.find()
    if not chromium or not (SITE / "index.html").exists():
        sys.exit("page_bench: needs a built _site/ (make site) and a Chromium")
    results: dict[str, dict[str, list[float]]] = {"riposte": {}, "floor": {}}
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as p:
        tmp = Path(tmp_name)
        sites = {"riposte": start(SITE), "floor": start(floor_site(tmp))}
        for run in range(args.runs):
            order = list(sites.items()) if run % 2 == 0 else list(sites.items())[::-1]  # who goes first alternates
            for who, (_, counter, url) in order:
                profile = tmp / f"{who}-{run}"
                cold = visit(p, chromium, profile, url, counter, before=who, taps=args.taps)
                warm = visit(p, chromium, profile, url, counter)
                r = results[who]
                for name, value in (("fcp_cold", cold["fcp"]), ("fcp_warm", warm["fcp"]), ("ready_cold", cold["ready"]),
                                    ("ready_warm", warm["ready"]), ("bytes_cold", cold["bytes"]), ("bytes_warm", warm["bytes"]),
                                    ("files_cold", cold["files"]),
                                    ("long_tasks", cold["long"] + warm["long"]),
                                    ("longest_task", max(cold["longest"], warm["longest"]))):
                    r.setdefault(name, []).append(value)
                if who == "riposte":
                    r.setdefault("board_at_warm", []).append(warm["board"])
                    r.setdefault("tap_p50", []).append(pct(cold["taps"], 0.5))
                    r.setdefault("tap_p95", []).append(pct(cold["taps"], 0.95))
                    r.setdefault("boot_warm", []).append(warm["boot"])
            print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        scale_rows = scale(p, chromium, tmp / "riposte-0", sites["riposte"][2], args.scale) if args.scale else []
        chart({**results, "scale": scale_rows}, args.png, p, chromium)
    rf, ff = results["riposte"], results["floor"]
    med = statistics.median
    print(f"Riposte vs floor, {args.runs} runs, medians (min, max); ratios of medians\n")
    print(f"{'':28}{'Riposte':>28}{'floor':>28}{'ratio':>9}")
    for label, key in (("first contentful paint, cold", "fcp_cold"), ("first contentful paint, warm", "fcp_warm"),
                       ("engine ready, cold (ms)", "ready_cold"), ("engine ready, warm (ms)", "ready_warm")):
        print(f"{label:28}{summary(rf[key]):>28}{summary(ff[key]):>28}{med(rf[key]) / med(ff[key]):>8.2f}×")
    for label, key in (("bytes on the wire, cold", "bytes_cold"), ("bytes on the wire, warm", "bytes_warm"),
                       ("same, uncompressed, cold", "files_cold")):
        print(f"{label:28}{med(rf[key]):>28,.0f}{med(ff[key]):>28,.0f}{med(rf[key]) - med(ff[key]):>+12,.0f} B")
    print(f"{'long tasks after FCP (sum)':28}{sum(rf['long_tasks']):>28}{sum(ff['long_tasks']):>28}")
    print(f"{'longest such task (ms)':28}{max(rf['longest_task']):>28.0f}{max(ff['longest_task']):>28.0f}")
    print(f"\nRiposte warm boots: {rf['boot_warm']}; saved board drawn at {summary([b or 0 for b in rf['board_at_warm']])} ms")
    print(f"tap to board, 30 fighters: p50 {summary(rf['tap_p50'], 1)} ms, p95 {summary(rf['tap_p95'], 1)} ms")
    if scale_rows:
        print("\nHow cost grows with the fight, in the page (warm; ready after a reload, ratio to the shortest fight's)")
        print(f"{'commands':>10}{'save (chars)':>14}{'ready':>10}{'ratio':>8}{'undo p50':>11}{'undo p95':>11}{'export':>10}")
        base = scale_rows[0]["ready_ms"]
        for row in scale_rows:
            print(f"{row['commands']:>10,}{row['save_chars']:>14,}{row['ready_ms']:>7.0f} ms{row['ready_ms'] / base:>7.2f}×"
                  f"{row['undo_p50']:>8.1f} ms{row['undo_p95']:>8.1f} ms{row['export_ms']:>7.0f} ms")
    print(f"chart: {args.png.relative_to(ROOT) if args.png.is_relative_to(ROOT) else args.png}")
    if args.json:
        args.json.write_text(json.dumps({**results, "scale": scale_rows}, indent=1))


if __name__ == "__main__":
    main()
