"""Nothing breaks, nothing is lost, nothing gets in (issue "Nothing breaks"): malformed
commands through the JS → worker bridge, hostile names in an imported file, the Content
Security Policy, storage that fails, and an engine that fails.

The bridge fuzz sends BRIDGE_FUZZ_COMMANDS malformed commands (2,000 in CI; ``make
test-long`` sends 100,000) from tests/fuzz.py through ``window.riposte.raw``, the same
call every tap makes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from conftest import STORAGE_FAULTS, NewPhone, full_when, save_text, store, wait_ready
from helpers import CASTS, act, add_fighter, card, clock_until, expect_pi, fight_log, start_round
from playwright.sync_api import expect

from tests.fuzz import corpus

BRIDGE_FUZZ = int(os.environ.get("BRIDGE_FUZZ_COMMANDS", "500"))  # each of the corpus's ten kinds 50 times; make test-long: 100,000
CHUNK = 250

FUZZ_CHUNK = """async (texts) => {
  const before = window.__before;
  const out = { refused: 0, accepted: 0, changed: [], codes: {} };
  for (const text of texts) {
    const answer = JSON.parse(await window.riposte.raw('{"op": "apply", "command": ' + text + '}'));
    if (answer.ok) {  // valid by chance: take it back, the board must come back too
      out.accepted += 1;
      const undone = JSON.parse(await window.riposte.raw('{"op": "undo"}'));
      if (JSON.stringify(undone.board) !== before) out.changed.push('undo: ' + text.slice(0, 120));
      continue;
    }
    out.refused += 1;
    out.codes[answer.error.code] = (out.codes[answer.error.code] || 0) + 1;
    if (answer.undo !== 4 || JSON.stringify(answer.board) !== before) out.changed.push(text.slice(0, 120));
  }
  return out;
}"""

WATCH_MAIN_THREAD = """() => {
  window.__longest = 0; window.__frames = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({ type: "longtask" });
  const tick = () => { window.__frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""


def test_malformed_commands_through_the_bridge_change_nothing(fight: Any) -> None:
    page = fight.page
    page.evaluate("async () => { window.__before = JSON.stringify(JSON.parse(await window.riposte.raw('{\"op\": \"x\"}')).board); }")
    page.evaluate(WATCH_MAIN_THREAD)
    texts = [text for _, text in corpus(BRIDGE_FUZZ)]
    totals = {"refused": 0, "accepted": 0, "codes": {}}
    for start in range(0, len(texts), CHUNK):
        out = page.evaluate(FUZZ_CHUNK, texts[start:start + CHUNK])
        assert out["changed"] == [], out["changed"][:5]
        totals["refused"] += out["refused"]
        totals["accepted"] += out["accepted"]
        for code, n in out["codes"].items():
            totals["codes"][code] = totals["codes"].get(code, 0) + n
    assert totals["refused"] + totals["accepted"] == BRIDGE_FUZZ
    assert "internal" not in totals["codes"]
    longest, frames = page.evaluate("[window.__longest, window.__frames]")
    print(f"\nfuzz bridge: {BRIDGE_FUZZ} commands, {totals['refused']} refused, {totals['accepted']} valid by chance "
          f"(undone), 0 exceptions, 0 changes; longest main-thread task {longest:.0f} ms, {frames} frames; {totals['codes']}")
    assert frames > 10  # the page kept drawing: the engine works in its worker
    assert longest < 500, f"the page froze for {longest} ms"
    # The page still plays: the same board, and a tap works.
    expect_pi(page, Aldric=5, Orque=6)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    fight.assert_clean()


def test_hostile_names_in_an_imported_file_stay_text(fight: Any, tmp_path: Path) -> None:
    phone = fight  # a fight to replace: the question is asked, with the names in it
    page = phone.page
    alerts: list[str] = []
    page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
    img = "<img src=x onerror=alert(1)>"
    script = "<script>alert(2)</script>"
    orque = {**CASTS["orque"], "name": script, "weapons": [{**CASTS["orque"]["weapons"][0], "name": img}]}
    log = [{"type": "add_combatant", "combatant": {**CASTS["aldric"], "name": img}},
           {"type": "add_combatant", "combatant": orque},
           {"type": "start_round", "declarations": {"aldric": "epee", "orque": "hache"}, "rolls": {"aldric": 5, "orque": 1}}]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"app": "riposte", "format": 2, "commands": log, "board": None}), encoding="utf-8")
    page.get_by_role("button", name="Partie").click()
    page.locator("#import").set_input_files(str(path))
    expect(page.locator("#confirm-body")).to_contain_text(f"{img}, {script}")
    page.locator("#confirm-dialog").get_by_role("button", name="Ouvrir ce combat").click()
    page.get_by_role("button", name="Plateau").click()
    expect(page.locator("#board .name")).to_have_text([img, script])
    page.locator('#board li[data-id="orque"] button[data-do="toggle"]').click()  # what it holds: its row's details
    expect(page.locator("#board")).to_contain_text(f"en main : {img}")
    page.get_by_role("button", name="Journal").click()
    expect(page.locator("#journal")).to_contain_text(f"{script} ({img}) : d6 1")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Ouvrir la vue joueurs").click()
    expect(page.locator("#players-board .name")).to_have_text([img, script])
    assert page.locator("body img, main script, dialog script").count() == 0
    # An alert could only come from a script run (it would have blocked the page until
    # dismissed, so before this line) or from an image that failed: none was ever requested.
    assert not [url for url in phone.requests if url.rstrip("/").endswith("/x")], phone.requests
    assert alerts == []
    phone.assert_clean()


#: What the policy may name: the site itself, WebAssembly compilation, the eval that
#: Pyodide's Emscripten module needs (EM_ASM snippets; without it the engine cannot start,
#: docs/RELIABILITY.md), the workers PyScript starts from blob: URLs, data: images, inline
#: style attributes. No other origin.
ALLOWED_SOURCES = ("'self'", "'none'", "'wasm-unsafe-eval'", "'unsafe-eval'", "'unsafe-inline'", "blob:", "data:")


def test_the_policy_allows_only_the_sites_own_origin(phone: Any) -> None:
    page = phone.page
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    for name, sources in directives.items():
        for source in sources.split():
            assert source in ALLOWED_SOURCES, (name, source)
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    phone.assert_clean()


def test_a_foreign_request_is_blocked_and_fails_the_watch(phone: Any) -> None:
    """The guard itself: a request to another origin is blocked by the policy, reported,
    and the report is what makes an end-to-end test fail (Watched)."""
    page = phone.page
    report = "CSP violation: connect-src blocked https://example.com/x"
    with page.expect_console_message(lambda m: report in m.text):
        blocked = page.evaluate("fetch('https://example.com/x').then(() => 'sent', () => 'blocked')")
    assert blocked == "blocked"
    assert any("CSP violation: connect-src blocked https://example.com/x" in e for e in phone.errors), phone.errors
    phone.forgive(re.compile(re.escape("https://example.com/x")))
    phone.assert_clean()


def test_storage_unavailable_at_start_up_the_app_still_plays(new_phone: NewPhone) -> None:
    # localStorage switched off, and IndexedDB refusing every call of the page's.
    watched = new_phone(init_script=STORAGE_FAULTS + "window.faults = {kind: 'unavailable'};")
    page = watched.page
    expect(page.locator("#message")).to_contain_text("stockage du navigateur est indisponible")
    add_fighter(page, "Aldric", "pj", {"melee": 7}, {})
    start_round(page, {"Aldric": 4})
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect(page.locator("#message")).to_contain_text("indisponible")
    watched.assert_clean()


def test_storage_full_mid_fight_loses_nothing_that_was_saved(fight: Any) -> None:
    page = fight.page
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException('plein', 'QuotaExceededError'); }; }""")
    page.evaluate(full_when("true"))
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")  # the app keeps running
    expect(page.locator("#message")).to_contain_text("stockage du navigateur est plein")
    expect(page.locator("#message")).to_contain_text("Exportez le combat")
    page.reload()  # a fresh page, with a working storage: the last save is there
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)
    expect(card(page, "Orque")).not_to_contain_text("a passé")
    fight.assert_clean()


def test_a_save_corrupted_mid_fight_is_written_over(fight: Any) -> None:
    page = fight.page
    store(page, "riposte.encounter", '{"format": 2, "commands": [')
    act(page, "Orque", "dire_phrase")
    page.reload()
    wait_ready(page)
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#board")).to_contain_text("Orque")
    expect(page.locator("#turn")).to_have_text(
        "Phase d'Orque en cours : une action gratuite prise, la suivante se paie en P.I. (une autre gratuite : 5).")
    fight.assert_clean()


FAULT = """
_apply = Table.apply


def _faulty(self, command):
    if isinstance(command, dict) and command.get("type") == "pass":
        {fault}
    return _apply(self, command)


Table.apply = _faulty
"""

#: A rule's own code that raises (engine/play.py ``step``, under Table.apply): the engine's
#: answer is ``internal`` like any fault of its code, never a refusal of the command.
RULE_FAULT = """
import engine.play as _play

_rule = _play.step


def _broken_rule(enc, command):
    if command.get("type") == "pass":
        raise KeyError("règle cassée")
    return _rule(enc, command)


_play.step = _broken_rule
"""


def _with_fault(context: Any, code: str) -> None:
    def handle(route: Any) -> None:
        body = route.fetch().text()
        route.fulfill(body=body.replace("\nsync.call = call", code + "\nsync.call = call"),
                      content_type="text/x-python")

    context.route(re.compile(r".*/web-[0-9a-f]{12}/boot/bridge\.py$"), handle)


def _fault_then_reload(new_phone: NewPhone, fault: str, message: str, silent: bool = False, code: str = FAULT) -> None:
    """The seeded fight, service workers blocked (their cache would hide the changed
    bridge.py), then the fault injected and the page reloaded. ``silent``: the worker
    never answers, and the page's clock is moved on to the call's limit (15 s)."""
    phone = new_phone(save=save_text(fight_log()), service_workers="block")
    page = phone.page
    _with_fault(page.context, code.replace("{fault}", fault))
    if silent:
        page.clock.install()
    page.reload()
    wait_ready(page)
    card(page, "Orque").get_by_role("button", name="Passer").click()
    status = page.locator("#engine-status")
    if silent:
        clock_until(page, status, message)
    else:
        expect(status).to_contain_text(message)
    expect(status).to_contain_text("Le combat est sauvegardé : rechargez la page pour reprendre.")
    assert page.locator("main").evaluate("e => e.inert")  # no tap into a broken engine
    # Said once, by the fault screen: not as a refusal in the dock or on the message line.
    expect(page.locator("#board-error")).to_be_hidden()
    expect(page.locator("#message")).to_be_hidden()
    page.context.unroute_all()
    page.get_by_role("button", name="Recharger").click()
    wait_ready(page)
    expect_pi(page, Aldric=5, Orque=6)  # the encounter as it was saved
    card(page, "Orque").get_by_role("button", name="Passer").click()
    expect(card(page, "Orque")).to_contain_text("a passé")
    phone.assert_clean()


def test_a_python_exception_keeps_the_fight_and_offers_a_reload(new_phone: NewPhone) -> None:
    _fault_then_reload(new_phone, 'raise RuntimeError("panne simulée")', "RuntimeError: panne simulée")


def test_a_fault_inside_a_rule_is_a_fault_not_a_refusal(new_phone: NewPhone) -> None:
    """A rule that raises is the engine's fault (``internal``): the fault screen and its
    reload, not a refusal in the dock."""
    _fault_then_reload(new_phone, "", "KeyError: 'règle cassée'", code=RULE_FAULT)


def test_a_dead_worker_keeps_the_fight_and_offers_a_reload(new_phone: NewPhone) -> None:
    """A worker that never answers (here: stuck in a loop) is given up after 15 s (of the
    page's clock)."""
    _fault_then_reload(new_phone, "while True: pass", "timeout", silent=True)
