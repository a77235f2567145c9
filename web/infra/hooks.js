// The page's hooks for the end-to-end tests and the benchmarks (the raw bridge, what the
// live table sent, the players' board's sequence, the performance marks, the live table's
// time scale): compiled into the test build only. `RIPOSTE_TEST_BUILD` is a constant the
// bundler writes in (tools/bundle.mjs, esbuild's `define`): false in the shipped build
// (_site/), where every use of `TEST_BUILD` and `HOOKED` is dead code and goes, names and
// all; true in the test build (_site-test/, `tools/build_site.py --test-hooks`). The source
// as Node's unit tests import it is a test build's. Each use reads `TEST_BUILD` or `HOOKED`
// itself (`if (HOOKED) expose(…)`), so that the bundler drops the whole statement.
/* global RIPOSTE_TEST_BUILD */
export const TEST_BUILD = typeof RIPOSTE_TEST_BUILD === "boolean" ? RIPOSTE_TEST_BUILD : true;

// In the test build, the hooks are there only where a test switched them on before the
// page's scripts ran (`globalThis.__riposteHooks === true`, a Playwright init script).
// Each hook is read-only.
export const HOOKED = TEST_BUILD && globalThis.__riposteHooks === true;

// `name` on the page's global object, frozen, when the hooks are on.
export function expose(name, value) {
  if (HOOKED) globalThis[name] = Object.freeze(value);
}
