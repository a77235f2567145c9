"""Judged from outside: the Nu HTML Checker on every HTML page the site ships, axe-core on
every screen in light and dark mode, a whole fight with the keyboard alone, and the page
at 320 px wide (WCAG reflow: what 200 % zoom of a 640 px window shows).

axe-core (npm, pinned) is evaluated into the real page; a violation of impact serious or
critical fails the test with its rule, its help and the elements.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SITE, NewPhone
from helpers import card, expect_pi, fight_log, save_text
from playwright.sync_api import expect

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def test_every_html_page_passes_the_nu_html_checker() -> None:
    java = shutil.which("java")
    if java is None:
        pytest.fail("No Java: the HTML checker (vnu-jar) needs it (.ci/run installs default-jre-headless)")
    pages = sorted(SITE.rglob("*.html"))
    assert SITE / "index.html" in pages
    run = subprocess.run([java, "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, pages)],
                         capture_output=True, text=True, check=False)
    messages = json.loads(run.stderr or run.stdout)["messages"]
    errors = [f"{Path(m['url']).name}:{m.get('lastLine')}: {m['message']}" for m in messages if m["type"] == "error"]
    assert errors == [], "\n".join(errors)


#: Until every animation and transition running now has finished (a dialog opening,
#: a tab sliding in), then one frame more: the screen axe judges is the one a user sees.
SETTLED = """async () => {
    await Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


def axe(page: Any, screen: str) -> list[str]:
    """The serious and critical violations on the page as it is, one line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated by the test driver: the CSP stays on
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
    }""")
    return [f"[{screen}] {line}" for line in found]


def screens(page: Any) -> list[tuple[str, Callable[[], None], Callable[[], None]]]:
    """Each screen: its name, how to open it (until it shows), how to leave it."""
    def showing(opener: Callable[[], None], selector: str, text: str | None = None) -> Callable[[], None]:
        def open_it() -> None:
            opener()
            expect(page.locator(selector)).to_be_visible()
            if text is not None:
                expect(page.locator(selector)).to_contain_text(text)
        return open_it

    def tab(name: str, selector: str, text: str | None = None) -> Callable[[], None]:
        return showing(lambda: page.get_by_role("button", name=name, exact=True).click(), selector, text)

    def escape() -> None:
        page.keyboard.press("Escape")

    def nothing() -> None:
        return None

    def sheet_options() -> None:
        card(page, "Orque").get_by_role("button", name="Agir").click()
        page.locator('#sheet button[data-action="attaque_melee"]').click()

    def dialog(opener: str, selector: str) -> Callable[[], None]:
        def open_it() -> None:
            page.get_by_role("button", name="Partie", exact=True).click()
            page.get_by_role("button", name=opener).click()
        return showing(open_it, selector)

    def fighter() -> None:
        page.get_by_role("button", name="Combattants", exact=True).click()
        page.get_by_role("button", name="Modifier Aldric").click()

    def act(name: str, button: str) -> Callable[[], None]:
        return showing(lambda: card(page, name).get_by_role("button", name=button).click(), "#sheet")

    return [
        ("plateau", tab("Plateau", "#screen-board"), nothing),
        ("agir", act("Orque", "Agir"), escape),
        ("options d'une action", showing(sheet_options, "#sheet #opt-target"), escape),
        ("interrompre", act("Aldric", "Interrompre"), escape),
        ("début du tour", tab("Initiative", "#screen-round"), nothing),
        ("combattants", tab("Combattants", "#screen-cast"), nothing),
        ("fiche de combattant", showing(fighter, "#fighter-dialog"), escape),
        ("journal", tab("Journal", "#journal", "Tour 1"), nothing),  # the journal comes from the engine
        ("partie", tab("Partie", "#screen-menu"), nothing),
        ("partager", dialog("Lien et code QR", "#share-qr svg"), escape),
        ("raccourcis", dialog("Raccourcis clavier", "#help-dialog"), escape),
        ("confirmation", dialog("Nouveau combat vide", "#confirm-dialog"), escape),
        ("règles de la table", dialog("Règles de la table", "#rules-fields tr[data-rule=passer]"), nothing),
        ("vue joueurs", dialog("Ouvrir la vue joueurs", "#screen-players"),
         lambda: page.get_by_role("button", name="Quitter la vue joueurs").click()),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_screen(new_phone: NewPhone, scheme: str) -> None:
    watched = new_phone(save=save_text(fight_log()), color_scheme=scheme)
    page = watched.page
    violations: list[str] = []
    for name, open_it, leave in screens(page):
        open_it()
        page.evaluate(SETTLED)
        violations += axe(page, f"{scheme}, {name}")
        leave()
    page.get_by_role("button", name="Partie", exact=True).click()
    page.get_by_label("Langue").select_option("en")
    page.get_by_role("button", name="Board", exact=True).click()
    violations += axe(page, f"{scheme}, board in English")
    assert violations == [], "\n".join(violations)
    watched.assert_clean()


def test_at_320_px_nothing_scrolls_sideways(new_phone: NewPhone) -> None:
    watched = new_phone(save=save_text(fight_log()), viewport={"width": 320, "height": 640})
    page = watched.page
    wide = []
    for name, open_it, leave in screens(page):
        open_it()
        width = page.evaluate("""Math.max(document.documentElement.scrollWidth,
            ...[...document.querySelectorAll('dialog[open]')].map(d => d.scrollWidth - d.clientWidth + 320))""")
        if width > 320:
            wide.append(f"{name}: {width}px")
        leave()
    assert wide == []
    watched.assert_clean()


def focused(page: Any) -> str:
    return page.evaluate("(document.activeElement.getAttribute('aria-label') || document.activeElement.textContent || '').trim()")


def tab_to(page: Any, text: str, limit: int = 80, name: Callable[[Any], str] = focused) -> None:
    """Tab (only Tab) until the focused control's name (``name``) starts with ``text``."""
    for _ in range(limit):
        if name(page).startswith(text):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached « {text} » (last: « {name(page)} »)")


def choose(page: Any, action: str) -> None:
    """In an open action sheet: Tab to the action, Enter, Tab to « Valider », Enter."""
    tab_to(page, action)
    page.keyboard.press("Enter")
    tab_to(page, "Valider")
    page.keyboard.press("Enter")


def test_a_whole_fight_with_the_keyboard_alone(phone: Any) -> None:
    page = phone.page
    keys = page.keyboard
    # Two fighters, typed into the form.
    for name, side, melee in (("Aldric", "pj", "7"), ("Orque", "pnj", "6")):
        keys.press("3")  # the fighters' screen
        tab_to(page, "Ajouter un combattant")
        keys.press("Enter")
        expect(page.locator("#fighter-dialog")).to_be_visible()
        keys.type(name)  # the name field has the focus
        keys.press("Tab")
        if side == "pj":  # the side is PNJ unless changed: a select takes its option's first letter
            keys.press("p")
        expect(page.locator("#f-side")).to_have_value(side)
        keys.press("Tab")
        keys.press("Control+a")
        keys.type(melee)  # Mêlée, the first characteristic
        keys.press("Enter")  # submits the form
        expect(page.locator("#fighter-dialog")).to_be_hidden()
        expect(page.locator("#cast")).to_contain_text(name)
    # Start of round: type the dice.
    keys.press("2")
    tab_to(page, "Lancer le dé d'Aldric")
    keys.press("Shift+Tab")  # his weapon
    keys.press("Shift+Tab")  # his die, the row's first field
    keys.type("4")
    keys.press("Enter")  # the next fighter's die
    keys.type("1")
    tab_to(page, "Commencer le tour")
    keys.press("Enter")
    expect(page.locator("#round")).to_have_text("Tour 1")
    expect_pi(page, Aldric=7, Orque=4)  # ⌊7/2⌋ 3 + 4 ; ⌊6/2⌋ 3 + 1
    expect(page.locator("#live")).to_contain_text("À Aldric d'agir")
    # Aldric acts: A opens his sheet, the first allowed action has the focus.
    keys.press("a")
    expect(page.locator("#sheet")).to_be_visible()
    choose(page, "Observer en détail")
    expect(page.locator("#sheet")).to_be_hidden()
    expect_pi(page, Aldric=2, Orque=4)
    expect(page.locator("#live")).to_contain_text("Aldric : Observer en détail, 5 P.I., il en reste 2.")
    assert focused(page).startswith("Agir")  # focus lands on the next fighter's Agir
    keys.press("Enter")
    expect(page.locator("#sheet")).to_be_visible()
    keys.press("Escape")  # the dialog gives the focus back to what opened it
    expect(page.locator("#sheet")).to_be_hidden()
    assert focused(page).startswith("Agir")
    keys.press("Enter")  # Orque acts with the focused button
    choose(page, "Dire une phrase")
    expect(page.locator("#turn")).to_have_text(
        "Phase d'Orque en cours : une action gratuite prise, la suivante se paie en P.I. (une autre gratuite : 5).")
    keys.press("p")  # Orque passes
    keys.press("p")  # then Aldric: nobody is left in the round
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    keys.press("Control+z")
    expect(page.locator("#round")).to_have_text("Tour 1")
    keys.press("f")  # the GM ends the round
    expect(page.locator("#round")).to_have_text("Tour 1 — terminé")
    keys.press("n")
    expect(page.locator("#screen-round")).to_be_visible()
    tab_to(page, "Tout lancer")
    keys.press("Enter")
    tab_to(page, "Commencer le tour")
    keys.press("Enter")
    expect(page.locator("#round")).to_have_text("Tour 2")
    phone.assert_clean()
