"""The pool of warm contexts (tests/browser/conftest.py, ``Pool``): a context given back
opens as a returning user's tab with empty storage (the memory snapshot restored, no
trace of the test before: its storage, its init scripts, its listeners, its history, its
size), the tab the test before left, and a context a test changed is closed, not pooled.
A pool of its own, not the worker's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import WORKER_DATABASES, Pool, Watched, forget_history, save_text, seed_script, wait_ready
from helpers import expect_pi, fight_log
from playwright.sync_api import expect

#: Everything a page of the site keeps, but its Cache Storage: the test's own marks.
KEPT = """async () => ({
  local: Object.keys(localStorage).filter((k) => k.startsWith('riposte.test')),
  session: Object.keys(sessionStorage),
  databases: (await indexedDB.databases()).map((d) => d.name).sort(),
  cookie: document.cookie,
  theme: document.documentElement.dataset.theme ?? null,
  controlled: Boolean(navigator.serviceWorker.controller),
  caches: await caches.keys(),
})"""

#: What a test leaves behind: a key of its own, a theme, an IndexedDB database, a cookie.
LEAVE = """async () => {
  localStorage.setItem('riposte.test.left', '1');
  localStorage.setItem('riposte.theme', 'dark');
  sessionStorage.setItem('riposte.test.tab', '1');
  document.cookie = 'riposte=1; max-age=3600';
  await new Promise((resolve, reject) => {
    const request = indexedDB.open('riposte-test', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('x');
    request.onsuccess = () => { request.result.close(); resolve(); };
    request.onerror = () => reject(request.error);
  });
}"""


@pytest.fixture
def own_pool(browser: Any, site_url: str) -> Iterator[Pool]:
    contexts = Pool(browser, site_url)
    yield contexts
    contexts.close()


def visit(page: Any, site_url: str) -> Watched:
    watched = Watched(page, site_url.rstrip("/"))
    watched.page.goto(site_url)
    wait_ready(watched.page)
    return watched


def test_a_context_given_back_is_a_returning_users_new_tab(own_pool: Pool, site_url: str) -> None:
    lease = own_pool.take()
    context = lease.context
    listeners = context._impl_obj.listener_count("request")
    lease.add_script(seed_script(save_text(fight_log())))
    first = visit(context.new_page(), site_url)
    page = first.page
    page.set_viewport_size({"width": 1024, "height": 700})  # a tablet's, for this test alone
    page.on("dialog", lambda dialog: dialog.dismiss())
    expect_pi(page, Aldric=5, Orque=6)  # the seeded fight
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=60_000)
    page.evaluate(LEAVE)
    # The rest of the standard library, kept by the service worker once the page is ready.
    expect(page.locator("html")).to_have_attribute("data-stdlib", "kept", timeout=30_000)
    before = page.evaluate(KEPT)
    assert before["local"] == ["riposte.test.left"] and "riposte-test" in before["databases"], before
    assert {"riposte-snapshot", "riposte-stdlib"} <= set(before["caches"]), before
    first.assert_clean()
    own_pool.give(lease, passed=True)
    assert own_pool.idle == [context] and context.pages == [page]  # the test's tab, kept for the next one

    again = own_pool.take()
    assert again.context is context and again.tab is page
    assert context._impl_obj.listener_count("request") == listeners  # the last test's Watched is gone
    assert page._impl_obj.listener_count("dialog") == page._impl_obj.listener_count("console") == 0
    second = visit(page, site_url)
    assert page.evaluate("history.length") == 2  # the clearing page before it (the test before's went then), until new_phone resets it
    forget_history(page)  # as new_phone does
    assert page.evaluate("history.length") == 1  # as a new tab's
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate("document.documentElement.dataset.boot") == "restored"
    expect(page.locator("#board li.fighter")).to_have_count(0)  # the seed's init script went with its test
    after = page.evaluate(KEPT)
    caches = after.pop("caches")
    # PyScript's own databases, made again by each start; the test's, gone; the service
    # worker's own kept (it writes it once the rest of the standard library is cached, in
    # the background: there or not yet when ``before`` was read).
    kept = [name for name in before["databases"] if name != "riposte-test"]
    assert [name for name in after["databases"] if name not in WORKER_DATABASES] == \
        [name for name in kept if name not in WORKER_DATABASES], after
    assert set(kept) & WORKER_DATABASES <= set(after["databases"]), after
    del after["databases"]
    assert after == {"local": [], "session": [], "cookie": "", "theme": None, "controlled": True}, after
    assert set(before["caches"]) <= set(caches), (before["caches"], caches)  # Cache Storage is what makes it warm
    second.assert_clean()
    own_pool.give(again, passed=True)
    assert own_pool.idle == [context]


@pytest.mark.parametrize("change", ["offline", "route", "clock", "permissions", "failed", "player", "CDP"])
def test_a_context_changed_or_failed_is_closed_not_pooled(own_pool: Pool, site_url: str, change: str) -> None:
    lease = own_pool.take()
    context = lease.context
    page = context.new_page()
    if change == "offline":
        page.context.set_offline(True)
    elif change == "route":
        page.context.route(re.compile(r".*/nothing$"), lambda route: route.abort())
    elif change == "clock":
        page.clock.install()  # the context's clock, for good
    elif change == "permissions":
        context.grant_permissions(["clipboard-read"])
    elif change == "player":
        page.goto(site_url + "#table=abc", wait_until="commit")
    elif change == "CDP":  # a command that may reach past its page (Storage, Network...), even one that reads
        context.new_cdp_session(page).send("Storage.getCookies")
    own_pool.give(lease, passed=change != "failed")
    assert context.is_closed() and own_pool.idle == []
