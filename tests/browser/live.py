"""Steps of the live table shared by its end-to-end tests: the game
master invites, a player opens the link, the game master takes the answer (pasted, or read
by a faked camera), a page frozen the way a phone's sleep freezes it, and the table's
timings run faster (``scaled``).

A "scan" in these tests is what a scan does on a phone: the player's phone opening the
invitation link (in the tab it has, or a new one), or the game master's camera reading the
player's QR code (``FAKE_CAMERA``: a canvas stream showing that code)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from conftest import NewPhone, Watched, save_text
from helpers import fight_log
from playwright.sync_api import expect

from tests.connections import KEEP_CONNECTIONS

#: What starting Python would fetch: Pyodide's or PyScript's versioned folder (tools/build_site.py).
PYTHON_RUNTIME = re.compile(r"/runtime/(pyodide|pyscript)-[\d.]+(-[0-9a-f]{8})?/")
#: A player's own fight, on their phone: following a live table must never touch it.
OWN_FIGHT = save_text([{"type": "add_combatant", "combatant": {"id": "moi", "name": "Mon héros", "side": "pj"}}])

#: How much faster the live table's rhythm runs in the tests that ask for it (``scaled``):
#: a phone asleep 20 s shows in 2 s what it shows in 20, every threshold scaled alike.
TIME_SCALE = 0.1


def scaled(scale: float = TIME_SCALE) -> str:
    """The init script that runs a phone's live table ``scale`` times its real timings: the
    one switch web/live/timing.js reads, before the page's scripts run. Every phone of a
    table must have the same (each one's heartbeat is the others' measure of silence); 1:
    the real timings (no script)."""
    return "" if scale == 1 else f"globalThis.__riposteLiveTimeScale = {scale!r};"



#: What a page sends on its data channels, in ``window.__sent`` (texts): the messages on
#: the wire, as the far side receives them.
KEEP_SENT = """(() => {
  if (!window.RTCDataChannel) return;
  window.__sent = [];
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) { window.__sent.push(String(data)); return send.call(this, data); };
})();"""

#: The camera, faked: getUserMedia answers a stream of a canvas showing what
#: ``window.__show(svg)`` last gave it (a player's QR code as their phone shows it), blank
#: before. Chromium's own fake camera (--use-file-for-fake-video-capture) would need a
#: browser of its own.
FAKE_CAMERA = """(() => {
  let image = null;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 480;
  const paint = () => {
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 480, 480);
    if (image) g.drawImage(image, 40, 40, 400, 400);
  };
  window.__show = async (svg) => {
    const next = new Image();
    next.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    await next.decode();
    image = next;
    paint();
  };
  setInterval(paint, 100);
  if (navigator.mediaDevices) navigator.mediaDevices.getUserMedia = async () => { paint(); return canvas.captureStream(10); };
})();"""


def gm_phone(new_phone: NewPhone, commands: list[dict[str, Any]] | None = None, **options: Any) -> Watched:
    """The game master's phone: the seeded fight (or ``commands``), the engine ready, its
    camera faked, what it sends kept (and ``init_script``, when given, run too)."""
    return new_phone(save=save_text(commands if commands is not None else fight_log()),
                     init_script=FAKE_CAMERA + KEEP_SENT + options.pop("init_script", ""), **options)


def invite(gm: Any) -> str:
    """The game master taps « Inviter un joueur »: the invitation link (a dialog left open
    closed first)."""
    if gm.locator("#invite-dialog").is_visible():
        gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    if not gm.locator("#screen-menu").is_visible():
        gm.get_by_role("button", name="Partie").click()
    gm.locator("#live-invite").click()
    return invitation(gm)


def invitation(gm: Any) -> str:
    """The invitation the dialog shows, once made."""
    field = gm.locator("#invite-link")
    expect(field).to_have_value(re.compile(r"#table=[A-Za-z0-9_-]+$"))
    expect(gm.locator("#invite-qr svg")).to_be_visible()
    return str(field.input_value())


def join(new_phone: NewPhone, link: str, **options: Any) -> Watched:
    """A player's phone opens the invitation link: its answer code, once made."""
    player = new_phone(link, ready=False, init_script=KEEP_CONNECTIONS + options.pop("init_script", ""), **options)
    answering(player)
    return player


def answering(player: Watched) -> None:
    """The player's page shows its answer for the game master (in any language)."""
    expect(player.page.locator("#live-state")).to_have_attribute("data-state", "answer")
    expect(player.page.locator("#live-answer")).to_have_value(re.compile(r"^[A-Za-z0-9_-]{100,}$"))
    expect(player.page.locator("#live-answer-qr svg")).to_be_visible()


def paste(gm: Any, player: Watched) -> None:
    """The game master pastes the player's code into « Code du joueur »."""
    gm.get_by_label("Code du joueur").fill(player.page.locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()
    connected(player)


def show_answer(gm: Any, player: Watched) -> None:
    """The player's phone held up to the game master's camera (which must be on)."""
    svg = player.page.locator("#live-answer-qr svg").evaluate(
        "e => e.outerHTML.replace('<svg', '<svg xmlns=\"http://www.w3.org/2000/svg\"')")
    gm.evaluate("(svg) => window.__show(svg)", svg)


def connected(player: Watched) -> None:
    expect(player.page.locator("#live-state")).to_have_attribute("data-state", "connected")
    expect(player.page.locator("#live-board li.fighter").first).to_be_visible()


def pair(gm: Any, new_phone: NewPhone, claim: str | None = None, **options: Any) -> Watched:
    """A player paired (link, then code pasted), playing ``claim`` when given; the
    invitation dialog closed."""
    player = join(new_phone, invite(gm), **options)
    paste(gm, player)
    expect(gm.locator("#invite-dialog")).to_be_hidden()
    if claim:
        player.page.locator("#live-claims button", has_text=re.compile(f" {claim}$")).click()
        expect(player.page.locator("#live-mine-name")).to_contain_text(claim)
    return player


def leave(player: Watched) -> None:
    """The player closes Riposte's tab, and their phone lives on: the page unloads (it says
    « bye » to the game master, its connections closed) before its browser profile goes. A
    profile closed at once may end its renderer before the goodbye is on the wire, as no
    phone does when a tab closes."""
    player.page.goto("about:blank")
    player.page.context.close()


def players_mode(gm: Any, mode: str) -> None:
    """« Les joueurs jouent leur PJ »: ``off`` (the players propose a die and ask
    for an interruption), ``confirm`` (the default) or ``auto``. Leaves the game master on
    « Partie »."""
    gm.locator("button[data-screen='menu']").click()
    live_settings(gm)
    gm.locator(f"#live-mode-{mode}").check()


def live_settings(gm: Any) -> None:
    """« Partie » → « Table en direct »: its settings unfolded (folded away until asked for)."""
    if gm.locator("#live-network").get_attribute("open") is None:
        gm.locator("#live-network > summary").click()


def live_card(player: Watched, name: str) -> Any:
    page = player.page
    return page.locator("#live-board li.fighter", has=page.locator(".name", has_text=re.compile(f"^{name}$")))


def players_list(gm: Any) -> list[str]:
    """The game master's list of players, a line each: « Aldric — connecté »."""
    return [str(t) for t in gm.locator("#live-players .live-who").all_inner_texts()]


def no_engine(player: Watched) -> None:
    """A player's page started no Python: neither PyScript nor Pyodide was ever asked for."""
    assert not [url for url in player.requests if PYTHON_RUNTIME.search(url)], player.requests
    expect(player.page.locator("html")).not_to_have_attribute("data-engine", "ready")


#: The live table's protocol version (web/live/signal.js PROTOCOL).
PROTOCOL = 6
#: The messages that are plays: each carries its sequence number ``n``.
PLAYS = {"act", "pass", "interrupt"}


def raw(player: Watched, message: dict[str, Any], times: int = 1) -> None:
    """What a player's page sends, as it is (with the protocol's version ``v`` unless given),
    ``times`` in a row at once; a play without its sequence number ``n`` gets the page's
    next one, each time (as the page's own plays do)."""
    player.page.evaluate("""([message, times]) => {
      const numbered = message.n === undefined && PLAYS.includes(message.t);
      for (let i = 0; i < times; i++) riposteLive.raw(JSON.stringify(numbered ? { ...message, n: riposteLive.next() } : message));
    }""".replace("PLAYS", json.dumps(sorted(PLAYS))), [{"v": PROTOCOL, **message}, times])


def sent_boards(gm: Any) -> list[dict[str, Any]]:
    """Every players' board the game master's page sent, as it went on the wire."""
    texts = gm.evaluate("window.__sent")
    return [m for m in (json.loads(t) for t in texts if t.startswith("{")) if m.get("t") == "board"]


class Frozen:
    """A page frozen as a phone asleep freezes it (its scripts stop; its network stack
    keeps the connections: a CDP debugger pause), for ``seconds`` of the table's time from
    the moment it is frozen: real seconds times the page's scale (``scaled``), 20 s in 2 at
    ``TIME_SCALE``. ``with Frozen(page, 20): ...`` checks what the others see meanwhile;
    the page wakes when the block ends and the time is up."""

    def __init__(self, page: Any, seconds: float) -> None:
        self.page = page
        self.seconds = seconds * page.evaluate("globalThis.__riposteLiveTimeScale ?? 1")
        self.cdp = page.context.new_cdp_session(page)

    def __enter__(self) -> Frozen:
        self.cdp.send("Debugger.enable")
        self.cdp.send("Debugger.pause")
        self.since = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        left = self.seconds - (time.monotonic() - self.since)
        if left > 0:
            time.sleep(left)  # the freeze itself: how long the phone sleeps, not a wait for the page
        self.cdp.send("Debugger.resume")
        self.cdp.send("Debugger.disable")
        self.cdp.detach()
