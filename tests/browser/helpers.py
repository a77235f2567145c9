"""Steps a player takes in the page, shared by the end-to-end tests."""

from __future__ import annotations

import re
from typing import Any

from conftest import fight_log, save_text, wait_ready
from playwright.sync_api import expect

from tests.casts import CASTS

__all__ = ["CASTS", "fight_log", "save_text"]


def add_fighter(page: Any, name: str, side: str, characteristics: dict[str, int], skills: dict[str, int],
                hope: int = 0, weapon: tuple[str, str, str, int] | None = None) -> None:
    page.get_by_role("button", name="Combattants").click()
    page.get_by_role("button", name="Ajouter un combattant").click()
    dialog = page.locator("#fighter-dialog")
    dialog.locator("#f-name").fill(name)
    dialog.locator("#f-side").select_option(side)
    for key, value in characteristics.items():
        dialog.locator(f"#c-{key}").fill(str(value))
    more = dialog.locator("details.more > summary")  # skills, bonus, wounds, Espoir: folded away
    if more.count():  # (not in the form of an earlier release: test_versions' upgrade)
        more.click()
    for key, value in skills.items():
        dialog.locator(f"#s-{key}").fill(str(value))
    dialog.locator("#f-hope").fill(str(hope))
    if weapon:
        weapon_name, kind, skill, level = weapon
        dialog.get_by_role("button", name="Ajouter une arme").click()
        row = dialog.locator(".weapon-row").last
        row.locator(".w-name").fill(weapon_name)
        row.locator(".w-kind").select_option(kind)
        row.locator(".w-skill").fill(skill)
        row.locator(".w-level").fill(str(level))
        row.locator(".w-held").check()
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#cast")).to_contain_text(name)


def card(page: Any, name: str) -> Any:
    return page.locator("#board li.fighter", has=page.locator(".name", has_text=re.compile(f"^{name}$")))


def expect_pi(page: Any, **pis: int) -> None:
    for name, pi in pis.items():
        expect(card(page, name).locator(".pi")).to_have_text(f"{pi} P.I.")


def start_round(page: Any, dice: dict[str, int]) -> None:
    page.get_by_role("button", name="Initiative").click()
    for name, die in dice.items():
        page.locator("li.declaration", has_text=name).locator("input").fill(str(die))
    page.get_by_role("button", name="Commencer le tour").click()
    expect(page.locator("#screen-board")).to_be_visible()


def act(page: Any, name: str, action: str, **fields: Any) -> None:
    """``name`` acts (its « Agir » button): ``action``, with ``fields`` filled in its options."""
    card(page, name).get_by_role("button", name="Agir").click()
    sheet = page.locator("#sheet")
    sheet.locator(f'button[data-action="{action}"]').click()
    for field, value in fields.items():
        control = sheet.locator(f"#opt-{field}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(label=value)
        else:
            control.fill(str(value))
    sheet.locator("[data-submit]").click()
    expect(sheet).to_be_hidden()


def clock_until(page: Any, locator: Any, text: str, limit_ms: int = 60_000, step_ms: int = 1000) -> None:
    """The page's clock (``page.clock``, installed before the page loaded) moved on a
    second at a time until ``locator`` says ``text``: a limit of the page (the engine's
    start, a call it never answers) reached without waiting for it in real time."""
    for _ in range(limit_ms // step_ms):
        if text in locator.inner_text():
            return
        page.clock.fast_forward(step_ms)
    expect(locator).to_contain_text(text)


def hold_clock(page: Any, after_ms: int = 1000) -> None:
    """The page's clock (``page.clock``, installed) moved ``after_ms`` on, then standing
    still but for the test's moves (``run_for``, ``fast_forward``) until ``resume``.
    Playwright for Python reads a number given to ``pause_at`` as seconds."""
    page.clock.pause_at((page.evaluate("Date.now()") + after_ms) / 1000)


def python(page: Any) -> Any:
    """The engine's worker (PyScript's), once its Python is up: its Python is
    ``ripostePython`` there (the page's test hooks, web/boot/bridge.py ``hooks``)."""
    wait_ready(page)
    workers = [w for w in page.workers if w.evaluate("() => typeof ripostePython") == "object"]
    assert len(workers) == 1, [w.url for w in page.workers]
    return workers[0]


def axe_within(page: Any, selector: str, screen: str) -> list[str]:
    """axe-core's serious and critical violations inside ``selector`` alone (a new element
    judged on a screen whose other parts have tests of their own), one line each; every
    rule that needs the whole page (landmarks, a page's title) left to test_judged."""
    from test_judged import AXE

    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async (selector) => {
        const r = await axe.run(selector, { resultTypes: ['violations'] });
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
    }""", selector)
    return [f"[{screen}] {line}" for line in found]
