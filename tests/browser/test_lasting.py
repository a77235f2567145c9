"""Nothing lost over months, at 390×844: a burst of taps on « Annuler » takes back one
command; long work in the engine shows how far it is and is never a fault, a silent
worker still is; the browser is asked to keep the fights, and the list of fights says what
it keeps."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path
from typing import Any

from conftest import NewPhone, save_text, wait_ready
from helpers import add_fighter, card, expect_pi, fight_log, hold_clock
from playwright.sync_api import expect
from test_faults import FAULT, _with_fault

from tests.long_fight import largest_link

#: Ten fighters, one command each.
TEN = [{"type": "add_combatant", "combatant": {"name": f"Garde {n}"}} for n in range(1, 11)]
#: A burst: 30 taps in 1.2 s.
BURST, APART = 30, 40


def raw(page: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The page's own engine, asked directly: what it says now (after every call before it)."""
    answer: dict[str, Any] = json.loads(page.evaluate("(r) => window.riposte.raw(r)", json.dumps(request)))
    return answer


def burst(page: Any, button: Any) -> None:
    """BURST taps APART ms apart on the middle of ``button``, in the page's time: the clock
    stands still but for the test's moves during the burst, then runs again (so that an
    answer that comes after the last tap, on a busy machine, is drawn)."""
    box = button.bounding_box()
    spot = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    hold_clock(page)  # the finger rested a second
    for _ in range(BURST):
        page.mouse.click(*spot)
        page.clock.fast_forward(APART)
    page.clock.resume()


def test_a_burst_of_taps_on_undo_and_redo_takes_back_one_command(new_phone: NewPhone) -> None:
    """30 taps in 1.2 s on « Annuler » took a fight of 10 commands to 0; on « Rétablir »
    they did them all again. Each burst is one tap; a tap after a pause goes through."""
    phone = new_phone(save=save_text(TEN), clock=True)
    page = phone.page
    undo, redo = page.locator("#undo"), page.locator("#redo")
    expect(undo).to_contain_text("Garde 10")
    burst(page, undo)
    expect(redo).to_be_enabled()
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (9, 1)
    expect(undo).to_contain_text("Garde 9")

    burst(page, redo)
    expect(redo).to_be_disabled()
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (10, 0)

    hold_clock(page)
    undo.click()
    page.clock.fast_forward(500)  # a second tap, after a pause: a second undo
    undo.click()
    page.clock.resume()
    expect(undo).to_contain_text("Garde 8")
    shown = raw(page, {"op": "show"})
    assert (shown["undo"], shown["redo"]) == (8, 2)
    phone.assert_clean()


STEP = "/riposte-test-step"
#: Bridge code: ``_step()`` waits, with no CPU, for the test to let the worker through
#: (``Steps``): a synchronous request of the worker's to STEP, answered only then. The sign
#: of work that follows it is sent whatever the time (bridge.py's PULSE is real time).
STEP_CODE = """
from js import location as _location
from pyodide.http import open_url as _open_url


def _step():
    _open_url(_location.origin + "STEP")
    signs["last"] = float("-inf")
""".replace("STEP", STEP)
#: The bridge served with a slow « Passer »: the worker works STEPS steps, each waiting for
#: the test, saying how far it is after each as a replay does (``table.pulse``), or never
#: answers and says nothing.
SLOW = STEP_CODE + """

def _crawl(self):
    for step in range({steps}):
        _step()
        self._beat(step + 1, {steps})
""" + FAULT.replace("{fault}", "{work}")
STEPS = 12


class Steps:
    """The slow bridge's steps, held until the test lets them through (or let through at
    once while ``free``): ``one`` lets the next step through once the worker asks for it,
    ``all`` the rest and any later one, until ``hold``."""

    def __init__(self, page: Any, free: bool = False) -> None:
        self.page = page
        self.waiting: list[Any] = []
        self.free = free
        page.context.route(f"**{STEP}", self.asked)

    def asked(self, route: Any) -> None:
        if self.free:
            route.fulfill(body="")
        else:
            self.waiting.append(route)

    def asking(self) -> None:
        """Until the worker waits at a step (30 s at most)."""
        for _ in range(300):
            if self.waiting:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("the worker never asked for its next step")

    def one(self) -> None:
        self.asking()
        self.waiting.pop(0).fulfill(body="")

    def all(self) -> None:
        self.free = True
        while self.waiting:
            self.waiting.pop(0).fulfill(body="")

    def hold(self) -> None:
        """The next steps held again, until ``one`` or ``all``."""
        self.free = False

    def shown(self, stop: Any) -> None:
        """The work, held at a step, shown with ``stop`` beside it: the page's clock moved on
        past the half-second after which the page shows how far a call is, then one step
        let through, which says how far it is."""
        self.asking()
        self.page.clock.fast_forward(600)
        self.one()
        expect(stop).to_be_visible()


def slow_bridge(new_phone: NewPhone, work: str) -> Any:
    """The seeded fight, service workers blocked (their cache would hide the changed
    bridge.py), the bridge served with ``work`` done on « Passer », the page's clock
    installed and paused."""
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page

    _with_fault(page.context, SLOW.replace("{work}", work).replace("{steps}", str(STEPS)))
    page.clock.install()
    page.reload()
    wait_ready(page)
    hold_clock(page)
    return phone


def test_long_work_shows_how_far_it_is_and_is_never_a_fault(new_phone: NewPhone) -> None:
    """A call that works longer than the page waits for a silent worker (15 s of the
    page's clock) is not a fault while the worker says it works: after 500 ms the page
    shows how far it is, and the answer comes."""
    phone = slow_bridge(new_phone, "_crawl(self)")
    page = phone.page
    steps = Steps(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    bar, work = page.locator("#engine-work-bar"), page.locator("#engine-work")
    seen = bar.get_attribute("value")
    for _ in range(3):  # 21 s of the page's clock, 7 s before each sign of work
        page.clock.fast_forward(7000)
        steps.one()
        expect(bar).not_to_have_attribute("value", seen)  # a sign came: still at work
        seen = bar.get_attribute("value")
        expect(work).to_be_visible()
        expect(page.locator("#engine-work-text")).to_contain_text(re.compile(rf"Le moteur de règles travaille : \d+ sur {STEPS}…"))
    expect(page.locator("html")).not_to_have_attribute("data-engine", "error")
    steps.all()
    expect(card(page, "Orque")).to_contain_text("a passé", timeout=30_000)
    expect(work).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    expect(page.locator("#engine-status")).to_be_hidden()
    page.context.unroute_all()
    phone.assert_clean()


def test_a_silent_worker_is_still_a_fault(new_phone: NewPhone) -> None:
    """A worker stuck in a loop, saying nothing, is given up after 15 s of the page's clock."""
    phone = slow_bridge(new_phone, "while True: pass")
    page = phone.page
    card(page, "Orque").get_by_role("button", name="Passer").click()
    page.clock.fast_forward(14_000)
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    page.clock.fast_forward(1_500)
    status = page.locator("#engine-status")
    expect(status).to_contain_text("Le moteur de règles a rencontré une erreur (timeout)")
    expect(page.locator("#engine-work")).to_be_hidden()
    page.context.unroute_all()
    phone.assert_clean()


#: navigator.storage.persist and persisted as a test drives them: each ask counted
#: (``riposteTestAsked``), granted when localStorage's ``test.grant`` is "1".
PERSIST = """(() => {
  const storage = navigator.storage;
  let granted = false;
  window.riposteTestAsked = 0;
  storage.persisted = async () => granted;
  storage.persist = async () => {
    window.riposteTestAsked += 1;
    granted = localStorage.getItem("test.grant") === "1";
    return granted;
  };
})();"""


def storage_line(page: Any) -> Any:
    page.get_by_role("button", name="Partie").click()
    return page.locator("#fights-storage")


def test_storage_is_asked_to_last_at_the_first_fight_saved_and_the_list_says_what_it_keeps(new_phone: NewPhone) -> None:
    """The page never asked to keep its storage, nor said what it held: the first fight
    saved in a visit asks (not again within a week of a refusal), and the list of fights
    says the room used and left, whether it is kept, and the last backup to a file."""
    phone = new_phone(init_script=PERSIST)
    page = phone.page
    line = storage_line(page)
    size = r"[\d,]+ (o|ko|Mo|Go|To)"
    expect(line).to_contain_text(re.compile(rf"^Ce navigateur garde {size} pour Riposte ; il reste {size} de libre\."))
    expect(line).to_contain_text("Stockage non persistant")
    expect(line).to_contain_text("Aucune sauvegarde de la liste dans un fichier pour l'instant.")
    assert page.evaluate("riposteTestAsked") == 0  # nothing saved yet: not asked

    add_fighter(page, "Aldric", "pj", {"melee": 7}, {})
    add_fighter(page, "Orque", "pnj", {"melee": 6}, {})
    assert page.evaluate("riposteTestAsked") == 1  # the first fight saved: asked, once
    line = storage_line(page)
    expect(line).to_contain_text("Stockage non persistant : le navigateur peut effacer les combats")
    with page.expect_download():
        page.get_by_role("button", name="Exporter la liste des combats (.json)").click()
    today = page.evaluate("new Date().toLocaleDateString('fr', { dateStyle: 'short' })")
    expect(line).to_contain_text(f"Dernière sauvegarde de la liste dans un fichier : {today}")

    page.reload()  # refused less than a week ago: not asked again
    wait_ready(page)
    add_fighter(page, "Lyra", "pj", {"tir": 6}, {})
    assert page.evaluate("riposteTestAsked") == 0
    expect(storage_line(page)).to_contain_text(f"Dernière sauvegarde de la liste dans un fichier : {today}")

    page.evaluate("""() => { localStorage.setItem("test.grant", "1");
        localStorage.setItem("riposte.persist.asked", new Date(Date.now() - 8 * 86400000).toISOString()); }""")
    page.reload()  # a week later: asked again, and granted
    wait_ready(page)
    add_fighter(page, "Brune", "pj", {"lancer": 8}, {})
    assert page.evaluate("riposteTestAsked") == 1
    expect(storage_line(page)).to_contain_text("Stockage persistant : le navigateur n'effacera pas les combats de lui-même.")
    phone.assert_clean()


#: The browser says it is Safari's engine (WebKit's ``navigator.vendor``).
WEBKIT = """Object.defineProperty(Navigator.prototype, "vendor", { get: () => "Apple Computer, Inc." });"""
#: ... opened from the home screen (iOS's ``navigator.standalone``).
HOME_SCREEN = WEBKIT + """Object.defineProperty(Navigator.prototype, "standalone", { get: () => true });"""


def test_safari_s_seven_days_are_said_once_with_a_backup_and_a_restore(new_phone: NewPhone, tmp_path: Path) -> None:
    """Safari deletes a site's fights after seven days without a visit unless it was added
    to the home screen: there, the game master is told once, plainly, with a backup of
    every fight to a file and its restore, each one tap. Not elsewhere."""
    phone = new_phone(save=save_text(fight_log()), init_script=WEBKIT)
    page = phone.page
    told = page.locator("#seven-days")
    expect(told).to_be_visible()
    expect(told).to_contain_text("Safari efface les combats gardés par Riposte après sept jours sans visite.")
    expect(told).to_contain_text("Partager → Sur l'écran d'accueil")
    with page.expect_download() as download:
        told.get_by_role("button", name="Sauvegarder tous les combats").click()
    backup = tmp_path / "riposte-combats.json"
    download.value.save_as(backup)
    fights = json.loads(backup.read_text(encoding="utf-8"))["fights"]
    assert [json.loads(f["save"])["board"]["order"] for f in fights] == [["orque", "aldric"]]
    told.get_by_role("button", name="Compris").click()
    expect(told).to_be_hidden()
    page.reload()  # told once
    wait_ready(page)
    expect(told).to_be_hidden()

    other = new_phone(init_script=WEBKIT).page  # another phone, its fights gone: the file restores them
    expect(other.locator("#seven-days")).to_be_visible()
    other.locator("#seven-days-file").set_input_files(str(backup))
    expect(other.locator("#message")).to_contain_text("1 combat ajouté")
    other.get_by_role("button", name="Partie").click()
    expect(other.locator("#fights li")).to_have_count(2)

    for init in (HOME_SCREEN, None):  # from the home screen, and in Chromium: nothing said
        page = new_phone(init_script=init).page
        expect(page.locator("#engine-status")).to_be_hidden()
        expect(page.locator("#seven-days")).to_be_hidden()
    phone.assert_clean()


def fragment_of(link_text: str) -> str:
    """A share link's fragment for the engine's link text (web/infra/share-links.js: deflated, base64url)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = squeeze.compress(link_text.encode("utf-8")) + squeeze.flush()
    return "z=" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


#: The bridge served with replays held: each sign of work (every 50 commands of a replay,
#: ``Table._beat``) waits for the test first (``Steps``).
SLOW_REPLAYS = STEP_CODE + """

_beat = Table._beat


def _slow_beat(self, done, total):
    _step()
    _beat(self, done, total)


Table._beat = _slow_beat
"""
STOPPED = "Arrêté à votre demande : rien n'a changé, le combat ouvert est le même."


def test_a_long_link_shows_how_far_it_is_and_stops_changing_nothing(new_phone: NewPhone) -> None:
    """A link to a fight of 64 fighters and 150 rounds, read for the question, then opened,
    its replays held at each sign of work until the test lets them on (``Steps``): « Arrêter »
    beside the progress stops either, and the open fight stays as it was; let through, it
    opens, with no fault."""
    fragment = fragment_of(largest_link(rounds=150))
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    _with_fault(page.context, SLOW_REPLAYS)
    steps = Steps(page, free=True)  # the start's own replay let through
    page.clock.install()
    page.reload()
    wait_ready(page)
    stop, message, dialog = page.locator("#engine-work-stop"), page.locator("#message"), page.locator("#confirm-dialog")
    steps.hold()
    page.evaluate("(h) => { location.hash = h; }", fragment)
    steps.shown(stop)  # the link read for the question
    expect(page.locator("#engine-work-text")).to_contain_text("Le moteur de règles travaille")
    stop.click()
    expect(message).to_contain_text("Arrêt demandé")
    steps.all()
    expect(message).to_have_text(STOPPED, timeout=60_000)
    expect(dialog).to_be_hidden()
    expect_pi(page, Aldric=5, Orque=6)

    for stopped in (True, False):
        page.evaluate("(h) => { location.hash = h; }", fragment)  # put in the address again: asked
        expect(dialog).to_contain_text("Tour 150 — 64 combattants", timeout=60_000)
        if stopped:
            steps.hold()
        dialog.get_by_role("button", name="Ouvrir ce combat").click()
        if stopped:
            steps.shown(stop)  # the fight opening
            stop.click()
            steps.all()
            expect(message).to_have_text(STOPPED, timeout=60_000)
            expect_pi(page, Aldric=5, Orque=6)
            page.get_by_role("button", name="Partie").click()
            expect(page.locator("#fights li")).to_have_count(1)
            page.get_by_role("button", name="Plateau").click()
    expect(page.locator("#board .fighter")).to_have_count(64, timeout=60_000)
    expect(page.locator("#round")).to_have_text("Tour 150 — terminé")
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    page.context.unroute_all()
    phone.assert_clean()
