// Storage that lasts: how much the site's storage holds and how much is left
// (navigator.storage.estimate), whether the browser keeps it (persisted) or may evict it
// under pressure, and the browser asked to keep it (persist). No DOM; `store` is
// web/infra/store.js (where the date of the last ask is kept).
//
// Asked at the first fight saved in a visit, when storage is not kept yet; after a
// refusal, not again for AGAIN ms (Firefox asks the user each time; Chromium answers by
// itself, from how the site is used: installed, bookmarked, visited often).
const AGAIN = 7 * 24 * 3600 * 1000;

function manager() {
  return globalThis.navigator?.storage ?? null;
}

// { used, quota } in bytes (null: the browser does not say) and `persisted` (true, false,
// or null: the browser cannot say).
export async function storageState() {
  const storage = manager();
  const [estimate, persisted] = await Promise.all([
    storage?.estimate ? storage.estimate().catch(() => null) : null,
    storage?.persisted ? storage.persisted().catch(() => null) : null,
  ]);
  const bytes = (n) => (Number.isFinite(n) && n >= 0 ? n : null);
  return { used: bytes(estimate?.usage), quota: bytes(estimate?.quota), persisted: typeof persisted === "boolean" ? persisted : null };
}

// The browser asked to keep the site's storage, if it is not kept and was not asked
// within AGAIN ms. Resolves true when the storage is kept, false when not, null when the
// browser cannot keep it.
export async function keepStorage(store, now = Date.now()) {
  const storage = manager();
  if (!storage?.persist || !storage.persisted) return null;
  if (await storage.persisted().catch(() => false)) return true;
  const asked = Date.parse(store.persistAsked() ?? "");
  if (asked <= now && now - asked < AGAIN) return false;
  store.savePersistAsked(new Date(now).toISOString()); // not kept (storage full): asked again next time
  return storage.persist().catch(() => false);
}

// True where what a site's scripts keep is deleted after seven days of use without a
// visit: Safari's engine (WebKit: Safari on a Mac, every browser on an iPhone or iPad,
// `navigator.vendor` "Apple Computer, Inc."), unless Riposte was opened from the home
// screen or the Dock (display-mode standalone, or iOS's `navigator.standalone`).
export function sevenDays(nav = globalThis.navigator, media = globalThis.matchMedia?.bind(globalThis)) {
  const webkit = nav?.vendor === "Apple Computer, Inc.";
  const home = nav?.standalone === true || media?.("(display-mode: standalone)").matches === true;
  return webkit && !home;
}
