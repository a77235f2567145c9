"""The fights' storage as the page keeps it (web/infra/store.js: IndexedDB ``riposte``, its
object store ``keys``, under the names localStorage gave them before), read and written
from a Playwright page of the site, for the end-to-end tests and the benchmarks. Reading
never makes the database: none yet reads as empty."""

from __future__ import annotations

from typing import Any

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


def stored(page: Any, key: str | None = "riposte.encounter") -> Any:
    """What the page keeps under ``key`` of its fights' storage (None: nothing), or, with
    ``key=None``, every key and its value."""
    return page.evaluate(FIGHT_KEYS, [key, None, False])


def store(page: Any, key: str, value: str | None) -> None:
    """``value`` written under ``key`` of the page's fights' storage behind the page's back
    (None: the key removed), as a hand edit or an older page would."""
    page.evaluate(FIGHT_KEYS, [key, value, True])
