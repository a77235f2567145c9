"""The lab's benchmark (engine/labo.py, engine/simulation.py): random rounds of a
10-fighter fight under the book's rules and under other rules (interruption 5 → 4), side
by side, as « Essayer sur ce combat » plays them, timed in CPython; the replay of a played
fight's log under those rules; then the same in the page (the built ``_site-test/`` in
headless Chromium, Python in its worker, as a phone runs it): the fight saved, « Partie »
→ « Règles de la table », the interruption at 4, « Essayer sur ce combat » tapped, and the
time from the tap to the first progress shown and to the result drawn (the page plays
:data:`engine.labo.LABO_ROUNDS` rounds under each rule set).

Usage: ``python bench/labo_bench.py [--rounds 2000] [--fighters 10] [--no-page]``
(the page needs the built site: ``tools/build_site.py --test-hooks``)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_bench import fighter, play
from engine import labo, simulation

ROOT = Path(__file__).resolve().parent.parent

OTHER = {"cout_interruption": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--fighters", type=int, default=10)
    parser.add_argument("--no-page", action="store_true", help="CPython only")
    args = parser.parse_args()
    rng = random.Random(11)
    cast = [{"type": "add_combatant", "combatant": {**fighter(rng, i), "id": f"f{i}"}} for i in range(args.fighters)]
    start, cpu = time.perf_counter(), time.process_time()
    result = labo.compare(cast, OTHER, rounds=args.rounds, seed=1)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"== lab: {args.rounds} random rounds of {args.fighters} fighters, under each of 2 rule sets (interruption 5 → 4)")
    print(f"total {seconds:.2f} s ({cpu:.2f} s of CPU), {1000 * seconds / (2 * args.rounds):.2f} ms per round "
          f"({result['a']['cut']} + {result['b']['cut']} rounds cut at {simulation.MAX_PHASES} phases)")
    for side in ("a", "b"):
        r = result[side]
        print(f"  {side}: {r['actions']} actions and {r['interruptions']} interruptions per fighter per round, "
              f"interruption possible {r['interruption_possible']:.0%}, Espoir {r['espoir']} per round")
    for line in result["lines"]["en"]:
        print(f"  {line}")
    log, _ = play(1000, args.fighters)
    start = time.perf_counter()
    verdict = labo.replay(log, OTHER)
    seconds = time.perf_counter() - start
    print(f"== lab: replay of a {len(log)}-command log under other rules: {seconds:.2f} s, "
          f"{len(verdict['changed'])} commands changed, refused at {verdict['refused'] and verdict['refused']['index']}")
    if not args.no_page:
        in_the_page(cast)


#: Installed before the tap: the time of the tap on « Essayer sur ce combat », of the first
#: progress shown and of the result drawn (the page's own clock).
WATCH = """() => {
  const times = window.__lab = {};
  document.querySelector("#labo-try").addEventListener("click", () => { times.tap = performance.now(); }, { capture: true });
  new MutationObserver(() => {
    const bar = document.querySelector("#labo-progress");
    if (times.tap && times.progress === undefined && !bar.hidden && bar.value > 0) times.progress = performance.now();
    if (times.tap && times.result === undefined && document.querySelector("#labo-result").children.length) {
      times.result = performance.now();
    }
  }).observe(document.querySelector("#labo"), { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def in_the_page(cast: list[dict[str, Any]]) -> None:
    """The lab in the built page, in headless Chromium (the benchmarks' flags)."""
    import json

    sys.path.insert(0, str(ROOT / "tools"))
    import find_chromium
    import serve
    from playwright.sync_api import sync_playwright

    import engine
    from tests.fight_storage import store

    site = ROOT / "_site-test"
    if not (site / "index.html").exists():
        print("== lab in the page: no _site-test/ (tools/build_site.py --test-hooks)")
        return
    server = serve.serve(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    log = engine.replay(cast)["commands"]
    text = json.dumps({"app": "riposte", "format": 2, "commands": log, "board": None})
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        browser = p.chromium.launch_persistent_context(profile, executable_path=find_chromium.find(), args=find_chromium.FLAGS,
                                                       viewport={"width": 390, "height": 844})
        page = browser.pages[0] if browser.pages else browser.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=300_000)
        store(page, "riposte.encounter", text)
        page.reload()
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        page.get_by_role("button", name="Partie", exact=True).click()
        page.get_by_role("button", name="Règles de la table", exact=True).click()
        page.locator("#rule-cout_interruption").fill("4")
        page.evaluate(WATCH)
        cpu = renderers_cpu(profile)
        page.locator("#labo-try").click()
        page.wait_for_selector("#labo-result table", timeout=600_000)
        cpu = renderers_cpu(profile) - cpu
        times = page.evaluate("window.__lab")
        rounds = page.locator("#labo-state").inner_text()
        browser.close()
    server.shutdown()
    print(f"== lab in the page ({len(cast)} fighters, {labo.LABO_ROUNDS} rounds under each of 2 rule sets): "
          f"first progress {(times['progress'] - times['tap']) / 1000:.2f} s, "
          f"result {(times['result'] - times['tap']) / 1000:.2f} s after the tap ({rounds}); "
          f"the page's renderer (its worker's Python with it) spent {cpu:.2f} s of CPU meanwhile")


def renderers_cpu(profile: str) -> float:
    """The CPU time (user and system) the renderers of the browser on ``profile`` have
    spent, in seconds (Linux's /proc): the page, its workers, Python's among them. A figure
    a busy machine changes less than the wall time."""
    flag = f"--user-data-dir={profile}".encode()
    total = 0
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").split() if entry.name.isdigit() else []
            if b"--type=renderer" in argv and flag in argv:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime (after the name)
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
