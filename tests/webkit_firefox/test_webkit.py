"""The end-to-end scenario (``scenario.json``) in WebKit, Safari's engine: Selenium's
``webdriver.WebKitGTK`` with Debian's ``WebKitWebDriver`` (``webkit2gtk-driver``) and
its ``MiniBrowser --automation``, on an X display (``$DISPLAY``, else an Xvfb this module
starts). One browser session for the module; each test goes on from the one before
(pytest runs them in file order). The site is ``_site/`` on a server of its own, stopped
for the offline step. WebKit lacks ``requestIdleCallback``: the snapshot step tests the
page's fallback (docs/BROWSERS.md).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SITE = ROOT / "_site"
SCENARIO = json.loads((HERE / "scenario.json").read_text())
DRIVER = os.environ.get("WEBKIT_WEBDRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER_PATHS = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                     "/usr/libexec/webkit2gtk-4.1/MiniBrowser")
STEP_TIMEOUT = 60.0
#: WebKitWebDriver has no BiDi (no console to listen to): once a page is loaded, the test
#: keeps its uncaught errors and rejections itself (those of the first moments are missed).
WATCH_ERRORS = """if (!window.riposteTestErrors) {
  window.riposteTestErrors = [];
  addEventListener("error", (e) => window.riposteTestErrors.push(String(e.message)));
  addEventListener("unhandledrejection", (e) => window.riposteTestErrors.push(String(e.reason)));
}"""

pytestmark = [pytest.mark.browser, pytest.mark.webkit,
              # Selenium's own WebKitGTK class still passes the address the deprecated way.
              pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")]


def minibrowser() -> str | None:
    found = [p for p in (os.environ.get("WEBKIT_MINIBROWSER"), *MINIBROWSER_PATHS) if p and os.access(p, os.X_OK)]
    return found[0] if found else None


def link_fragment(save: dict[str, Any]) -> str:
    """``#c=`` + the save deflated (raw) in base64url, as web/infra/share-links.js wrote links before
    ``#z=`` (engine/link.py): such links keep opening."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(save).encode()) + packer.flush()
    return "#c=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def condition(step: dict[str, Any]) -> str:
    """The JavaScript expression a step waits for."""
    if step["do"] == "text":
        return f"document.querySelector({json.dumps(step['css'])})?.textContent.trim() === {json.dumps(step['is'])}"
    return str(step["js"])


def tappable(css: str) -> str:
    return (f"(e => e !== null && !e.disabled && e.getClientRects().length > 0 && !e.closest('[inert]'))"
            f"(document.querySelector({json.dumps(css)}))")


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """``$DISPLAY``, else a virtual screen of our own (Debian's ``xvfb``)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.fail("No X display and no Xvfb: install Debian's xvfb (.ci/run does)")
    proc = subprocess.Popen([xvfb, "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    number = proc.stdout.readline().decode().strip()  # Xvfb writes it once the display is up
    if not number:
        proc.kill()
        pytest.fail("Xvfb did not start")
    yield f":{number}"
    proc.terminate()
    proc.wait(10)


class Site:
    """``_site/`` on a free local port, that can go offline."""

    def __init__(self) -> None:
        import serve  # tools/, on the path through tests/browser/conftest.py or here

        self.server = serve.serve(SITE, 0)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.up = True

    def stop(self) -> None:
        if self.up:
            self.server.shutdown()
            self.server.server_close()
            self.up = False


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    import sys

    if not (SITE / "index.html").exists():
        pytest.fail("_site/ is not built: run `make site` (make test does)")
    sys.path.insert(0, str(ROOT / "tools"))
    s = Site()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver(display: str) -> Iterator[Any]:
    from selenium import webdriver

    binary = minibrowser()
    if binary is None or not os.access(DRIVER, os.X_OK):
        pytest.fail("No WebKitGTK: install Debian's webkit2gtk-driver (.ci/run does), or set $WEBKIT_WEBDRIVER and $WEBKIT_MINIBROWSER")
    options = webdriver.WebKitGTKOptions()
    options.binary_location = binary
    options.add_argument("--automation")
    # No web process sandbox (bubblewrap), as Chromium runs with --no-sandbox here: it needs
    # user namespaces, which a container or Ubuntu's AppArmor may refuse; the page is ours.
    # JavaScriptCore's optimizing WebAssembly tier (OMG) off, as the tests' Chromium has
    # Liftoff alone (tools/find_chromium.py TEST_FLAGS): a test's page lives seconds, and the
    # background recompiling of Python's interpreter was half of these tests' CPU.
    env = {**os.environ, "DISPLAY": display, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1", "JSC_useOMGJIT": "false"}
    service = webdriver.WebKitGTKService(executable_path=DRIVER, env=env)
    d = webdriver.WebKitGTK(options=options, service=service)
    d.set_window_size(390, 844)
    yield d
    d.quit()


class Player:
    """Plays scenario steps in one WebKit page."""

    def __init__(self, driver: Any, site: Site) -> None:
        self.d = driver
        self.site = site
        self.failed: str | None = None  # the scene that failed, if any

    def until(self, expression: str, why: str, timeout: float = STEP_TIMEOUT) -> None:
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait

        try:
            WebDriverWait(self.d, timeout, poll_frequency=0.1).until(lambda d: d.execute_script(f"return Boolean({expression})"))
        except TimeoutException:
            status = self.d.execute_script("return [document.documentElement.dataset.engine, document.body?.innerText.slice(0, 400)]")
            pytest.fail(f"{why}: not true after {timeout:.0f} s ({expression}); engine, page: {status}")

    def play(self, step: dict[str, Any]) -> None:
        from selenium.webdriver.common.by import By

        timeout = float(step.get("timeout", STEP_TIMEOUT))
        kind = step["do"]
        if kind == "open":
            self.d.get(self.site.url)
            self.d.execute_script(WATCH_ERRORS)
        elif kind == "link":
            self.d.get(self.site.url + link_fragment(SCENARIO["save"]))
            self.d.execute_script(WATCH_ERRORS)
        elif kind == "reload":
            self.d.refresh()
            self.d.execute_script(WATCH_ERRORS)
        elif kind == "offline":
            self.site.stop()
        elif kind == "click":
            self.until(tappable(step["css"]), f"{step['css']} can be tapped", timeout)
            self.d.find_element(By.CSS_SELECTOR, step["css"]).click()
        elif kind == "fill":
            self.until(tappable(step["css"]), f"{step['css']} can be filled", timeout)
            field = self.d.find_element(By.CSS_SELECTOR, step["css"])
            field.clear()
            field.send_keys(step["text"])
        elif kind == "text":
            self.until(condition(step), f"{step['css']} reads {step['is']!r}", timeout)
        elif kind == "wait":
            self.until(condition(step), step["why"], timeout)
        else:
            raise AssertionError(f"unknown step {kind}")


@pytest.fixture(scope="module")
def player(driver: Any, site: Site) -> Player:
    return Player(driver, site)


@pytest.mark.parametrize("scene", SCENARIO["tests"], ids=[t["name"].replace(" ", "_") for t in SCENARIO["tests"]])
def test_webkit(player: Player, scene: dict[str, Any]) -> None:
    if player.failed:  # each scene goes on from the one before: no minute-long waits for nothing
        pytest.fail(f"not played: {player.failed!r} failed before it")
    player.failed = scene["name"]
    for step in scene["steps"]:
        player.play(step)
    assert player.d.execute_script("return window.riposteTestErrors") == [], "uncaught errors in the page"
    player.failed = None


def test_webkit_has_what_docs_browsers_says(player: Player) -> None:
    """Run last: the features the page may use, as docs/BROWSERS.md lists them for WebKit."""
    if player.failed:
        pytest.fail(f"not checked: {player.failed!r} failed before it")
    seen = {f["name"]: player.d.execute_script(f"return Boolean({f['js']})") for f in SCENARIO["features"]}
    assert seen == {f["name"]: f["webkit"] for f in SCENARIO["features"]}


def offer_code() -> str:
    """A live table's invitation code as a game master's page makes it (web/live/signal.js,
    run by Node on the source)."""
    script = ("const { encode } = await import(process.argv[1]);"
              "console.log(encode({ kind: 'offer', invitation: '0a1b2c3d', ice: { ufrag: 'abcd', pwd: 'p'.repeat(24),"
              " fingerprint: 'ab'.repeat(32), candidates: [] } }));")
    run = subprocess.run(["node", "--input-type=module", "-e", script, (ROOT / "web" / "live" / "signal.js").as_uri()],
                         capture_output=True, text=True, check=True, timeout=60)
    return run.stdout.strip()


def test_a_live_invitation_in_webkitgtk_says_what_to_do(player: Player) -> None:
    """Debian's WebKitGTK has no RTCPeerConnection (some in-app browsers neither): a player's
    page says so in the page's words, with what to do, and no engine error text."""
    fresh = Site()  # the scenario's own server may be stopped (its offline step)
    try:
        assert player.d.execute_script("return typeof RTCPeerConnection") == "undefined"
        player.d.get(f"{fresh.url}#table={offer_code()}")
        player.d.execute_script(WATCH_ERRORS)
        player.until("document.querySelector('#live-state')?.textContent.startsWith('Ce navigateur ne peut pas se connecter à la table')",
                      "the page says this browser cannot join")
        text = player.d.execute_script("return document.querySelector('#live-state').textContent")
        assert "Ouvrez ce lien dans Safari ou Chrome" in text, text
        assert "variable" not in text and "RTCPeerConnection" not in text, text
        assert player.d.execute_script("return window.riposteTestErrors") == []
    finally:
        fresh.stop()
