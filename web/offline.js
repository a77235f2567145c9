// The service worker (sw.js, written by Workbox at build): the whole site is precached,
// so a second visit works with no network. A new deployment installs in the background
// and waits; the page says a new version is ready and applies it on the user's reload.
export async function registerOffline({ onUpdate }) {
  if (!("serviceWorker" in navigator)) return null;
  let accepted = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) window.location.reload(); // the new version took over: load it whole
  });
  const registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: "../" });
  const offer = (worker) => onUpdate(() => {
    accepted = true;
    worker.postMessage({ type: "SKIP_WAITING" });
  });
  const watch = (worker) => worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
  });
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  return registration;
}

// A first visit: the service worker is installing, and no page of ours is controlled yet.
export function firstVisit(registration) {
  return Boolean(registration) && !navigator.serviceWorker.controller;
}

// A first visit waits for the service worker to hold the whole site before Python starts:
// the runtime then comes from its cache, so the 14 MB are downloaded once, not twice
// (the worker's install fetches bypass the HTTP cache). Never more than `timeout` ms.
export function controlled(registration, timeout = 60_000) {
  if (!registration || navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    navigator.serviceWorker.addEventListener("controllerchange", done, { once: true });
    const worker = registration.installing ?? registration.waiting;
    worker?.addEventListener("statechange", () => { if (worker.state === "redundant") done(); });
    setTimeout(done, timeout);
  });
}
