"""Find the Chromium the browser tests drive: ``$CHROMIUM`` if set, else Debian's
``/usr/bin/chromium``, else Playwright's own browser (installed here with
``playwright install chromium`` where the internet allows, as on a developer's laptop).

``python tools/find_chromium.py`` prints the path; ``--check`` also installs
Playwright's browser when no other is found, and fails with a clear message if none.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN = Path("/usr/bin/chromium")

#: The flags every Chromium of the tests and the benchmarks is launched with: no sandbox
#: (containers), no GPU, QUIC, first-run page, background networking, component updates or
#: sync (nothing but the site on the wire), and no address-bar popups. This Chromium (156)
#: draws those popups (the classic one and the AI mode's, "AIM") as web pages of their own:
#: each new window starts a renderer for them, about 0.15 s of CPU that no phone spends when
#: a page opens, and a test run opens a window for each of its hundreds of contexts.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"]


def playwright_chromium() -> str | None:
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and Path(path).exists() else None


def find() -> str | None:
    env = os.environ.get("CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    if DEBIAN.exists():
        return str(DEBIAN)
    found = shutil.which("chromium")
    return found or playwright_chromium()


def main() -> None:
    path = find()
    if path is None and "--check" in sys.argv:
        subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=False)
        path = find()
    if path is None:
        sys.exit("No Chromium found: set $CHROMIUM, or install Debian's chromium (apt-get install chromium).")
    print(path)


if __name__ == "__main__":
    main()
