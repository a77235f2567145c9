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

#: The features Playwright (pinned in requirements-dev.txt) turns off in every Chromium it
#: launches. Chromium takes the last ``--disable-features`` it is given, so a flag of ours
#: names them again (tests/test_playwright.py checks the list against Playwright's own).
PLAYWRIGHT_DISABLED = ["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
                       "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
                       "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
                       "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
                       "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion"]
#: The address bar's popups: this Chromium (156) draws them (the classic one and the AI
#: mode's, "AIM") as web pages of their own, and each new window starts a renderer for them,
#: about 0.15 s of CPU that no phone spends when a page opens; a test run opens a window for
#: each of its hundreds of contexts.
POPUPS = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"]
#: The flags every Chromium of the tests and the benchmarks is launched with: no sandbox
#: (containers), no GPU, QUIC, first-run page, background networking, component updates or
#: sync (nothing but the site on the wire), and Playwright's features and the popups off.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED + POPUPS)]
#: The tests' Chromium: FLAGS, and WebAssembly compiled by V8's baseline compiler alone
#: (Liftoff). A test's page lives a few seconds; the optimizing compiler's background work on
#: Python's interpreter would pay off only in a page that lives on, and is about a fifth of
#: the browser tests' CPU. The benchmarks keep V8's default, as a phone runs the page.
TEST_FLAGS = [*FLAGS, "--js-flags=--liftoff-only"]


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
