// The page's hooks for the end-to-end tests and the benchmarks (the raw bridge, what the
// live table sent, the players' board's sequence): there only where a test switched them
// on before the page's scripts ran (`globalThis.__riposteHooks === true`, a Playwright init
// script). Nothing a user reaches sets it (no address, no storage): a visitor's page has
// none of them. Each hook is read-only.
export const HOOKED = globalThis.__riposteHooks === true;

// `name` on the page's global object, frozen, when the hooks are on.
export function expose(name, value) {
  if (HOOKED) globalThis[name] = Object.freeze(value);
}
