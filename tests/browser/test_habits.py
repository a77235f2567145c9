"""Habits of a phone app: the back button closes a dialog before it leaves the
app, a refused link leaves the address, light / dark / the phone's theme, « Installer
Riposte », short share links with a small QR code."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from conftest import NewPhone, Shot, wait_ready
from helpers import expect_pi, fight_log, save_text
from playwright.sync_api import expect

from tests.test_link import digits, six_fighters_two_rounds

SAVES = Path(__file__).resolve().parents[1] / "saves"
#: The page's two modules as built (tools/build_site.py: in the app's versioned folder):
#: blocked, no module of the page runs (and no Python starts, web/boot/early.js).
APP = re.compile(r".*/web-[0-9a-f]{12}/(boot/early|app)\.js$")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.5 Mobile/15E148 Safari/604.1")


def entry(page: Any) -> Any:
    return page.evaluate("history.state")


# --- 1. the back button, links refused, the app's own dialog ------------------------------
def test_the_back_button_closes_a_dialog_or_the_sheet_first(fight: Any) -> None:
    page = fight.page
    length = page.evaluate("history.length")
    # the action sheet: back closes it, the app stays
    page.locator("#board li.fighter", has_text="Orque").get_by_role("button", name="Agir").click()
    sheet = page.locator("#sheet")
    expect(sheet).to_be_visible()
    assert entry(page) == {"riposteDialog": "sheet"}
    page.go_back()
    expect(sheet).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")  # the same page, not left
    expect_pi(page, Aldric=5, Orque=6)
    # the share dialog, closed by its own button: its entry goes too
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    share = page.locator("#share-dialog")
    expect(share).to_be_visible()
    assert entry(page) == {"riposteDialog": "share-dialog"}
    share.get_by_role("button", name="Fermer").click()
    expect(share).to_be_hidden()
    page.wait_for_function("() => history.state?.riposteScreen === true")  # the menu's own entry is left
    # the confirm dialog (a new fight): back answers « no »
    page.get_by_role("button", name="Nouveau combat vide").click()
    confirm = page.locator("#confirm-dialog")
    expect(confirm).to_be_visible()
    page.go_back()
    expect(confirm).to_be_hidden()
    expect(page.locator("#screen-menu")).to_be_visible()
    # from another screen (the journal after the menu), back goes to the board, not out of the app
    page.get_by_role("button", name="Journal").click()
    page.go_back()
    expect(page.locator("#screen-board")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-engine", "ready")
    page.wait_for_function("() => history.state === null")
    expect_pi(page, Aldric=5, Orque=6)  # nothing replaced
    # an action taken in the sheet closes it and pops its entry: nothing left behind
    page.locator("#board li.fighter", has_text="Orque").get_by_role("button", name="Passer").click()
    page.wait_for_function("() => history.state === null")
    assert page.evaluate("history.length") <= length + 3  # entries are reused, not piled up
    fight.assert_clean()


def test_a_refused_link_leaves_the_address(fight: Any, site_url: str) -> None:
    page = fight.page
    for fragment in ("#z=abc", "#n=123", "#c=%%%", "#z=" + "A" * 40):
        page.goto(site_url + fragment)
        wait_ready(page)
        expect(page.locator("#message")).to_contain_text("tronqué ou abîmé")
        page.wait_for_function("() => location.hash === ''")
        expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


def test_a_link_opens_without_asking_when_there_is_no_fight(fight: Any, new_phone: NewPhone) -> None:
    page = fight.page
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    expect(page.locator("#share-link")).to_have_value(re.compile("#z="))
    link = page.locator("#share-link").input_value()
    other = new_phone()  # a fresh phone: no fighter, nothing to keep
    other.page.goto(link)
    wait_ready(other.page)
    expect(other.page.locator("#message")).to_contain_text("Combat ouvert (lien)")
    expect(other.page.locator("#confirm-dialog")).to_be_hidden()
    expect_pi(other.page, Aldric=5, Orque=6)
    other.assert_clean()
    fight.assert_clean()


def test_no_browser_dialog_is_left_in_the_page() -> None:
    """The app's own dialog (web/views/confirm-dialog.js) everywhere: never window.confirm,
    alert or prompt, which a phone shows as a page-blocking box."""
    root = Path(__file__).resolve().parents[2] / "web"
    for path in [p for p in root.rglob("*.js") if "lang" not in p.parts]:
        text = path.read_text(encoding="utf-8")
        for call in ("confirm(", "alert(", "prompt("):
            assert f"window.{call}" not in text and not text.count(f" {call}"), f"{path.name} calls {call}"


# --- 2. light, dark, the phone's ------------------------------------------------------------
def background(page: Any) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


LIGHT, DARK = "rgb(246, 244, 239)", "rgb(22, 20, 15)"


def test_the_theme_is_chosen_in_the_menu_kept_and_set_before_the_first_paint(new_phone: NewPhone, shot: Shot) -> None:
    phone = new_phone(color_scheme="light", save=save_text(fight_log()))
    page = phone.page
    assert background(page) == LIGHT
    page.get_by_role("button", name="Partie").click()
    theme = page.get_by_label("Thème")
    expect(theme).to_have_value("system")
    theme.select_option("dark")
    assert background(page) == DARK
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.locator("#settings-title").scroll_into_view_if_needed()
    shot(page, "habits-menu-dark.png")
    # kept, and on the page before any module runs: the first paint is dark
    page.route(APP, lambda route: route.abort())
    page.reload(wait_until="domcontentloaded")
    assert background(page) == DARK
    assert page.evaluate("document.querySelector('meta[name=color-scheme]').content") == "dark"
    page.unroute(APP)
    page.reload()
    wait_ready(page)
    page.get_by_role("button", name="Partie").click()
    expect(page.get_by_label("Thème")).to_have_value("dark")
    page.get_by_label("Thème").select_option("light")
    assert background(page) == LIGHT
    page.locator("#settings-title").scroll_into_view_if_needed()
    shot(page, "habits-menu-light.png")
    page.emulate_media(color_scheme="dark")
    assert background(page) == LIGHT  # the menu's choice wins over the phone's
    page.get_by_label("Thème").select_option("system")
    assert background(page) == DARK  # the phone's, again
    assert page.evaluate("localStorage.getItem('riposte.theme')") == "system"
    phone.forgive(APP)  # the aborted modules, on purpose
    phone.assert_clean()


# --- 3. « Installer Riposte » --------------------------------------------------------------
OFFER = """() => { const e = new Event('beforeinstallprompt', { cancelable: true });
  e.prompt = () => { window.prompted = (window.prompted || 0) + 1; return Promise.resolve(); };
  e.userChoice = Promise.resolve({ outcome: 'accepted' }); window.dispatchEvent(e); return e.defaultPrevented; }"""


def test_install_where_the_browser_offers_it(phone: Any) -> None:
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#install")).to_be_hidden()  # no offer, not iOS: nothing to say
    assert page.evaluate(OFFER) is True  # the browser's own infobar is held back
    button = page.get_by_role("button", name="Installer Riposte")
    expect(button).to_be_visible()
    expect(page.locator("#install-ios")).to_be_hidden()
    button.click()
    expect(button).to_be_hidden()  # an offer is used once
    assert page.evaluate("window.prompted") == 1
    phone.assert_clean()


def test_install_steps_on_ios_and_nothing_once_installed(new_phone: NewPhone, shot: Shot) -> None:
    phone = new_phone(user_agent=IPHONE)
    page = phone.page
    page.get_by_role("button", name="Partie").click()
    expect(page.locator("#install-ios")).to_have_text("Sur iPhone ou iPad, dans Safari : Partager → Sur l'écran d'accueil.")
    page.locator("#install").scroll_into_view_if_needed()
    shot(page, "habits-install-ios.png")
    expect(page.get_by_role("button", name="Installer Riposte")).to_be_hidden()
    installed = new_phone(user_agent=IPHONE, init_script="Object.defineProperty(navigator, 'standalone', { value: true });")
    installed.page.get_by_role("button", name="Partie").click()
    expect(installed.page.locator("#install")).to_be_hidden()
    installed.page.evaluate(OFFER)
    expect(installed.page.locator("#install")).to_be_hidden()
    phone.assert_clean()
    installed.assert_clean()


# --- 5. short share links -------------------------------------------------------------------
def test_a_six_fighter_two_round_fight_has_a_short_link_and_a_small_qr_code(new_phone: NewPhone, site_url: str,
                                                                            shot: Shot) -> None:
    log = six_fighters_two_rounds()
    phone = new_phone(save=save_text(log))
    page = phone.page
    expect(page.locator("#round")).to_contain_text("Tour 2")
    page.get_by_role("button", name="Partie").click()
    page.get_by_role("button", name="Lien et code QR").click()
    svg = page.locator("#share-qr svg")
    expect(svg).to_be_visible()
    link = page.locator("#share-link").input_value()
    version = int(svg.get_attribute("data-version") or 99)
    assert link.startswith(site_url + "#z=") and len(link) <= 330, len(link)
    assert version <= 10, version
    shot(page, "habits-share-six.png")
    # the link and the QR code's own form of it (#n=, digits) open the same fight
    data = link.split("#z=")[1]
    numeric = site_url + "#n=" + digits(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
    page.locator("#share-dialog").get_by_role("button", name="Fermer").click()
    page.get_by_role("button", name="Plateau").click()
    board = page.locator("#board").inner_text()
    for opened in (link, numeric):
        other = new_phone()
        other.page.goto(opened)
        wait_ready(other.page)
        expect(other.page.locator("#round")).to_contain_text("Tour 2")
        expect(other.page.locator("#board li.fighter")).to_have_count(6)
        assert other.page.locator("#board").inner_text() == board
        other.assert_clean()
    phone.assert_clean()


def test_a_link_of_an_earlier_release_still_opens(fight: Any, site_url: str) -> None:
    """tests/saves/link-c.txt: a #c= link (the save text itself), as the page made them."""
    page = fight.page
    page.goto(site_url + (SAVES / "link-c.txt").read_text(encoding="utf-8").strip())
    wait_ready(page)
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_contain_text("Tour 1 — 2 combattants : Aldric, Orque.")
    dialog.get_by_role("button", name="Ouvrir ce combat").click()
    expect(page.locator("#message")).to_contain_text("Combat ouvert (lien)")
    expect_pi(page, Aldric=5, Orque=6)
    fight.assert_clean()


# --- 4. the English interface is English everywhere -----------------------------------------
LANG = Path(__file__).resolve().parents[2] / "web" / "lang"
STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
WORD = re.compile(r"[A-Za-zÀ-ÿœŒ]+")
#: Words of fr.js that English writes the same (or that name the app, a rule, a unit).
SHARED = {"initiative", "intelligence", "action", "actions", "simple", "interruption", "interruptions", "charge",
          "test", "tests", "bonus", "distance", "posture", "journal", "riposte", "code", "json", "ctrl", "options",
          "objet", "arc", "parer", "image", "menu", "maj", "max", "min", "non", "page", "sans"}


def words_of(path: Path) -> set[str]:
    found = set()
    for match in STRINGS.finditer(path.read_text(encoding="utf-8")):
        text = re.sub(r"\$\{[^}]*\}", " ", match.group(1) or match.group(2) or "")
        found.update(w.lower() for w in WORD.findall(text) if len(w) >= 3)
    return found


#: Words only the French interface uses: the test's dictionary of French.
FRENCH = words_of(LANG / "fr.js") - words_of(LANG / "en.js") - SHARED
ACCENTED = re.compile(r"[àâçéèêëîïôûùüÿœ]", re.IGNORECASE)

#: The visible text of the page, with the user's own text left out: what the app
#: isolates (dom.js isolate: U+2068 … U+2069), what is marked lang="fr" (the language
#: menu's « Français »), and the names and weapons of the fight.
COLLECT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('[lang]:not(html)') || el.closest('.name')) continue;
    if (el.closest('option') ? !el.closest('select').checkVisibility() : !el.checkVisibility()) continue;
    out.push(node.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], input[value]')) {
    if (!el.checkVisibility() || el.closest('[lang]:not(html)')) continue;
    out.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
    if (el.type === 'text' && !el.readOnly) continue; // typed by the user
  }
  out.push(document.title);
  return out.join('\\n').replace(/\\u2068[^\\u2069]*\\u2069/g, ' ');
}"""


def french_in(page: Any, user_words: set[str]) -> list[str]:
    text = str(page.evaluate(COLLECT))
    found = []
    for line in text.splitlines():
        for word in WORD.findall(line):
            w = word.lower()
            if w in user_words:
                continue
            if w in FRENCH or ACCENTED.search(w):
                found.append(f"{word!r} in {line.strip()!r}")
    return found


def test_the_english_interface_has_no_french_left(new_phone: NewPhone, shot: Shot) -> None:
    log = fight_log()
    user_words = {w.lower() for c in log if c["type"] == "add_combatant"
                  for text in [c["combatant"]["name"], *(w["name"] for w in c["combatant"].get("weapons", []))]
                  for w in WORD.findall(text)}
    phone = new_phone(save=save_text(log), init_script="localStorage.setItem('riposte.lang', 'en')")
    page = phone.page
    seen: dict[str, list[str]] = {}

    def check(screen: str) -> None:
        seen[screen] = french_in(page, user_words)

    expect(page.locator("html")).to_have_attribute("lang", "en")
    check("board")
    page.locator("#board li.fighter", has_text="Orque").get_by_role("button", name="Act").click()
    expect(page.locator("#sheet")).to_be_visible()
    check("action sheet")
    page.locator('#sheet button[data-action="charge"]').click()
    page.locator("#sheet [data-submit]").click()  # no distance: refused
    expect(page.locator("#sheet-error")).to_have_text("Distance (m): required.")
    check("action options, refused")
    page.locator("#sheet [data-back]").click()
    page.locator("#sheet-close").click()
    page.locator("#board li.fighter", has_text="Aldric").get_by_role("button", name="Interrupt").click()
    check("interruptions")
    page.locator("#sheet-close").click()
    page.get_by_role("button", name="Log", exact=True).click()
    check("journal")
    page.get_by_role("button", name="Board", exact=True).click()
    page.get_by_role("button", name="End the round").click()
    expect(page.locator("#round")).to_contain_text("over")
    page.get_by_role("button", name="Initiative", exact=True).click()
    page.locator("li.declaration", has_text="Aldric").locator("input").fill("4")
    check("round start")
    page.get_by_role("button", name="Fighters", exact=True).click()
    page.get_by_role("button", name="Edit Aldric").click()
    dialog = page.locator("#fighter-dialog")
    dialog.locator("#f-wounds").fill("-3")
    dialog.get_by_role("button", name="Save").click()
    expect(page.locator("#fighter-error")).to_be_visible()
    check("fighter form, invalid field")
    expect(page.locator("#f-wounds-error")).to_contain_text("Hit points lost")  # the field, named
    dialog.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Game", exact=True).click()
    check("menu")
    shot(page, "habits-menu-en.png")
    page.get_by_role("button", name="Link and QR code").click()
    expect(page.locator("#share-qr svg")).to_be_visible()
    check("share")
    page.locator("#share-dialog").get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Empty new fight").click()
    expect(page.locator("#confirm-dialog")).to_be_visible()
    check("confirm")
    page.locator("#confirm-dialog").get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Keyboard shortcuts").click()
    check("help")
    found = {screen: words for screen, words in seen.items() if words}
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)
    # the same look at the French menu finds French: the test can see what it looks for
    page.locator("#help-dialog").get_by_role("button", name="Close").click()
    page.get_by_label("Language").select_option("fr")
    assert len(french_in(page, user_words)) > 10
    phone.assert_clean()


def test_the_screen_reader_hears_no_french_after_the_switch_to_english(fight: Any) -> None:
    """The live region (#live) says whose turn it is after an undo; switched to English,
    it no longer holds that French sentence."""
    page = fight.page
    page.locator("#undo").click()
    live = page.locator("#live")
    expect(live).to_contain_text("d'agir")
    page.locator('.tabs button[data-screen="menu"]').click()
    page.get_by_label("Langue").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    text = live.text_content() or ""
    assert not [w for w in WORD.findall(text) if w.lower() in FRENCH or ACCENTED.search(w)], text
    fight.assert_clean()


def test_english_names_distinct_skills_distinctly() -> None:
    """Dérobée and Discrétion, Esquive and Acrobatie… each characteristic and skill of
    the rules has its own English word, as in French."""
    en = (LANG / "en.js").read_text(encoding="utf-8")
    for table in ("characteristics", "skills"):
        body = re.search(table + r": \{(.*?)\}", en, re.DOTALL)
        assert body
    names = re.findall(r'(\w+): "([^"]+)"', re.search(r"characteristics: \{(.*?)\}", en, re.DOTALL).group(1)  # type: ignore[union-attr]
                       + re.search(r"skills: \{(.*?)\}", en, re.DOTALL).group(1))  # type: ignore[union-attr]
    words = [w for _, w in names]
    assert len(names) == 14 and len(set(words)) == len(words), names


def test_french_puts_a_space_before_a_colon() -> None:
    """French typography: « Tour 1 : … », never « Tour 1: … » (a colon in a time, a URL or
    a key name aside)."""
    text = (LANG / "fr.js").read_text(encoding="utf-8")
    bad = []
    for match in STRINGS.finditer(text):
        value = re.sub(r"\$\{[^}]*\}", "X", match.group(1) or match.group(2) or "")
        bad += [value for _ in re.finditer(r"[^\s\d]:(?=\s|$)", value)]
    assert not bad, bad
