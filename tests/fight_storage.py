"""The fights' storage as the page keeps it (web/infra/store.js: IndexedDB ``riposte``, its
object store ``keys``, under the names localStorage gave them before), read and written
from a Playwright page of the site, for the end-to-end tests and the benchmarks. Reading
never makes the database: none yet reads as empty. The open fight is read as the text its
records compose to (:func:`composed`), unless asked ``raw``."""

from __future__ import annotations

import json
from typing import Any

from engine import save

#: The open fight: its last whole save text, each change since (``"<keep> <add>"``, from 1,
#: in order), and the board painted after the last one with the mark of the whole text they
#: follow (``"<n> <mark> <board>"``), that whole text kept under ``BASE`` too: a text another
#: page wrote since under ``KEY`` is the fight if it reads as JSON: web/infra/open-fight.js.
KEY = "riposte.encounter"
STEP = "riposte.encounter.step."
BOARD = "riposte.encounter.board"
BASE = "riposte.encounter.base"


def mark(text: str) -> str:
    """A whole text's mark (web/infra/open-fight.js ``mark``): its length and the FNV-1a hash
    of its last 256 UTF-16 code units, both as JavaScript counts them."""
    units = text.encode("utf-16-le", "surrogatepass")
    digest = 0x811C9DC5
    for i in range(max(0, len(units) - 512), len(units), 2):
        digest = ((digest ^ (units[i] | units[i + 1] << 8)) * 0x01000193) & 0xFFFFFFFF
    return f"{len(units) // 2}.{base36(digest)}"


def base36(n: int) -> str:
    digits = ""
    while True:
        n, d = divmod(n, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
        if not n:
            return digits


def composed(items: dict[str, Any]) -> dict[str, Any]:
    """``items``, the fights' storage, with the open fight as the save text its records
    compose to (by :func:`engine.save.follow`, as the page composes them; records that do
    not follow its whole text left out), the records left out."""
    out = {key: value for key, value in items.items() if not key.startswith(STEP) and key not in (BOARD, BASE)}
    open_text = items.get(KEY)
    kept = items.get(BASE, open_text)
    other = open_text is not None and kept != open_text and mark(open_text) != mark(kept)
    whole = open_text if other and readable(open_text) else kept
    if whole is not None:
        out[KEY] = whole
    n, whole_mark, board = (items.get(BOARD) or "0 - null").split(" ", 2)
    changes: list[dict[str, Any]] = []
    while whole is not None and whole is kept and whole_mark == mark(whole) and f"{STEP}{len(changes) + 1}" in items:
        keep, add = items[f"{STEP}{len(changes) + 1}"].split(" ", 1)
        changes.append({"keep": int(keep), "add": add, "board": "null"})
    if changes:
        changes[-1]["board"] = board if int(n) == len(changes) else "null"
        out[KEY] = save.follow(whole, changes)
    return out


def readable(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True

#: The page's storage: ``[key, value, write]`` (``key`` None: every key and its value).
FIGHT_KEYS = """async ([key, value, write]) => {
  if (!write && !(await indexedDB.databases()).some((d) => d.name === 'riposte')) return key === null ? {} : null;
  const done = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  const open = indexedDB.open('riposte');
  open.onupgradeneeded = () => open.result.createObjectStore('keys');
  const db = await done(open);
  try {
    if (!db.objectStoreNames.contains('keys')) return key === null ? {} : null;
    const keys = db.transaction('keys', write ? 'readwrite' : 'readonly').objectStore('keys');
    if (write) return await done(value === null ? keys.delete(key) : keys.put(value, key)) ?? null;
    if (key !== null) return (await done(keys.get(key))) ?? null;
    const names = await done(keys.getAllKeys());
    const values = await done(keys.getAll());
    return Object.fromEntries(names.map((name, i) => [name, values[i]]));
  } finally {
    db.close();
  }
}"""


def stored(page: Any, key: str | None = "riposte.encounter", raw: bool = False) -> Any:
    """What the page keeps under ``key`` of its fights' storage (None: nothing), or, with
    ``key=None``, every key and its value; the open fight composed unless ``raw``."""
    if raw or (key is not None and key != KEY):
        return page.evaluate(FIGHT_KEYS, [key, None, False])
    items = composed(page.evaluate(FIGHT_KEYS, [None, None, False]))
    return items if key is None else items.get(key)


def store(page: Any, key: str, value: str | None) -> None:
    """``value`` written under ``key`` of the page's fights' storage behind the page's back
    (None: the key removed), as a hand edit or an older page would."""
    page.evaluate(FIGHT_KEYS, [key, value, True])
