// Storage as the list of fights takes it (web/infra/fight-list.js): one storage
// (localStorage in the page; tests/fight_list_driver.mjs passes its own), each call
// saying what happened instead of throwing: get() -> { value, unavailable }, set() and
// remove() -> "ok", "full" or "unavailable", names(prefix) -> the keys that start with it.
export class Keys {
  constructor(storage = () => globalThis.localStorage) {
    this.storage = storage; // read at each call: `localStorage` itself throws where storage is off
  }

  get(key) {
    try {
      return { value: this.storage().getItem(key) };
    } catch {
      return { value: null, unavailable: true };
    }
  }

  set(key, value) {
    try {
      this.storage().setItem(key, value);
      return "ok";
    } catch (error) {
      return error?.name === "QuotaExceededError" ? "full" : "unavailable";
    }
  }

  remove(key) {
    try {
      this.storage().removeItem(key);
      return "ok";
    } catch {
      return "unavailable";
    }
  }

  names(prefix) {
    try {
      const storage = this.storage();
      return Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((key) => key?.startsWith(prefix));
    } catch {
      return [];
    }
  }

  // The keys `drops` and those starting with `prefix` (if any) removed, then `puts` written
  // ([key, value]): one after the other (localStorage has no transaction), stopping at the
  // first refused. "ok", "full" or "unavailable".
  update(puts, drops, prefix = null) {
    for (const key of [...drops, ...(prefix ? this.names(prefix) : [])]) {
      const removed = this.remove(key);
      if (removed !== "ok") return removed;
    }
    for (const [key, value] of puts) {
      const stored = this.set(key, value);
      if (stored !== "ok") return stored;
    }
    return "ok";
  }

  // `keys` and those starting with `prefix` (if any), read: { items: { key: value } (those
  // that hold one), unavailable }.
  scan(keys, prefix = null) {
    const items = {};
    let unavailable = false;
    for (const key of [...keys, ...(prefix ? this.names(prefix) : [])]) {
      const got = this.get(key);
      unavailable ||= Boolean(got.unavailable);
      if (got.value !== null) items[key] = got.value;
    }
    return { items, unavailable };
  }
}

