// Pyodide's loader as PyScript sees it: the interpreter module the page names (web/boot/engine.js),
// on every visit. PyScript imports it, uses its `version` and `loadPyodide`.
//
// It restores a memory snapshot when Cache Storage holds one for this exact Pyodide and
// engine wheel (made by web/boot/snapshot.js once the app is ready), and boots Python from
// scratch otherwise, where micropip installs the engine wheel (pyscript.toml, issue #11: the
// wheel is installed by micropip); a snapshot of an older build gets the wheel's files
// unpacked again (the virtual file system is not in a snapshot), one of this build holds
// every engine module already imported; and it reseeds
// `random` (its state is frozen in a snapshot). Any restore error (corrupted, foreign,
// another Pyodide build) falls back to a normal boot and drops the snapshot.
// `globalThis.riposteBoot` says which it was ("cold", "restored", "fallback: why"), for
// web/boot/bridge.py to report.
import { loadPyodide as boot, version } from "../../runtime/pyodide/pyodide.mjs";

export { version };
export const CACHE = "riposte-snapshot";
// Written by the build (tools/build_site.py): the engine wheel beside this module, and the
// snapshot's key, which names this Pyodide and this wheel.
export const WHEEL = "../wheels/riposte_engine-0.1.0-py3-none-any.whl";
export const KEY = "runtime/snapshot/dev";

const here = new URL(import.meta.url);
// The snapshot's key, an address under the site (Cache Storage wants one).
export const key = new URL(`../../${KEY}`, here).href;
// Pyodide's own files are in their versioned folder, not beside this module.
const indexURL = new URL("../../runtime/pyodide/", here).href;

async function saved() {
  try {
    return await (await caches.open(CACHE)).match(key);
  } catch {
    return undefined; // no Cache Storage (private mode): a normal boot
  }
}

export async function loadPyodide(options = {}) {
  const snapshot = await saved();
  let py;
  if (!snapshot) {
    py = await boot({ ...options, indexURL });
    globalThis.riposteBoot = "cold";
  } else {
    try {
      py = await boot({ ...options, indexURL, _loadSnapshot: snapshot.arrayBuffer() });
      globalThis.riposteBoot = "restored";
    } catch (error) {
      // Never try a bad snapshot twice: the page will make a new one.
      await caches.open(CACHE).then((cache) => cache.delete(key)).catch(() => undefined);
      py = await boot({ ...options, indexURL });
      globalThis.riposteBoot = `fallback: ${error?.message ?? error}`;
    }
  }
  // A snapshot holding every engine module already imported (web/boot/snapshot.js marks it)
  // needs no engine file: the unpack (up to 0.2 s on a loaded phone) is skipped. Older
  // snapshots, and a cold boot, get the wheel.
  const imported = globalThis.riposteBoot === "restored" && py.runPython("'riposte_engine_imported' in globals()");
  if (globalThis.riposteBoot !== "restored") {
    // A cold boot: micropip installs the engine wheel (vendored beside Pyodide).
    await py.loadPackage("micropip");
    await py.pyimport("micropip").install(new URL(WHEEL, here).href);
  } else if (!imported) {
    // A snapshot of an older build: its heap holds micropip's work but the virtual file
    // system is not in a snapshot, so the wheel's files are unpacked again.
    const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    const wheel = await (await fetch(new URL(WHEEL, here))).arrayBuffer();
    py.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
    py.runPython("import importlib\nimportlib.invalidate_caches()"); // 25 ms: only where files came
  }
  py.runPython("import os, random\nrandom.seed(os.urandom(32))");
  return py;
}
