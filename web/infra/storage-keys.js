// Storage (issue #25) as the list of fights takes it (web/infra/fight-list.js): one storage
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
}

