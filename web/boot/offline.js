// The service worker (sw.js, written by Workbox at build): the whole site is precached,
// so a second visit works with no network. A new deployment installs in the background
// and waits; the page says a new version is ready and applies it on the user's reload.
// sw.js is at the site's root, beside the page (this module is in web-<hash>/).
export async function registerOffline({ onUpdate }) {
  if (!("serviceWorker" in navigator)) return null;
  // A phone that followed a live table has the player's small service worker: the whole
  // site's replaces it at once, with no « new version » to accept (it is not one).
  const fromPlayer = isPlayers(navigator.serviceWorker.controller);
  let accepted = false;
  let offered = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) window.location.reload(); // the new version took over: load it whole
    // Taken over from another tab: this page is still the old one, and a reload gives the new.
    else if (offered) onUpdate(() => window.location.reload());
  });
  // updateViaCache "all": the browser's check for a new sw.js on each visit may be
  // answered by the HTTP cache while its copy is fresh (GitHub Pages: 10 minutes), so a
  // repeat visit sends nothing at all; past that, or after 24 hours whatever
  // the cache says, it asks the server, and a new version is found then.
  const registration = await navigator.serviceWorker.register(new URL("sw.js", document.baseURI),
    { scope: new URL("./", document.baseURI).pathname, updateViaCache: "all" });
  const offer = (worker) => {
    if (fromPlayer) {
      worker.postMessage({ type: "SKIP_WAITING" });
      return;
    }
    offered = true;
    onUpdate(() => {
      accepted = true;
      worker.postMessage({ type: "SKIP_WAITING" });
    });
  };
  const watch = (worker) => worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
  });
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  return registration;
}

// A first visit: no service worker of ours controls the page yet. Python starts at once
// and the service worker is registered once the engine is up: its precache then takes
// the runtime and the app's files from the HTTP cache (their addresses carry their
// version: tools/service_worker.mjs), instead of downloading them a second time.
export function firstVisit() {
  return "serviceWorker" in navigator && (!navigator.serviceWorker.controller || isPlayers(navigator.serviceWorker.controller));
}

// The player's page of a live table: its own small service worker,
// `sw-player.js` (tools/service_worker.mjs), precaches only what that page loads (the page,
// its modules and style, the QR code generator: about 230 KB, never the Python runtime), so
// that it reopens with no network after its first visit. A phone that already has the whole
// site's (it opened Riposte as a game master) keeps it: it holds all that and more.
export async function registerPlayerOffline() {
  if (!("serviceWorker" in navigator)) return null;
  const current = await navigator.serviceWorker.getRegistration(new URL("./", document.baseURI).href);
  const worker = current?.active ?? current?.waiting ?? current?.installing;
  if (worker && !isPlayers(worker)) return current;
  return navigator.serviceWorker.register(new URL("sw-player.js", document.baseURI),
    { scope: new URL("./", document.baseURI).pathname, updateViaCache: "all" });
}

function isPlayers(worker) {
  return Boolean(worker?.scriptURL?.endsWith("/sw-player.js"));
}

// The rest of Python's standard library (stdlib-<hash>/python_stdlib_rest.zip: the page
// ships only the part its Python imports; web/boot/riposte_stdlib.py fetches the
// rest when a module outside that part is first imported). Called once the page is ready:
// fetched through the service worker, which keeps it (tools/service_worker.mjs), so that
// such a module imports offline too. Nothing to do when it is kept already.
const REST = new URL("../../stdlib/python_stdlib_rest.zip", import.meta.url).href;

export async function keepStdlib() {
  if (!("serviceWorker" in navigator) || !("caches" in globalThis)) return false;
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  if (await caches.match(REST)) return true;
  const response = await fetch(REST);
  await response.body?.pipeTo(new WritableStream()); // read through (the service worker keeps a copy), not held
  return response.ok;
}
