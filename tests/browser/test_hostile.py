"""Pushed: hostile text and misleading behaviour (issue "Nothing lost, even when pushed").

Each test sends payloads of its own at one class of attack (docs/RELIABILITY.md lists
them): ids and selectors built from user text, keys that name the prototype (in storage,
in a save), quick taps, the players' view link, text that breaks the page, and framing
by another site."""

from __future__ import annotations

import http.server
import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import serve
from conftest import ROOT, NewPhone, Shot, save_text, wait_ready
from helpers import add_fighter, card, fight_log, hold_clock
from playwright.sync_api import expect
from test_faults import FAULT, _with_fault

SHIPPED = ROOT / "_site"

# Keys that every JS object inherits: a lookup that is not "own" finds them.
PROTO_KEYS = ["__proto__", "constructor", "toString"]


def _sheet(cid: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "name": name, "side": "pnj", "characteristics": {"melee": 6, "tir": 5, "vue": 4}, **extra}


def _page_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def test_user_text_never_becomes_a_selector_or_an_id(phone: Any) -> None:
    """The issue's "Arc long" / "arc long", then skills named like selectors and like the
    prototype's keys: the fighter stays editable and every skill keeps its level."""
    page = phone.page
    add_fighter(page, "Archère", "pj", {"tir": 7}, {}, weapon=("Arc long", "bow", "arc long", 3))
    dialog = page.locator("#fighter-dialog")
    page.get_by_role("button", name="Modifier Archère").click()
    payloads = {'a"] , #f-name, [x': 1, "constructor": 2, "__proto__": 4, "#s-tir .x": 5}
    for skill, level in payloads.items():
        dialog.get_by_role("button", name="Ajouter une arme").click()
        row = dialog.locator(".weapon-row").last
        row.locator(".w-name").fill(f"Arme {level}")
        row.locator(".w-skill").fill(skill)
        row.locator(".w-level").fill(str(level))
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()

    # Every weapon removed: their skills become the fighter's own, in fields of their own.
    page.get_by_role("button", name="Modifier Archère").click()
    expect(dialog.locator(".weapon-row")).to_have_count(5)
    for _ in range(5):
        dialog.get_by_role("button", name="Retirer l'arme").first.click()
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()

    page.get_by_role("button", name="Modifier Archère").click()
    expect(dialog).to_be_visible()
    for skill, level in {"arc long": 3, **payloads}.items():
        expect(dialog.get_by_label(skill, exact=True)).to_have_value(str(level))
    dialog.get_by_label("constructor", exact=True).fill("6")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Modifier Archère").click()
    expect(dialog.get_by_label("constructor", exact=True)).to_have_value("6")
    expect(dialog.get_by_label("__proto__", exact=True)).to_have_value("4")
    expect(dialog.locator("#f-name")).to_have_value("Archère")
    assert "native code" not in _page_text(page)
    phone.assert_clean()


@pytest.mark.parametrize("lang", ["__proto__", "constructor"])
def test_a_corrupted_language_setting_falls_back_to_french(new_phone: NewPhone, lang: str) -> None:
    phone = new_phone(save=save_text(fight_log()), init_script=f"localStorage.setItem('riposte.lang', {json.dumps(lang)})")
    page = phone.page
    assert page.title() == "Riposte — suivi de combat"
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    card(page, "Orque").get_by_role("button", name="Agir").click()
    expect(page.locator("#sheet-title")).to_have_text("Orque — agir (6 P.I., Espoir 0)")
    page.locator("#sheet-close").click()
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#language")).to_have_value("fr")
    phone.assert_clean()


def test_ids_and_skills_named_like_the_prototype_keep_their_dice(new_phone: NewPhone) -> None:
    """Fighters whose ids (from a file or a link) are "__proto__", "constructor",
    "toString", with weapons of such ids and skills of such names: each die typed is
    kept, each fighter acts, each weapon's skill is shown by the weapon's name as typed."""
    log: list[dict[str, Any]] = [
        {"type": "add_combatant", "combatant": _sheet(cid, f"Clef {i}", skills={"constructor": i + 1, "toString": 1},
                                                   weapons=[{"id": "__proto__", "name": f"Lame {i}", "kind": "melee",
                                                             "skill": "constructor"}], in_hand=["__proto__"])}
        for i, cid in enumerate(PROTO_KEYS)]
    phone = new_phone(save=save_text(log))
    page = phone.page
    page.get_by_role("button", name="Initiative").click()
    first = page.locator("li.declaration", has_text="Clef 0")
    expect(first.locator("select")).to_have_value("__proto__")
    first.locator("input").fill("6")
    expect(first.locator("output")).to_have_text("⌊Mêlée 6/2⌋ 3 + bonus 0 + Lame 0 1 + dé 6 − blessures 0 = 10")
    for i, die in ((1, 2), (2, 1)):
        page.locator("li.declaration", has_text=f"Clef {i}").locator("input").fill(str(die))
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#round")).to_have_text("Tour 1")
    for i, die in enumerate((6, 2, 1)):
        card(page, f"Clef {i}").locator('button[data-do="toggle"]').click()  # the row's details
        expect(card(page, f"Clef {i}")).to_contain_text(f"(d6 {die})")
    page.get_by_role("button", name="Journal").click()
    journal = page.locator("#journal")
    expect(journal).to_contain_text("Clef 0 (Lame 0) : d6 6, initiative 10")
    expect(journal).not_to_contain_text("lancé par Riposte")

    page.get_by_role("button", name="Plateau").click()
    card(page, "Clef 0").get_by_role("button", name="Agir").click()
    sheet = page.locator("#sheet")
    expect(page.locator("#sheet-title")).to_have_text(re.compile("^Clef 0 — agir"))
    sheet.locator('button[data-action="observer"]').click()
    sheet.locator("[data-submit]").click()
    expect(sheet).to_be_hidden()
    expect(card(page, "Clef 0").locator(".pi")).to_have_text("5 P.I.")
    assert "native code" not in _page_text(page) and "function" not in _page_text(page)
    phone.assert_clean()


TAP_STORM = 20
#: The page's time between two taps of the burst (ms): 20 taps in a second.
TAP_EVERY = 50
#: The last taps of the burst, which land once the board is drawn anew (Aldric's card under the finger).
TAPS_AFTER = 5


def test_a_burst_of_taps_does_not_reach_the_next_fighter(fight: Any) -> None:
    """20 taps on Orque's « Passer » in a second: Orque passes, and Aldric, whose card
    comes up under the finger, does not. A tap elsewhere goes through at once, and a tap
    on the same spot after the finger rested does too. The page's clock stands still but
    for the test's moves (``page.clock``): the taps are 50 ms apart in the page's time
    however long a busy machine takes between two of them, and the last five come once
    the board is drawn anew."""
    page = fight.page
    page.clock.install()
    hold_clock(page)
    button = card(page, "Orque").get_by_role("button", name="Passer")
    box = button.bounding_box()
    # Low on the right, where a finger rests and where Aldric's « Passer » comes up.
    x, y = box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.8
    for tap in range(TAP_STORM):
        if tap == TAP_STORM - TAPS_AFTER:  # however long the engine took in real time
            expect(card(page, "Orque")).to_contain_text("a passé")
        page.mouse.click(x, y, delay=25)  # down, up: a quick tap
        page.clock.run_for(TAP_EVERY)  # the page's timers due meanwhile run (a redraw's)
    page.clock.resume()
    journal = page.evaluate("async () => JSON.parse(await window.riposte.raw('{\"op\": \"journal\"}')).entries")
    assert [e["name"] for e in journal if e["kind"] == "passed"] == ["Orque"]
    expect(page.locator("#round")).to_have_text("Tour 1")
    # Aldric's card comes up under the finger, one of his chips there (« Observer », his
    # last action, or « Passer »): both would end the round.
    under = page.evaluate(f"""(() => {{ const b = document.elementFromPoint({x}, {y}).closest('button');
        return b && b.closest('li.fighter').dataset.id + ' ' + (b.dataset.action || b.dataset.do); }})()""")
    assert under in ("aldric observer", "aldric pass"), under
    expect(page.locator("#round")).to_have_text("Tour 1")

    card(page, "Aldric").get_by_role("button", name="Agir").click()  # another spot: at once
    expect(page.locator("#sheet")).to_be_visible()
    page.locator("#sheet-close").click()
    page.clock.fast_forward(1000)  # the finger rests a second, then taps the same spot
    page.mouse.click(x, y, delay=25)
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    fight.assert_clean()


def test_a_tap_whose_release_meets_the_board_drawn_anew_is_still_a_tap_of_the_burst(fight: Any) -> None:
    """Taps on Orque's « Passer » 250 ms apart in the page's time: the second is pressed on
    Orque's card and released once the board is drawn anew, with Aldric's card under the
    finger (no click comes of it, as on a busy phone); the taps after it, each less than
    400 ms after the one before, still do not reach Aldric."""
    page = fight.page
    page.clock.install()
    hold_clock(page)
    box = card(page, "Orque").get_by_role("button", name="Passer").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.8)
    for tap in range(4):
        page.mouse.down()
        if tap == 1:  # the board drawn anew under the pressed finger
            expect(card(page, "Orque")).to_contain_text("a passé")
        page.mouse.up()
        page.clock.run_for(250)
    page.clock.resume()
    journal = page.evaluate("async () => JSON.parse(await window.riposte.raw('{\"op\": \"journal\"}')).entries")
    assert [e["name"] for e in journal if e["kind"] == "passed"] == ["Orque"]
    expect(page.locator("#round")).to_have_text("Tour 1")
    fight.assert_clean()


def test_the_players_view_link_alone_opens_the_players_view(new_phone: NewPhone, site_url: str) -> None:
    phone = new_phone(save=save_text(fight_log()))
    page = phone.page
    page.goto("about:blank")
    page.goto(site_url + "#vue=joueurs")  # a fresh load, the fight saved on this device
    wait_ready(page)
    expect(page.locator("#screen-players")).to_be_visible()
    expect(page.locator("#players-board .name")).to_have_text(["Aldric", "Orque"])  # the players' board: the PJ first (engine/players.py)
    expect(page.locator(".tabs")).to_be_hidden()
    page.get_by_role("button", name="Quitter la vue joueurs").click()
    expect(page.locator("#screen-board")).to_be_visible()
    page.evaluate("() => { location.hash = 'vue=joueurs'; }")  # and once the page is open
    expect(page.locator("#screen-players")).to_be_visible()
    phone.assert_clean()


# Names that break a page: unclosed overrides and isolates, a stray pop, right-to-left
# letters, 60 letters with no space, markup; weapons and skills likewise.
HOSTILE = {
    "rlo": "\u202eOrdre",
    "rtl": "עמית 2",
    "rli": "\u2067Liseuse",
    "pdi": "Zed\u2069\u202e évasion",
    "long": "W" * 60,
    "html": "<b>Gras</b>",
}


def _hostile_log() -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    for key, name in HOSTILE.items():
        log.append({"type": "add_combatant", "combatant": _sheet(
            key, name, skills={"\u202eépée": 2},
            weapons=[{"id": "w", "name": "\u202e" + "L" * 59, "kind": "melee", "skill": "\u202eépée"}], in_hand=["w"])})
    for n in range(6):  # twelve fighters in all: the journal counts past 10
        log.append({"type": "add_combatant", "combatant": _sheet(f"x{n}", f"Extra {n}")})
    rolls = {key: 6 - i for i, key in enumerate(HOSTILE)} | {f"x{n}": 1 for n in range(6)}
    log.append({"type": "start_round", "rolls": rolls})
    return log


def _fits(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def _reads_left_to_right(page: Any, selector: str, first: str, last: str) -> None:
    """In the element's text, the page's word ``first`` is drawn left of ``last``."""
    left = page.locator(selector).evaluate("""(el, words) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const x = {};
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of words) {
          const at = node.data.indexOf(word);
          if (at < 0 || word in x) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          x[word] = range.getBoundingClientRect().left;
        }
      }
      return words.map((w) => x[w]);
    }""", [first, last])
    assert None not in left and left[0] < left[1], (selector, left)


def test_hostile_text_stays_in_its_place(new_phone: NewPhone, shot: Shot) -> None:
    phone = new_phone(save=save_text(_hostile_log()))
    page = phone.page
    board = page.locator("#board")
    expect(board.locator(".name")).to_have_count(12)
    shot(page, "hostile-board.png")
    _fits(page)
    # "À ‮Ordre d'agir (6 P.I.)": the override stops at the name, the sentence reads on.
    expect(page.locator("#turn")).to_contain_text("d'agir")
    _reads_left_to_right(page, "#turn", "À", "d'agir")
    text = _page_text(page)
    assert not re.search("[\u202a-\u202e]", text)
    assert text.count("\u2068") == text.count("\u2069")
    # The RTL name is isolated: the sentence around it keeps its order.
    card(page, "Ordre").get_by_role("button", name="Passer").click()
    expect(page.locator("#turn")).to_contain_text("עמית 2")
    _reads_left_to_right(page, "#turn", "À", "d'agir")
    expect(board.locator("li.fighter").filter(has_text="W" * 60)).to_have_count(1)

    for screen in ("Initiative", "Combattants", "Journal"):
        page.get_by_role("button", name=screen).click()
        shot(page, f"hostile-{screen.lower()}.png")
        _fits(page)
    journal = page.locator("#journal ol").first
    expect(journal.locator("li")).to_have_count(12)
    room = journal.evaluate("""(ol) => {
      const probe = document.createElement("span");
      probe.textContent = "12.";
      ol.lastElementChild.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      return parseFloat(getComputedStyle(ol).paddingLeft) - width;
    }""")
    assert room > 4  # "10.", "11.", "12." drawn whole, not "0.", "1.", "2."
    page.get_by_role("button", name="Plateau").click()
    board.locator("li.active").get_by_role("button", name="Agir").click()
    expect(page.locator("#sheet-title")).to_contain_text("עמית 2")
    _reads_left_to_right(page, "#sheet-title", "—", "agir")
    _fits(page)
    phone.assert_clean()


def test_the_fault_banner_and_its_reload_button_fit_a_phone(new_phone: NewPhone) -> None:
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    _with_fault(page.context, FAULT.replace("{fault}", 'raise RuntimeError("' + "panne très longue " * 12 + '")'))
    page.reload()
    wait_ready(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    reload = page.get_by_role("button", name="Recharger")
    expect(reload).to_be_visible()
    box = reload.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert reload.evaluate("b => b.scrollWidth <= b.clientWidth")  # its word, whole
    _fits(page)


# --- framing ---------------------------------------------------------------------------

@pytest.fixture
def framer(site_url: str) -> Iterator[str]:
    """A page of another origin (a second local port) that frames the site."""
    page = f'<!doctype html><title>Autre site</title><iframe src="{site_url}" width="390" height="700"></iframe>'.encode()

    class Frame(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Frame)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_another_site_cannot_frame_the_fight(new_phone: NewPhone, framer: str, site_url: str) -> None:
    phone = new_phone(framer, ready=False, service_workers="block")
    page = phone.page
    frame = page.frame_locator("iframe")
    expect(frame.locator("html")).to_have_attribute("data-engine", "framed")
    expect(frame.locator("body")).to_contain_text("Riposte ne s'ouvre pas dans la page d'un autre site")
    expect(frame.locator("body")).to_contain_text("Riposte does not run inside another site's page")
    expect(frame.get_by_role("link", name="Ouvrir Riposte dans sa propre fenêtre")).to_have_attribute("target", "_blank")
    assert frame.locator("#board, .tabs").count() == 0  # nothing of the app to tap through
    assert not [u for u in phone.requests if "pyodide" in u or "bridge.py" in u]  # no engine started
    assert phone.errors == []


def test_a_frame_of_its_own_origin_still_runs(new_phone: NewPhone, site_url: str) -> None:
    """The check refuses other sites only: a page of the site's own origin may frame it."""
    phone = new_phone("about:blank", ready=False, service_workers="block")
    page = phone.page
    page.route(site_url + "framed.html", lambda route: route.fulfill(
        content_type="text/html", body=f'<!doctype html><iframe src="{site_url}" width="390" height="700"></iframe>'))
    page.goto(site_url + "framed.html")
    expect(page.frame_locator("iframe").locator("html")).to_have_attribute("data-engine", "ready", timeout=60_000)
    assert [u for u in phone.requests if not u.startswith((site_url, "blob:" + site_url, "data:"))] == []
    assert phone.errors == []


#: Every test hook a page can hold (web/infra/hooks.js), on the page and in its workers.
PAGE_HOOKS = "() => [typeof riposte, typeof riposteLive, typeof ripostePage]"
WORKER_HOOK = "() => typeof ripostePython"


@pytest.fixture(scope="module")
def shipped_url() -> Iterator[str]:
    """The shipped site (_site/: tools/build_site.py makes it beside the test build), served."""
    if not (SHIPPED / "index.html").exists():
        pytest.fail("_site/ is not built: run `make site` (make test does)")
    server = serve.serve(SHIPPED, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_the_shipped_page_works_and_holds_no_test_hook_even_when_asked(new_phone: NewPhone, shipped_url: str) -> None:
    # The switch set, as on every test's page (conftest.py HOOKS); the engine ready, the fight drawn.
    visitor = new_phone(shipped_url, save=save_text(fight_log()))
    expect(card(visitor.page, "Aldric")).to_be_visible()
    assert visitor.page.evaluate(PAGE_HOOKS) == ["undefined"] * 3
    assert visitor.page.evaluate("performance.getEntriesByType('mark').map((m) => m.name)") == []
    assert visitor.page.workers, "the engine's worker runs"
    assert [w.evaluate(WORKER_HOOK) for w in visitor.page.workers] == ["undefined"] * len(visitor.page.workers)
    visitor.assert_clean()


def test_the_test_builds_hooks_are_there_only_when_switched_on(new_phone: NewPhone) -> None:
    visitor = new_phone(init_script="globalThis.__riposteHooks = false;").page
    assert visitor.evaluate(PAGE_HOOKS) == ["undefined"] * 3
    assert [w.evaluate(WORKER_HOOK) for w in visitor.workers] == ["undefined"] * len(visitor.workers)
    tested = new_phone().page
    assert tested.evaluate("typeof riposte") == "object"
    assert "object" in [w.evaluate(WORKER_HOOK) for w in tested.workers]
